//! The link checker inside the resolver: its runs on a schedule, its results in the API
//! (`GET /-/api/checks`), a moved target's suggestion accepted in one step
//! (`POST /-/api/purls/{name}/accept-suggestion`), and the gauges of targets by the kind
//! of their last check.

use super::api::{self, Answer, Refusal};
use super::PurlState;
use crate::checker::{self, Checker, CheckerOptions, OutcomeKind, TargetCheck};
use crate::model::{Actor, Body, Expect, Stored};
use crate::registry::Registry;
use crate::store::{Archived, CheckFilter, WriteError};
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::IntoResponse;
use axum::Json;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::sync::RwLock;
use std::time::Duration;
use urlkit::purl::{Action, Name};
use urlkit_web::error::ApiError;

/// The reason the history records for an accepted suggestion.
pub const ACCEPTED_REASON: &str = "target moved: accepted suggestion";

/// The path's end that asks to accept a record's suggested target.
pub const ACCEPT_SUFFIX: &str = "/accept-suggestion";

/// When the checker runs inside the resolver, and how.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CheckSchedule {
    /// Time between runs; `None` (or zero): the resolver checks nothing.
    pub every: Option<Duration>,
    /// How each run goes about it.
    pub options: CheckerOptions,
}

/// A check as the API shows it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct CheckView {
    /// The record.
    pub name: Name,
    /// Its target checked.
    pub target: String,
    /// When (RFC 3339).
    pub checked_at: String,
    /// What was found: `ok`, `moved`, `gone`, `client_error`, `server_error`,
    /// `redirect_loop`, `dns`, `tls`, `timeout`, `unreachable`, `disallowed`.
    pub kind: OutcomeKind,
    /// The last HTTP status answered, if any.
    pub status: Option<u16>,
    /// Where the target moved to (for `moved`).
    pub suggestion: Option<String>,
    /// What happened, in words.
    pub detail: String,
    /// Whether people following the record no longer reach the target.
    pub broken: bool,
}

impl CheckView {
    /// The view of a stored check.
    pub fn of(check: &TargetCheck) -> CheckView {
        CheckView {
            name: check.name.clone(),
            target: check.target.clone(),
            checked_at: api::rfc3339(check.checked_at),
            kind: check.outcome.kind,
            status: check.outcome.status,
            suggestion: check.outcome.suggestion.clone(),
            detail: check.outcome.detail.clone(),
            broken: check.outcome.kind.is_broken(),
        }
    }
}

/// The query of `GET /-/api/checks`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChecksQuery {
    /// Records of this domain only.
    pub domain: Option<String>,
    /// `broken`, `moved` or `all` (the default).
    pub status: Option<String>,
}

/// Reads a `status` filter: `broken`, `moved`, `all` (or none).
pub fn filter_of(text: Option<&str>) -> Result<CheckFilter, String> {
    match text {
        None | Some("all") | Some("") => Ok(CheckFilter::All),
        Some("broken") => Ok(CheckFilter::Broken),
        Some("moved") => Ok(CheckFilter::Moved),
        Some(other) => Err(format!("status is {other:?}; give broken, moved or all")),
    }
}

/// `GET /-/api/checks?domain=…&status=broken|moved|all`: the latest check of each target
/// (of the domain's records), newest first.
pub async fn list(
    State(state): State<PurlState>,
    query: Result<Query<ChecksQuery>, axum::extract::rejection::QueryRejection>,
) -> Answer {
    let Ok(Query(query)) = query else {
        return Err(ApiError::bad_request("bad-query", "checks take domain and status").into());
    };
    let filter = filter_of(query.status.as_deref()).map_err(|message| {
        let mut error = ApiError::bad_request("bad-status", message);
        error.field = Some("status".into());
        Refusal::from(error)
    })?;
    let domain = match query.domain.as_deref().map(Name::parse).transpose() {
        Ok(domain) => domain,
        Err(e) => {
            let mut error = ApiError::bad_request("bad-name", format!("domain: {e}"));
            error.field = Some("domain".into());
            return Err(error.into());
        }
    };
    Ok(
        match state
            .registry
            .store()
            .latest_checks_in(domain.as_ref(), filter)
            .await
        {
            Ok(checks) => {
                Json(checks.iter().map(CheckView::of).collect::<Vec<_>>()).into_response()
            }
            Err(e) => api::unavailable(&e),
        },
    )
}

/// Why a suggestion could not be accepted.
#[derive(Debug)]
pub enum AcceptError {
    /// The record's last checks suggest nothing (or not for the target named).
    NoSuggestion(String),
    /// The write was refused or failed.
    Write(WriteError),
}

/// The record's body with `old` replaced by `new` wherever it is a target.
fn replaced(body: &Body, old: &str, new: &str) -> Body {
    let swap = |t: &mut String| {
        if t == old {
            *t = new.to_string();
        }
    };
    let mut body = body.clone();
    match &mut body.action {
        Action::Redirect { target, .. } | Action::Partial { target, .. } => swap(target),
        Action::Negotiate {
            offers, fallback, ..
        } => {
            offers.iter_mut().for_each(|o| swap(&mut o.target));
            if let Some(f) = fallback {
                swap(f);
            }
        }
        _ => {}
    }
    body
}

/// Accepts the suggestion of the last check of `name`'s target `target` (or of its one
/// moved target when none is named): the target becomes the place it moved to, a write
/// like any other (the actor's rights and the expected version checked), recorded with
/// [`ACCEPTED_REASON`].
pub async fn accept(
    registry: &Registry,
    actor: &Actor,
    name: &Name,
    target: Option<&str>,
    expect: Expect,
) -> Result<Stored, AcceptError> {
    let checks = registry
        .store()
        .latest_checks(name)
        .await
        .map_err(|e| AcceptError::Write(WriteError::Store(e)))?;
    let moved: Vec<&TargetCheck> = checks
        .iter()
        .filter(|c| c.outcome.kind == OutcomeKind::Moved && c.outcome.suggestion.is_some())
        .filter(|c| target.is_none_or(|t| t == c.target))
        .collect();
    let check = match (moved.as_slice(), target) {
        ([one], _) => *one,
        ([], Some(t)) => {
            return Err(AcceptError::NoSuggestion(format!(
                "the last check of {name}'s target {t} suggests no new target"
            )))
        }
        ([], None) => {
            return Err(AcceptError::NoSuggestion(format!(
                "the last checks of {name} suggest no new target"
            )))
        }
        (_, _) => {
            return Err(AcceptError::NoSuggestion(format!(
                "several targets of {name} moved: name the one (\"target\")"
            )))
        }
    };
    let suggestion = check.outcome.suggestion.clone().unwrap_or_default();
    let current = registry.table().get(name).map(Body::of);
    let Some(current) = current else {
        return Err(AcceptError::Write(WriteError::NotFound));
    };
    let body = replaced(&current, &check.target, &suggestion);
    registry
        .put(actor, name, body, expect, Some(ACCEPTED_REASON))
        .await
        .map_err(AcceptError::Write)
}

/// The body of `POST …/accept-suggestion`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct AcceptBody {
    target: Option<String>,
}

/// `POST /-/api/purls/{name}/accept-suggestion` with `If-Match` (and `{"target": …}` when
/// several targets moved): the moved target replaced by where it moved to; `200` with the
/// record and its new `ETag`, `409` when there is no suggestion to accept.
pub async fn accept_route(
    State(state): State<PurlState>,
    uri: Uri,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer {
    let Some(rest) = uri
        .path()
        .strip_prefix(api::PURLS)
        .and_then(|r| r.strip_suffix(ACCEPT_SUFFIX))
    else {
        return Err(ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method-not-allowed",
            "a record takes GET, PUT and DELETE; POST only …/accept-suggestion",
        )
        .allow("GET, HEAD, PUT, DELETE")
        .into());
    };
    let name = Name::parse(rest).map_err(|e| {
        Refusal::from(ApiError::bad_request(
            "bad-name",
            format!("{rest:?} is not a persistent URL's name: {e}"),
        ))
    })?;
    let actor = api::actor(&state, &headers).await?;
    let expect = api::expectation(&headers)?;
    if expect == Expect::Absent {
        return Err(ApiError::bad_request(
            "bad-precondition",
            "accepting a suggestion changes a record: send If-Match with its ETag",
        )
        .into());
    }
    let body: AcceptBody = if bytes.iter().all(u8::is_ascii_whitespace) {
        AcceptBody::default()
    } else {
        serde_json::from_slice(&bytes).map_err(|e| api::bad_json(&state, e))?
    };
    let written = accept(
        &state.registry,
        &actor,
        &name,
        body.target.as_deref(),
        expect,
    )
    .await;
    Ok(match written {
        Ok(stored) => api::answer_write(&state, "put", StatusCode::OK, Ok(stored)),
        Err(AcceptError::Write(e)) => api::write_error(&state, "put", e),
        Err(AcceptError::NoSuggestion(message)) => {
            ApiError::new(StatusCode::CONFLICT, "no-suggestion", message).into_response()
        }
    })
}

/// Sets the gauges of targets by the kind of their last check.
pub async fn update_gauges(state: &PurlState) {
    match state
        .registry
        .store()
        .latest_checks_in(None, CheckFilter::All)
        .await
    {
        Ok(checks) => {
            for kind in OutcomeKind::ALL {
                let n = checks.iter().filter(|c| c.outcome.kind == kind).count();
                state.metrics.set_targets(kind.label(), n as i64);
            }
        }
        Err(e) => tracing::warn!("link checker: cannot read the last checks: {e}"),
    }
}

/// The records whose target failed their domain's number of checks in a row, held in
/// memory for the resolver: replaced as a whole after each run of the checker. While it is
/// empty a redirect pays one atomic load for it.
#[derive(Debug, Default)]
pub struct ArchiveMap {
    on: AtomicBool,
    by_name: RwLock<Arc<HashMap<Name, Archived>>>,
}

impl ArchiveMap {
    /// Where `name` sends people instead of its target `target`, if it does (a record whose
    /// target changed since the checks is followed as it is now).
    pub fn location(&self, name: &Name, target: &str) -> Option<String> {
        if !self.on.load(Ordering::Acquire) {
            return None;
        }
        self.get(name)
            .filter(|a| a.target == target)
            .map(|a| a.location)
    }

    /// Why and where `name` sends people to an archived copy, if it does.
    pub fn get(&self, name: &Name) -> Option<Archived> {
        let map = self
            .by_name
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        map.get(name).cloned()
    }

    /// Replaces what is held by `archived`.
    pub fn replace(&self, archived: Vec<Archived>) {
        let map: HashMap<Name, Archived> =
            archived.into_iter().map(|a| (a.name.clone(), a)).collect();
        let on = !map.is_empty();
        *self
            .by_name
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Arc::new(map);
        self.on.store(on, Ordering::Release);
    }
}

/// Reads again which records are sent to an archived copy (from the stored checks) and
/// swaps them in; a database that fails leaves the previous ones (logged).
pub async fn refresh_archive(state: &PurlState) {
    match state.registry.store().archived().await {
        Ok(archived) => {
            if !archived.is_empty() {
                tracing::info!(
                    "archive fallback: {} records sent to an archived copy",
                    archived.len()
                );
            }
            state.archive.replace(archived);
        }
        Err(e) => tracing::warn!("archive fallback: cannot read the last checks: {e}"),
    }
}

/// What follows a run of the checker: the gauges set, the archive fallbacks read again.
pub async fn after_run(state: &PurlState) {
    update_gauges(state).await;
    refresh_archive(state).await;
}

/// Runs the checker every `schedule.every`, until aborted; `None` when the schedule says
/// never (or the checker cannot be set up, which is logged). The first run waits until a
/// period has passed since the newest check in the database (or since the start, when
/// nothing was checked yet), so that restarts, and several resolvers on one database, do
/// not check more often than asked; `urlkit purl check` checks at once.
pub fn spawn(state: &PurlState, schedule: &CheckSchedule) -> Option<tokio::task::JoinHandle<()>> {
    let every = schedule.every.filter(|d| !d.is_zero())?;
    let checker = match Checker::new(schedule.options.clone()) {
        Ok(checker) => Arc::new(checker),
        Err(e) => {
            tracing::warn!("link checker off: {e}");
            return None;
        }
    };
    let state = state.clone();
    Some(tokio::spawn(async move {
        update_gauges(&state).await;
        loop {
            let last = state.registry.store().last_check_at().await.ok().flatten();
            // Never checked: the first run a period after the start, so that a resolver
            // started for a moment (a test, a trial) sends no request anywhere.
            let wait = last.map_or(every, |at| {
                let since = Duration::from_millis(
                    u64::try_from(crate::model::now().saturating_sub(at)).unwrap_or(0),
                );
                every.saturating_sub(since)
            });
            tokio::time::sleep(wait).await;
            let started = std::time::Instant::now();
            match checker::run(&state.registry, &checker, None, |_| {}).await {
                Ok(checks) => {
                    let broken = checks.iter().filter(|c| c.outcome.kind.is_broken()).count();
                    tracing::info!(
                        "link checker: {} targets checked in {:.1} s, {broken} broken",
                        checks.len(),
                        started.elapsed().as_secs_f64()
                    );
                }
                Err(e) => tracing::warn!("link checker: the results were not stored: {e}"),
            }
            after_run(&state).await;
            // A run that stored nothing (no targets) would be found due again at once.
            if state.registry.store().last_check_at().await.ok().flatten() == last {
                tokio::time::sleep(every).await;
            }
        }
    }))
}

/// A record sent to an archived copy, as the info view shows it.
#[derive(Clone, Debug, Serialize)]
pub struct ArchivedView {
    /// The archived copy visitors are sent to.
    pub location: String,
    /// The target that failed.
    pub target: String,
    /// Since when (RFC 3339): the check that completed the failures in a row.
    pub since: String,
    /// The time of the copy asked for (RFC 3339): the target's last good check, or the
    /// record's last change.
    pub snapshot: String,
}

/// Where `name` sends visitors instead of its target, if its domain's archive fallback
/// applies.
pub(super) fn archived_view(state: &PurlState, stored: &Stored) -> Option<ArchivedView> {
    let Action::Redirect { target, .. } = &stored.record.action else {
        return None;
    };
    let archived = state.archive.get(&stored.record.name)?;
    if stored.deleted || archived.target != *target {
        return None;
    }
    Some(ArchivedView {
        since: api::rfc3339(archived.since),
        snapshot: api::rfc3339(archived.snapshot),
        location: archived.location,
        target: archived.target,
    })
}
