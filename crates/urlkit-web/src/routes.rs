//! Every route in one place, with the layers that guard them.

use crate::{api, page, AppState};
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use std::time::Duration;
use tower_http::timeout::TimeoutLayer;

/// Largest JSON or form body for text operations.
pub const TEXT_LIMIT: usize = 16 * 1024 * 1024;
/// Room for multipart headers and option fields beyond the file itself.
pub const MULTIPART_OVERHEAD: u64 = 1024 * 1024;

/// The policy: own origin only, no inline script or style; WebAssembly may be compiled
/// (live mode runs the codec in the browser).
pub const CONTENT_SECURITY_POLICY: &str =
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; \
style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; \
form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// The application: page, assets, API, files; security headers on every answer.
pub fn router(state: AppState) -> Router {
    let text = Router::new()
        .route("/", get(page::index).post(page::submit))
        .route("/assets/{name}", get(page::asset))
        .route("/api/encode", post(api::encode))
        .route("/api/decode", post(api::decode))
        .route("/api/inspect", post(api::inspect))
        .route("/api/resolve", post(api::resolve))
        .route("/api/openapi.json", get(api::openapi))
        .route("/healthz", get(api::healthz))
        .layer(DefaultBodyLimit::max(TEXT_LIMIT))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            Duration::from_secs(30),
        ));
    let upload_limit = usize::try_from(state.max_upload().saturating_add(MULTIPART_OVERHEAD))
        .unwrap_or(usize::MAX);
    let files = Router::new()
        .route("/api/files", post(api::upload_file))
        .route("/api/files/{id}", get(api::download_file))
        .route("/files", post(page::submit_file))
        .layer(DefaultBodyLimit::max(upload_limit))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            Duration::from_secs(30 * 60),
        ));
    text.merge(files)
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .layer(middleware::from_fn_with_state(
            state.clone(),
            security_headers,
        ))
        .with_state(state)
}

/// Adds the security headers unless a handler set its own.
///
/// Logs method, route pattern (never the concrete path: it may carry a result id), status
/// and time at debug level; bodies are never logged.
async fn security_headers(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let mut response = if tracing::enabled!(tracing::Level::DEBUG) {
        let started = std::time::Instant::now();
        let method = request.method().clone();
        let route = request
            .extensions()
            .get::<axum::extract::MatchedPath>()
            .map(|p| p.as_str().to_owned());
        let response = next.run(request).await;
        tracing::debug!(
            %method,
            route = route.as_deref().unwrap_or("(none)"),
            status = response.status().as_u16(),
            micros = started.elapsed().as_micros() as u64,
            "request"
        );
        response
    } else {
        next.run(request).await
    };
    let headers = response.headers_mut();
    let mut set = |name: header::HeaderName, value: &'static str| {
        headers
            .entry(name)
            .or_insert_with(|| HeaderValue::from_static(value));
    };
    set(header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY);
    set(header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(header::REFERRER_POLICY, "no-referrer");
    set(header::X_FRAME_OPTIONS, "DENY");
    set(
        header::HeaderName::from_static("cross-origin-opener-policy"),
        "same-origin",
    );
    set(
        header::HeaderName::from_static("permissions-policy"),
        "camera=(), microphone=(), geolocation=()",
    );
    if state.tls() {
        set(
            header::STRICT_TRANSPORT_SECURITY,
            "max-age=31536000; includeSubDomains",
        );
    }
    response
}
