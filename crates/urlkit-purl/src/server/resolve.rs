//! Resolution: every path outside `/-/` is looked up in the records held in memory and
//! answered at once (a redirect, a record's message, or why not).

use super::{info, PurlState};
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use urlkit::purl::{Answer, Name, RESERVED_PREFIX};
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

fn text(status: StatusCode, body: String) -> Response {
    (
        status,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        )],
        body,
    )
        .into_response()
}

fn header_text(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// Any request outside the routes of `/-/`: a PURL.
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
            ),
        };
    }
    let accept = header_text(&headers, header::ACCEPT);
    let accept_language = header_text(&headers, header::ACCEPT_LANGUAGE);
    let table = state.registry.table();
    let (kind, response, counted) = match table.resolve(path, uri.query(), accept, accept_language)
    {
        Answer::Redirect {
            status,
            location,
            max_age,
            vary,
            record,
        } => {
            let kind = match table.get(record).map(|r| &r.action) {
                Some(urlkit::purl::Action::Partial { .. }) => "partial",
                Some(urlkit::purl::Action::Negotiate { .. }) => "negotiated",
                _ => "redirect",
            };
            let status = StatusCode::from_u16(status).unwrap_or(StatusCode::FOUND);
            let mut response = status.into_response();
            let h = response.headers_mut();
            h.insert(header::LOCATION, location_value(&location));
            let age = max_age.unwrap_or(state.default_max_age);
            if let Ok(value) = HeaderValue::from_str(&format!("max-age={age}")) {
                h.insert(header::CACHE_CONTROL, value);
            }
            if !vary.is_empty() {
                h.insert(header::VARY, HeaderValue::from_static(vary));
            }
            (kind, response, Some(record.clone()))
        }
        Answer::Message {
            status,
            message,
            record,
        } => {
            let status = StatusCode::from_u16(status).unwrap_or(StatusCode::NOT_FOUND);
            let mut body = message.to_string();
            body.push('\n');
            ("message", text(status, body), Some(record.clone()))
        }
        Answer::NotAcceptable { record, offered } => (
            "not_acceptable",
            text(
                StatusCode::NOT_ACCEPTABLE,
                format!(
                    "{record} is offered as {}; none of them is acceptable to this request\n",
                    offered.join(", ")
                ),
            ),
            Some(record.clone()),
        ),
        Answer::BrokenChain { record, message } => (
            "broken_chain",
            text(
                StatusCode::LOOP_DETECTED,
                format!("{record} cannot be resolved: {message}\n"),
            ),
            Some(record.clone()),
        ),
        Answer::LeavesTarget { record } => (
            "leaves_target",
            text(
                StatusCode::NOT_FOUND,
                format!(
                    "{record} does not lead to this path: the rest would leave its target's site\n"
                ),
            ),
            None,
        ),
        Answer::NoRecord => (
            "no_record",
            text(
                StatusCode::NOT_FOUND,
                format!("no persistent URL named {path}\n"),
            ),
            None,
        ),
        Answer::BadName(e) => (
            "bad_name",
            text(
                StatusCode::BAD_REQUEST,
                format!("not a persistent URL's name: {e}\n"),
            ),
            None,
        ),
    };
    drop(table);
    state.metrics.resolved(kind, response.status().as_u16());
    if let Some(name) = counted {
        state.counts.add(&name);
    }
    response
}
