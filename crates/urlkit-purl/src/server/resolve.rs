//! Resolution: every path outside `/-/` is looked up in the records held in memory and
//! answered at once (a redirect, a record's message, or why not).

use super::metrics::Kind;
use super::{info, PurlState};
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use urlkit::purl::{Answer, Name, RedirectKind, RESERVED_PREFIX};
use urlkit_web::error::ApiError;

/// The query that shows a record instead of following it (ARK's inflection). A partial
/// record cannot pass on a query of exactly this; `/-/info/NAME` shows the same without
/// that exception.
pub const INFO_QUERY: &str = "info";

/// A header value for a location: the bytes a header cannot carry (controls, non-ASCII)
/// percent-encoded, as a browser would send them.
fn location_value(location: &str) -> HeaderValue {
    if let Ok(value) = HeaderValue::from_str(location) {
        return value;
    }
    let mut escaped = String::with_capacity(location.len() * 3);
    for &b in location.as_bytes() {
        if b.is_ascii_graphic() {
            escaped.push(b as char);
        } else {
            escaped.push_str(&format!("%{b:02X}"));
        }
    }
    HeaderValue::from_str(&escaped).unwrap_or_else(|_| HeaderValue::from_static("/"))
}

fn text(status: StatusCode, body: String) -> axum::http::Response<Bytes> {
    let mut response = axum::http::Response::new(Bytes::from(body));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

fn header_text(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// Any request outside the routes of `/-/` that the fast path (`server/front.rs`) passed on:
/// a PURL shown (`?info`), or a method or path no PURL answers.
pub async fn resolve(
    State(state): State<PurlState>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let path = uri.path();
    if path.starts_with(RESERVED_PREFIX) || path == "/-" {
        return ApiError::not_found(format!("nothing at {path}")).into_response();
    }
    if method != Method::GET && method != Method::HEAD {
        return ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method-not-allowed",
            "a persistent URL answers GET and HEAD; records are changed through /-/api/",
        )
        .allow("GET, HEAD")
        .into_response();
    }
    if uri.query() == Some(INFO_QUERY) {
        return match Name::parse(path) {
            Ok(name) => info::show(&state, &name, &uri, &headers).await,
            Err(e) => text(
                StatusCode::BAD_REQUEST,
                format!("not a persistent URL's name: {e}\n"),
            )
            .map(Body::from),
        };
    }
    answer(&state, &uri, &headers).map(Body::from)
}

/// Whether a request is a resolution [`answer`] gives at once: `GET` or `HEAD` of a path
/// outside `/-/` that does not ask for the record's info.
pub fn answers_at_once(method: &Method, uri: &Uri) -> bool {
    let path = uri.path();
    (method == Method::GET || method == Method::HEAD)
        && !path.starts_with(RESERVED_PREFIX)
        && path != "/-"
        && uri.query() != Some(INFO_QUERY)
}

/// The answer to a `GET` or `HEAD` of a PURL (see [`answers_at_once`]), from memory,
/// counted for its record and in the metrics.
pub fn answer(state: &PurlState, uri: &Uri, headers: &HeaderMap) -> axum::http::Response<Bytes> {
    let path = uri.path();
    let accept = header_text(headers, header::ACCEPT);
    let accept_language = header_text(headers, header::ACCEPT_LANGUAGE);
    let table = state.registry.table();
    let (kind, response) = match table.resolve(path, uri.query(), accept, accept_language) {
        Answer::Redirect {
            status,
            location,
            max_age,
            vary,
            kind,
            record,
            ..
        } => {
            // A plain redirect whose target failed its domain's checks: the archived copy.
            let archived = match kind {
                RedirectKind::Plain => state.archive.location(record, &location),
                _ => None,
            };
            let kind = match kind {
                RedirectKind::Partial => Kind::Partial,
                RedirectKind::Negotiated => Kind::Negotiated,
                RedirectKind::Plain => Kind::Redirect,
            };
            let status = match archived {
                Some(_) => StatusCode::FOUND,
                None => StatusCode::from_u16(status).unwrap_or(StatusCode::FOUND),
            };
            let mut response = axum::http::Response::new(Bytes::new());
            *response.status_mut() = status;
            let h = response.headers_mut();
            // Location, Cache-Control, perhaps Vary, and what the caller adds.
            h.reserve(8);
            h.insert(
                header::LOCATION,
                location_value(archived.as_deref().unwrap_or(&location)),
            );
            let cache = match (&archived, max_age) {
                // Back to the target as soon as a check finds it again.
                (Some(_), _) => HeaderValue::from_static("no-cache"),
                (None, None) => state.default_cache_control.clone(),
                (None, Some(age)) => cache_control(age),
            };
            h.insert(header::CACHE_CONTROL, cache);
            if !vary.is_empty() {
                h.insert(header::VARY, HeaderValue::from_static(vary));
            }
            (kind, response)
        }
        Answer::Message {
            status, message, ..
        } => {
            let status = StatusCode::from_u16(status).unwrap_or(StatusCode::NOT_FOUND);
            let mut body = String::with_capacity(message.len() + 1);
            body.push_str(message);
            body.push('\n');
            (Kind::Message, text(status, body))
        }
        Answer::NotAcceptable { record, offered } => (
            Kind::NotAcceptable,
            text(
                StatusCode::NOT_ACCEPTABLE,
                format!(
                    "{record} is offered as {}; none of them is acceptable to this request\n",
                    offered.join(", ")
                ),
            ),
        ),
        Answer::BrokenChain { record, message } => (
            Kind::BrokenChain,
            text(
                StatusCode::LOOP_DETECTED,
                format!("{record} cannot be resolved: {message}\n"),
            ),
        ),
        Answer::LeavesTarget { record } => (
            Kind::LeavesTarget,
            text(
                StatusCode::NOT_FOUND,
                format!(
                    "{record} does not lead to this path: the rest would leave its target's site\n"
                ),
            ),
        ),
        Answer::NoRecord => (
            Kind::NoRecord,
            text(
                StatusCode::NOT_FOUND,
                format!("no persistent URL named {path}\n"),
            ),
        ),
        Answer::BadName(e) => (
            Kind::BadName,
            text(
                StatusCode::BAD_REQUEST,
                format!("not a persistent URL's name: {e}\n"),
            ),
        ),
    };
    drop(table);
    state.metrics.resolved_as(kind, response.status());
    response
}

/// `Cache-Control: max-age=AGE`.
pub fn cache_control(age: u32) -> HeaderValue {
    // Digits and ASCII letters are always a header value.
    HeaderValue::try_from(format!("max-age={age}"))
        .unwrap_or_else(|_| HeaderValue::from_static("no-cache"))
}
