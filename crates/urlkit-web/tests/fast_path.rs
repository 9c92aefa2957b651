//! Requests a `FastPath` answers at once, on real connections: plain HTTP/1.1 with requests
//! sent one after another (answered here, then by the router once one is not the fast
//! path's), the same over TLS, and HTTP/2 with prior knowledge and over TLS (ALPN), which
//! go to hyper from their first bytes.

mod common;

use axum::body::Bytes;
use axum::http::{header, HeaderMap, HeaderValue, Method, Response, StatusCode, Uri};
use axum::routing::{get, post};
use axum::Router;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;
use urlkit_web::metrics::Metrics;
use urlkit_web::tls::TlsMode;
use urlkit_web::{serve_connections_with, ConnectionLimits, FastPath};

/// Answers `GET`/`HEAD /fast/…` with a redirect that tells what it was asked.
struct Redirects;

impl FastPath for Redirects {
    fn answer(&self, method: &Method, uri: &Uri, headers: &HeaderMap) -> Option<Response<Bytes>> {
        let path = uri.path().strip_prefix("/fast/")?;
        let mut answer = Response::new(Bytes::from(format!("to {path}\n")));
        *answer.status_mut() = StatusCode::FOUND;
        let h = answer.headers_mut();
        let location = format!("https://example.org/{path}");
        h.insert(header::LOCATION, HeaderValue::try_from(location).ok()?);
        let accept = headers.get(header::ACCEPT).cloned();
        h.insert("x-accept", accept.unwrap_or(HeaderValue::from_static("-")));
        h.insert("x-method", HeaderValue::from_str(method.as_str()).ok()?);
        Some(answer)
    }
}

struct Served {
    addr: std::net::SocketAddr,
    cert_pem: Option<String>,
}

async fn serve(tls: bool) -> Served {
    let (config, cert_pem) = if tls {
        let (cert, key) = urlkit_web::tls::self_signed().unwrap();
        let dir = std::env::temp_dir().join(format!(
            "urlkit-fast-path-{}-{}",
            std::process::id(),
            rand_suffix()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("cert.pem"), &cert).unwrap();
        std::fs::write(dir.join("key.pem"), &key).unwrap();
        let mode = TlsMode::Pem {
            cert: dir.join("cert.pem"),
            key: dir.join("key.pem"),
        };
        let config = urlkit_web::tls::config(&mode).await.unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        (config, Some(cert))
    } else {
        (None, None)
    };
    let router = Router::new()
        .route("/routed", get(|| async { "routed\n" }))
        .route("/echo", post(|body: String| async move { body }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve_connections_with(
        listener,
        router,
        Some(Arc::new(Redirects)),
        config,
        ConnectionLimits::default(),
        Arc::new(Metrics::new()),
        std::future::pending(),
    ));
    Served { addr, cert_pem }
}

fn rand_suffix() -> u64 {
    use std::hash::{BuildHasher, RandomState};
    RandomState::new().hash_one(0u8)
}

async fn tls_connect(served: &Served, alpn: &[u8]) -> tokio_rustls::client::TlsStream<TcpStream> {
    common::tls_connect(served.addr, served.cert_pem.as_ref().unwrap(), alpn).await
}

/// Requests sent one after another on `stream` in one write, the last closing the
/// connection; everything answered, without `date` lines.
async fn conversation(mut stream: impl AsyncRead + AsyncWrite + Unpin) -> String {
    let requests = "GET /fast/a HTTP/1.1\r\nHost: x\r\nAccept: text/turtle\r\n\r\n\
                    HEAD /fast/b HTTP/1.1\r\nHost: x\r\n\r\n\
                    GET /routed HTTP/1.1\r\nHost: x\r\n\r\n\
                    GET /fast/c HTTP/1.1\r\nHost: x\r\n\r\n\
                    POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello\
                    GET /fast/d HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    stream.write_all(requests.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer));
    // A TLS peer may close without a close_notify: what arrived is what counts.
    let _ = read.await.expect("the server answers and closes");
    String::from_utf8(answer)
        .unwrap()
        .split("\r\n")
        .filter(|line| !line.starts_with("date: "))
        .collect::<Vec<_>>()
        .join("\n")
}

fn assert_conversation(answer: &str) {
    assert_eq!(answer.matches("HTTP/1.1 ").count(), 6, "{answer}");
    let expected = [
        "HTTP/1.1 302 Found\nlocation: https://example.org/a\nx-accept: text/turtle\nx-method: GET\ncontent-length: 5\n\nto a\n",
        "HTTP/1.1 302 Found\nlocation: https://example.org/b\nx-accept: -\nx-method: HEAD\ncontent-length: 5\n\n",
        "HTTP/1.1 200 OK\ncontent-type: text/plain; charset=utf-8\ncontent-length: 7\n\nrouted\n",
        "HTTP/1.1 302 Found\nlocation: https://example.org/c\nx-accept: -\nx-method: GET\ncontent-length: 5\n\nto c\n",
        "HTTP/1.1 200 OK\ncontent-type: text/plain; charset=utf-8\ncontent-length: 5\n\nhello",
        "HTTP/1.1 302 Found\nlocation: https://example.org/d\nx-accept: -\nx-method: GET\nconnection: close\ncontent-length: 5\n\nto d\n",
    ]
    .concat();
    assert_eq!(answer, expected);
}

#[tokio::test]
async fn http1_requests_one_after_another_are_answered_in_order_by_both_paths() {
    let served = serve(false).await;
    let stream = TcpStream::connect(served.addr).await.unwrap();
    assert_conversation(&conversation(stream).await);
}

#[tokio::test]
async fn http1_over_tls_is_answered_as_over_plain_tcp() {
    let served = serve(true).await;
    let stream = tls_connect(&served, b"http/1.1").await;
    assert_conversation(&conversation(stream).await);
}

/// `GET /fast/x` and `GET /routed` over HTTP/2 on `io`.
async fn over_http2(io: impl AsyncRead + AsyncWrite + Unpin + Send + 'static) {
    let (mut client, connection) = h2::client::handshake(io).await.unwrap();
    tokio::spawn(connection);
    for (path, status, body) in [
        ("/fast/x", StatusCode::FOUND, "to x\n"),
        ("/routed", StatusCode::OK, "routed\n"),
    ] {
        let request = axum::http::Request::get(format!("https://localhost{path}"))
            .body(())
            .unwrap();
        client = client.ready().await.unwrap();
        let (response, _) = client.send_request(request, true).unwrap();
        let response = response.await.unwrap();
        assert_eq!(response.status(), status, "{path}");
        if status == StatusCode::FOUND {
            assert_eq!(
                response.headers()[header::LOCATION],
                "https://example.org/x"
            );
        }
        let mut received = response.into_body();
        let mut text = Vec::new();
        while let Some(chunk) = received.data().await {
            let chunk = chunk.unwrap();
            let _ = received.flow_control().release_capacity(chunk.len());
            text.extend_from_slice(&chunk);
        }
        assert_eq!(String::from_utf8(text).unwrap(), body, "{path}");
    }
}

#[tokio::test]
async fn http2_with_prior_knowledge_goes_to_hyper_and_is_answered() {
    let served = serve(false).await;
    over_http2(TcpStream::connect(served.addr).await.unwrap()).await;
}

#[tokio::test]
async fn http2_over_tls_is_answered() {
    let served = serve(true).await;
    over_http2(tls_connect(&served, b"h2").await).await;
}
