//! The bounds that make the server safe to expose, against a real server on 127.0.0.1:
//! silent connections closed (plain and TLS, HTTP/1 and HTTP/2, before the first request,
//! between requests, after the handshake), stalled bodies cut off, caps on connections and
//! uploads, bodies announced too large refused at once, the rate limit per client,
//! `Allow` on 405 and compressed assets.

mod common;

use reqwest::multipart::{Form, Part};
use reqwest::StatusCode;
use serde_json::Value;
use std::io::Read;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;
use urlkit_web::store::{DirStore, ResultId};
use urlkit_web::{app, serve_connections, AppState, ConnectionLimits, RateLimit, TlsMode};

const HEADER_TIMEOUT: Duration = Duration::from_secs(1);
const IDLE_TIMEOUT: Duration = Duration::from_secs(2);
/// Slack for timers and a busy machine.
const SLACK: Duration = Duration::from_secs(3);

struct Options {
    max_connections: usize,
    max_uploads: usize,
    rate_limit: Option<RateLimit>,
    trusted_proxies: Vec<ipnet::IpNet>,
    tls: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_connections: 1000,
            max_uploads: 16,
            rate_limit: None,
            trusted_proxies: Vec::new(),
            tls: false,
        }
    }
}

struct Server {
    addr: SocketAddr,
    dir: PathBuf,
    /// The certificate the server presents, with TLS.
    cert_pem: Option<String>,
}

impl Server {
    async fn start(options: Options) -> Server {
        let _ = rlimit::increase_nofile_limit(u64::MAX);
        let dir = std::env::temp_dir().join(format!(
            "urlkit-limits-test-{}",
            ResultId::random().unwrap()
        ));
        let store = DirStore::open(&dir).unwrap().with_quota(Some(1 << 30));
        let (tls, cert_pem) = if options.tls {
            let (cert, key) = urlkit_web::tls::self_signed().unwrap();
            std::fs::write(dir.join("cert.pem"), &cert).unwrap();
            std::fs::write(dir.join("key.pem"), &key).unwrap();
            let mode = TlsMode::Pem {
                cert: dir.join("cert.pem"),
                key: dir.join("key.pem"),
            };
            (urlkit_web::tls::config(&mode).await.unwrap(), Some(cert))
        } else {
            (None, None)
        };
        let state = AppState::new(
            Arc::new(store),
            1 << 20,
            Duration::from_secs(900),
            tls.is_some(),
        )
        .with_limits(
            options.max_uploads,
            IDLE_TIMEOUT,
            options.rate_limit,
            options.trusted_proxies,
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let limits = ConnectionLimits {
            header_timeout: HEADER_TIMEOUT,
            idle_timeout: IDLE_TIMEOUT,
            max_connections: options.max_connections,
            shutdown_grace: Duration::from_secs(1),
        };
        let metrics = state.metrics();
        tokio::spawn(serve_connections(
            listener,
            app(state),
            tls,
            limits,
            metrics,
            std::future::pending(),
        ));
        Server {
            addr,
            dir,
            cert_pem,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Uploads a few bytes to be encoded.
    async fn upload(&self) -> reqwest::Response {
        self.upload_as(None).await
    }

    /// Uploads a few bytes to be encoded, as `client` through the trusted proxy when given.
    async fn upload_as(&self, client: Option<&str>) -> reqwest::Response {
        let form = Form::new()
            .text("op", "encode")
            .part("file", Part::bytes(b"abc".to_vec()).file_name("a"));
        let mut request = reqwest::Client::new().post(self.url("/api/files"));
        if let Some(client) = client {
            request = request.header("x-forwarded-for", client);
        }
        request.multipart(form).send().await.unwrap()
    }

    fn results_left(&self) -> usize {
        std::fs::read_dir(&self.dir)
            .unwrap()
            .filter(|e| {
                !e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .ends_with(".pem")
            })
            .count()
    }

    /// A TLS connection to the server, handshake done.
    async fn tls_connect(&self) -> tokio_rustls::client::TlsStream<TcpStream> {
        let pem = self.cert_pem.as_ref().unwrap();
        common::tls_connect(self.addr, pem, b"http/1.1").await
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// How long until the server closes `stream` (end of file or an error), reading and
/// dropping whatever it sends meanwhile; `None` if it is still open after `limit`.
async fn closed_within(stream: &mut (impl AsyncRead + Unpin), limit: Duration) -> Option<Duration> {
    let started = Instant::now();
    let mut sink = [0u8; 4096];
    loop {
        let left = limit.checked_sub(started.elapsed())?;
        match tokio::time::timeout(left, stream.read(&mut sink)).await {
            Err(_) => return None,
            Ok(Ok(0)) | Ok(Err(_)) => return Some(started.elapsed()),
            Ok(Ok(_)) => {}
        }
    }
}

/// `count` connections to the server that send nothing.
async fn silent_connections(server: &Server, count: usize) -> Vec<TcpStream> {
    let mut silent = Vec::with_capacity(count);
    for _ in 0..count {
        silent.push(TcpStream::connect(server.addr).await.unwrap());
    }
    silent
}

/// How many of `streams` the server closes, each within `limit`.
async fn closed_count(streams: &mut [TcpStream], limit: Duration) -> usize {
    let mut closed = 0;
    for stream in streams {
        if closed_within(stream, limit).await.is_some() {
            closed += 1;
        }
    }
    closed
}

/// Sends one HTTP/1.1 request on `stream` and reads its answer (status and body) without
/// closing the connection; the answer must carry `Content-Length`.
async fn exchange(
    stream: &mut (impl AsyncRead + AsyncWrite + Unpin),
    request: &str,
) -> (u16, String) {
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let mut byte = [0u8; 1];
    while !answer.ends_with(b"\r\n\r\n") {
        stream.read_exact(&mut byte).await.unwrap();
        answer.push(byte[0]);
    }
    let head = String::from_utf8(answer).unwrap();
    let length: usize = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")
                .map(|v| v.trim().parse().unwrap())
        })
        .unwrap();
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body).await.unwrap();
    let status = head[9..12].parse().unwrap();
    (status, String::from_utf8_lossy(&body).into_owned())
}

const HEALTH: &str = "GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n";

/// The HTTP/2 connection preface, an empty SETTINGS frame, and optionally `GET /healthz` on
/// stream 1 (HPACK: `:method GET`, `:scheme http`, `:path` literal, all from the static
/// table or as a literal without indexing).
fn h2_preface(with_request: bool) -> Vec<u8> {
    let mut bytes = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
    bytes.extend_from_slice(&[0, 0, 0, 0x4, 0, 0, 0, 0, 0]);
    if with_request {
        let mut block = vec![0x82, 0x86, 0x04, 8];
        block.extend_from_slice(b"/healthz");
        block.extend_from_slice(&[0x41, 1, b'a']);
        let length = block.len() as u8;
        bytes.extend_from_slice(&[0, 0, length, 0x1, 0x5, 0, 0, 0, 1]);
        bytes.extend_from_slice(&block);
    }
    bytes
}

#[tokio::test]
async fn silent_plain_connections_are_closed_before_and_between_requests() {
    let server = Server::start(Options::default()).await;
    // HTTP/1 and HTTP/2 alike: nothing sent at all.
    let mut silent = TcpStream::connect(server.addr).await.unwrap();
    let lasted = closed_within(&mut silent, HEADER_TIMEOUT + SLACK).await;
    assert!(
        lasted.is_some_and(|t| t >= HEADER_TIMEOUT / 2),
        "{lasted:?}"
    );
    // HTTP/1.1: a request answered, then silence on the kept-alive connection.
    let mut kept = TcpStream::connect(server.addr).await.unwrap();
    let (status, _) = exchange(&mut kept, HEALTH).await;
    assert_eq!(status, 200);
    let lasted = closed_within(&mut kept, IDLE_TIMEOUT + SLACK).await;
    assert!(lasted.is_some(), "an idle HTTP/1.1 connection stayed open");
    // HTTP/2 with prior knowledge: the preface alone, then silence.
    let mut h2 = TcpStream::connect(server.addr).await.unwrap();
    h2.write_all(&h2_preface(false)).await.unwrap();
    let lasted = closed_within(&mut h2, HEADER_TIMEOUT + SLACK).await;
    assert!(lasted.is_some(), "a silent HTTP/2 connection stayed open");
    // HTTP/2: a request on stream 1 answered, then silence.
    let mut h2 = TcpStream::connect(server.addr).await.unwrap();
    h2.write_all(&h2_preface(true)).await.unwrap();
    let mut answer = vec![0u8; 9];
    h2.read_exact(&mut answer).await.unwrap();
    let started = Instant::now();
    let lasted = closed_within(&mut h2, IDLE_TIMEOUT + SLACK).await;
    assert!(lasted.is_some(), "an idle HTTP/2 connection stayed open");
    assert!(
        started.elapsed() >= IDLE_TIMEOUT / 2,
        "{:?}",
        started.elapsed()
    );
}

/// How long until the server closes an HTTP/2 connection that was sent `opening`, then a
/// PING every 300 ms for as long as it stays open (at most `limit`); `None` if it outlives
/// `limit`.
async fn pinged_connection_lasts(
    server: &Server,
    opening: Vec<u8>,
    limit: Duration,
) -> Option<Duration> {
    let stream = TcpStream::connect(server.addr).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    writer.write_all(&opening).await.unwrap();
    let pinger = tokio::spawn(async move {
        let ping = [0, 0, 8, 0x6, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8];
        for _ in 0..100 {
            tokio::time::sleep(Duration::from_millis(300)).await;
            if writer.write_all(&ping).await.is_err() {
                break;
            }
        }
    });
    let lasted = closed_within(&mut reader, limit).await;
    pinger.abort();
    lasted
}

#[tokio::test]
async fn http2_connections_that_only_ping_are_closed() {
    let server = Server::start(Options::default()).await;
    // No request ever: closed at the header timeout from opening, whatever frames come.
    let lasted = pinged_connection_lasts(&server, h2_preface(false), HEADER_TIMEOUT + SLACK).await;
    assert!(lasted.is_some(), "a connection that only pings stayed open");
    // One request answered, then only PINGs: closed at the idle timeout.
    let lasted = pinged_connection_lasts(&server, h2_preface(true), IDLE_TIMEOUT + SLACK).await;
    assert!(
        lasted.is_some_and(|t| t >= IDLE_TIMEOUT / 2),
        "a connection that pings after its request: {lasted:?}"
    );
}

#[tokio::test]
async fn silent_tls_connections_are_closed_before_and_after_the_handshake() {
    let server = Server::start(Options {
        tls: true,
        ..Options::default()
    })
    .await;
    // No handshake at all.
    let mut silent = TcpStream::connect(server.addr).await.unwrap();
    assert!(closed_within(&mut silent, HEADER_TIMEOUT + SLACK)
        .await
        .is_some());
    // A handshake, then nothing.
    let mut after_handshake = server.tls_connect().await;
    assert!(
        closed_within(&mut after_handshake, HEADER_TIMEOUT + SLACK)
            .await
            .is_some(),
        "a TLS connection idle after its handshake stayed open"
    );
    // A request answered over TLS, then silence.
    let mut kept = server.tls_connect().await;
    let (status, _) = exchange(&mut kept, HEALTH).await;
    assert_eq!(status, 200);
    assert!(closed_within(&mut kept, IDLE_TIMEOUT + SLACK)
        .await
        .is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_connection_cap_new_clients_get_503_and_the_silent_ones_go() {
    let server = Server::start(Options {
        max_connections: 100,
        ..Options::default()
    })
    .await;
    let mut silent = silent_connections(&server, 100).await;
    // Let the server accept them all.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut refused = TcpStream::connect(server.addr).await.unwrap();
    let mut answer = String::new();
    let _ = tokio::time::timeout(SLACK, refused.read_to_string(&mut answer)).await;
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer:?}");
    assert!(
        answer.to_ascii_lowercase().contains("retry-after: 5"),
        "{answer}"
    );
    let body: Value = serde_json::from_str(answer.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(body["error"]["code"], "busy");
    // The silent ones are closed in time, and the server answers again.
    assert_eq!(closed_count(&mut silent, HEADER_TIMEOUT + SLACK).await, 100);
    let response = reqwest::get(server.url("/healthz")).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_silent_connections_do_not_keep_others_waiting() {
    let server = Server::start(Options {
        max_connections: 2000,
        ..Options::default()
    })
    .await;
    let mut silent = silent_connections(&server, 1000).await;
    let client = reqwest::Client::new();
    for _ in 0..20 {
        let started = Instant::now();
        let response = client.get(server.url("/healthz")).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "{:?}",
            started.elapsed()
        );
    }
    assert_eq!(
        closed_count(&mut silent, HEADER_TIMEOUT + SLACK).await,
        1000
    );
}

/// Headers of a multipart upload announcing `length` bytes of body.
fn upload_head(length: usize) -> String {
    format!(
        "POST /api/files HTTP/1.1\r\nHost: a\r\nContent-Type: multipart/form-data; boundary=B\r\n\
         Content-Length: {length}\r\n\r\n"
    )
}

const UPLOAD_START: &str = "--B\r\nContent-Disposition: form-data; name=\"op\"\r\n\r\nencode\r\n\
--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a\"\r\n\r\nsome bytes";

#[tokio::test]
async fn stalled_bodies_are_cut_off_with_408_and_nothing_is_kept() {
    let server = Server::start(Options::default()).await;
    // An upload that stops sending half-way.
    let mut upload = TcpStream::connect(server.addr).await.unwrap();
    upload
        .write_all(format!("{}{UPLOAD_START}", upload_head(100_000)).as_bytes())
        .await
        .unwrap();
    let started = Instant::now();
    let mut answer = String::new();
    let _ = tokio::time::timeout(IDLE_TIMEOUT + SLACK, upload.read_to_string(&mut answer)).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer:?}");
    assert!(answer.contains("\"body-timeout\""), "{answer}");
    assert!(
        started.elapsed() >= IDLE_TIMEOUT / 2,
        "{:?}",
        started.elapsed()
    );
    assert_eq!(server.results_left(), 0);
    // A text request whose body stops.
    let mut text = TcpStream::connect(server.addr).await.unwrap();
    text.write_all(
        b"POST /api/decode HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n\
          Content-Length: 100\r\n\r\n{\"input\": \"%4",
    )
    .await
    .unwrap();
    let mut answer = String::new();
    let _ = tokio::time::timeout(IDLE_TIMEOUT + SLACK, text.read_to_string(&mut answer)).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer:?}");
}

#[tokio::test]
async fn uploads_past_the_cap_get_503_at_once() {
    let server = Server::start(Options {
        max_uploads: 2,
        trusted_proxies: vec!["127.0.0.1/32".parse().unwrap()],
        ..Options::default()
    })
    .await;
    // Two uploads in progress from two clients, sending slowly.
    let mut slow = Vec::new();
    for client in ["192.0.2.1", "192.0.2.2"] {
        slow.push(slow_upload(&server, client).await);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = Instant::now();
    let response = server.upload().await;
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(response.headers()["retry-after"], "5");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "busy");
    assert!(started.elapsed() < Duration::from_secs(1));
    // Once the stalled ones are cut off, uploads are taken again.
    for stream in &mut slow {
        assert!(closed_within(stream, IDLE_TIMEOUT + SLACK).await.is_some());
    }
    assert_eq!(server.upload().await.status(), StatusCode::CREATED);
}

/// An upload from `client` (through the trusted proxy on 127.0.0.1) that has sent the
/// file's first bytes and then waits.
async fn slow_upload(server: &Server, client: &str) -> TcpStream {
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let head = upload_head(100_000).replace(
        "Host: a\r\n",
        &format!("Host: a\r\nX-Forwarded-For: {client}\r\n"),
    );
    stream
        .write_all(format!("{head}{UPLOAD_START}").as_bytes())
        .await
        .unwrap();
    stream
}

#[tokio::test]
async fn one_client_holds_at_most_a_quarter_of_the_upload_slots() {
    let server = Server::start(Options {
        max_uploads: 16,
        trusted_proxies: vec!["127.0.0.1/32".parse().unwrap()],
        ..Options::default()
    })
    .await;
    let mut slow = Vec::new();
    for _ in 0..4 {
        slow.push(slow_upload(&server, "192.0.2.7").await);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    // A fifth from the same client waits its turn; another client's upload goes through.
    let refused = server.upload_as(Some("192.0.2.7")).await;
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(refused.headers()["retry-after"], "5");
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"]["code"], "uploads-per-client", "{body}");
    assert_eq!(
        server.upload_as(Some("192.0.2.8")).await.status(),
        StatusCode::CREATED
    );
    // Once the stalled ones are cut off, the client's uploads are taken again.
    for stream in &mut slow {
        assert!(closed_within(stream, IDLE_TIMEOUT + SLACK).await.is_some());
    }
    assert_eq!(
        server.upload_as(Some("192.0.2.7")).await.status(),
        StatusCode::CREATED
    );
}

#[tokio::test]
async fn an_upload_that_trickles_is_cut_off_with_408_and_frees_its_slot() {
    let server = Server::start(Options {
        max_uploads: 1,
        ..Options::default()
    })
    .await;
    // One byte every half second: never idle for the idle timeout, far below 1 KiB/s.
    let mut trickle = TcpStream::connect(server.addr).await.unwrap();
    trickle
        .write_all(format!("{}{UPLOAD_START}", upload_head(100_000)).as_bytes())
        .await
        .unwrap();
    let window = IDLE_TIMEOUT + Duration::from_secs(5);
    let started = Instant::now();
    let mut answer = Vec::new();
    let mut sink = [0u8; 4096];
    while started.elapsed() < window + SLACK {
        if trickle.write_all(b"x").await.is_err() {
            break;
        }
        match tokio::time::timeout(Duration::from_millis(500), trickle.read(&mut sink)).await {
            Ok(Ok(0)) | Ok(Err(_)) => break,
            Ok(Ok(n)) => answer.extend_from_slice(&sink[..n]),
            Err(_) => {}
        }
        if answer.windows(4).any(|w| w == b"\r\n\r\n") && answer.ends_with(b"}") {
            break;
        }
    }
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer:?}");
    assert!(answer.contains("\"too-slow\""), "{answer}");
    assert!(started.elapsed() >= window / 2, "{:?}", started.elapsed());
    assert_eq!(server.results_left(), 0);
    assert_eq!(server.upload().await.status(), StatusCode::CREATED);
}

#[tokio::test]
async fn a_body_announced_over_the_limit_is_413_before_it_is_sent() {
    let server = Server::start(Options::default()).await;
    for request in [
        "POST /api/decode HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n\
         Content-Length: 20000000000\r\n\r\n"
            .to_string(),
        // The page's forms read up to 32 MiB past their limit before answering (a browser
        // sends the whole form first); past that they answer at once too.
        format!(
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Type: application/x-www-form-urlencoded\r\n\
             Content-Length: {}\r\n\r\n",
            (16 << 20) + (32 << 20) + 1
        ),
        upload_head(20_000_000_000),
        upload_head(20_000_000_000).replace("/api/files", "/files"),
    ] {
        let started = Instant::now();
        let mut stream = TcpStream::connect(server.addr).await.unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut answer = String::new();
        let _ = tokio::time::timeout(SLACK, stream.read_to_string(&mut answer)).await;
        assert!(
            answer.starts_with("HTTP/1.1 413"),
            "{request:.40}: {answer:?}"
        );
        if request.starts_with("POST / ") || request.starts_with("POST /files ") {
            // The page's own forms answer with the page, which names the limit.
            assert!(answer.contains("text/html"), "{answer}");
            assert!(answer.contains("larger than"), "{answer}");
        } else {
            assert!(answer.contains("\"too-large\""), "{answer}");
        }
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "{:?}",
            started.elapsed()
        );
    }
}

#[tokio::test]
async fn a_form_of_repeated_fields_is_refused_at_the_first_repeat() {
    let server = Server::start(Options::default()).await;
    let mut body =
        String::from("--B\r\nContent-Disposition: form-data; name=\"op\"\r\n\r\ndecode\r\n");
    // 20,000 fields took 4.3 s and 100,000 took 139 s when every one was taken in.
    for _ in 0..20_000 {
        body.push_str("--B\r\nContent-Disposition: form-data; name=\"per_line\"\r\n\r\non\r\n");
    }
    body.push_str("--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a\"\r\n\r\n%41\r\n--B--\r\n");
    let started = Instant::now();
    let response = reqwest::Client::new()
        .post(server.url("/api/files"))
        .header("content-type", "multipart/form-data; boundary=B")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let answer: Value = response.json().await.unwrap();
    assert_eq!(answer["error"]["code"], "repeated-field", "{answer}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(server.results_left(), 0);
}

#[tokio::test]
async fn method_not_allowed_names_the_allowed_methods() {
    let server = Server::start(Options::default()).await;
    let client = reqwest::Client::new();
    let id = "0123456789abcdef0123456789abcdef";
    let head = client
        .head(server.url(&format!("/api/files/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(head.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(head.headers()["allow"], "GET");
    for (method, path, allowed) in [
        (reqwest::Method::DELETE, "/api/encode", "POST"),
        (reqwest::Method::PUT, "/api/files", "POST"),
        (reqwest::Method::POST, "/healthz", "GET,HEAD"),
    ] {
        let response = client
            .request(method.clone(), server.url(path))
            .send()
            .await
            .unwrap();
        assert_eq!(
            response.status(),
            StatusCode::METHOD_NOT_ALLOWED,
            "{method} {path}"
        );
        let allow = response.headers()["allow"]
            .to_str()
            .unwrap()
            .replace(' ', "");
        assert_eq!(allow, allowed, "{method} {path}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["error"]["code"], "method-not-allowed");
    }
}

#[tokio::test]
async fn assets_are_sent_gzip_compressed_when_the_client_accepts_it() {
    let server = Server::start(Options::default()).await;
    // No automatic decompression: the test looks at the bytes as sent.
    let client = reqwest::Client::new();
    for name in ["urlkit.wasm", "app.js", "style.css", "urlkit.mjs"] {
        let url = server.url(&format!("/assets/{name}"));
        let plain = client.get(&url).send().await.unwrap();
        assert_eq!(plain.status(), StatusCode::OK);
        assert!(plain.headers().get("content-encoding").is_none(), "{name}");
        assert_eq!(plain.headers()["vary"], "accept-encoding");
        let plain = plain.bytes().await.unwrap();
        for _ in 0..2 {
            let compressed = client
                .get(&url)
                .header("accept-encoding", "br;q=1, gzip;q=0.8")
                .send()
                .await
                .unwrap();
            assert_eq!(compressed.headers()["content-encoding"], "gzip", "{name}");
            let compressed = compressed.bytes().await.unwrap();
            assert!(compressed.len() < plain.len(), "{name}");
            let mut unpacked = Vec::new();
            flate2::read::GzDecoder::new(&compressed[..])
                .read_to_end(&mut unpacked)
                .unwrap();
            assert!(unpacked == plain, "{name}");
        }
    }
    // Other answers are sent as they are.
    let health = client
        .get(server.url("/healthz"))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert!(health.headers().get("content-encoding").is_none());
}

#[tokio::test]
async fn the_rate_limit_is_per_client_with_429_and_retry_after() {
    let server = Server::start(Options {
        rate_limit: Some(RateLimit {
            per_second: 0.2,
            burst: 3,
        }),
        trusted_proxies: vec!["127.0.0.1/32".parse().unwrap()],
        ..Options::default()
    })
    .await;
    let client = reqwest::Client::new();
    let encode = |client_ip: &'static str| {
        client
            .post(server.url("/api/encode"))
            .header("x-forwarded-for", client_ip)
            .json(&serde_json::json!({"input": "a b"}))
            .send()
    };
    for _ in 0..3 {
        assert_eq!(encode("192.0.2.1").await.unwrap().status(), StatusCode::OK);
    }
    let limited = encode("192.0.2.1").await.unwrap();
    assert_eq!(limited.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = limited.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=5).contains(&wait), "{wait}");
    let body: Value = limited.json().await.unwrap();
    assert_eq!(body["error"]["code"], "rate-limited");
    // Past a quick limit the wait is under a second: still at least 1, never 0.
    let quick = Server::start(Options {
        rate_limit: Some(RateLimit {
            per_second: 50.0,
            burst: 1,
        }),
        ..Options::default()
    })
    .await;
    let mut waits = Vec::new();
    for _ in 0..5 {
        let response = client
            .get(quick.url("/api/openapi.json"))
            .send()
            .await
            .unwrap();
        if response.status() == StatusCode::TOO_MANY_REQUESTS {
            waits.push(
                response.headers()["retry-after"]
                    .to_str()
                    .unwrap()
                    .to_owned(),
            );
        }
    }
    assert!(
        !waits.is_empty() && waits.iter().all(|w| w == "1"),
        "{waits:?}"
    );
    // Every other path counts too: readiness, metrics, unknown paths and wrong methods.
    for (method, path) in [
        (reqwest::Method::GET, "/readyz"),
        (reqwest::Method::GET, "/metrics"),
        (reqwest::Method::GET, "/no-such-page"),
        (reqwest::Method::DELETE, "/api/encode"),
    ] {
        let limited_path = Server::start(Options {
            rate_limit: Some(RateLimit {
                per_second: 0.2,
                burst: 3,
            }),
            ..Options::default()
        })
        .await;
        let mut statuses = Vec::new();
        for _ in 0..4 {
            let response = client
                .request(method.clone(), limited_path.url(path))
                .send()
                .await
                .unwrap();
            statuses.push(response.status().as_u16());
        }
        assert_eq!(statuses[3], 429, "{method} {path}: {statuses:?}");
        assert!(
            statuses[..3].iter().all(|s| *s != 429),
            "{method} {path}: {statuses:?}"
        );
    }
    // Another client behind the same proxy is not affected; the health check never is.
    assert_eq!(encode("192.0.2.2").await.unwrap().status(), StatusCode::OK);
    for _ in 0..10 {
        let health = client.get(server.url("/healthz")).send().await.unwrap();
        assert_eq!(health.status(), StatusCode::OK);
    }
    // Without a trusted proxy, X-Forwarded-For is ignored: every request is 127.0.0.1's.
    let direct = Server::start(Options {
        rate_limit: Some(RateLimit {
            per_second: 0.2,
            burst: 3,
        }),
        ..Options::default()
    })
    .await;
    let mut statuses = Vec::new();
    for forged in [
        "198.51.100.1",
        "198.51.100.2",
        "198.51.100.3",
        "198.51.100.4",
    ] {
        let response = client
            .post(direct.url("/api/encode"))
            .header("x-forwarded-for", forged)
            .json(&serde_json::json!({"input": "a"}))
            .send()
            .await
            .unwrap();
        statuses.push(response.status().as_u16());
    }
    assert_eq!(statuses, [200, 200, 200, 429]);
}

#[tokio::test]
async fn the_inspector_takes_urls_up_to_its_limit_from_the_api_and_the_page() {
    let server = Server::start(Options::default()).await;
    let client = reqwest::Client::new();
    let limit = urlkit_web::limits::INSPECT_LIMIT;
    let url = format!("http://a/?{}", "a=b&".repeat(limit / 4));
    let response = client
        .post(server.url("/api/inspect"))
        .json(&serde_json::json!({ "url": url }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    // The page's form: the inspector is bounded alike, the codec is not.
    for (op, field, expected) in [
        ("inspect", "url", StatusCode::PAYLOAD_TOO_LARGE),
        ("encode", "input", StatusCode::OK),
    ] {
        let response = client
            .post(server.url("/"))
            .form(&[("op", op), (field, &url)])
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), expected, "{op}");
    }
    let small = client
        .post(server.url("/"))
        .form(&[("op", "inspect"), ("url", "http://a/?a=b")])
        .send()
        .await
        .unwrap();
    assert_eq!(small.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_codec_request_of_millions_of_values_is_refused_unparsed() {
    let server = Server::start(Options::default()).await;
    let client = reqwest::Client::new();
    let many = format!("{{\"input\": \"a\", \"x\": [{}0]}}", "0,".repeat(2_000_000));
    let response = client
        .post(server.url("/api/encode"))
        .header("content-type", "application/json")
        .body(many)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "too-many-values", "{body}");
    // A few wrong values are still named by the request's own reader.
    let response = client
        .post(server.url("/api/decode"))
        .json(&serde_json::json!({"input": [1, 2]}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["field"], "input", "{body}");
}
