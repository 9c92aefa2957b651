//! Reading an export's lines (the shape of a line: [`Exported`]).

pub use super::exported::{Exported, ExportedEvent};
use super::{parse_name, Entry, Problem};

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
    use crate::model::{Body, EventKind};
    use urlkit::purl::Name;

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
