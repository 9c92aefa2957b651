//! `POST /api/inspect` and `/api/resolve`: a URL taken apart in both views, edited, or
//! resolved against a base, within the inspector's bounds.

use super::json::ApiJson;
use crate::error::{ApiError, ErrorBody};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use urlkit::inspect::rfc3986::{self};
use urlkit::inspect::whatwg;
use urlkit_api::RequestError;
use utoipa::ToSchema;

pub use urlkit_api::inspect::{InspectRequest, InspectResponse, ParseProblem};

/// Takes a URL apart in both views, after the edits asked for (set, clear, append, trim,
/// sort). Without edits, a URL neither view accepts is still a 200 with the reasons; a base
/// that is not a URL, a request beyond the inspector's bounds, and with edits a URL that
/// does not parse or a value a setter refuses are a 400 naming the field.
#[utoipa::path(
    post, path = "/api/inspect", tag = "inspect",
    request_body = InspectRequest,
    responses(
        (status = 200, description = "Both views of the edited URL", body = InspectResponse),
        (status = 400, description = "Bad request: `invalid-request`, `bad-base`, `bad-url` or `edit-refused`, with the `field` at fault", body = ErrorBody),
    )
)]
pub async fn inspect(
    ApiJson(request): ApiJson<InspectRequest>,
) -> Result<Json<InspectResponse>, ApiError> {
    inspect_url(&request).map(Json)
}

/// The work of [`inspect`], shared with the page.
pub fn inspect_url(request: &InspectRequest) -> Result<InspectResponse, ApiError> {
    urlkit_api::inspect::inspect(request).map_err(ApiError::from)
}

/// `POST /api/resolve`: a reference and its base.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResolveRequest {
    /// The absolute base URI.
    pub base: String,
    /// The reference to resolve.
    pub reference: String,
}

/// The resolved reference.
#[derive(Debug, Serialize, ToSchema)]
pub struct ResolveResponse {
    /// RFC 3986 §5.2 resolution (strict).
    pub resolved: String,
    /// The WHATWG URL Standard's resolution (what a browser does), when it succeeds.
    pub whatwg: Option<String>,
}

/// Resolves a reference against a base (RFC 3986 §5). A base without a scheme is a 422; a
/// base and reference of more than 64 KiB together are a 400 naming the longer.
#[utoipa::path(
    post, path = "/api/resolve", tag = "inspect",
    request_body = ResolveRequest,
    responses(
        (status = 200, description = "Resolved", body = ResolveResponse),
        (status = 400, description = "Bad request", body = ErrorBody),
        (status = 422, description = "The base is not absolute", body = ErrorBody),
    )
)]
pub async fn resolve(
    ApiJson(request): ApiJson<ResolveRequest>,
) -> Result<Json<ResolveResponse>, ApiError> {
    let limit = urlkit_api::inspect::MAX_INSPECT_BYTES;
    let total = request.base.len() + request.reference.len();
    if total > limit {
        let field = if request.base.len() > request.reference.len() {
            "base"
        } else {
            "reference"
        };
        return Err(RequestError::new(
            field,
            format!("the request carries {total} bytes of text; resolving takes at most {limit}"),
        )
        .into());
    }
    let resolved = rfc3986::resolve(&request.base, &request.reference)
        .map_err(|e| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "bad-base", e.message))?;
    let whatwg = whatwg::parse(&request.base, None)
        .and_then(|b| whatwg::parse(&request.reference, Some(&b)))
        .ok()
        .map(String::from);
    Ok(Json(ResolveResponse { resolved, whatwg }))
}
