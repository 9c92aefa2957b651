//! `urlkit serve` as a user starts it: it listens, answers, and refuses bad options.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

fn urlkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_urlkit"))
}

/// Spawns `command` and returns the child and the first line it writes to stderr.
fn spawn_reading_first_line(command: &mut Command) -> (std::process::Child, String) {
    let mut child = command.stderr(Stdio::piped()).spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    (child, line)
}

/// Starts `urlkit serve` with `args` and returns the child and the URL it prints.
fn start(args: &[&str]) -> (std::process::Child, String) {
    let (child, line) = spawn_reading_first_line(urlkit().arg("serve").args(args));
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

/// As a container starts it: the address from `URLKIT_ADDR`, no argument but `serve`, and
/// SIGTERM (what `podman stop` sends) ends it cleanly with status 0.
#[test]
fn serve_takes_its_address_from_the_environment_and_stops_on_sigterm() {
    let store = std::env::temp_dir().join(format!("urlkit-serve-env-{}", std::process::id()));
    let (mut child, line) = spawn_reading_first_line(
        urlkit()
            .arg("serve")
            .args(["--store", &store.to_string_lossy()])
            .env("URLKIT_ADDR", "127.0.0.1:0"),
    );
    assert!(line.contains("http://127.0.0.1:"), "{line}");
    assert!(!line.contains(":8080"), "{line}");
    // SAFETY: kill(2) on the child's own pid, which it still is (not yet waited for).
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    let status = child.wait().unwrap();
    let _ = std::fs::remove_dir_all(&store);
    assert_eq!(status.code(), Some(0), "{status:?}");
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

/// SIGTERM to `child` (std's `kill` sends SIGKILL).
fn terminate(child: &std::process::Child) {
    // SAFETY: kill(2) on a process this test started and has not yet reaped.
    let sent = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
    assert_eq!(sent, 0);
}

#[test]
fn sigterm_finishes_requests_in_flight_then_exits() {
    let store = std::env::temp_dir().join(format!("urlkit-serve-term-{}", std::process::id()));
    let store_arg = store.to_string_lossy().into_owned();
    let (mut child, url) = start(&[
        "--addr",
        "127.0.0.1:0",
        "--store",
        &store_arg,
        "--shutdown-timeout",
        "10s",
    ]);
    let addr = url.trim_start_matches("http://").to_string();
    // An upload under way: headers and half of the body sent.
    let body = b"--B\r\nContent-Disposition: form-data; name=\"op\"\r\n\r\nencode\r\n\
--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a\"\r\n\r\na b\r\n--B--\r\n";
    let (first, second) = body.split_at(40);
    let mut upload = TcpStream::connect(&addr).unwrap();
    write!(
        upload,
        "POST /api/files HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\
         Content-Type: multipart/form-data; boundary=B\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .unwrap();
    upload.write_all(first).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    terminate(&child);
    // New connections are no longer taken…
    let mut refused = false;
    for _ in 0..50 {
        if TcpStream::connect(&addr).is_err() {
            refused = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(refused, "still accepting after SIGTERM");
    // … the one in flight finishes …
    upload.write_all(second).unwrap();
    let mut answer = String::new();
    upload.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    // … and the server exits cleanly.
    let status = child.wait().unwrap();
    let _ = std::fs::remove_dir_all(&store);
    assert_eq!(status.code(), Some(0));
}

#[test]
fn json_logs_name_routes_never_ids_or_bodies() {
    let store = std::env::temp_dir().join(format!("urlkit-serve-json-{}", std::process::id()));
    let store_arg = store.to_string_lossy().into_owned();
    let mut child = urlkit()
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--log-format",
            "json",
            "-v",
            "--store",
        ])
        .arg(&store_arg)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let first: serde_json::Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    let message = first["message"].as_str().unwrap();
    let addr = message
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .unwrap_or_else(|| panic!("no address in {message:?}"))
        .to_string();
    let exchange = |request: String| {
        let mut stream = TcpStream::connect(&addr).unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        answer
    };
    let body = "--B\r\nContent-Disposition: form-data; name=\"op\"\r\n\r\nencode\r\n\
--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a\"\r\n\r\nSECRET-CONTENT\r\n--B--\r\n";
    let created = exchange(format!(
        "POST /api/files HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\
         Content-Type: multipart/form-data; boundary=B\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    ));
    let id = created
        .split("\"id\":\"")
        .nth(1)
        .and_then(|rest| rest.get(..32))
        .unwrap_or_else(|| panic!("{created}"))
        .to_string();
    let downloaded = exchange(format!(
        "GET /api/files/{id} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
    ));
    assert!(downloaded.contains("SECRET-CONTENT"));
    terminate(&child);
    let rest: Vec<String> = lines.map(|l| l.unwrap()).collect();
    child.wait().unwrap();
    let _ = std::fs::remove_dir_all(&store);
    let records: Vec<serde_json::Value> = rest
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|_| panic!("not JSON: {l}")))
        .collect();
    let routes: Vec<&str> = records.iter().filter_map(|r| r["route"].as_str()).collect();
    assert_eq!(routes, ["/api/files", "/api/files/{id}"], "{rest:?}");
    assert!(records.iter().any(|r| r["message"] == "shutting down"));
    for line in &rest {
        assert!(!line.contains(&id) && !line.contains("SECRET"), "{line}");
    }
}
