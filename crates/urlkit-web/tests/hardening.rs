//! Bad requests, slow clients, a full store and races, against a real server on
//! 127.0.0.1: every answer is a clear 4xx JSON error (or a cut connection for a client
//! that never finishes its headers), never a 5xx, and other clients are served meanwhile.

use reqwest::multipart::{Form, Part};
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use urlkit_web::store::{DirStore, ResultId};
use urlkit_web::{app, serve_connections, AppState, ConnectionLimits};

/// Short, so the slow-client test stays short.
const HEADER_TIMEOUT: Duration = Duration::from_secs(2);
/// No single exchange in these tests may take longer.
const EXCHANGE_LIMIT: Duration = Duration::from_secs(60);

struct Server {
    addr: SocketAddr,
    dir: PathBuf,
    client: reqwest::Client,
}

impl Server {
    async fn start(max_upload: u64, quota: Option<u64>) -> Server {
        let dir = std::env::temp_dir().join(format!(
            "urlkit-harden-test-{}",
            ResultId::random().unwrap()
        ));
        let store = DirStore::open(&dir).unwrap().with_quota(quota);
        // Room for every upload the tests make at once; clients told apart by
        // X-Forwarded-For, as behind a proxy, so that many uploads at once can come from
        // many clients.
        let state = AppState::new(Arc::new(store), max_upload, Duration::from_secs(900), false)
            .with_limits(
                64,
                Duration::from_secs(30),
                None,
                vec!["127.0.0.1/32".parse().unwrap()],
            );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let limits = ConnectionLimits {
            header_timeout: HEADER_TIMEOUT,
            ..ConnectionLimits::default()
        };
        let metrics = state.metrics();
        tokio::spawn(serve_connections(
            listener,
            app(state),
            None,
            limits,
            metrics,
            std::future::pending(),
        ));
        Server {
            addr,
            dir,
            client: reqwest::Client::builder()
                .timeout(EXCHANGE_LIMIT)
                .build()
                .unwrap(),
        }
    }

    async fn default() -> Server {
        Server::start(1 << 20, None).await
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    async fn post(&self, path: &str, content_type: &str, body: Vec<u8>) -> (StatusCode, Value) {
        let response = self
            .client
            .post(self.url(path))
            .header("content-type", content_type)
            .body(body)
            .send()
            .await
            .unwrap();
        let status = response.status();
        let text = response.text().await.unwrap();
        let value = serde_json::from_str(&text)
            .unwrap_or_else(|_| panic!("{path}: {status} answer is not JSON: {text:.200}"));
        (status, value)
    }

    async fn upload(&self, op: &str, bytes: Vec<u8>) -> (StatusCode, Value) {
        let form = Form::new()
            .text("op", op.to_string())
            .part("file", Part::bytes(bytes).file_name("input.txt"));
        let response = self
            .client
            .post(self.url("/api/files"))
            .multipart(form)
            .send()
            .await
            .unwrap();
        let status = response.status();
        (status, response.json().await.unwrap())
    }

    async fn healthy(&self) {
        let response = self.client.get(self.url("/healthz")).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
    }

    fn files_left(&self) -> usize {
        std::fs::read_dir(&self.dir).unwrap().count()
    }

    /// Sends `request` as it is on a new connection and reads the answer until the server
    /// closes it: the status (`None` when the connection was closed without one) and body.
    async fn raw(&self, request: &[u8]) -> (Option<u16>, String) {
        let exchange = async {
            let mut stream = TcpStream::connect(self.addr).await.unwrap();
            // The server may answer and close before reading everything (too large).
            let _ = stream.write_all(request).await;
            let mut answer = Vec::new();
            let _ = stream.read_to_end(&mut answer).await;
            answer
        };
        let answer = tokio::time::timeout(EXCHANGE_LIMIT, exchange)
            .await
            .expect("the server answers or closes in time");
        let text = String::from_utf8_lossy(&answer).into_owned();
        let status = text
            .strip_prefix("HTTP/1.1 ")
            .and_then(|rest| rest.get(..3))
            .and_then(|code| code.parse().ok());
        let body = text
            .split_once("\r\n\r\n")
            .map(|(_, body)| body.to_owned())
            .unwrap_or_default();
        (status, body)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn assert_json_error(status: StatusCode, body: &Value, what: &str) {
    assert!(status.is_client_error(), "{what}: {status} {body}");
    assert!(
        body["error"]["code"]
            .as_str()
            .is_some_and(|c| !c.is_empty()),
        "{what}: {body}"
    );
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()),
        "{what}: {body}"
    );
}

#[tokio::test]
async fn malformed_wrong_and_missing_json_is_a_4xx_naming_the_problem() {
    let server = Server::default().await;
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let bodies: Vec<(&str, Vec<u8>)> = vec![
        ("/api/encode", b"".to_vec()),
        ("/api/encode", b"{".to_vec()),
        ("/api/encode", b"null".to_vec()),
        ("/api/encode", b"[]".to_vec()),
        ("/api/encode", b"\"input\"".to_vec()),
        ("/api/encode", b"{}".to_vec()),
        ("/api/encode", b"{\"input\": null}".to_vec()),
        ("/api/encode", b"{\"input\": [1, 2]}".to_vec()),
        (
            "/api/encode",
            b"{\"input\": \"x\", \"per_line\": \"yes\"}".to_vec(),
        ),
        (
            "/api/encode",
            b"{\"input\": \"x\", \"newline\": \"cr\"}".to_vec(),
        ),
        ("/api/encode", b"{\"input\": \"x\", \"bogus\": 1}".to_vec()),
        (
            "/api/encode",
            b"{\"input\": \"x\", \"input\": \"y\"}".to_vec(),
        ),
        ("/api/encode", b"{\"input\": \"\\ud800\"}".to_vec()),
        ("/api/encode", b"{\"input\": \"\xff\xfe\"}".to_vec()),
        ("/api/encode", deep.clone().into_bytes()),
        ("/api/decode", b"{\"input\": 1e999}".to_vec()),
        ("/api/decode", b"{\"input\": \"x\", \"strict\": 1}".to_vec()),
        ("/api/decode", b"{\"charset\": \"utf-8\"}".to_vec()),
        (
            "/api/decode",
            b"{\"input\": \"x\", \"until_stable\": true, \"per_line\": true}".to_vec(),
        ),
        ("/api/decode", deep.into_bytes()),
        ("/api/inspect", b"{}".to_vec()),
        ("/api/inspect", b"{\"url\": 5}".to_vec()),
        (
            "/api/inspect",
            b"{\"url\": \"a\", \"base\": \"not a url\"}".to_vec(),
        ),
        (
            "/api/inspect",
            b"{\"url\": \"a\", \"extra\": true}".to_vec(),
        ),
        ("/api/resolve", b"{\"base\": \"http://a/\"}".to_vec()),
        (
            "/api/resolve",
            b"{\"base\": \"relative\", \"reference\": \"x\"}".to_vec(),
        ),
        (
            "/api/resolve",
            b"{\"base\": [], \"reference\": {}}".to_vec(),
        ),
    ];
    let tried = bodies.len();
    for (path, body) in bodies {
        let shown = String::from_utf8_lossy(&body[..body.len().min(60)]).into_owned();
        let (status, answer) = server.post(path, "application/json", body).await;
        assert_json_error(status, &answer, &format!("{path} {shown}"));
    }
    // Wrong or missing content types.
    for content_type in ["text/plain", "application/x-www-form-urlencoded", ""] {
        let (status, answer) = server
            .post("/api/encode", content_type, b"{\"input\": \"x\"}".to_vec())
            .await;
        assert_json_error(status, &answer, content_type);
    }
    server.healthy().await;
    assert!(tried > 20);
}

#[tokio::test]
async fn enormous_json_is_413_json_and_the_server_carries_on() {
    let server = Server::default().await;
    let input = "%41".repeat(urlkit_web::limits::TEXT_LIMIT / 3 + 1024);
    for path in ["/api/encode", "/api/decode", "/api/inspect"] {
        let body = serde_json::to_vec(&json!({ "input": input, "url": input })).unwrap();
        let (status, answer) = server.post(path, "application/json", body).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{path}");
        assert_json_error(status, &answer, path);
    }
    server.healthy().await;
}

#[tokio::test]
async fn two_million_short_lines_decode_per_line() {
    let server = Server::default().await;
    const LINES: usize = 2_000_000;
    let input = "a%20\n".repeat(LINES);
    let body = serde_json::to_vec(&json!({ "input": input, "per_line": true })).unwrap();
    let started = Instant::now();
    let (status, answer) = server.post("/api/decode", "application/json", body).await;
    assert_eq!(status, StatusCode::OK, "{answer:.300}");
    let output = answer["output"].as_str().unwrap();
    assert_eq!(output.len(), LINES * "a \n".len());
    assert!(output.starts_with("a \na \n"));
    assert!(started.elapsed() < EXCHANGE_LIMIT);
    // Many findings are counted, not listed: the answer stays bounded.
    let input = "%zz\n".repeat(LINES);
    let body = serde_json::to_vec(&json!({ "input": input, "per_line": true })).unwrap();
    let (status, answer) = server.post("/api/decode", "application/json", body).await;
    assert_eq!(status, StatusCode::OK);
    let listed = answer["diagnostics"].as_array().unwrap().len() as u64;
    let not_listed = answer["diagnostics_not_listed"].as_u64().unwrap();
    assert!(
        listed <= urlkit::diagnostics::KEPT_FINDINGS as u64,
        "{listed}"
    );
    assert_eq!(listed + not_listed, LINES as u64);
}

#[tokio::test]
async fn invalid_multipart_is_a_4xx_and_nothing_is_kept() {
    let server = Server::default().await;
    let part = |name: &str, value: &str| {
        format!("--B\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n")
    };
    let file =
        "--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a\"\r\n\r\n%41%42\r\n";
    let cases: Vec<(&str, String)> = vec![
        (
            "multipart/form-data",
            format!("{}{file}--B--\r\n", part("op", "decode")),
        ),
        ("multipart/form-data; boundary=B", String::new()),
        ("multipart/form-data; boundary=B", "garbage".to_string()),
        (
            "multipart/form-data; boundary=B",
            "--B\r\n\r\n--B--\r\n".to_string(),
        ),
        (
            "multipart/form-data; boundary=B",
            format!("{}{file}", part("op", "decode")),
        ),
        (
            "multipart/form-data; boundary=B",
            format!("{}--B--\r\n", part("op", "decode")),
        ),
        (
            "multipart/form-data; boundary=B",
            format!("{file}--B--\r\n"),
        ),
        (
            "multipart/form-data; boundary=B",
            format!("{}{file}--B--\r\n", part("op", "rot13")),
        ),
        (
            "multipart/form-data; boundary=B",
            format!(
                "{}{}{file}--B--\r\n",
                part("op", "decode"),
                part("charset", "klingon")
            ),
        ),
        (
            "multipart/form-data; boundary=B",
            format!(
                "{}{file}{}--B--\r\n",
                part("op", "decode"),
                part("strict", "true")
            ),
        ),
        (
            "multipart/form-data; boundary=B",
            format!("{}{file}--B--\r\n", part("op", &"x".repeat(100_000))),
        ),
        (
            "multipart/form-data; boundary=B",
            format!(
                "{}{}--B--\r\n",
                part("op", "decode"),
                "--B\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n%4"
            ),
        ),
        ("application/json", "{\"op\": \"decode\"}".to_string()),
    ];
    for (content_type, body) in cases {
        let (status, answer) = server
            .post("/api/files", content_type, body.clone().into_bytes())
            .await;
        assert_json_error(status, &answer, &format!("{content_type} {body:.80}"));
        assert_eq!(server.files_left(), 0, "{body:.80}");
    }
    server.healthy().await;
}

#[tokio::test]
async fn ids_that_try_to_leave_the_store_are_404_json() {
    let server = Server::default().await;
    let secret = server.dir.parent().unwrap().join(format!(
        "urlkit-harden-secret-{}",
        ResultId::random().unwrap()
    ));
    std::fs::write(&secret, b"must not be served").unwrap();
    let name = secret.file_name().unwrap().to_str().unwrap().to_owned();
    let ids = [
        format!("../{name}"),
        format!("..%2F{name}"),
        format!("%2e%2e%2f{name}"),
        format!("%2e%2e/{name}"),
        "..".to_string(),
        "%2e%2e".to_string(),
        "..%2F..%2F..%2Fetc%2Fpasswd".to_string(),
        "%2E%2E%5C%2E%2E%5Cetc".to_string(),
        "x%00y".to_string(),
        "0123456789abcdef0123456789abcdef.ready".to_string(),
        "0123456789ABCDEF0123456789ABCDEF".to_string(),
        "a".repeat(10_000),
        "%ff".to_string(),
        "%ff%fe".to_string(),
    ];
    let paths = ids.iter().map(|id| format!("/api/files/{id}")).chain([
        "/assets/%ff%fe".to_string(),
        "/assets/app%ff.js".to_string(),
    ]);
    for id in paths {
        let request = format!("GET {id} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        let (status, body) = server.raw(request.as_bytes()).await;
        let status = status.unwrap_or_else(|| panic!("no answer for {id:.60}"));
        assert!((400..500).contains(&status), "{id:.60}: {status}");
        assert!(!body.contains("must not be served"), "{id:.60}");
        let value: Value = serde_json::from_str(&body).unwrap_or_else(|_| panic!("{body:.200}"));
        assert!(value["error"]["code"].is_string(), "{id:.60}: {body}");
    }
    std::fs::remove_file(&secret).unwrap();
}

#[tokio::test]
async fn overlong_headers_are_refused_without_a_server_error() {
    let server = Server::default().await;
    let long_value = "x".repeat(1 << 20);
    let many: String = (0..500).map(|i| format!("X-H{i}: v\r\n")).collect();
    let long_target = format!("/api/files/{}", "a".repeat(1 << 20));
    let requests = [
        format!("GET /healthz HTTP/1.1\r\nHost: a\r\nX-Long: {long_value}\r\n\r\n"),
        format!("GET /healthz HTTP/1.1\r\nHost: a\r\n{many}\r\n"),
        format!("GET {long_target} HTTP/1.1\r\nHost: a\r\n\r\n"),
        "GET /healthz HTTP/1.1\r\nHost: a\r\nBad Header\r\n\r\n".to_string(),
        "BREW /healthz HTCPCP/1.0\r\n\r\n".to_string(),
        "\u{0}\u{1}\u{2}\r\n\r\n".to_string(),
        "POST /api/encode HTTP/1.1\r\nHost: a\r\nContent-Length: -5\r\n\r\n".to_string(),
        "POST /api/encode HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999\r\n\r\n"
            .to_string(),
        "POST /api/encode HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\
         Content-Type: application/json\r\n\r\nzz\r\n"
            .to_string(),
    ];
    for request in &requests {
        let (status, _) = server.raw(request.as_bytes()).await;
        // A 4xx, or the connection closed without an answer: never a 5xx.
        if let Some(status) = status {
            assert!((400..500).contains(&status), "{request:.60}: {status}");
        }
    }
    server.healthy().await;
}

#[tokio::test]
async fn slow_clients_are_cut_off_and_others_are_served_meanwhile() {
    let server = Server::default().await;
    let started = Instant::now();
    // Several clients sending their headers a byte a second.
    let mut slow = Vec::new();
    for _ in 0..8 {
        let addr = server.addr;
        slow.push(tokio::spawn(async move {
            let mut stream = TcpStream::connect(addr).await.unwrap();
            let opened = Instant::now();
            for byte in b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" {
                if stream.write_all(&[*byte]).await.is_err() {
                    return opened.elapsed();
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
                // Closed by the server: a read gives end of file or an error.
                let mut buf = [0u8; 256];
                if let Ok(Ok(n)) =
                    tokio::time::timeout(Duration::from_millis(1), stream.read(&mut buf)).await
                {
                    let answer = String::from_utf8_lossy(&buf[..n]).into_owned();
                    assert!(
                        n == 0 || answer.starts_with("HTTP/1.1 408"),
                        "slow client got {answer:?}"
                    );
                    return opened.elapsed();
                }
            }
            panic!("a client sending a byte a second was never cut off");
        }));
    }
    // Meanwhile, other clients are answered at once.
    for _ in 0..10 {
        let t = Instant::now();
        server.healthy().await;
        let (status, _) = server
            .post(
                "/api/encode",
                "application/json",
                b"{\"input\": \"a b\"}".to_vec(),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        assert!(t.elapsed() < Duration::from_secs(1), "{:?}", t.elapsed());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for client in slow {
        let lasted = client.await.unwrap();
        assert!(
            lasted < HEADER_TIMEOUT + Duration::from_secs(3),
            "{lasted:?}"
        );
    }
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[tokio::test]
async fn a_full_store_is_507_and_the_rest_is_served() {
    let server = Server::start(64 << 10, Some(100 << 10)).await;
    let block = vec![b'a'; 60 << 10];
    let (status, first) = server.upload("encode", block.clone()).await;
    assert_eq!(status, StatusCode::CREATED, "{first}");
    let (status, answer) = server.upload("encode", block.clone()).await;
    assert_eq!(status, StatusCode::INSUFFICIENT_STORAGE, "{answer}");
    assert_eq!(answer["error"]["code"], "store-full", "{answer}");
    assert!(answer["error"]["message"]
        .as_str()
        .unwrap()
        .contains("full"));
    // Only the first result is on disk; text operations still work.
    assert_eq!(server.files_left(), 1);
    let (status, _) = server
        .post(
            "/api/decode",
            "application/json",
            b"{\"input\": \"%41\"}".to_vec(),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    server.healthy().await;
    // Once the first is downloaded, there is room again.
    let download = first["download"].as_str().unwrap();
    let bytes = server
        .client
        .get(server.url(download))
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    assert_eq!(bytes.len(), block.len());
    let (status, second) = server.upload("encode", block).await;
    assert_eq!(status, StatusCode::CREATED, "{second}");
    assert_eq!(server.files_left(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_parallel_downloads_give_the_file_exactly_once() {
    let server = Server::default().await;
    let content: Vec<u8> = (0..200_000u32).map(|i| b"%41b"[(i % 4) as usize]).collect();
    let (status, created) = server.upload("decode", content).await;
    assert_eq!(status, StatusCode::CREATED);
    let url = server.url(created["download"].as_str().unwrap());
    let barrier = Arc::new(tokio::sync::Barrier::new(50));
    let attempts: Vec<_> = (0..50)
        .map(|_| {
            let client = server.client.clone();
            let url = url.clone();
            let barrier = barrier.clone();
            tokio::spawn(async move {
                barrier.wait().await;
                let response = client.get(&url).send().await.unwrap();
                let status = response.status();
                (status, response.bytes().await.unwrap())
            })
        })
        .collect();
    let mut winners = 0;
    for attempt in attempts {
        let (status, bytes) = attempt.await.unwrap();
        match status {
            StatusCode::OK => {
                winners += 1;
                assert_eq!(bytes.len() as u64, created["size"].as_u64().unwrap());
                assert!(bytes.starts_with(b"AbAb"));
            }
            StatusCode::NOT_FOUND => {
                let body: Value = serde_json::from_slice(&bytes).unwrap();
                assert_eq!(body["error"]["code"], "not-found");
            }
            other => panic!("unexpected {other}"),
        }
    }
    assert_eq!(winners, 1);
    assert_eq!(server.files_left(), 0);
}

fn open_fds() -> usize {
    std::fs::read_dir("/proc/self/fd").unwrap().count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_uploads_at_the_limit_leak_no_descriptor_and_no_file() {
    const LIMIT: u64 = 1 << 20;
    let server = Server::start(LIMIT, None).await;
    // No keep-alive pool: both ends of every connection live in this process, so only
    // closed connections make the descriptor counts comparable.
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .timeout(EXCHANGE_LIMIT)
        .build()
        .unwrap();
    let before = open_fds();
    let mut tasks = Vec::new();
    for i in 0..24u64 {
        // Exactly at the limit, and one byte over it, alternately.
        let size = LIMIT + (i % 2);
        let client = client.clone();
        let url = server.url("/api/files");
        tasks.push(tokio::spawn(async move {
            let form = Form::new().text("op", "encode").part(
                "file",
                Part::bytes(vec![b'z'; size as usize]).file_name("big.bin"),
            );
            let response = client
                .post(&url)
                .header("x-forwarded-for", format!("198.51.100.{i}"))
                .multipart(form)
                .send()
                .await
                .unwrap();
            let status = response.status();
            let body: Value = response.json().await.unwrap();
            (size, status, body)
        }));
    }
    let mut downloads = Vec::new();
    for task in tasks {
        let (size, status, body) = task.await.unwrap();
        if size == LIMIT {
            assert_eq!(status, StatusCode::CREATED, "{body}");
            downloads.push(body["download"].as_str().unwrap().to_owned());
        } else {
            assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{body}");
        }
    }
    assert_eq!(server.files_left(), downloads.len());
    for download in downloads {
        let bytes = client
            .get(server.url(&download))
            .send()
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap();
        assert_eq!(bytes.len() as u64, LIMIT);
    }
    assert_eq!(server.files_left(), 0);
    drop(client);
    let mut after = open_fds();
    for _ in 0..50 {
        if after <= before {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        after = open_fds();
    }
    assert!(
        after <= before,
        "descriptors: {before} before, {after} after"
    );
}
