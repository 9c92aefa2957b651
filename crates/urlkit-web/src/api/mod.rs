//! The JSON API, one module per resource: the codec, the inspector, files, and health
//! with metrics; bodies are read by [`json`]'s extractors, and every failure is an
//! [`ApiError`](crate::error::ApiError) with a JSON body. Each handler is small: read,
//! call the library, answer. The OpenAPI document is generated from the handlers here.

pub mod codec;
pub mod file_options;
pub mod files;
pub mod health;
pub mod inspect;
pub mod json;

pub use codec::*;
pub use file_options::*;
pub use files::*;
pub use health::*;
pub use inspect::*;
pub use json::*;

use crate::error::{ErrorBody, ErrorDetail};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use urlkit::inspect::rfc3986::{self, Components};
use urlkit::inspect::whatwg;
use urlkit::Diagnostic;
use urlkit_api::{CodecResponse, DecodeRequest, EncodeRequest};
use utoipa::OpenApi;

/// The OpenAPI document of this API, generated from the handlers above.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "urlkit",
        description = "Percent-encoding and decoding in every charset, and URL inspection."
    ),
    paths(
        encode,
        decode,
        inspect,
        resolve,
        upload_file,
        download_file,
        healthz,
        readyz,
        metrics,
        openapi
    ),
    components(schemas(
        EncodeRequest,
        DecodeRequest,
        urlkit::EncodeSettings,
        urlkit::DecodeSettings,
        CodecResponse,
        Diagnostic,
        urlkit::Code,
        urlkit::Detection,
        urlkit::detect::Candidate,
        InspectRequest,
        InspectResponse,
        ParseProblem,
        ResolveRequest,
        ResolveResponse,
        whatwg::UrlReport,
        whatwg::Span,
        Components,
        rfc3986::HostKind,
        FileCreated,
        FileUpload,
        Op,
        Health,
        ErrorBody,
        ErrorDetail
    ))
)]
pub struct ApiDoc;

/// This document.
#[utoipa::path(get, path = "/api/openapi.json", tag = "meta", responses((status = 200, description = "OpenAPI 3.1 document", content_type = "application/json")))]
pub async fn openapi() -> Response {
    static DOC: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let text = DOC.get_or_init(|| ApiDoc::openapi().to_json().unwrap_or_default());
    ([(header::CONTENT_TYPE, "application/json")], text.as_str()).into_response()
}
