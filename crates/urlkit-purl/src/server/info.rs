//! A record shown instead of followed (`NAME?info`, `/-/info/NAME`): what it answers, its
//! owner domain, its last change, its history and how often it was resolved, as HTML or,
//! when the request prefers it, JSON. No account is needed: records are public.

use super::api::RecordView;
use super::checks::{archived_view, ArchivedView, CheckView};
use super::PurlState;
use crate::model::Event;
use axum::http::{header, HeaderMap, HeaderValue, Uri};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use urlkit::purl::{negotiate, Name};
use urlkit_web::error::ApiError;

/// What the info view says of a record.
#[derive(Serialize)]
pub struct Info {
    /// The record as stored.
    #[serde(flatten)]
    pub stored: RecordView,
    /// Its history, oldest first.
    pub history: Vec<Event>,
    /// How often it was resolved.
    pub resolutions: u64,
    /// The last check of each of its targets by the link checker (none before the first).
    pub checks: Vec<CheckView>,
    /// Where visitors are sent instead of the target, when its domain's archive fallback
    /// applies (left out otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub archived: Option<ArchivedView>,
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
pub async fn show(state: &PurlState, name: &Name, uri: &Uri, headers: &HeaderMap) -> Response {
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
    let resolutions =
        store.count(name).await.unwrap_or(0) + state.counts.pending(&state.registry, name);
    // The checks are an addition: a database that fails here leaves them out.
    let checks: Vec<CheckView> = store
        .latest_checks(name)
        .await
        .unwrap_or_default()
        .iter()
        .map(CheckView::of)
        .collect();
    let archived = archived_view(state, &stored);
    let mut response = if wants_json(headers) {
        let info = Info {
            stored: RecordView::of(&stored),
            history,
            resolutions,
            checks,
            archived,
        };
        axum::Json(&info).into_response()
    } else {
        let ctx = super::page::context(state, uri, headers).await;
        let saved = uri.query().and_then(|q| {
            form_urlencoded::parse(q.as_bytes())
                .find(|(k, _)| k == "saved")
                .map(|(_, v)| v.into_owned())
        });
        super::page::info_page(
            &ctx,
            state,
            &stored,
            &history,
            resolutions,
            &checks,
            saved.as_deref(),
        )
    };
    response
        .headers_mut()
        .insert(header::VARY, HeaderValue::from_static("Accept, Cookie"));
    response
}
