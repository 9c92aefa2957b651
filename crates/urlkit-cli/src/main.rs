//! `urlkit`: arguments in, library calls, output out.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod inspect_cmd;

/// Percent-encode and decode in every charset, and take URLs apart.
#[derive(Parser, Debug)]
#[command(name = "urlkit", version, about)]
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
