//! `urlkit serve`: the web tool's options, and what every server of the program shares
//! (logging, the runtime).

use std::process::ExitCode;

/// Options of `serve`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  urlkit serve                              http://127.0.0.1:8080
  urlkit serve --addr 0.0.0.0:8443 --tls-cert cert.pem --tls-key key.pem
  urlkit serve --tls-self-signed            https://127.0.0.1:8080 (for local use)
  urlkit serve --store /var/tmp/urlkit --max-upload 1GiB --ttl 1h --max-store 20GiB
  urlkit serve --rate-limit 20/s --trusted-proxy 127.0.0.1    behind a local proxy

The page works with or without JavaScript; the JSON API is described at /api/openapi.json.
Results of file uploads can be downloaded once, and are deleted after --ttl otherwise.

Every request has a bounded cost: text bodies take at most 16 MiB (a larger
Content-Length is refused at once), a silent connection or request body is cut off, and
past --max-connections or --max-uploads clients get a 503 with Retry-After; one client
holds at most a quarter of the uploads, and an upload slower than 1 KiB/s is cut off.")]
pub struct ServeArgs {
    /// Address to listen on (port 0: any free port); a container sets it with
    /// URLKIT_ADDR=0.0.0.0:PORT.
    #[arg(long, env = "URLKIT_ADDR", default_value = "127.0.0.1:8080")]
    addr: std::net::SocketAddr,
    /// Where results wait for their download: a directory (leftover results in it are
    /// deleted at start-up), or s3://BUCKET/PREFIX for S3 or a compatible service shared
    /// by several instances (credentials, region and endpoint from the AWS_* variables).
    /// Default: a private temporary directory, removed at exit.
    #[arg(long, value_name = "DIR|URL")]
    store: Option<String>,
    /// The S3 endpoint, for a service other than AWS (or AWS_ENDPOINT_URL).
    #[arg(long, value_name = "URL")]
    s3_endpoint: Option<String>,
    /// The S3 region (or AWS_REGION).
    #[arg(long, value_name = "REGION")]
    s3_region: Option<String>,
    /// Largest file accepted: bytes, or with a unit (100MiB, 10M, 512K).
    #[arg(long, value_name = "SIZE", default_value = "100MiB", value_parser = urlkit_web::parse_size)]
    max_upload: u64,
    /// Most bytes the result store may hold (results waiting for their download and
    /// downloads in progress): bytes, or with a unit (10GiB). Past it, uploads get a 507.
    #[arg(long, value_name = "SIZE", default_value = "1GiB", value_parser = urlkit_web::parse_size)]
    max_store: u64,
    /// Most uploads processed at once; past it uploads get a 503. One client may have a
    /// quarter of them (at least one) in progress; past that, a 429.
    #[arg(long, value_name = "N", default_value = "16", value_parser = clap::value_parser!(u32).range(1..))]
    max_uploads: u32,
    /// How long a result waits for its download (90s, 15m, 1h).
    #[arg(long, value_name = "DURATION", default_value = "15m", value_parser = urlkit_web::parse_duration)]
    ttl: std::time::Duration,
    #[command(flatten)]
    connection: ConnectionArgs,
}

/// What every server of the program takes: TLS, the bounds of a connection, the rate
/// limit and its proxies, the shutdown and the logs.
#[derive(clap::Args, Debug)]
pub(crate) struct ConnectionArgs {
    /// TLS certificate chain (PEM); needs --tls-key.
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    tls_cert: Option<std::path::PathBuf>,
    /// TLS private key (PEM); needs --tls-cert.
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    tls_key: Option<std::path::PathBuf>,
    /// Serve TLS with a certificate made at start-up (browsers will warn).
    #[arg(long, conflicts_with_all = ["tls_cert", "tls_key"])]
    tls_self_signed: bool,
    /// How long a client may take to send a request's headers (and to finish the TLS
    /// handshake) before it is disconnected.
    #[arg(long, value_name = "DURATION", default_value = "10s", value_parser = urlkit_web::parse_duration)]
    pub(crate) header_timeout: std::time::Duration,
    /// How long a connection between requests, or a request body, may send nothing
    /// before it is cut off (a body with a 408).
    #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = urlkit_web::parse_duration)]
    pub(crate) idle_timeout: std::time::Duration,
    /// Most connections open at once; past it new ones get a 503 and are closed
    /// [default: 4096, or fewer if the descriptor limit is lower].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) max_connections: Option<u32>,
    /// Requests per client address (20, 20/s, 600/m); past it, a 429 with Retry-After.
    /// Bursts of twice a second's worth (at least 10) pass. Default: no limit.
    #[arg(long, value_name = "RATE", value_parser = urlkit_web::RateLimit::parse)]
    pub(crate) rate_limit: Option<urlkit_web::RateLimit>,
    /// A proxy (address or network, such as 127.0.0.1 or 10.0.0.0/8) whose
    /// X-Forwarded-For names the client for --rate-limit; repeat for several.
    #[arg(long, value_name = "ADDRESS", value_parser = parse_network)]
    pub(crate) trusted_proxy: Vec<ipnet::IpNet>,
    /// How long requests in flight may take to finish after SIGTERM or Ctrl-C.
    #[arg(long, value_name = "DURATION", default_value = "10s", value_parser = urlkit_web::parse_duration)]
    pub(crate) shutdown_timeout: std::time::Duration,
    /// Log every request: method, route, status and time (never bodies or result ids).
    #[arg(short, long)]
    pub(crate) verbose: bool,
    /// Logs as text lines or as JSON lines.
    #[arg(long, value_enum, default_value = "text")]
    log_format: LogFormat,
}

impl ConnectionArgs {
    /// TLS as asked: certificate files, a certificate made at start-up, or none.
    pub(crate) fn tls(&self) -> urlkit_web::TlsMode {
        match (&self.tls_cert, &self.tls_key, self.tls_self_signed) {
            (Some(cert), Some(key), _) => urlkit_web::TlsMode::Pem {
                cert: cert.clone(),
                key: key.clone(),
            },
            (_, _, true) => urlkit_web::TlsMode::SelfSigned,
            _ => urlkit_web::TlsMode::Off,
        }
    }

    /// Whether logs are JSON lines.
    pub(crate) fn json_logs(&self) -> bool {
        self.log_format == LogFormat::Json
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum LogFormat {
    Text,
    Json,
}

/// An address (a network of one) or a network in CIDR notation.
pub(crate) fn parse_network(text: &str) -> Result<ipnet::IpNet, String> {
    text.parse::<ipnet::IpNet>()
        .or_else(|_| text.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
        .map_err(|_| format!("{text:?} is not an address or a network (127.0.0.1, 10.0.0.0/8)"))
}

pub fn serve(args: ServeArgs) -> ExitCode {
    let tls = args.connection.tls();
    let store = match args.store {
        None => urlkit_web::StoreConfig::Temporary,
        Some(url) if url.starts_with("s3://") => urlkit_web::StoreConfig::S3 {
            url,
            endpoint: args.s3_endpoint,
            region: args.s3_region,
        },
        Some(dir) => {
            if args.s3_endpoint.is_some() || args.s3_region.is_some() {
                return serve_usage("--s3-endpoint and --s3-region need --store s3://…");
            }
            urlkit_web::StoreConfig::Dir(dir.into())
        }
    };
    let json_logs = args.connection.json_logs();
    let c = args.connection;
    let config = urlkit_web::ServeConfig {
        addr: args.addr,
        tls,
        store,
        max_upload: args.max_upload,
        ttl: args.ttl,
        max_store: args.max_store,
        header_timeout: c.header_timeout,
        idle_timeout: c.idle_timeout,
        max_connections: c.max_connections.map(|n| n as usize),
        max_uploads: args.max_uploads as usize,
        rate_limit: c.rate_limit,
        trusted_proxies: c.trusted_proxy,
        shutdown_grace: c.shutdown_timeout,
        json_logs,
    };
    start_logging(json_logs, c.verbose, &["urlkit_web"]);
    run_server(urlkit_web::serve(config))
}

/// Logs to stderr, as JSON lines or text: this program's `crates` at INFO (DEBUG when
/// `verbose`), everything else at WARN.
pub(crate) fn start_logging(json: bool, verbose: bool, crates: &[&str]) {
    use tracing_subscriber::filter::{LevelFilter, Targets};
    use tracing_subscriber::prelude::*;
    let ours = if verbose {
        LevelFilter::DEBUG
    } else {
        LevelFilter::INFO
    };
    let targets = crates.iter().fold(
        Targets::new().with_default(LevelFilter::WARN),
        |targets, name| targets.with_target(*name, ours),
    );
    let layer = tracing_subscriber::fmt::layer().with_writer(std::io::stderr);
    if json {
        tracing_subscriber::registry()
            .with(layer.json().flatten_event(true))
            .with(targets)
            .init();
    } else {
        tracing_subscriber::registry()
            .with(layer.with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr())))
            .with(targets)
            .init();
    }
}

/// Runs a server until it stops: status 0, or 1 with the reason when it cannot start or
/// fails.
pub(crate) fn run_server(
    server: impl std::future::Future<Output = anyhow::Result<()>>,
) -> ExitCode {
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
    match runtime.block_on(server) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("urlkit: {e:#}");
            ExitCode::from(1)
        }
    }
}

/// A usage error of `serve`: status 2.
fn serve_usage(message: &str) -> ExitCode {
    eprintln!("urlkit: {message}");
    ExitCode::from(2)
}
