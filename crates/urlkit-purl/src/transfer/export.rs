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

use super::{parse_name, Entry, Problem};
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
    fn check(&self) -> Result<(), String> {
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

/// Whether `line` reads as an export's line (an object with `history`), to tell an export
/// from plain JSON Lines.
pub fn looks_like_export(line: &str) -> bool {
    serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(line)
        .is_ok_and(|map| map.contains_key("history"))
}

/// The entry of line `line` (from 1) of an export; `None` for a blank line.
///
/// Bad input: text that is not an export's line (a missing or unknown field is named), a
/// name that is not one, a record that cannot be kept, or a history that does not lead to
/// the record (a gap in its versions, an event whose `before` is not the `after` of the
/// one before, a last `after` that is not the record) is [`Entry::Skipped`].
pub fn parse_line(line: u64, text: &str) -> Option<Entry<Exported>> {
    if text.trim().is_empty() {
        return None;
    }
    let read = || -> Result<Exported, Problem> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| Problem::new(line, format!("not JSON: {e}")))?;
        // The name first, so that a bad one is said as such rather than as a JSON error.
        if let Some(serde_json::Value::String(name)) = value.get("name") {
            parse_name(line, name)?;
        }
        let exported: Exported = serde_json::from_value(value)
            .map_err(|e| Problem::new(line, format!("not an export's line: {e}")))?;
        exported
            .check()
            .map_err(|message| Problem::new(line, format!("{}: {message}", exported.name)))?;
        Ok(exported)
    };
    Some(match read() {
        Ok(exported) => Entry::Record(exported),
        Err(problem) => Entry::Skipped(problem),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(json: &str) -> Body {
        serde_json::from_str(json).unwrap()
    }

    fn exported() -> Exported {
        let first = body(r#"{"type":"redirect","target":"https://e.org/a"}"#);
        let second = body(r#"{"type":"partial","status":307,"target":"https://e.org/b/"}"#);
        Exported {
            name: Name::parse("/net/caf%C3%A9/").unwrap(),
            version: 2,
            domain: Some(Name::parse("/net/").unwrap()),
            deleted: false,
            changed_at: 20,
            changed_by: "bob".into(),
            record: second.clone(),
            history: vec![
                ExportedEvent {
                    version: 1,
                    at: 10,
                    user: "alice".into(),
                    token: Some("t1".into()),
                    kind: EventKind::Create,
                    before: None,
                    after: first.clone(),
                    reason: None,
                },
                ExportedEvent {
                    version: 2,
                    at: 20,
                    user: "bob".into(),
                    token: None,
                    kind: EventKind::Update,
                    before: Some(first),
                    after: second,
                    reason: Some("moved".into()),
                },
            ],
        }
    }

    fn problem(text: &str) -> String {
        match parse_line(7, text) {
            Some(Entry::Skipped(problem)) => problem.to_string(),
            other => panic!("expected a skipped line, got {other:?}"),
        }
    }

    #[test]
    fn a_line_is_written_in_a_fixed_order_and_read_back() {
        let line = exported().line();
        assert!(
            line.starts_with(
                r#"{"name":"/net/caf%C3%A9/","version":2,"domain":"/net/","deleted":false,"changed_at":20,"changed_by":"bob","record":{"type":"partial","status":307,"target":"https://e.org/b/"},"history":[{"version":1,"at":10,"user":"alice","token":"t1","kind":"create","before":null,"#
            ),
            "{line}"
        );
        assert!(looks_like_export(&line));
        assert_eq!(parse_line(1, &line), Some(Entry::Record(exported())));
        assert_eq!(parse_line(2, ""), None);
    }

    #[test]
    fn a_history_that_does_not_lead_to_the_record_is_named() {
        let mut gap = exported();
        gap.history[1].version = 3;
        gap.version = 3;
        let gap = problem(&gap.line());
        assert!(
            gap.starts_with("7: /net/caf%C3%A9/: history[1].version: 3"),
            "{gap}"
        );
        let mut broken = exported();
        broken.history[1].before = None;
        assert!(problem(&broken.line()).contains("history[1].before"));
        let mut other = exported();
        other.record = body(r#"{"type":"gone","message":"x"}"#);
        assert!(problem(&other.line()).contains("record: not what the last event"));
        let mut empty = exported();
        empty.history.clear();
        assert!(problem(&empty.line()).contains("history: empty"));
        let unknown = exported().line().replace("\"deleted\"", "\"erased\"");
        assert!(
            problem(&unknown).contains("erased"),
            "{}",
            problem(&unknown)
        );
        let name = exported().line().replace("/net/caf%C3%A9/", "net");
        assert!(problem(&name).starts_with("7: name \"net\": at byte 0"));
        assert!(problem("{").starts_with("7: not JSON"));
    }
}
