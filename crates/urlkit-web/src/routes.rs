//! Every route in one place, with the layers that guard them.

use crate::error::ApiError;
use crate::limits::{INSPECT_LIMIT, MULTIPART_OVERHEAD, TEXT_LIMIT};
use crate::{api, compress, page, ratelimit, AppState};
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use http_body_util::BodyExt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tower_http::timeout::{TimeoutBody, TimeoutError, TimeoutLayer};

/// The policy: own origin only, no inline script or style; WebAssembly may be compiled
/// (live mode runs the codec in the browser).
pub const CONTENT_SECURITY_POLICY: &str =
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; \
style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; \
form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// The application: page, assets, API, files; security headers on every answer.
///
/// Bounds on every request: a body announced larger than its route takes is a 413 before
/// any of it is read; a body that sends nothing for the body idle timeout is cut off with a
/// 408; text routes answer within 30 s (408), uploads within 30 minutes; the rate limit per
/// client, when set, applies to everything but the health check: readiness, metrics,
/// unknown paths (404) and wrong methods (405) included.
pub fn router(state: AppState) -> Router {
    let text = Router::new()
        .route(
            "/",
            get(page::index)
                .post(page::submit)
                .layer(middleware::from_fn(|request, next| {
                    bound_page_inspection(INSPECT_LIMIT, request, next)
                })),
        )
        .route("/assets/{name}", get(page::asset))
        .route("/licenses", get(page::licenses))
        .route("/api/encode", post(api::encode))
        .route("/api/decode", post(api::decode))
        .route("/api/openapi.json", get(api::openapi));
    let text = body_limited(text, TEXT_LIMIT as u64, &state);
    let urls = Router::new()
        .route("/api/inspect", post(api::inspect))
        .route("/api/resolve", post(api::resolve));
    let urls = body_limited(urls, INSPECT_LIMIT as u64, &state);
    let text = text.merge(urls).layer(TimeoutLayer::with_status_code(
        StatusCode::REQUEST_TIMEOUT,
        Duration::from_secs(30),
    ));
    let upload_limit = state.max_upload().saturating_add(MULTIPART_OVERHEAD);
    let files = Router::new()
        .route("/api/files", post(api::upload_file))
        .route("/api/files/{id}", get(api::download_file))
        .route("/files", post(page::submit_file));
    let files = body_limited(files, upload_limit, &state).layer(TimeoutLayer::with_status_code(
        StatusCode::REQUEST_TIMEOUT,
        Duration::from_secs(30 * 60),
    ));
    let mut limited: Router<AppState> = text
        .merge(files)
        .layer(middleware::from_fn_with_state(
            state.clone(),
            body_idle_timeout,
        ))
        .layer(middleware::from_fn(compress::gzip_assets))
        .route("/readyz", get(api::readyz))
        .route("/metrics", get(api::metrics))
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed);
    if let Some(limit) = state.rate_limit() {
        limited = ratelimit::limit(limited, limit, state.trusted_proxies());
    }
    let health = Router::new()
        .route("/healthz", get(api::healthz))
        .method_not_allowed_fallback(api::method_not_allowed);
    limited
        .merge(health)
        .layer(middleware::from_fn_with_state(
            state.clone(),
            security_headers,
        ))
        .layer(middleware::from_fn_with_state(
            state.metrics(),
            crate::metrics::observe,
        ))
        .with_state(state)
}

/// `router` with its request bodies limited to `limit` bytes: a longer body fails when it
/// is read, and one whose `Content-Length` announces more is refused before it is read.
fn body_limited(router: Router<AppState>, limit: u64, state: &AppState) -> Router<AppState> {
    router
        .layer(DefaultBodyLimit::max(
            usize::try_from(limit).unwrap_or(usize::MAX),
        ))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            move |State(app): State<AppState>, request: Request, next: Next| {
                refuse_announced_oversize(limit, app, request, next)
            },
        ))
}

/// The body length a request's `Content-Length` announces, if it does.
fn announced_length(request: &Request) -> Option<u64> {
    request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
}

/// How far past its limit a page form's body is read (and dropped) before the 413 page,
/// so that a browser, which sends the whole body first, shows the answer.
const PAGE_DRAIN_LIMIT: u64 = 32 << 20;

/// A 413 for a body whose `Content-Length` is over `limit`, before any of it is read: the
/// page, naming the limit, for the page's own forms (`POST /`, `POST /files`), JSON for the
/// API.
async fn refuse_announced_oversize(
    limit: u64,
    app: AppState,
    request: Request,
    next: Next,
) -> Response {
    match announced_length(&request) {
        Some(length) if length > limit => {
            let message = format!(
                "the body announces {length} bytes; this route takes at most {limit} bytes ({})",
                urlkit_api::shown::human_size(limit)
            );
            let path = request.uri().path().to_owned();
            if request.method() == axum::http::Method::POST && (path == "/" || path == "/files") {
                let (parts, mut body) = request.into_parts();
                // A browser sends all of a form before it reads the answer: the rest of a
                // form a little over the limit is read and dropped, so that the reader
                // sees the page rather than a reset connection. Past that, the answer
                // comes at once.
                if length - limit <= PAGE_DRAIN_LIMIT {
                    while let Some(frame) = body.frame().await {
                        if frame.is_err() {
                            break;
                        }
                    }
                }
                page::refuse_too_large(
                    &app,
                    parts.uri.query(),
                    &parts.headers,
                    path == "/files",
                    message,
                )
            } else {
                ApiError::too_large(message).into_response()
            }
        }
        _ => next.run(request).await,
    }
}

/// The page's form post (`POST /`) runs the codec or the inspector: a form larger than
/// `limit` that asks for the inspector is a 413, as `/api/inspect` would answer. Only such
/// forms are read here; the others go on as they came.
async fn bound_page_inspection(limit: usize, request: Request, next: Next) -> Response {
    if announced_length(&request).is_some_and(|length| length <= limit as u64) {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let bytes = match axum::body::to_bytes(body, TEXT_LIMIT).await {
        Ok(bytes) => bytes,
        Err(_) => {
            return ApiError::too_large(format!(
                "the form is larger than {TEXT_LIMIT} bytes or was cut short"
            ))
            .into_response()
        }
    };
    let inspecting = bytes.len() > limit
        && form_urlencoded::parse(&bytes).any(|(name, value)| name == "op" && value == "inspect");
    if inspecting {
        return ApiError::too_large(format!(
            "a URL to inspect takes at most {limit} bytes ({}) with its form",
            urlkit_api::shown::human_size(limit as u64)
        ))
        .into_response();
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// Cuts off a request body that sends nothing for the body idle timeout: the handler sees
/// the body fail, and the answer is a 408 whatever the handler made of it.
async fn body_idle_timeout(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let idle = state.body_idle_timeout();
    let timed_out = Arc::new(AtomicBool::new(false));
    let noted = Arc::clone(&timed_out);
    let request = request.map(|body| {
        Body::new(TimeoutBody::new(idle, body).map_err(move |error| {
            if error.is::<TimeoutError>() {
                noted.store(true, Ordering::Relaxed);
            }
            error
        }))
    });
    let response = next.run(request).await;
    if timed_out.load(Ordering::Relaxed) {
        return ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            "body-timeout",
            format!(
                "the request body sent nothing for {} s; nothing was kept",
                idle.as_secs()
            ),
        )
        .into_response();
    }
    response
}

/// Adds the security headers to every answer, unless a handler set its own.
async fn security_headers(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
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
