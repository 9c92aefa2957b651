//! `urlkit`: the command-line program. Arguments become library calls; nothing else.

mod codec_cmd;
mod inspect_cmd;
mod io;
#[cfg(feature = "purl")]
mod purl_cmd;
mod release;
#[cfg(feature = "serve")]
mod serve_cmd;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::process::ExitCode;

/// Percent-encode and decode text in any charset, detect charsets, take URLs apart.
#[derive(Parser, Debug)]
#[command(name = "urlkit", about, after_help = EXAMPLES)]
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
    #[cfg(feature = "serve")]
    Serve(serve_cmd::ServeArgs),
    #[command(flatten)]
    Inspect(inspect_cmd::InspectCommand),
    /// Print the completion script for a shell.
    Completions(release::CompletionsArgs),
    /// Write the man pages (urlkit.1 to standard output, or every page into a directory).
    Man(release::ManArgs),
    /// Persistent URLs: records, owners and tokens on the database file, and the resolver.
    #[cfg(feature = "purl")]
    Purl(purl_cmd::PurlCommand),
}

/// The command line's definition, with the version line of this build.
fn command() -> clap::Command {
    Cli::command().version(release::VERSION.as_str())
}

fn main() -> ExitCode {
    let cli = Cli::from_arg_matches(&command().get_matches()).unwrap_or_else(|e| e.exit());
    match cli.command {
        Command::Encode(args) => codec_cmd::encode(args),
        Command::Decode(args) => codec_cmd::decode(args),
        Command::Detect(args) => codec_cmd::detect(args),
        Command::Charsets => codec_cmd::charsets(),
        Command::Inspect(command) => inspect_cmd::run(command),
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve_cmd::serve(args),
        Command::Completions(args) => release::completions(args, command()),
        Command::Man(args) => release::man(args, command()),
        #[cfg(feature = "purl")]
        Command::Purl(command) => purl_cmd::run(command),
    }
}
