//! What `GET /metrics` reports, in the Prometheus (OpenMetrics) text format, through the
//! `prometheus-client` crate.
//!
//! Labels are bounded: the route is the route's pattern (never a path with an id in it),
//! the method one of the standard ones or `other`, the status a number.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use std::time::Duration;

/// The labels of a request.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RequestLabels {
    /// The route's pattern (`/api/files/{id}`), or `unmatched`.
    pub route: String,
    /// `GET`, `POST`, … or `other`.
    pub method: &'static str,
    /// The status code.
    pub status: u16,
}

/// The labels of a latency: the route.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RouteLabels {
    /// The route's pattern, or `unmatched`.
    pub route: String,
}

/// The labels of a store error: what was being done.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct OperationLabels {
    /// `write`, `claim`, `sweep` or `check`.
    pub operation: &'static str,
}

/// Request latency buckets, in seconds.
const LATENCY_BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

fn latency_histogram() -> Histogram {
    Histogram::new(LATENCY_BUCKETS)
}

/// Every metric of one server.
pub struct Metrics {
    registry: Registry,
    /// Requests answered, by route, method and status.
    pub requests: Family<RequestLabels, Counter>,
    /// Time to the answer's headers, by route.
    pub latency: Family<RouteLabels, Histogram, fn() -> Histogram>,
    /// Request body bytes received.
    pub bytes_in: Counter,
    /// Response body bytes sent.
    pub bytes_out: Counter,
    /// Results stored.
    pub results_stored: Counter,
    /// Results downloaded (claimed).
    pub results_claimed: Counter,
    /// Results deleted unfetched after the time to live.
    pub results_expired: Counter,
    /// Failures of the result store, by operation.
    pub store_errors: Family<OperationLabels, Counter>,
    /// Connections open now.
    pub connections_open: Gauge,
    /// Connections refused past the connection cap.
    pub connections_refused: Counter,
    /// Connections closed for sending nothing.
    pub connections_silent: Counter,
    /// Uploads refused past the upload cap.
    pub uploads_refused: Counter,
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl Metrics {
    /// Every metric at zero, registered under `urlkit_`.
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("urlkit");
        let metrics = Metrics {
            requests: Family::default(),
            latency: Family::new_with_constructor(latency_histogram),
            bytes_in: Counter::default(),
            bytes_out: Counter::default(),
            results_stored: Counter::default(),
            results_claimed: Counter::default(),
            results_expired: Counter::default(),
            store_errors: Family::default(),
            connections_open: Gauge::default(),
            connections_refused: Counter::default(),
            connections_silent: Counter::default(),
            uploads_refused: Counter::default(),
            registry: Registry::default(),
        };
        registry.register(
            "http_requests",
            "HTTP requests answered, by route, method and status",
            metrics.requests.clone(),
        );
        registry.register(
            "http_request_duration_seconds",
            "Time from a request to its answer's headers, by route",
            metrics.latency.clone(),
        );
        registry.register(
            "http_request_body_bytes",
            "Request body bytes received",
            metrics.bytes_in.clone(),
        );
        registry.register(
            "http_response_body_bytes",
            "Response body bytes sent",
            metrics.bytes_out.clone(),
        );
        registry.register(
            "results_stored",
            "File results stored",
            metrics.results_stored.clone(),
        );
        registry.register(
            "results_claimed",
            "File results downloaded (each once)",
            metrics.results_claimed.clone(),
        );
        registry.register(
            "results_expired",
            "File results deleted unfetched after the time to live",
            metrics.results_expired.clone(),
        );
        registry.register(
            "store_errors",
            "Failures of the result store, by operation",
            metrics.store_errors.clone(),
        );
        registry.register(
            "connections_open",
            "Connections open now",
            metrics.connections_open.clone(),
        );
        registry.register(
            "connections_refused",
            "Connections refused past the connection cap",
            metrics.connections_refused.clone(),
        );
        registry.register(
            "connections_closed_silent",
            "Connections closed for sending nothing",
            metrics.connections_silent.clone(),
        );
        registry.register(
            "uploads_refused",
            "Uploads refused past the cap on uploads at once",
            metrics.uploads_refused.clone(),
        );
        Metrics {
            registry,
            ..metrics
        }
    }

    /// Counts one answered request.
    pub fn observe(&self, route: &str, method: &axum::http::Method, status: u16, took: Duration) {
        let route = route.to_owned();
        self.latency
            .get_or_create(&RouteLabels {
                route: route.clone(),
            })
            .observe(took.as_secs_f64());
        self.requests
            .get_or_create(&RequestLabels {
                route,
                method: method_label(method),
                status,
            })
            .inc();
    }

    /// Counts a failure of the store.
    pub fn store_error(&self, operation: &'static str) {
        self.store_errors
            .get_or_create(&OperationLabels { operation })
            .inc();
    }

    /// Where another server built on the same connection layer registers metrics of its
    /// own, rendered with these.
    pub fn registry_mut(&mut self) -> &mut Registry {
        &mut self.registry
    }

    /// The metrics as OpenMetrics text.
    pub fn render(&self) -> String {
        let mut text = String::new();
        // Writing to a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut text, &self.registry);
        text
    }
}

/// A body that adds the bytes passing through it to a counter, and says what its inner
/// body says of its size (so a known length stays a `Content-Length`).
pub struct CountedBody {
    inner: axum::body::Body,
    counter: Counter,
}

impl CountedBody {
    /// `inner`, counted into `counter`.
    pub fn wrap(inner: axum::body::Body, counter: &Counter) -> axum::body::Body {
        axum::body::Body::new(CountedBody {
            inner,
            counter: counter.clone(),
        })
    }
}

impl http_body::Body for CountedBody {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        let polled = std::pin::Pin::new(&mut self.inner).poll_frame(cx);
        if let std::task::Poll::Ready(Some(Ok(frame))) = &polled {
            if let Some(data) = frame.data_ref() {
                self.counter.inc_by(data.len() as u64);
            }
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

fn method_label(method: &axum::http::Method) -> &'static str {
    use axum::http::Method;
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::OPTIONS => "OPTIONS",
        Method::PATCH => "PATCH",
        _ => "other",
    }
}

/// Counts every request (route pattern, method, status, time to the answer's headers, body
/// bytes both ways), and logs its method, route pattern (never the concrete path: it may
/// carry a result id), status and time at debug level; bodies are never logged.
pub async fn observe(
    axum::extract::State(metrics): axum::extract::State<std::sync::Arc<Metrics>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let started = std::time::Instant::now();
    let method = request.method().clone();
    let route = request
        .extensions()
        .get::<axum::extract::MatchedPath>()
        .map_or("unmatched", |p| p.as_str())
        .to_owned();
    let request = request.map(|body| CountedBody::wrap(body, &metrics.bytes_in));
    let response = next.run(request).await;
    let took = started.elapsed();
    let status = response.status().as_u16();
    metrics.observe(&route, &method, status, took);
    tracing::debug!(
        %method,
        route,
        status,
        micros = took.as_micros() as u64,
        "request"
    );
    response.map(|body| CountedBody::wrap(body, &metrics.bytes_out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_counted_with_bounded_labels() {
        let metrics = Metrics::new();
        let brew = axum::http::Method::from_bytes(b"BREW").unwrap();
        metrics.observe(
            "/api/encode",
            &axum::http::Method::POST,
            200,
            Duration::from_millis(3),
        );
        metrics.observe("unmatched", &brew, 405, Duration::from_millis(1));
        metrics.results_stored.inc();
        let text = metrics.render();
        assert!(
            text.contains(
                r#"urlkit_http_requests_total{route="/api/encode",method="POST",status="200"} 1"#
            ),
            "{text}"
        );
        assert!(text.contains(r#"method="other""#), "{text}");
        assert!(text.contains("urlkit_results_stored_total 1"), "{text}");
        assert!(
            text.contains("urlkit_http_request_duration_seconds_bucket"),
            "{text}"
        );
        assert!(text.ends_with("# EOF\n"), "{text}");
    }
}
