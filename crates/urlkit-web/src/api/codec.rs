//! `POST /api/encode` and `/api/decode`: the request read and run by [`urlkit_api`], as
//! live mode's WebAssembly module does, so the shapes are the same by construction.

use super::json::CodecJson;
use crate::error::{ApiError, ErrorBody};
use axum::Json;
use urlkit_api::Failure;
use urlkit_api::{CodecResponse, DecodeRequest, EncodeRequest, RequestError};

/// Percent-encodes text.
#[utoipa::path(
    post, path = "/api/encode", tag = "codec",
    request_body = EncodeRequest,
    responses(
        (status = 200, description = "Encoded", body = CodecResponse),
        (status = 400, description = "Bad request (JSON, charset, set)", body = ErrorBody),
        (status = 422, description = "Rejected in strict mode", body = ErrorBody),
    )
)]
pub async fn encode(CodecJson(body): CodecJson) -> Result<Json<CodecResponse>, ApiError> {
    let request = EncodeRequest::from_value(require_input(body)?)?;
    answer(request.run()).map(Json)
}

/// Decodes percent-encoded text.
#[utoipa::path(
    post, path = "/api/decode", tag = "codec",
    request_body = DecodeRequest,
    responses(
        (status = 200, description = "Decoded", body = CodecResponse),
        (status = 400, description = "Bad request (JSON, charset)", body = ErrorBody),
        (status = 422, description = "Rejected in strict mode", body = ErrorBody),
    )
)]
pub async fn decode(CodecJson(body): CodecJson) -> Result<Json<CodecResponse>, ApiError> {
    let request = DecodeRequest::from_value(require_input(body)?)?;
    answer(request.run()).map(Json)
}

/// The body of a codec request, which must carry its text: an object without `input` (or
/// with `input: null`) is a 400 naming the field. Other shapes are left to the request
/// parser, which names what is wrong with them.
fn require_input(body: serde_json::Value) -> Result<serde_json::Value, ApiError> {
    match body.as_object() {
        Some(fields) if fields.get("input").is_none_or(|v| v.is_null()) => Err(ApiError::from(
            RequestError::new("input", "is required: the text to encode or decode"),
        )),
        _ => Ok(body),
    }
}

/// Answers an API or page request: a request the library cannot understand is a 400 naming
/// the field, a strict rejection a 422 with the finding's offset.
pub fn answer(result: Result<CodecResponse, Failure>) -> Result<CodecResponse, ApiError> {
    result.map_err(ApiError::from)
}
