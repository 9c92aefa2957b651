//! The resolver's export: every record with its whole history, a JSON object a line, in
//! order of name. The same records give the same bytes: keys in a fixed order, absent
//! values as `null`, nothing about the time of the export. Importing an export into an
//! empty database keeps versions, events, tombstones and domains as they were, so its
//! export is the same file again.
//!
//! ```text
//! {"name":"/net/a","version":2,"domain":"/net/","deleted":false,"changed_at":1700000000000,
//!  "changed_by":"alice","record":{"type":"redirect","status":302,"target":"https://e.org/b"},
//!  "history":[{"version":1,"at":…,"user":"alice","token":null,"kind":"create","before":null,
//!  "after":{…},"reason":null},{"version":2,…}]}
//! ```
//! (one line in the file).

use crate::model::{Body, Event, EventKind, Millis, Stored, Version};
use serde::{Deserialize, Serialize};
use urlkit::purl::Name;

/// One record of an export with its history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exported {
    /// The name.
    pub name: Name,
    /// The current version (the last event's).
    pub version: Version,
    /// The domain that keeps it.
    pub domain: Option<Name>,
    /// Whether it is a tombstone.
    pub deleted: bool,
    /// When it last changed.
    pub changed_at: Millis,
    /// Who changed it last.
    pub changed_by: String,
    /// What it answers now.
    pub record: Body,
    /// Every change, oldest first.
    pub history: Vec<ExportedEvent>,
}

/// One event of an exported history (an [`Event`] without the name its record gives).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportedEvent {
    /// The version the change made.
    pub version: Version,
    /// When.
    pub at: Millis,
    /// Who.
    pub user: String,
    /// Through which token, if one.
    pub token: Option<String>,
    /// What the change did.
    pub kind: EventKind,
    /// The record before.
    pub before: Option<Body>,
    /// The record after.
    pub after: Body,
    /// Why.
    pub reason: Option<String>,
}

impl Exported {
    /// The export of `stored` with its `history` (oldest first, every event its own).
    pub fn of(stored: &Stored, history: &[Event]) -> Exported {
        Exported {
            name: stored.record.name.clone(),
            version: stored.version,
            domain: stored.domain.clone(),
            deleted: stored.deleted,
            changed_at: stored.changed_at,
            changed_by: stored.changed_by.clone(),
            record: Body::of(&stored.record),
            history: history
                .iter()
                .map(|event| ExportedEvent {
                    version: event.version,
                    at: event.at,
                    user: event.user.clone(),
                    token: event.token.clone(),
                    kind: event.kind,
                    before: event.before.clone(),
                    after: event.after.clone(),
                    reason: event.reason.clone(),
                })
                .collect(),
        }
    }

    /// The line of the export (without its newline).
    pub fn line(&self) -> String {
        serde_json::to_string(self).expect("an export is always JSON")
    }

    /// The events of the history as the store keeps them.
    pub fn events(&self) -> impl Iterator<Item = Event> + '_ {
        self.history.iter().map(|event| Event {
            name: self.name.clone(),
            version: event.version,
            at: event.at,
            user: event.user.clone(),
            token: event.token.clone(),
            kind: event.kind,
            before: event.before.clone(),
            after: event.after.clone(),
            reason: event.reason.clone(),
        })
    }

    /// Whether the history leads to the record: versions 1, 2, … without a gap up to the
    /// record's, a creation first, each event's `before` the `after` of the one before,
    /// the last `after` the record. Bad input: the first event that does not fit, named.
    pub(crate) fn check(&self) -> Result<(), String> {
        let record = self
            .record
            .clone()
            .into_record(self.name.clone())
            .map_err(|e| format!("record.{}: {}", e.field, e.message))?;
        drop(record);
        let mut before: Option<&Body> = None;
        for (i, event) in self.history.iter().enumerate() {
            let at = format!("history[{i}]");
            if event.version != i as Version + 1 {
                return Err(format!(
                    "{at}.version: {} where {} follows",
                    event.version,
                    i + 1
                ));
            }
            if i == 0 && event.kind != EventKind::Create {
                return Err(format!("{at}.kind: a history starts with a creation"));
            }
            if event.before.as_ref() != before {
                return Err(format!("{at}.before: not the record the event before left"));
            }
            before = Some(&event.after);
        }
        let Some(last) = self.history.last() else {
            return Err("history: empty (a record has at least its creation)".into());
        };
        if last.version != self.version {
            return Err(format!(
                "version: {} but the history ends at {}",
                self.version, last.version
            ));
        }
        if last.after != self.record {
            return Err("record: not what the last event of the history left".into());
        }
        Ok(())
    }
}
