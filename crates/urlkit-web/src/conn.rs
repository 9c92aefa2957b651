//! Connections: accepting them (plain or TLS), capping how many are open, and closing the
//! ones that send nothing.
//!
//! Every connection is watched, by what its requests do rather than by its bytes. One whose
//! first request's headers have not all arrived within the header timeout of opening (TLS
//! handshake included) is closed, whatever it sends meanwhile: HTTP/2 PINGs, SETTINGS or
//! window updates keep nothing open. After that, one that has had no request in flight and
//! no response body moving for the idle timeout is closed the same way. HTTP/1 and HTTP/2
//! alike. A request body that stalls is the body idle timeout's business
//! ([`crate::routes`]); a response body the client stops reading stops moving, and its
//! connection goes after the idle timeout.
//!
//! Past [`ConnectionLimits::max_connections`] open connections a new one gets a 503 JSON
//! answer (`Retry-After: 5`) and is closed at once; a few such answers are written at a
//! time, and past those further connections are closed without one. Accept errors (such
//! as running out of descriptors) are logged once a second at most, and accepting resumes
//! after a short pause.

use crate::metrics::Metrics;
use axum::body::Bytes;
use axum::extract::connect_info::ConnectInfo;
use axum::http::{HeaderMap, Method, Request, Uri};
use axum::response::Response;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::server::graceful::Watcher;
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tower::ServiceExt;

mod fast_http1;

/// How connections are bounded.
#[derive(Clone, Debug)]
pub struct ConnectionLimits {
    /// Time from opening a connection to its first request's headers (TLS handshake
    /// included); HTTP/1 headers must also arrive within it.
    pub header_timeout: Duration,
    /// A connection with no request being handled that sends and receives nothing for
    /// this long is closed.
    pub idle_timeout: Duration,
    /// Most connections open at once; past it new ones get a 503.
    pub max_connections: usize,
    /// How long requests in flight may take to finish once shutdown has begun.
    pub shutdown_grace: Duration,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits {
            header_timeout: crate::HEADER_TIMEOUT,
            idle_timeout: crate::IDLE_TIMEOUT,
            max_connections: crate::MAX_CONNECTIONS,
            shutdown_grace: Duration::from_secs(10),
        }
    }
}

/// Refusals (503 answers past the connection cap) being written at once, at most.
pub const REFUSALS_AT_ONCE: usize = 64;

/// How long a refused connection is read from after its answer, so that a request it sent
/// meanwhile does not turn the close into a reset that loses the answer.
const REFUSAL_DRAIN: Duration = Duration::from_millis(500);

/// What a connection has done lately, shared by its socket, its requests and its watch.
struct Activity {
    opened: Instant,
    /// Milliseconds from `opened` to the last byte read or written.
    last: AtomicU64,
    in_flight: AtomicUsize,
    started_a_request: AtomicBool,
}

impl Activity {
    fn new() -> Self {
        Activity {
            opened: Instant::now(),
            last: AtomicU64::new(0),
            in_flight: AtomicUsize::new(0),
            started_a_request: AtomicBool::new(false),
        }
    }

    fn touch(&self) {
        let now = self.opened.elapsed().as_millis() as u64;
        self.last.store(now, Ordering::Relaxed);
    }

    fn idle_for(&self) -> Duration {
        let last = Duration::from_millis(self.last.load(Ordering::Relaxed));
        self.opened.elapsed().saturating_sub(last)
    }

    fn begin_request(self: &Arc<Self>) -> RequestGuard {
        self.started_a_request.store(true, Ordering::Relaxed);
        self.in_flight.fetch_add(1, Ordering::Relaxed);
        RequestGuard(Arc::clone(self))
    }

    /// A request answered as soon as it was read: begun and ended at once.
    fn answered_at_once(&self) {
        self.started_a_request.store(true, Ordering::Relaxed);
        self.touch();
    }
}

/// A request being handled; its connection is not idle meanwhile.
struct RequestGuard(Arc<Activity>);

impl Drop for RequestGuard {
    fn drop(&mut self) {
        self.0.touch();
        self.0.in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A response body that notes in [`Activity`] every frame it yields: a long download
/// keeps its connection open while it moves.
struct Noted {
    inner: axum::body::Body,
    activity: Arc<Activity>,
}

impl http_body::Body for Noted {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        if matches!(polled, Poll::Ready(Some(Ok(_)))) {
            self.activity.touch();
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// Completes when the connection has gone too long without a request: before its first
/// request's headers, the header timeout from opening; later, the idle timeout since its
/// last request or response frame; never while a request is handled.
async fn silence(activity: &Activity, limits: &ConnectionLimits) {
    loop {
        if !activity.started_a_request.load(Ordering::Relaxed) {
            match limits.header_timeout.checked_sub(activity.opened.elapsed()) {
                Some(left) if !left.is_zero() => {
                    tokio::time::sleep(left).await;
                    continue;
                }
                _ => return,
            }
        }
        let limit = limits.idle_timeout;
        let wait = if activity.in_flight.load(Ordering::Relaxed) > 0 {
            limit
        } else {
            match limit.checked_sub(activity.idle_for()) {
                Some(left) if !left.is_zero() => left,
                _ => return,
            }
        };
        tokio::time::sleep(wait).await;
    }
}

/// Requests a server answers at once, before its router and its middleware: without their
/// body, their peer's address or a task of their own (a redirect looked up in memory, say).
pub trait FastPath: Send + Sync + 'static {
    /// The whole answer to a request of `method` for `uri` with `headers`, with everything
    /// the router's middleware would have added; `None` passes the request on to the
    /// router. Whatever the request holds, this answers or passes; it does not fail.
    fn answer(&self, method: &Method, uri: &Uri, headers: &HeaderMap) -> Option<Response<Bytes>>;

    /// The answer to an HTTP/1.1 `request` read on a connection, handed to `write` as its
    /// parts, without a `Response` or a `HeaderMap` built: what [`FastPath::answer`] would
    /// answer, with the same headers in the same order. Returns whether it answered:
    /// `false` (what this does unless a server overrides it) asks [`FastPath::answer`]
    /// instead, so an implementation must not have counted or changed anything then.
    fn answer_plainly(
        &self,
        request: &PlainRequest<'_>,
        write: &mut dyn FnMut(PlainAnswer<'_>),
    ) -> bool {
        let _ = (request, write);
        false
    }
}

/// An HTTP/1.1 `GET` or `HEAD` without a body, as read on a connection, for
/// [`FastPath::answer_plainly`]: its target and header fields are ones hyper takes (the
/// others go to [`FastPath::answer`] or to hyper).
pub struct PlainRequest<'a> {
    /// `GET` or `HEAD`.
    pub method: &'a Method,
    /// The path as sent: starts with `/`, and holds only the characters RFC 3986 allows
    /// in a path (escapes as sent, not decoded).
    pub path: &'a str,
    /// The query as sent, without its `?`.
    pub query: Option<&'a str>,
    /// The request head as read, and where its header fields' names and values lie in it.
    head: &'a [u8],
    fields: &'a [(fast_http1::Span, fast_http1::Span)],
}

impl PlainRequest<'_> {
    /// The first value of the header field `name` (any case), when it is visible ASCII, as
    /// [`axum::http::HeaderValue::to_str`] reads it; `None` for a field absent or not text.
    pub fn header(&self, name: &str) -> Option<&str> {
        let (_, value) = self
            .fields
            .iter()
            .find(|(field, _)| self.head[field.range()].eq_ignore_ascii_case(name.as_bytes()))?;
        let value = &self.head[value.range()];
        value
            .iter()
            .all(|&b| b == b'\t' || (b' '..=b'~').contains(&b))
            .then(|| std::str::from_utf8(value).ok())
            .flatten()
    }
}

/// An answer in parts, for [`FastPath::answer_plainly`]: written as a `Response` of the
/// same status, headers and body would be.
pub struct PlainAnswer<'a> {
    /// The status.
    pub status: axum::http::StatusCode,
    /// The header fields in the order written: names in lower case, values valid header
    /// values (visible ASCII, spaces and tabs).
    pub headers: &'a [(&'a str, &'a [u8])],
    /// The body (left out for `HEAD`).
    pub body: &'a [u8],
}

/// A response body: whole, from a [`FastPath`], or the router's, noted as it moves.
enum Reply {
    Whole(Option<Bytes>),
    Routed(Noted),
}

impl http_body::Body for Reply {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        match self.get_mut() {
            Reply::Whole(bytes) => Poll::Ready(
                bytes
                    .take()
                    .filter(|b| !b.is_empty())
                    .map(|b| Ok(http_body::Frame::data(b))),
            ),
            Reply::Routed(noted) => Pin::new(noted).poll_frame(cx),
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            Reply::Whole(bytes) => bytes.as_ref().is_none_or(|b| b.is_empty()),
            Reply::Routed(noted) => noted.is_end_stream(),
        }
    }

    fn size_hint(&self) -> http_body::SizeHint {
        match self {
            Reply::Whole(bytes) => {
                http_body::SizeHint::with_exact(bytes.as_ref().map_or(0, |b| b.len() as u64))
            }
            Reply::Routed(noted) => noted.size_hint(),
        }
    }
}

/// A response at once, or the router's to come.
enum Answering {
    Now(Option<Response<Reply>>),
    Routed(Pin<Box<dyn Future<Output = Result<Response<Reply>, Infallible>> + Send>>),
}

impl Future for Answering {
    type Output = Result<Response<Reply>, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.get_mut() {
            // Polled once: hyper drops a future that answered.
            Answering::Now(response) => match response.take() {
                Some(response) => Poll::Ready(Ok(response)),
                None => Poll::Pending,
            },
            Answering::Routed(future) => future.as_mut().poll(cx),
        }
    }
}

/// The answer past the connection cap, written without reading the request.
fn refusal() -> Vec<u8> {
    let body = crate::error::ApiError::new(
        axum::http::StatusCode::SERVICE_UNAVAILABLE,
        "busy",
        "the server has as many connections as it takes; try again in a few seconds",
    )
    .body();
    let body = serde_json::to_string(&body).unwrap_or_default();
    format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         retry-after: 5\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// Serves `router` on `listener` over HTTP/1.1 and HTTP/2 (with `tls`, over TLS with ALPN)
/// until `shutdown` completes; then stops accepting and lets requests in flight finish
/// for at most [`ConnectionLimits::shutdown_grace`].
///
/// Each request carries its peer's address as [`ConnectInfo<SocketAddr>`].
pub async fn serve_connections(
    listener: TcpListener,
    router: Router,
    tls: Option<Arc<rustls::ServerConfig>>,
    limits: ConnectionLimits,
    metrics: Arc<Metrics>,
    shutdown: impl Future<Output = ()>,
) {
    serve_connections_with(listener, router, None, tls, limits, metrics, shutdown).await;
}

/// As [`serve_connections`], with requests that `fast` answers answered before the router
/// (on the connection's own task; see [`FastPath`]). On a connection whose first requests
/// are HTTP/1.1 `GET`s and `HEAD`s that `fast` answers, those are read and answered without
/// hyper; the first other request (another method, a body, an upgrade, HTTP/1.0 or
/// HTTP/2, a head that does not parse, or one `fast` passes on) hands the connection, with
/// the bytes read and not answered, to hyper and the router for the rest of its life.
pub async fn serve_connections_with(
    listener: TcpListener,
    router: Router,
    fast: Option<Arc<dyn FastPath>>,
    tls: Option<Arc<rustls::ServerConfig>>,
    limits: ConnectionLimits,
    metrics: Arc<Metrics>,
    shutdown: impl Future<Output = ()>,
) {
    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    // No keep-alive pings: the watch closes silent connections, and pings would keep them.
    builder
        .http2()
        .timer(TokioTimer::new())
        .keep_alive_interval(None)
        .max_concurrent_streams(64);
    let builder = Arc::new(builder);
    let limits = Arc::new(limits);
    let open = Arc::new(Semaphore::new(limits.max_connections));
    let refusing = Arc::new(Semaphore::new(REFUSALS_AT_ONCE));
    let refusal: Arc<[u8]> = refusal().into();
    let tls = tls.map(|config| {
        // Refusals speak HTTP/1.1 whatever the client offers.
        let mut refusal_config = (*config).clone();
        refusal_config.alpn_protocols = vec![b"http/1.1".to_vec()];
        (
            tokio_rustls::TlsAcceptor::from(config),
            tokio_rustls::TlsAcceptor::from(Arc::new(refusal_config)),
        )
    });
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    // Connections answered by `fast` before hyper takes them close when this turns true.
    let (closing_sender, closing) = tokio::sync::watch::channel(false);
    let mut shutdown = std::pin::pin!(shutdown);
    let mut last_accept_warning: Option<Instant> = None;
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    if last_accept_warning.is_none_or(|t| t.elapsed() >= Duration::from_secs(1)) {
                        tracing::warn!("cannot accept a connection: {e}");
                        last_accept_warning = Some(Instant::now());
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let Ok(permit) = Arc::clone(&open).try_acquire_owned() else {
            metrics.connections_refused.inc();
            if let Ok(slot) = Arc::clone(&refusing).try_acquire_owned() {
                let refusal = Arc::clone(&refusal);
                let acceptor = tls.as_ref().map(|(_, refuse)| refuse.clone());
                let timeout = limits.header_timeout.min(Duration::from_secs(2));
                let drain = REFUSAL_DRAIN;
                tokio::spawn(async move {
                    let _ =
                        tokio::time::timeout(timeout, refuse(stream, acceptor, &refusal, drain))
                            .await;
                    drop(slot);
                });
            }
            continue;
        };
        let activity = Arc::new(Activity::new());
        let io = stream;
        let service = RequestService {
            router: router.clone(),
            fast: fast.clone(),
            peer,
            activity: Arc::clone(&activity),
        };
        let builder = Arc::clone(&builder);
        let limits = Arc::clone(&limits);
        let acceptor = tls.as_ref().map(|(accept, _)| accept.clone());
        let watcher = graceful.watcher();
        let metrics = Arc::clone(&metrics);
        let fast = fast.clone();
        let mut closing = closing.clone();
        tokio::spawn(async move {
            metrics.connections_open.inc();
            let _open = OpenConnection {
                _permit: permit,
                metrics: Arc::clone(&metrics),
            };
            let served = async {
                let fast = fast.as_deref();
                match acceptor {
                    None => {
                        serve(
                            io,
                            fast,
                            &builder,
                            service,
                            watcher,
                            &activity,
                            &mut closing,
                        )
                        .await
                    }
                    Some(acceptor) => {
                        let handshake =
                            tokio::time::timeout(limits.header_timeout, acceptor.accept(io));
                        let Ok(Ok(stream)) = handshake.await else {
                            return Ok(());
                        };
                        serve(
                            stream,
                            fast,
                            &builder,
                            service,
                            watcher,
                            &activity,
                            &mut closing,
                        )
                        .await
                    }
                }
            };
            tokio::select! {
                result = served => {
                    if let Err(e) = result {
                        tracing::debug!("connection ended: {e}");
                    }
                }
                () = silence(&activity, &limits) => {
                    tracing::debug!("closed a silent connection");
                    metrics.connections_silent.inc();
                }
            }
        });
    }
    drop(listener);
    let _ = closing_sender.send(true);
    tokio::select! {
        () = graceful.shutdown() => {},
        () = tokio::time::sleep(limits.shutdown_grace) => {
            tracing::warn!("requests still in flight after {:?}; stopping anyway", limits.shutdown_grace);
        },
    }
}

/// Serves one connection: the requests `fast` answers as they come (see [`fast_http1`]),
/// then, from the first it does not, hyper and the router.
async fn serve<I>(
    io: I,
    fast: Option<&dyn FastPath>,
    builder: &Builder<TokioExecutor>,
    service: RequestService,
    watcher: Watcher,
    activity: &Activity,
    closing: &mut tokio::sync::watch::Receiver<bool>,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>>
where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let Some(fast) = fast else {
        return serve_with_hyper(io, builder, service, watcher).await;
    };
    match fast_http1::answer_while_fast(io, fast, activity, closing).await? {
        fast_http1::Ended::HandedOver(io) => serve_with_hyper(io, builder, service, watcher).await,
        fast_http1::Ended::Closed => Ok(()),
    }
}

/// Serves a connection with hyper and the router, HTTP/1 or HTTP/2, until it ends or
/// shutdown's grace is over.
async fn serve_with_hyper<I>(
    io: I,
    builder: &Builder<TokioExecutor>,
    service: RequestService,
    watcher: Watcher,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>>
where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let connection = builder.serve_connection_with_upgrades(TokioIo::new(io), service);
    watcher.watch(connection.into_owned()).await
}

/// A connection's place under the cap, and in the count of open connections.
struct OpenConnection {
    _permit: tokio::sync::OwnedSemaphorePermit,
    metrics: Arc<Metrics>,
}

impl Drop for OpenConnection {
    fn drop(&mut self) {
        self.metrics.connections_open.dec();
    }
}

/// The router for one connection's requests: each gets the peer's address, counts as in
/// flight until its response has been produced, and notes each frame of its response body.
#[derive(Clone)]
struct RequestService {
    router: Router,
    fast: Option<Arc<dyn FastPath>>,
    peer: SocketAddr,
    activity: Arc<Activity>,
}

impl hyper::service::Service<Request<Incoming>> for RequestService {
    type Response = Response<Reply>;
    type Error = Infallible;
    type Future = Answering;

    fn call(&self, mut request: Request<Incoming>) -> Self::Future {
        if let Some(fast) = &self.fast {
            if let Some(response) = fast.answer(request.method(), request.uri(), request.headers())
            {
                self.activity.answered_at_once();
                return Answering::Now(Some(response.map(|body| Reply::Whole(Some(body)))));
            }
        }
        request.extensions_mut().insert(ConnectInfo(self.peer));
        let guard = self.activity.begin_request();
        let answer = self.router.clone().oneshot(request);
        let activity = Arc::clone(&self.activity);
        Answering::Routed(Box::pin(async move {
            let response = answer
                .await
                .map(|response| response.map(|inner| Reply::Routed(Noted { inner, activity })));
            drop(guard);
            response
        }))
    }
}

/// Writes the 503 refusal (after a handshake with `tls`), then reads what the client sent
/// for a moment before closing, so that the answer is not lost to a reset.
async fn refuse(
    stream: TcpStream,
    tls: Option<tokio_rustls::TlsAcceptor>,
    answer: &[u8],
    drain: Duration,
) {
    async fn answer_and_close(
        mut stream: impl AsyncRead + AsyncWrite + Unpin,
        answer: &[u8],
        drain: Duration,
    ) {
        use tokio::io::AsyncReadExt;
        if stream.write_all(answer).await.is_err() || stream.shutdown().await.is_err() {
            return;
        }
        let mut sink = [0u8; 4096];
        let reading = async { while matches!(stream.read(&mut sink).await, Ok(n) if n > 0) {} };
        let _ = tokio::time::timeout(drain, reading).await;
    }
    match tls {
        None => answer_and_close(stream, answer, drain).await,
        Some(acceptor) => {
            if let Ok(stream) = acceptor.accept(stream).await {
                answer_and_close(stream, answer, drain).await;
            }
        }
    }
}
