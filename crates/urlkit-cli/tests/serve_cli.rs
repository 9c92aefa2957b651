//! `urlkit serve` as a user starts it: it listens, answers, and refuses bad options.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

fn urlkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_urlkit"))
}

/// Starts `urlkit serve` with `args` and returns the child and the URL it prints.
fn start(args: &[&str]) -> (std::process::Child, String) {
    let mut child = urlkit()
        .arg("serve")
        .args(args)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    (child, url)
}

#[test]
#[ignore = "needs curl; scripts/test.sh runs it"]
fn serve_speaks_tls_with_a_self_signed_certificate() {
    let store = std::env::temp_dir().join(format!("urlkit-serve-tls-{}", std::process::id()));
    let store_arg = store.to_string_lossy().into_owned();
    let (mut child, url) = start(&[
        "--addr",
        "127.0.0.1:0",
        "--tls-self-signed",
        "--store",
        &store_arg,
    ]);
    assert!(url.starts_with("https://127.0.0.1:"), "{url}");
    // curl is installed by scripts/test.sh; it checks the real handshake.
    let out = Command::new("curl")
        .args(["-sk", "-D", "-", "--max-time", "10"])
        .arg(format!("{url}/healthz"))
        .output()
        .expect("curl");
    child.kill().unwrap();
    child.wait().unwrap();
    let _ = std::fs::remove_dir_all(&store);
    let answer = String::from_utf8_lossy(&out.stdout).to_lowercase();
    assert!(answer.contains(" 200"), "{answer}");
    assert!(
        answer.contains("strict-transport-security: max-age="),
        "{answer}"
    );
    assert!(answer.contains("{\"status\":\"ok\"}"), "{answer}");
}

#[test]
fn serve_listens_and_answers_health_checks() {
    let store = std::env::temp_dir().join(format!("urlkit-serve-cli-{}", std::process::id()));
    let store_arg = store.to_string_lossy().into_owned();
    let (mut child, url) = start(&[
        "--addr",
        "127.0.0.1:0",
        "--ttl",
        "1m",
        "--max-upload",
        "10M",
        "--store",
        &store_arg,
    ]);
    let addr = url.trim_start_matches("http://").to_string();
    let mut stream = TcpStream::connect(&addr).unwrap();
    write!(
        stream,
        "GET /healthz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    let _ = std::fs::remove_dir_all(&store);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.ends_with("{\"status\":\"ok\"}"), "{answer}");
}

#[test]
fn serve_refuses_bad_sizes_durations_and_half_tls() {
    for args in [
        &["--max-upload", "lots"][..],
        &["--ttl", "0s"],
        &["--tls-cert", "cert.pem"],
        &[
            "--tls-self-signed",
            "--tls-key",
            "k.pem",
            "--tls-cert",
            "c.pem",
        ],
    ] {
        let out = urlkit().arg("serve").args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn serve_reports_unreadable_certificates() {
    let out = urlkit()
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--tls-cert",
            "/nonexistent/c.pem",
            "--tls-key",
            "/nonexistent/k.pem",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/c.pem"));
}
