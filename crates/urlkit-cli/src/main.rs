//! `urlkit`: arguments in, library calls, output out.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod inspect_cmd;

/// Percent-encode and decode in every charset, and take URLs apart.
#[derive(Parser, Debug)]
#[command(
    name = "urlkit",
    version,
    about,
    after_help = "Examples:
  urlkit parse 'https://john.doe@www.example.com:123/forum/questions/?tag=networking#top'
  cat access.log.urls | urlkit parse --get '{host}'
  urlkit resolve 'http://a/b/c/d;p?q' '../g'
  urlkit compare 'http://A:80/%7euser/./x' 'http://a/~user/x'
  urlkit idn --to-ascii '例子.卷筒纸'
Run `urlkit SUBCOMMAND --help` for each command's examples."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    #[command(flatten)]
    Inspect(inspect_cmd::InspectCommand),
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Inspect(cmd) => inspect_cmd::run(cmd),
    }
}
