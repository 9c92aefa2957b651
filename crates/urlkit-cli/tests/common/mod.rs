//! Helpers shared by the command-line tests.

use std::io::Write;
use std::process::{Command, Output, Stdio};

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

/// Runs the binary under test with `args` and `stdin`, and waits for it. Not every test
/// binary uses it.
#[allow(dead_code)]
pub fn urlkit(args: &[&str], stdin: &str) -> Output {
    let mut child = urlkit_command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn urlkit");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("wait")
}

/// The standard output, which must be UTF-8.
#[allow(dead_code)]
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

/// The standard error, invalid UTF-8 replaced.
#[allow(dead_code)]
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
