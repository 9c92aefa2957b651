//! The JSON API under `/-/api/`: records (read, create, change, delete), their history and
//! restore, search, domains and tokens. Writes need a Bearer token with a write grant on
//! the record's domain, and name the version they change (`If-Match`, or
//! `If-None-Match: *` to create); a stale one gets `412` with the current record.

use super::PurlState;
use crate::model::{Actor, Body, Expect, Millis, Stored, Version};
use crate::store::{Search, StoreError, StoreProblem, WriteError};
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use std::time::{Duration, UNIX_EPOCH};
use urlkit::purl::{Name, RecordProblem};
use urlkit_web::error::ApiError;

/// Where record routes start; the rest of the path is the record's name.
pub const PURLS: &str = "/-/api/purls";
/// Where history routes start.
pub const HISTORY: &str = "/-/api/history";
/// Where restore routes start.
pub const RESTORE: &str = "/-/api/restore";
/// Where clone routes start.
pub const CLONE: &str = "/-/api/clone";

/// How long a client should wait after a `503` from a database that failed.
const RETRY_AFTER_SECONDS: u32 = 5;

/// A request refused before it changed anything: its answer (boxed, as answers are large).
pub struct Refusal(Box<Response>);

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        *self.0
    }
}

impl From<Response> for Refusal {
    fn from(response: Response) -> Self {
        Refusal(Box::new(response))
    }
}

impl From<ApiError> for Refusal {
    fn from(error: ApiError) -> Self {
        Refusal(Box::new(error.into_response()))
    }
}

/// What a handler answers: a response, or why the request was refused.
pub type Answer = Result<Response, Refusal>;

/// A record as the API shows it (and `urlkit purl show --json` prints it).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RecordView {
    /// The name, in normal form.
    pub name: Name,
    /// Its version (the `ETag`).
    pub version: Version,
    /// The domain that holds it.
    pub domain: Option<Name>,
    /// When it last changed (RFC 3339).
    pub changed_at: String,
    /// Who changed it last.
    pub changed_by: String,
    /// Whether it is a tombstone.
    pub deleted: bool,
    /// What it answers.
    pub record: Body,
    /// What a maintainer should know (a permanent redirect is cached by browsers for good).
    pub warnings: Vec<String>,
}

impl RecordView {
    /// The view of a stored record.
    pub fn of(stored: &Stored) -> RecordView {
        RecordView {
            name: stored.record.name.clone(),
            version: stored.version,
            domain: stored.domain.clone(),
            changed_at: rfc3339(stored.changed_at),
            changed_by: stored.changed_by.clone(),
            deleted: stored.deleted,
            record: Body::of(&stored.record),
            warnings: stored.record.warnings(),
        }
    }
}

/// Milliseconds since the epoch as RFC 3339, to the second.
pub fn rfc3339(at: Millis) -> String {
    let at = UNIX_EPOCH + Duration::from_millis(u64::try_from(at).unwrap_or(0));
    urlkit_web::api::rfc3339(at)
}

fn etag(version: Version) -> HeaderValue {
    HeaderValue::from_str(&format!("\"{version}\"")).unwrap_or(HeaderValue::from_static("\"0\""))
}

/// A record with its `ETag`.
fn record_response(status: StatusCode, stored: &Stored) -> Response {
    let mut response = (status, Json(RecordView::of(stored))).into_response();
    let headers = response.headers_mut();
    headers.insert(header::ETAG, etag(stored.version));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// `503` with `Retry-After` for a database that failed; the resolver keeps resolving.
pub fn unavailable(error: &StoreError) -> Response {
    tracing::warn!("database: {error}");
    let code = match error.kind {
        StoreProblem::Locked => "database-locked",
        StoreProblem::ReadOnly => "database-read-only",
        StoreProblem::Full => "disk-full",
        _ => "database-unavailable",
    };
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        code,
        format!("the database cannot take this now ({error}); redirects are still answered"),
    )
    .retry_after(RETRY_AFTER_SECONDS)
    .into_response()
}

/// The name a route's path carries after `prefix`, in normal form.
fn name_after(uri: &Uri, prefix: &str) -> Result<Name, Refusal> {
    let rest = uri.path().strip_prefix(prefix).unwrap_or("");
    Name::parse(rest).map_err(|e| {
        let mut error = ApiError::bad_request(
            "bad-name",
            format!("{rest:?} is not a persistent URL's name: {e}"),
        );
        error.offset = Some(e.position as u64);
        error.into()
    })
}

/// A `401` that names what to send (`challenge`, the `WWW-Authenticate` value), counted
/// among the refusals.
pub(super) fn unauthorized(state: &PurlState, challenge: &'static str, message: &str) -> Refusal {
    state.metrics.refusals.inc();
    let mut response =
        ApiError::new(StatusCode::UNAUTHORIZED, "unauthorized", message).into_response();
    response.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static(challenge),
    );
    Refusal::from(response)
}

/// The actor behind the request's Bearer token (`401` without one, or for an unknown or
/// revoked one).
pub(super) async fn actor(state: &PurlState, headers: &HeaderMap) -> Result<Actor, Refusal> {
    let refuse = |message: &str| unauthorized(state, "Bearer realm=\"urlkit purl\"", message);
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Err(refuse(
            "this needs a token: send Authorization: Bearer <token> (urlkit purl token create)",
        ));
    };
    let secret = value
        .to_str()
        .ok()
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim);
    let Some(secret) = secret else {
        return Err(refuse("the Authorization header is not \"Bearer <token>\""));
    };
    match state.registry.store().authenticate(secret).await {
        Ok(Some(actor)) => Ok(actor),
        Ok(None) => Err(refuse("the token is unknown or revoked")),
        Err(e) => Err(unavailable(&e).into()),
    }
}

/// What the write expects to find, from `If-Match` or `If-None-Match: *`.
pub(super) fn expectation(headers: &HeaderMap) -> Result<Expect, Refusal> {
    if let Some(value) = headers.get(header::IF_MATCH) {
        let text = value.to_str().unwrap_or("").trim();
        let version = text
            .strip_prefix('"')
            .and_then(|t| t.strip_suffix('"'))
            .and_then(|t| t.parse::<Version>().ok());
        return version.map(Expect::Version).ok_or_else(|| {
            ApiError::bad_request(
                "bad-if-match",
                format!("If-Match is {text:?}; send the record's ETag, such as \"3\""),
            )
            .into()
        });
    }
    let message = match headers.get(header::IF_NONE_MATCH).map(|v| v.as_bytes()) {
        Some(b"*") => return Ok(Expect::Absent),
        Some(_) => "a write takes If-None-Match: * (to create) or If-Match with the record's ETag",
        None => {
            "send If-Match with the record's ETag (GET it first), or If-None-Match: * to \
             create it, so that no one's change is lost"
        }
    };
    Err(ApiError::new(
        StatusCode::PRECONDITION_REQUIRED,
        "precondition-required",
        message,
    )
    .into())
}

/// How a refused or failed write is counted in the metrics (`outcome` label), by the API
/// and the page alike.
pub fn outcome(error: &WriteError) -> &'static str {
    match error {
        WriteError::Stale { .. } => "stale",
        WriteError::Forbidden { .. } => "forbidden",
        WriteError::Invalid(_) => "invalid",
        WriteError::NotFound => "not_found",
        WriteError::Store(_) => "unavailable",
    }
}

/// The answer to a refused or failed write.
pub(super) fn write_error(
    state: &PurlState,
    operation: &'static str,
    error: WriteError,
) -> Response {
    state.metrics.wrote(operation, outcome(&error));
    match error {
        WriteError::Stale { current } => match current.as_deref() {
            Some(stored) => record_response(StatusCode::PRECONDITION_FAILED, stored),
            None => ApiError::new(
                StatusCode::PRECONDITION_FAILED,
                "stale",
                "the record does not exist (any more); create it with If-None-Match: *",
            )
            .into_response(),
        },
        WriteError::Forbidden { domain } => {
            let message = match domain {
                Some(d) => format!("this name belongs to the domain {d}, where you may not write"),
                None => "this name lies in no domain; only an administrator may write it".into(),
            };
            ApiError::new(StatusCode::FORBIDDEN, "forbidden", message).into_response()
        }
        WriteError::Invalid(e) => {
            let code = match e.kind {
                RecordProblem::Status => "bad-status",
                RecordProblem::Target => "bad-target",
                RecordProblem::Offer => "bad-offer",
                RecordProblem::NoOffers => "no-offers",
                RecordProblem::ChainLoop => "chain-loop",
                _ => "bad-record",
            };
            let mut error = ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, code, e.message);
            error.field = Some(e.field);
            error.into_response()
        }
        WriteError::NotFound => ApiError::not_found("no such record or version").into_response(),
        WriteError::Store(e) => unavailable(&e),
    }
}

/// The answer to a write: the record with `status` and its new `ETag`, or why not; counted
/// either way.
pub(super) fn answer_write(
    state: &PurlState,
    operation: &'static str,
    status: StatusCode,
    written: Result<Stored, WriteError>,
) -> Response {
    match written {
        Ok(stored) => {
            state.metrics.wrote(operation, "ok");
            state
                .metrics
                .records
                .set(state.registry.table().len() as i64);
            record_response(status, &stored)
        }
        Err(e) => write_error(state, operation, e),
    }
}

pub(super) fn bad_json(state: &PurlState, error: impl std::fmt::Display) -> Refusal {
    state.metrics.refusals.inc();
    ApiError::bad_request("bad-json", format!("the body is not a record: {error}")).into()
}

/// `GET /-/api/purls/{name}`: the record with its `ETag` (`304` for a matching
/// `If-None-Match`).
pub async fn get_record(State(state): State<PurlState>, uri: Uri, headers: HeaderMap) -> Answer {
    let name = name_after(&uri, PURLS)?;
    Ok(match state.registry.store().get(&name).await {
        Ok(Some(stored)) => {
            let tag = etag(stored.version);
            if headers.get(header::IF_NONE_MATCH) == Some(&tag) {
                let mut response = StatusCode::NOT_MODIFIED.into_response();
                response.headers_mut().insert(header::ETAG, tag);
                return Ok(response);
            }
            record_response(StatusCode::OK, &stored)
        }
        Ok(None) => ApiError::not_found(format!("no persistent URL named {name}")).into_response(),
        Err(e) => unavailable(&e),
    })
}

/// The body of a `PUT`: a record, and why.
fn put_body(bytes: &[u8]) -> Result<(Body, Option<String>), String> {
    let mut map: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
    let reason = match map.remove("reason") {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::String(s)) => Some(s),
        Some(_) => return Err("reason: a text".into()),
    };
    let body = Body::deserialize(serde_json::Value::Object(map)).map_err(|e| e.to_string())?;
    Ok((body, reason))
}

/// `PUT /-/api/purls/{name}`: creates (with `If-None-Match: *`) or changes (with
/// `If-Match`) the record. `201` or `200` with the record and its new `ETag`.
pub async fn put_record(
    State(state): State<PurlState>,
    uri: Uri,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer {
    let name = name_after(&uri, PURLS)?;
    let actor = actor(&state, &headers).await?;
    let expect = expectation(&headers)?;
    let (body, reason) = put_body(&bytes).map_err(|e| bad_json(&state, e))?;
    let written = state
        .registry
        .put(&actor, &name, body, expect, reason.as_deref())
        .await;
    let status = if expect == Expect::Absent {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok(answer_write(&state, "put", status, written))
}

/// What `DELETE` and `POST …/restore` may say.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChangeNote {
    /// The tombstone's message (`DELETE`).
    pub message: Option<String>,
    /// Why.
    pub reason: Option<String>,
    /// The version to bring back (`restore`).
    pub version: Option<Version>,
}

fn change_note(bytes: &[u8]) -> Result<ChangeNote, String> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(ChangeNote::default());
    }
    serde_json::from_slice(bytes).map_err(|e| e.to_string())
}

/// `DELETE /-/api/purls/{name}` with `If-Match`: the record becomes a tombstone (`410`),
/// keeping its history. The body may give `{"message": …, "reason": …}`.
pub async fn delete_record(
    State(state): State<PurlState>,
    uri: Uri,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer {
    let name = name_after(&uri, PURLS)?;
    let actor = actor(&state, &headers).await?;
    let expect = expectation(&headers)?;
    let note = change_note(&bytes).map_err(|e| bad_json(&state, e))?;
    let deleted = state
        .registry
        .delete(
            &actor,
            &name,
            expect,
            note.message.as_deref(),
            note.reason.as_deref(),
        )
        .await;
    Ok(answer_write(&state, "delete", StatusCode::OK, deleted))
}

/// `POST /-/api/restore/{name}` with `If-Match` and `{"version": N, "reason": …}`: the
/// record as it was at version N, as a new version.
pub async fn restore_record(
    State(state): State<PurlState>,
    uri: Uri,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer {
    let name = name_after(&uri, RESTORE)?;
    let actor = actor(&state, &headers).await?;
    let expect = expectation(&headers)?;
    let (version, reason) = match change_note(&bytes) {
        Ok(ChangeNote {
            version: Some(version),
            reason,
            message: None,
        }) => (version, reason),
        Ok(_) => {
            return Err(bad_json(
                &state,
                "give {\"version\": N} and optionally a reason",
            ))
        }
        Err(e) => return Err(bad_json(&state, e)),
    };
    let restored = state
        .registry
        .restore(&actor, &name, version, expect, reason.as_deref())
        .await;
    Ok(answer_write(&state, "restore", StatusCode::OK, restored))
}

/// The body of `POST /-/api/clone/{name}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CloneRequest {
    /// The record copied.
    pub from: Name,
    /// Why.
    pub reason: Option<String>,
}

/// `POST /-/api/clone/{name}`: a new record `name` answering as `from` does now (`201`);
/// `412` when `name` has a record, `404` when `from` has none.
pub async fn clone_record(
    State(state): State<PurlState>,
    uri: Uri,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer {
    let name = name_after(&uri, CLONE)?;
    let actor = actor(&state, &headers).await?;
    let request: CloneRequest = serde_json::from_slice(&bytes).map_err(|e| bad_json(&state, e))?;
    let body = match state.registry.table().get(&request.from) {
        Some(record) => Body::of(record),
        None => {
            return Err(ApiError::not_found(format!(
                "no persistent URL named {} to copy",
                request.from
            ))
            .into())
        }
    };
    let written = state
        .registry
        .put(
            &actor,
            &name,
            body,
            Expect::Absent,
            request.reason.as_deref(),
        )
        .await;
    Ok(answer_write(&state, "put", StatusCode::CREATED, written))
}

/// `GET /-/api/history/{name}`: every change of the record, oldest first.
pub async fn history(State(state): State<PurlState>, uri: Uri) -> Answer {
    let name = name_after(&uri, HISTORY)?;
    Ok(match state.registry.store().history(&name).await {
        Ok(events) if events.is_empty() => {
            ApiError::not_found(format!("no persistent URL named {name}")).into_response()
        }
        Ok(events) => Json(events).into_response(),
        Err(e) => unavailable(&e),
    })
}

/// The query of `GET /-/api/purls`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchQuery {
    /// Names starting with this.
    pub name: Option<String>,
    /// Targets containing this.
    pub target: Option<String>,
    /// Records of this domain.
    pub domain: Option<String>,
    /// Tombstones too.
    #[serde(default)]
    pub deleted: bool,
    /// At most this many (100 unless set, 1,000 at most).
    pub limit: Option<usize>,
    /// Names after this one.
    pub after: Option<String>,
}

fn query_name(field: &str, text: Option<String>) -> Result<Option<Name>, Refusal> {
    text.map(|t| {
        Name::parse(&t).map_err(|e| {
            let mut error =
                ApiError::bad_request("bad-name", format!("{field}: {t:?} is not a name: {e}"));
            error.field = Some(field.into());
            Refusal::from(error)
        })
    })
    .transpose()
}

/// `GET /-/api/purls?name=…&target=…&domain=…`: records by name.
pub async fn search(
    State(state): State<PurlState>,
    query: Result<Query<SearchQuery>, axum::extract::rejection::QueryRejection>,
) -> Answer {
    let Ok(Query(query)) = query else {
        return Err(ApiError::bad_request(
            "bad-query",
            "search takes name, target, domain, deleted, limit and after",
        )
        .into());
    };
    let search = Search {
        name_prefix: query.name,
        target_contains: query.target,
        domain: query_name("domain", query.domain)?,
        include_deleted: query.deleted,
        limit: query.limit.unwrap_or(100).min(1000),
        after: query_name("after", query.after)?,
    };
    Ok(match state.registry.store().search(&search).await {
        Ok(found) => Json(found.iter().map(RecordView::of).collect::<Vec<_>>()).into_response(),
        Err(e) => unavailable(&e),
    })
}

/// `GET /-/api/domains`: every domain and its maintainers.
pub async fn domains(State(state): State<PurlState>) -> Response {
    match state.registry.store().domains().await {
        Ok(domains) => Json(domains).into_response(),
        Err(e) => unavailable(&e),
    }
}
