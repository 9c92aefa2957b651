//! Rows of the records and events tables read into the model, and the model written as
//! their columns' text: one reading for the records' reads, the bulk import and export,
//! and the follower of other resolvers' changes.

use super::Flag;
use super::{stored_body, stored_name, StoreError};
use crate::model::{Body, Event, EventKind, Stored};

/// The columns of a record; `deleted = TRUE` as `sqlx::Any` reads no SQLite `BOOLEAN`
/// column (an expression it reads as a number, see [`Flag`]).
pub(super) const RECORD_COLUMNS: &str =
    "name, body, version, domain, changed_at, changed_by, deleted = TRUE AS deleted";

pub(super) type RecordRow = (String, String, i64, Option<String>, i64, String, Flag);

pub(super) fn stored_of(row: RecordRow) -> Result<Stored, StoreError> {
    let (name, body, version, domain, changed_at, changed_by, Flag(deleted)) = row;
    let name = stored_name(&name)?;
    let body = stored_body(&body)?;
    Ok(Stored {
        record: urlkit::purl::Record {
            name,
            action: body.action,
            max_age: body.max_age,
        },
        version,
        domain: domain.as_deref().map(stored_name).transpose()?,
        changed_at,
        changed_by,
        deleted,
    })
}

pub(super) type EventRow = (
    String,
    i64,
    i64,
    String,
    Option<String>,
    String,
    Option<String>,
    String,
    Option<String>,
);

pub(super) fn event_of(row: EventRow) -> Result<Event, StoreError> {
    let (name, version, at, user, token, kind, before, after, reason) = row;
    let kind = serde_json::from_value(serde_json::Value::String(kind.clone())).map_err(|_| {
        StoreError::new(
            super::StoreProblem::Other,
            format!("the database holds an unknown kind of event {kind:?}"),
        )
    })?;
    Ok(Event {
        name: stored_name(&name)?,
        version,
        at,
        user,
        token,
        kind,
        before: before.as_deref().map(stored_body).transpose()?,
        after: stored_body(&after)?,
        reason,
    })
}

pub(super) fn kind_text(kind: EventKind) -> &'static str {
    match kind {
        EventKind::Create => "create",
        EventKind::Update => "update",
        EventKind::Delete => "delete",
        EventKind::Restore => "restore",
    }
}

pub(super) fn body_text(body: &Body) -> String {
    serde_json::to_string(body).expect("a record body is always JSON")
}
