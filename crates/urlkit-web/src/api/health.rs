//! Health, readiness, metrics, and the answers for unknown paths and wrong methods.

use crate::error::{ApiError, ErrorBody};
use crate::AppState;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

/// Health.
#[derive(Serialize, ToSchema)]
pub struct Health {
    /// `ok` (liveness) or `ready` (readiness).
    pub status: &'static str,
}

/// Liveness check: the process answers.
#[utoipa::path(get, path = "/healthz", tag = "meta", responses((status = 200, body = Health)))]
pub async fn healthz() -> Json<Health> {
    Json(Health { status: "ok" })
}

/// Readiness check: 200 while the server takes requests; 503 while the result store cannot
/// be reached (checked within 2 s) or once shutdown has begun.
#[utoipa::path(
    get, path = "/readyz", tag = "meta",
    responses(
        (status = 200, description = "Ready", body = Health),
        (status = 503, description = "The store cannot be reached, or shutting down", body = ErrorBody),
    )
)]
pub async fn readyz(State(state): State<AppState>) -> Result<Json<Health>, ApiError> {
    let not_ready = |message: String| {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "not-ready", message).retry_after(5)
    };
    if state.draining() {
        return Err(not_ready("shutting down".into()));
    }
    let checked =
        tokio::time::timeout(std::time::Duration::from_secs(2), state.store().check()).await;
    match checked {
        Ok(Ok(())) => Ok(Json(Health { status: "ready" })),
        Ok(Err(e)) => {
            state.metrics().store_error("check");
            tracing::warn!("the result store cannot be used: {e}");
            Err(not_ready("the result store cannot be reached".into()))
        }
        Err(_) => {
            state.metrics().store_error("check");
            Err(not_ready("the result store does not answer".into()))
        }
    }
}

/// The server's metrics in the Prometheus (OpenMetrics) text format: requests by route,
/// method and status, latency, body bytes, results stored, claimed and expired, store
/// errors, connections.
#[utoipa::path(get, path = "/metrics", tag = "meta", responses((status = 200, description = "OpenMetrics text", content_type = "application/openmetrics-text")))]
pub async fn metrics(State(state): State<AppState>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        state.metrics().render(),
    )
        .into_response()
}

/// The answer for unknown paths.
pub async fn not_found() -> ApiError {
    ApiError::not_found("no such page or API route; the API is described at /api/openapi.json")
}

/// The answer for a known path with the wrong method.
pub async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method-not-allowed",
        "this route does not take that method; see /api/openapi.json",
    )
}
