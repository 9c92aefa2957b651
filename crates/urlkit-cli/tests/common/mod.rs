//! Helpers shared by the command-line tests.

use std::process::Command;

/// A command running the `urlkit` binary under test: the one cargo built beside these
/// tests, or the one named by `URLKIT_TEST_BINARY` (a build for another architecture, say),
/// started through `URLKIT_TEST_RUNNER` when that is set (words separated by spaces, such
/// as `qemu-aarch64 -L /usr/aarch64-linux-gnu`).
pub fn urlkit_command() -> Command {
    let binary = std::env::var("URLKIT_TEST_BINARY")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_urlkit").to_string());
    let runner = std::env::var("URLKIT_TEST_RUNNER").unwrap_or_default();
    let mut words = runner.split_whitespace();
    match words.next() {
        Some(program) => {
            let mut command = Command::new(program);
            command.args(words).arg(binary);
            command
        }
        None => Command::new(binary),
    }
}
