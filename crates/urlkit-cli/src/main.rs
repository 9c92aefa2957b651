//! `urlkit`: the command-line program. Arguments become library calls; nothing else.

mod codec_cmd;
mod inspect_cmd;
mod io;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Percent-encode and decode text in any charset, detect charsets, take URLs apart.
#[derive(Parser, Debug)]
#[command(name = "urlkit", version, about, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

const EXAMPLES: &str = "Examples:
  urlkit encode 'a b&c'                 a%20b%26c
  urlkit decode '%E5%BC%95%E3%81%8D'    引き
  urlkit decode -c auto < query.txt     detect the charset, then decode
  urlkit charsets                       every charset and its labels
  urlkit parse 'https://john.doe@www.example.com:123/forum/questions/?tag=networking#top'
  cat access.log.urls | urlkit parse --get '{host}'
  urlkit resolve 'http://a/b/c/d;p?q' '../g'
  urlkit compare 'http://A:80/%7euser/./x' 'http://a/~user/x'
  urlkit idn --to-ascii '例子.卷筒纸'
Each subcommand has its own --help with examples.";

#[derive(Subcommand, Debug)]
enum Command {
    /// Percent-encode text (arguments, stdin or a file).
    Encode(codec_cmd::EncodeArgs),
    /// Decode percent-encoded text (arguments, stdin or a file).
    Decode(codec_cmd::DecodeArgs),
    /// Tell which charset percent-encoded text is in.
    Detect(codec_cmd::DetectArgs),
    /// List every supported charset with its labels, and the encode sets.
    Charsets,
    /// Start the web tool.
    Serve(ServeArgs),
    #[command(flatten)]
    Inspect(inspect_cmd::InspectCommand),
}

/// Options of `serve`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  urlkit serve                              http://127.0.0.1:8080
  urlkit serve --addr 0.0.0.0:8443 --tls-cert cert.pem --tls-key key.pem
  urlkit serve --tls-self-signed            https://127.0.0.1:8080 (for local use)
  urlkit serve --store /var/tmp/urlkit --max-upload 1GiB --ttl 1h --max-store 20GiB

The page works with or without JavaScript; the JSON API is described at /api/openapi.json.
Results of file uploads can be downloaded once, and are deleted after --ttl otherwise.")]
struct ServeArgs {
    /// Address to listen on (port 0: any free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: std::net::SocketAddr,
    /// TLS certificate chain (PEM); needs --tls-key.
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    tls_cert: Option<std::path::PathBuf>,
    /// TLS private key (PEM); needs --tls-cert.
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    tls_key: Option<std::path::PathBuf>,
    /// Serve TLS with a certificate made at start-up (browsers will warn).
    #[arg(long, conflicts_with_all = ["tls_cert", "tls_key"])]
    tls_self_signed: bool,
    /// Directory for results waiting for their download (default: a private temporary
    /// directory, removed at exit). Leftover results in it are deleted at start-up.
    #[arg(long, value_name = "DIR")]
    store: Option<std::path::PathBuf>,
    /// Largest file accepted: bytes, or with a unit (100MiB, 10M, 512K).
    #[arg(long, value_name = "SIZE", default_value = "100MiB", value_parser = urlkit_web::parse_size)]
    max_upload: u64,
    /// Most bytes the result store may hold (results waiting for their download and
    /// downloads in progress): bytes, or with a unit (10GiB). Past it, uploads get a 507.
    #[arg(long, value_name = "SIZE", value_parser = urlkit_web::parse_size)]
    max_store: Option<u64>,
    /// How long a client may take to send a request's headers before it is disconnected.
    #[arg(long, value_name = "DURATION", default_value = "10s", value_parser = urlkit_web::parse_duration)]
    header_timeout: std::time::Duration,
    /// How long a result waits for its download (90s, 15m, 1h).
    #[arg(long, value_name = "DURATION", default_value = "15m", value_parser = urlkit_web::parse_duration)]
    ttl: std::time::Duration,
    /// Log every request: method, route, status and time (never bodies or result ids).
    #[arg(short, long)]
    verbose: bool,
}

fn serve(args: ServeArgs) -> ExitCode {
    let tls = match (args.tls_cert, args.tls_key, args.tls_self_signed) {
        (Some(cert), Some(key), _) => urlkit_web::TlsMode::Pem { cert, key },
        (_, _, true) => urlkit_web::TlsMode::SelfSigned,
        _ => urlkit_web::TlsMode::Off,
    };
    let config = urlkit_web::ServeConfig {
        addr: args.addr,
        tls,
        store: args.store,
        max_upload: args.max_upload,
        ttl: args.ttl,
        max_store: args.max_store,
        header_timeout: args.header_timeout,
    };
    use tracing_subscriber::filter::{LevelFilter, Targets};
    use tracing_subscriber::prelude::*;
    let ours = if args.verbose {
        LevelFilter::DEBUG
    } else {
        LevelFilter::INFO
    };
    tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr())),
        )
        .with(
            Targets::new()
                .with_default(LevelFilter::WARN)
                .with_target("urlkit_web", ours),
        )
        .init();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("urlkit: cannot start the server: {e}");
            return ExitCode::from(1);
        }
    };
    match runtime.block_on(urlkit_web::serve(config)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("urlkit: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Encode(args) => codec_cmd::encode(args),
        Command::Decode(args) => codec_cmd::decode(args),
        Command::Detect(args) => codec_cmd::detect(args),
        Command::Charsets => codec_cmd::charsets(),
        Command::Inspect(command) => inspect_cmd::run(command),
        Command::Serve(args) => serve(args),
    }
}
