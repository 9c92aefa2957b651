//! One error type for every handler: a status and a JSON body `{error: {code, message}}`.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
pub use urlkit_api::{ErrorBody, ErrorDetail};

/// An error answered to the client.
///
/// Bad input is always a 4xx with a stable `code`; only a failure of the server itself
/// (the result store cannot be written) is a 5xx.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// A stable kebab-case code (`bad-json`, `invalid-request`, `malformed-escape`, …).
    pub code: String,
    /// A short explanation naming the problem.
    pub message: String,
    /// For findings: the byte offset into the input.
    pub offset: Option<u64>,
    /// For a request that could not be understood: the field at fault.
    pub field: Option<String>,
    /// `Allow` (for a 405): the methods the route takes.
    pub allow: Option<&'static str>,
    /// `Retry-After` in seconds (for a 429 or a 503).
    pub retry_after: Option<u32>,
}

impl ApiError {
    /// An error with this status, code and message.
    pub fn new(status: StatusCode, code: impl Into<String>, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code: code.into(),
            message: message.into(),
            offset: None,
            field: None,
            allow: None,
            retry_after: None,
        }
    }

    /// This error with `Allow: methods`.
    pub fn allow(mut self, methods: &'static str) -> Self {
        self.allow = Some(methods);
        self
    }

    /// This error with `Retry-After: seconds`.
    pub fn retry_after(mut self, seconds: u32) -> Self {
        self.retry_after = Some(seconds);
        self
    }

    /// 400: the request is malformed.
    pub fn bad_request(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }

    /// 404: no such thing (or no longer).
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not-found", message)
    }

    /// 413: the body is larger than allowed.
    pub fn too_large(message: impl Into<String>) -> Self {
        Self::new(StatusCode::PAYLOAD_TOO_LARGE, "too-large", message)
    }

    /// 422: the input was understood but rejected (strict mode, an unresolvable reference).
    pub fn rejected(diagnostic: &urlkit::Diagnostic) -> Self {
        ApiError {
            offset: Some(diagnostic.offset),
            ..Self::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                diagnostic.code.as_str(),
                diagnostic.message.clone(),
            )
        }
    }

    /// 500: the server failed (the store could not be written). The detail is logged, not
    /// sent.
    pub fn internal(context: &str, error: impl std::fmt::Display) -> Self {
        tracing::error!("{context}: {error}");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("{context}; try again"),
        )
    }

    /// A failure of the result store: 507 when it is full (the `--max-store` quota or the
    /// disk), else a 503 (`store-unavailable`, `Retry-After: 5`): the store cannot be
    /// reached or used now. Either way the caller has kept nothing. The detail is logged,
    /// not sent.
    pub fn storage(error: std::io::Error) -> Self {
        if error.kind() == std::io::ErrorKind::StorageFull {
            tracing::warn!("the result store is full: {error}");
            Self::new(
                StatusCode::INSUFFICIENT_STORAGE,
                "store-full",
                "the result store is full; nothing was kept. Try again once waiting \
                 results have been downloaded or have expired",
            )
        } else {
            tracing::error!("the result store failed: {error}");
            Self::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "store-unavailable",
                "the result store cannot be reached; nothing was kept. Try again in a \
                 few seconds",
            )
            .retry_after(5)
        }
    }

    /// The JSON body.
    pub fn body(&self) -> ErrorBody {
        ErrorBody {
            error: ErrorDetail {
                code: self.code.clone(),
                message: self.message.clone(),
                offset: self.offset,
                field: self.field.clone(),
            },
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, axum::Json(self.body())).into_response();
        let headers = response.headers_mut();
        if let Some(methods) = self.allow {
            headers.insert(header::ALLOW, HeaderValue::from_static(methods));
        }
        if let Some(seconds) = self.retry_after {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

/// A request the library could not understand: a 400 `invalid-request` naming the field,
/// the body the WebAssembly module gives for the same request.
impl From<urlkit_api::RequestError> for ApiError {
    fn from(error: urlkit_api::RequestError) -> Self {
        Self::bad_request_detail(error.to_body().error)
    }
}

/// An inspection that could not be made (an unparsable base, a refused edit, a bad
/// request): a 400 with the code, field and offset the library named.
impl From<urlkit_api::inspect::InspectError> for ApiError {
    fn from(error: urlkit_api::inspect::InspectError) -> Self {
        Self::bad_request_detail(error.to_body().error)
    }
}

impl ApiError {
    /// A 400 carrying what the library's error body says: code, message, field, offset.
    fn bad_request_detail(detail: ErrorDetail) -> Self {
        ApiError {
            offset: detail.offset,
            field: detail.field,
            ..Self::new(StatusCode::BAD_REQUEST, detail.code, detail.message)
        }
    }
}

/// A request that gave no response: 400 when it was not understood, 422 when strict mode
/// rejected the input.
impl From<urlkit_api::Failure> for ApiError {
    fn from(failure: urlkit_api::Failure) -> Self {
        match failure {
            urlkit_api::Failure::Invalid(error) => error.into(),
            urlkit_api::Failure::Rejected(rejection) => ApiError::rejected(&rejection.0),
        }
    }
}

impl From<axum::extract::rejection::JsonRejection> for ApiError {
    fn from(rejection: axum::extract::rejection::JsonRejection) -> Self {
        use axum::extract::rejection::JsonRejection as R;
        let code = match &rejection {
            R::JsonDataError(_) => "invalid-field",
            R::JsonSyntaxError(_) => "bad-json",
            R::MissingJsonContentType(_) => "content-type",
            _ => "bad-request",
        };
        let status = match rejection.status() {
            StatusCode::PAYLOAD_TOO_LARGE => StatusCode::PAYLOAD_TOO_LARGE,
            StatusCode::UNSUPPORTED_MEDIA_TYPE => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            _ => StatusCode::BAD_REQUEST,
        };
        let code = if status == StatusCode::PAYLOAD_TOO_LARGE {
            "too-large"
        } else {
            code
        };
        ApiError {
            field: data_error_path(&rejection),
            ..ApiError::new(status, code, rejection.body_text())
        }
    }
}

/// Where in the JSON body a field's value was refused (`set`, `trim_query[3]`), when the
/// refusal says.
fn data_error_path(rejection: &axum::extract::rejection::JsonRejection) -> Option<String> {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(rejection);
    while let Some(error) = source {
        if let Some(located) = error.downcast_ref::<serde_path_to_error::Error<serde_json::Error>>()
        {
            let path = located.path().to_string();
            return (path != ".").then_some(path);
        }
        source = error.source();
    }
    None
}

impl From<axum::extract::multipart::MultipartError> for ApiError {
    fn from(error: axum::extract::multipart::MultipartError) -> Self {
        let status = error.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::too_large("the upload is larger than the server accepts")
        } else if status.is_client_error() {
            ApiError::new(status, "bad-multipart", error.body_text())
        } else {
            ApiError::bad_request("bad-multipart", error.body_text())
        }
    }
}

impl From<axum::extract::multipart::MultipartRejection> for ApiError {
    fn from(rejection: axum::extract::multipart::MultipartRejection) -> Self {
        ApiError::bad_request(
            "content-type",
            format!(
                "expected a multipart/form-data body: {}",
                rejection.body_text()
            ),
        )
    }
}
