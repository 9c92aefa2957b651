//! A record shown instead of followed (`NAME?info`, `/-/info/NAME`): what it answers, its
//! owner domain, its last change, its history and how often it was resolved, as HTML or,
//! when the request prefers it, JSON. No account is needed: records are public.

use super::PurlState;
use crate::model::{Body, Event, Stored};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use urlkit::purl::{negotiate, Name};
use urlkit_web::error::ApiError;
use urlkit_web::view::escape;

/// What the info view says of a record.
#[derive(Serialize)]
pub struct Info {
    /// The record as stored.
    #[serde(flatten)]
    pub stored: super::api::RecordView,
    /// Its history, oldest first.
    pub history: Vec<Event>,
    /// How often it was resolved.
    pub resolutions: u64,
}

/// Whether the request prefers JSON to HTML.
pub fn wants_json(headers: &HeaderMap) -> bool {
    let Some(accept) = headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let ranges = negotiate::accept(accept);
    negotiate::media_quality(&ranges, "application/json")
        > negotiate::media_quality(&ranges, "text/html")
}

/// The info view of `name`.
pub async fn show(state: &PurlState, name: &Name, headers: &HeaderMap) -> Response {
    let store = state.registry.store();
    let stored = match store.get(name).await {
        Ok(Some(stored)) => stored,
        Ok(None) => {
            return ApiError::not_found(format!("no persistent URL named {name}")).into_response()
        }
        Err(e) => return super::api::unavailable(&e),
    };
    let history = match store.history(name).await {
        Ok(history) => history,
        Err(e) => return super::api::unavailable(&e),
    };
    let resolutions = store.count(name).await.unwrap_or(0) + state.counts.pending(name);
    let info = Info {
        stored: super::api::RecordView::of(&stored),
        history,
        resolutions,
    };
    if wants_json(headers) {
        let mut response = axum::Json(&info).into_response();
        response
            .headers_mut()
            .insert(header::VARY, HeaderValue::from_static("Accept"));
        return response;
    }
    let mut response = (
        StatusCode::OK,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        )],
        html(&stored, &info),
    )
        .into_response();
    response
        .headers_mut()
        .insert(header::VARY, HeaderValue::from_static("Accept"));
    response
}

fn describe(body: &Body) -> String {
    serde_json::to_string_pretty(body).unwrap_or_default()
}

fn html(stored: &Stored, info: &Info) -> String {
    let name = escape(stored.record.name.as_str());
    let mut out = String::new();
    out.push_str("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
    out.push_str(&format!("<title>{name} — persistent URL</title>"));
    out.push_str("<link rel=\"stylesheet\" href=\"/-/assets/style.css\"></head><body><main>");
    out.push_str(&format!("<h1>Persistent URL <code>{name}</code></h1>"));
    if stored.deleted {
        out.push_str(
            "<p><strong>Deleted</strong>: this name answers 410 and keeps its history.</p>",
        );
    }
    out.push_str("<dl>");
    let row = |out: &mut String, term: &str, value: &str| {
        out.push_str(&format!("<dt>{term}</dt><dd>{value}</dd>"));
    };
    row(
        &mut out,
        "Answers",
        &format!(
            "<pre>{}</pre>",
            escape(&describe(&Body::of(&stored.record)))
        ),
    );
    row(
        &mut out,
        "Domain",
        &stored.domain.as_ref().map_or("none".to_string(), |d| {
            format!("<code>{}</code>", escape(d.as_str()))
        }),
    );
    row(&mut out, "Version", &stored.version.to_string());
    row(
        &mut out,
        "Last change",
        &format!(
            "{} by {}",
            super::api::rfc3339(stored.changed_at),
            escape(&stored.changed_by)
        ),
    );
    row(&mut out, "Resolutions", &info.resolutions.to_string());
    out.push_str("</dl><h2>History</h2><ol>");
    for event in &info.history {
        out.push_str(&format!(
            "<li>version {} — {:?} — {} by {}{}{}</li>",
            event.version,
            event.kind,
            super::api::rfc3339(event.at),
            escape(&event.user),
            event
                .token
                .as_ref()
                .map_or(String::new(), |t| format!(" (token {})", escape(t))),
            event
                .reason
                .as_ref()
                .map_or(String::new(), |r| format!(": {}", escape(r))),
        ));
    }
    out.push_str("</ol></main></body></html>");
    out
}
