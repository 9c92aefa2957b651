//! Resolution: every path outside `/-/` is looked up in the records held in memory and
//! answered at once (a redirect, a record's message, or why not).

use super::metrics::Kind;
use super::{info, PurlState};
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use std::borrow::Cow;
use urlkit::purl::{Answer, Name, RedirectKind, RESERVED_PREFIX};
use urlkit_web::error::ApiError;

/// The query that shows a record instead of following it (ARK's inflection). A partial
/// record cannot pass on a query of exactly this; `/-/info/NAME` shows the same without
/// that exception.
pub const INFO_QUERY: &str = "info";

/// A location as a header carries it: as it is, or, when it holds bytes a header cannot
/// carry (controls), with every byte but visible ASCII percent-encoded, as a browser would
/// send them.
fn location_bytes(location: Cow<'_, str>) -> Cow<'_, [u8]> {
    // What `HeaderValue::from_str` takes.
    let fits = |b: u8| (b >= b' ' && b != 0x7F) || b == b'\t';
    if location.bytes().all(fits) {
        return match location {
            Cow::Borrowed(location) => Cow::Borrowed(location.as_bytes()),
            Cow::Owned(location) => Cow::Owned(location.into_bytes()),
        };
    }
    let mut escaped = String::with_capacity(location.len() * 3);
    for &b in location.as_bytes() {
        if b.is_ascii_graphic() {
            escaped.push(b as char);
        } else {
            escaped.push_str(&format!("%{b:02X}"));
        }
    }
    Cow::Owned(escaped.into_bytes())
}

/// A whole answer of `text` (see [`Resolved::Whole`]).
fn whole<'t>(status: StatusCode, body: String) -> Resolved<'t> {
    Resolved::Whole(text(status, body))
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
    answers_at_once_to(method, uri.path(), uri.query())
}

/// [`answers_at_once`] of a request's path and query as sent.
pub fn answers_at_once_to(method: &Method, path: &str, query: Option<&str>) -> bool {
    (method == Method::GET || method == Method::HEAD)
        && !path.starts_with(RESERVED_PREFIX)
        && path != "/-"
        && query != Some(INFO_QUERY)
}

/// How a resolution answers: a redirect, in parts, or a whole response (a record's
/// message, or why there is no redirect).
pub enum Resolved<'t> {
    /// A redirect.
    Redirect {
        status: StatusCode,
        /// As a header carries it: as written, or with the bytes a header cannot carry
        /// percent-encoded.
        location: Cow<'t, [u8]>,
        cache_control: HeaderValue,
        /// `Vary`, or empty.
        vary: &'static str,
    },
    /// Anything else, without the headers every answer of the resolver gets (the
    /// security headers, the length).
    Whole(axum::http::Response<Bytes>),
}

/// The answer to a `GET` or `HEAD` of a PURL (see [`answers_at_once`]), from memory,
/// counted for its record and in the metrics.
pub fn answer(state: &PurlState, uri: &Uri, headers: &HeaderMap) -> axum::http::Response<Bytes> {
    let table = state.registry.table();
    let accept = header_text(headers, header::ACCEPT);
    let accept_language = header_text(headers, header::ACCEPT_LANGUAGE);
    match resolved(
        state,
        &table,
        uri.path(),
        uri.query(),
        accept,
        accept_language,
    ) {
        Resolved::Redirect {
            status,
            location,
            cache_control,
            vary,
        } => {
            let mut response = axum::http::Response::new(Bytes::new());
            *response.status_mut() = status;
            let h = response.headers_mut();
            // Location, Cache-Control, perhaps Vary, and what the caller adds.
            h.reserve(8);
            h.insert(
                header::LOCATION,
                HeaderValue::from_bytes(&location)
                    .unwrap_or_else(|_| HeaderValue::from_static("/")),
            );
            h.insert(header::CACHE_CONTROL, cache_control);
            if !vary.is_empty() {
                h.insert(header::VARY, HeaderValue::from_static(vary));
            }
            response
        }
        Resolved::Whole(response) => response,
    }
}

/// [`answer`]'s resolution of `path` and `query` (as sent) with these `Accept` and
/// `Accept-Language` values in `table`, counted for its record and in the metrics.
pub fn resolved<'t>(
    state: &PurlState,
    table: &'t urlkit::purl::Table,
    path: &str,
    query: Option<&str>,
    accept: Option<&str>,
    accept_language: Option<&str>,
) -> Resolved<'t> {
    let (kind, resolved) = match table.resolve(path, query, accept, accept_language) {
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
            let cache_control = match (&archived, max_age) {
                // Back to the target as soon as a check finds it again.
                (Some(_), _) => HeaderValue::from_static("no-cache"),
                (None, None) => state.default_cache_control.clone(),
                (None, Some(age)) => cache_control(age),
            };
            let location = location_bytes(archived.map_or(location, Cow::Owned));
            let resolved = Resolved::Redirect {
                status,
                location,
                cache_control,
                vary,
            };
            (kind, resolved)
        }
        Answer::Message {
            status, message, ..
        } => {
            let status = StatusCode::from_u16(status).unwrap_or(StatusCode::NOT_FOUND);
            let mut body = String::with_capacity(message.len() + 1);
            body.push_str(message);
            body.push('\n');
            (Kind::Message, whole(status, body))
        }
        Answer::NotAcceptable { record, offered } => (
            Kind::NotAcceptable,
            whole(
                StatusCode::NOT_ACCEPTABLE,
                format!(
                    "{record} is offered as {}; none of them is acceptable to this request\n",
                    offered.join(", ")
                ),
            ),
        ),
        Answer::BrokenChain { record, message } => (
            Kind::BrokenChain,
            whole(
                StatusCode::LOOP_DETECTED,
                format!("{record} cannot be resolved: {message}\n"),
            ),
        ),
        Answer::LeavesTarget { record } => (
            Kind::LeavesTarget,
            whole(
                StatusCode::NOT_FOUND,
                format!(
                    "{record} does not lead to this path: the rest would leave its target's site\n"
                ),
            ),
        ),
        Answer::NoRecord => (
            Kind::NoRecord,
            whole(
                StatusCode::NOT_FOUND,
                format!("no persistent URL named {path}\n"),
            ),
        ),
        Answer::BadName(e) => (
            Kind::BadName,
            whole(
                StatusCode::BAD_REQUEST,
                format!("not a persistent URL's name: {e}\n"),
            ),
        ),
    };
    let status = match &resolved {
        Resolved::Redirect { status, .. } => *status,
        Resolved::Whole(response) => response.status(),
    };
    state.metrics.resolved_as(kind, status);
    resolved
}

/// `Cache-Control: max-age=AGE`.
pub fn cache_control(age: u32) -> HeaderValue {
    // Digits and ASCII letters are always a header value.
    HeaderValue::try_from(format!("max-age={age}"))
        .unwrap_or_else(|_| HeaderValue::from_static("no-cache"))
}
