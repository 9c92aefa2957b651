//! The fast path: a `GET` or `HEAD` of a PURL is answered here, before the router and its
//! middleware, with everything they would add (the security headers, the connection
//! metrics, the debug log line); every other request goes on to the router. With a rate
//! limit the router takes every request, so that one limit counts them all.
//!
//! [`Resolutions`] answers on the connection's task, before a request is even handed to
//! the router ([`urlkit_web::FastPath`], as `urlkit purl serve` runs); [`Front`] puts the
//! same answers in front of a router for those who serve [`super::app`] themselves.

use super::resolve;
use super::PurlState;
use axum::body::{Body, Bytes};
use axum::http::{header, HeaderMap, HeaderValue, Method, Request, Uri};
use axum::response::Response;
use axum::Router;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::histogram::Histogram;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};
use std::time::Instant;
use urlkit_web::metrics::{RequestLabels, RouteLabels};
use urlkit_web::{PlainAnswer, PlainRequest};

/// The route label of requests no route of the router matched, resolutions among them.
const ROUTE: &str = "unmatched";

/// The connection metrics of resolutions, at hand: no lock, no label formatted.
struct Handles {
    latency: Histogram,
    bytes_out: Counter,
    /// By method (`GET`, `HEAD`) and status (see [`super::metrics::RESOLUTION_STATUSES`]).
    requests: [OnceLock<Counter>; 2 * super::metrics::RESOLUTION_STATUSES.len()],
}

/// Resolutions answered at once, with what the router's middleware would add.
pub struct Resolutions {
    state: PurlState,
    handles: Handles,
}

impl Resolutions {
    /// The resolutions of `state`.
    pub fn new(state: &PurlState) -> Resolutions {
        let metrics = &state.connection_metrics;
        let latency = metrics
            .latency
            .get_or_create(&RouteLabels {
                route: ROUTE.to_owned(),
            })
            .clone();
        let handles = Handles {
            latency,
            bytes_out: metrics.bytes_out.clone(),
            requests: std::array::from_fn(|_| OnceLock::new()),
        };
        Resolutions {
            state: state.clone(),
            handles,
        }
    }

    /// The answer to a `GET` or `HEAD` of a PURL, or `None` for any other request (see
    /// [`resolve::answers_at_once`]).
    pub fn answer(
        &self,
        method: &Method,
        uri: &Uri,
        headers: &HeaderMap,
    ) -> Option<axum::http::Response<Bytes>> {
        if !resolve::answers_at_once(method, uri) {
            return None;
        }
        let started = Instant::now();
        let mut response = resolve::answer(&self.state, uri, headers);
        finish(&mut response);
        let size = response.body().len() as u64;
        self.observe(method, response.status().as_u16(), size, started);
        Some(response)
    }

    /// Counts an answer of `status` with a body of `size` bytes (none sent for `HEAD`),
    /// begun at `started`, in the connection metrics.
    fn observe(&self, method: &Method, status: u16, size: u64, started: Instant) {
        let body_bytes = if method == Method::HEAD { 0 } else { size };
        let took = started.elapsed();
        let metrics = &self.state.connection_metrics;
        let h = &self.handles;
        h.latency.observe(took.as_secs_f64());
        h.bytes_out.inc_by(body_bytes);
        let (method_label, method_at) = if method == Method::HEAD {
            ("HEAD", 1)
        } else {
            ("GET", 0)
        };
        let statuses = &super::metrics::RESOLUTION_STATUSES;
        let labels = || RequestLabels {
            route: ROUTE.to_owned(),
            method: method_label,
            status,
        };
        match statuses.iter().position(|s| *s == status) {
            Some(at) => h.requests[method_at * statuses.len() + at]
                .get_or_init(|| metrics.requests.get_or_create(&labels()).clone())
                .inc(),
            None => metrics.requests.get_or_create(&labels()).inc(),
        };
        tracing::debug!(
            %method,
            route = ROUTE,
            status,
            micros = took.as_micros() as u64,
            "request"
        );
    }
}

/// What every resolution's answer gets, as the router's middleware adds it: the security
/// headers, and its length, for `HEAD` too (whose body the connection leaves out).
fn finish(response: &mut axum::http::Response<Bytes>) {
    super::add_security_headers(response.headers_mut());
    let size = response.body().len() as u64;
    let headers = response.headers_mut();
    if !headers.contains_key(header::CONTENT_LENGTH) {
        headers.insert(header::CONTENT_LENGTH, HeaderValue::from(size));
    }
}

impl urlkit_web::FastPath for Resolutions {
    fn answer(
        &self,
        method: &Method,
        uri: &Uri,
        headers: &HeaderMap,
    ) -> Option<axum::http::Response<Bytes>> {
        Resolutions::answer(self, method, uri, headers)
    }

    /// [`Resolutions::answer`]'s answer in parts: a redirect's headers written from the
    /// resolution, without a `HeaderMap`, in the order that answer has them.
    fn answer_plainly(
        &self,
        request: &PlainRequest<'_>,
        write: &mut dyn FnMut(PlainAnswer<'_>),
    ) -> bool {
        if !resolve::answers_at_once_to(request.method, request.path, request.query) {
            return false;
        }
        let started = Instant::now();
        let table = self.state.registry.table();
        let resolved = resolve::resolved(
            &self.state,
            &table,
            request.path,
            request.query,
            request.header("accept"),
            request.header("accept-language"),
        );
        let (status, size) = match resolved {
            resolve::Resolved::Redirect {
                status,
                location,
                cache_control,
                vary,
            } => {
                let [security_0, security_1, security_2] = super::SECURITY_HEADERS
                    .each_ref()
                    .map(|(name, value)| (name.as_str(), value.as_bytes()));
                // In the order `Resolutions::answer` has them; `Vary` only when said.
                let fields = [
                    Some((header::LOCATION.as_str(), &location[..])),
                    Some((header::CACHE_CONTROL.as_str(), cache_control.as_bytes())),
                    (!vary.is_empty()).then_some((header::VARY.as_str(), vary.as_bytes())),
                    Some(security_0),
                    Some(security_1),
                    Some(security_2),
                    Some((header::CONTENT_LENGTH.as_str(), b"0")),
                ];
                let mut headers = [("", &b""[..]); 7];
                let mut count = 0;
                for field in fields.into_iter().flatten() {
                    headers[count] = field;
                    count += 1;
                }
                write(PlainAnswer {
                    status,
                    headers: &headers[..count],
                    body: b"",
                });
                (status, 0)
            }
            resolve::Resolved::Whole(mut response) => {
                drop(table);
                finish(&mut response);
                let headers: Vec<(&str, &[u8])> = response
                    .headers()
                    .iter()
                    .map(|(name, value)| (name.as_str(), value.as_bytes()))
                    .collect();
                write(PlainAnswer {
                    status: response.status(),
                    headers: &headers,
                    body: response.body(),
                });
                (response.status(), response.body().len() as u64)
            }
        };
        self.observe(request.method, status.as_u16(), size, started);
        true
    }
}

/// The router behind a fast path for PURLs.
#[derive(Clone)]
pub struct Front {
    resolutions: Arc<Resolutions>,
    router: Router,
}

impl Front {
    /// `router` with resolutions answered in front of it.
    pub fn new(state: PurlState, router: Router) -> Front {
        Front {
            resolutions: Arc::new(Resolutions::new(&state)),
            router,
        }
    }
}

/// A response at once, or the router's.
pub enum FrontFuture {
    /// Answered here.
    Ready(std::future::Ready<Result<Response, Infallible>>),
    /// The router's answer.
    Router(Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>),
}

impl Future for FrontFuture {
    type Output = Result<Response, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.get_mut() {
            FrontFuture::Ready(ready) => Pin::new(ready).poll(cx),
            FrontFuture::Router(future) => future.as_mut().poll(cx),
        }
    }
}

impl tower::Service<Request<Body>> for Front {
    type Response = Response;
    type Error = Infallible;
    type Future = FrontFuture;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Body>) -> FrontFuture {
        match self
            .resolutions
            .answer(request.method(), request.uri(), request.headers())
        {
            Some(response) => FrontFuture::Ready(std::future::ready(Ok(response.map(Body::from)))),
            None => {
                let router = self.router.clone();
                FrontFuture::Router(Box::pin(tower::ServiceExt::oneshot(router, request)))
            }
        }
    }
}
