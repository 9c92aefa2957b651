//! The command line as a careless user meets it: an output file that is the input, a full
//! disk, a reader that goes away, an input too large to hold.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;

/// A fresh directory for one test, removed afterwards.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("urlkit-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn file(&self, name: &str, content: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, content).unwrap();
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run(command: &mut Command) -> Output {
    command.output().expect("urlkit runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn an_output_that_is_the_input_is_refused_and_the_input_kept() {
    let scratch = Scratch::new("same-file");
    let content = b"%41%42\n%43\n";
    let input = scratch.file("in.txt", content);
    let link = scratch.0.join("link.txt");
    std::os::unix::fs::symlink(&input, &link).unwrap();
    let hard = scratch.0.join("hard.txt");
    std::fs::hard_link(&input, &hard).unwrap();
    for output in [&input, &link, &hard] {
        for args in [
            vec!["decode", "-i", arg(&input), "-o", arg(output)],
            vec!["encode", "-l", "-i", arg(&link), "-o", arg(output)],
            vec![
                "decode",
                "--until-stable",
                "-i",
                arg(&input),
                "-o",
                arg(output),
            ],
            vec!["decode", "--iri", "-i", arg(&input), "-o", arg(output)],
        ] {
            let out = run(common::urlkit_command().args(&args));
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            assert!(stderr(&out).contains("same file"), "{}", stderr(&out));
            assert_eq!(std::fs::read(&input).unwrap(), content, "{args:?}");
        }
    }
    // The file stdin reads from, and standard output appending to the input.
    let stdin_is_input = run(common::urlkit_command()
        .args(["decode", "-o", arg(&link)])
        .stdin(std::fs::File::open(&input).unwrap()));
    assert_eq!(stdin_is_input.status.code(), Some(2));
    let appending = std::fs::OpenOptions::new()
        .append(true)
        .open(&input)
        .unwrap();
    let stdout_is_input = run(common::urlkit_command()
        .args(["decode", "-i", arg(&input)])
        .stdout(appending));
    assert_eq!(stdout_is_input.status.code(), Some(2));
    assert_eq!(std::fs::read(&input).unwrap(), content);
    // Another file is fine.
    let other = scratch.0.join("out.txt");
    let out = run(common::urlkit_command().args(["decode", "-i", arg(&input), "-o", arg(&other)]));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read(&other).unwrap(), b"ABC");
}

#[test]
fn a_full_disk_is_one_line_and_status_1_never_a_panic() {
    for args in [
        &["charsets"][..],
        &["detect", "%C0%E2%EE%F1"],
        &["detect", "--json", "%41"],
        &["decode", "%41"],
        &["encode", "--json", "a b"],
        &["decode", "--until-stable", "%2541"],
        &["decode", "--iri", "http://a/%E5%BC%95"],
    ] {
        let out = run(common::urlkit_command()
            .args(args)
            .stdout(std::fs::File::create("/dev/full").unwrap()));
        let message = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {message}");
        // One line for the failure (after the findings, if any), and no panic.
        let errors: Vec<&str> = message.lines().filter(|l| l.contains("error")).collect();
        assert_eq!(errors.len(), 1, "{args:?}: {message}");
        assert!(
            errors[0].contains("cannot write output"),
            "{args:?}: {message}"
        );
        assert!(!message.contains("panicked"), "{args:?}: {message}");
    }
    let out = run(common::urlkit_command().args(["encode", "-o", "/dev/full", "a b"]));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}

#[test]
fn a_reader_that_goes_away_ends_the_program_quietly() {
    let scratch = Scratch::new("closed-pipe");
    let input = scratch.file("lines.txt", &b"%41\n".repeat(8 << 20));
    for args in [
        vec!["decode", "-l", "-i", arg(&input)],
        vec!["decode", "-i", arg(&input)],
        vec!["encode", "-l", "-i", arg(&input)],
        vec!["decode", "--until-stable", "-l", "-i", arg(&input)],
    ] {
        let started = Instant::now();
        let mut child = common::urlkit_command()
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = [0u8; 64];
        child.stdout.take().unwrap().read_exact(&mut first).unwrap();
        // The reader is gone (as `head -c 64` leaves): the next write fails with EPIPE.
        let out = child.wait_with_output().unwrap();
        assert!(
            first.starts_with(b"A") || first.starts_with(b"%25"),
            "{first:?}"
        );
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert!(
            !stderr(&out).contains("error") && !stderr(&out).contains("panicked"),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(started.elapsed() < Duration::from_secs(60), "{args:?}");
    }
}

#[test]
fn until_stable_refuses_an_entry_it_cannot_hold_and_keeps_what_came_before() {
    let limit = 64 << 20;
    // Lines before the long one are peeled and written; the long one is refused by number.
    let mut input = b"%2541\n%252541\n".to_vec();
    input.extend(std::iter::repeat_n(b'a', limit + 1));
    input.extend_from_slice(b"\n%41\n");
    let mut child = common::urlkit_command()
        .args(["decode", "--until-stable", "-l"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        // The program stops reading at the long line.
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(out.stdout, b"A\nA\n");
    let message = stderr(&out);
    assert!(
        message.contains("line 3 is larger than 64 MiB"),
        "{message}"
    );
    // A line just at the limit is taken.
    let scratch = Scratch::new("until-stable-limit");
    let mut at_limit = b"%2541".to_vec();
    at_limit.resize(limit, b'b');
    let file = scratch.file("at-limit.txt", &at_limit);
    let out = run(common::urlkit_command().args(["decode", "--until-stable", "-i", arg(&file)]));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(out.stdout.len(), limit - 4);
    assert!(out.stdout.starts_with(b"Abbb"));
}

#[test]
fn until_stable_lists_layers_within_its_budget_and_says_so() {
    // About 1.5 MB a layer: none fits the 1 MiB listing budget.
    let mut input = b"%".to_vec();
    input.extend(b"25".repeat(750_000));
    input.extend_from_slice(b"41");
    let scratch = Scratch::new("until-stable-json");
    let file = scratch.file("deep.txt", &input);
    let out = run(common::urlkit_command().args([
        "decode",
        "--until-stable",
        "--json",
        "-i",
        arg(&file),
    ]));
    assert!(out.status.success(), "{}", stderr(&out));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["depth"], 17);
    assert_eq!(value["layers"], serde_json::json!([]));
    let summary = value["diagnostics"][0]["message"].as_str().unwrap();
    assert!(
        summary.contains("16 intermediate layer(s) not listed"),
        "{summary}"
    );
    assert!(summary.contains("still holds escapes"), "{summary}");
}
