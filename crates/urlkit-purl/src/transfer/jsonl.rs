//! JSON Lines of records: `{"name": "/net/a", "record": {"type": "redirect", "target": …}}`
//! a line, the record as the API's `PUT /-/api/purls/{name}` takes it (`type` and its
//! fields, and `max_age`). Blank lines are nothing.

use super::{item, Entry, Problem};
use crate::model::Body;

/// The entry of line `line` (from 1) whose text is `text`; `None` for a blank line.
///
/// Bad input: text that is not JSON, not an object, without `name` or `record`, with
/// another field, a name that is not one, or a record the API would refuse is a
/// [`Entry::Skipped`] naming the field at fault.
pub fn parse_line(line: u64, text: &str) -> Option<Entry> {
    if text.trim().is_empty() {
        return None;
    }
    Some(match read(line, text) {
        Ok(entry) => entry,
        Err(problem) => Entry::Skipped(problem),
    })
}

fn read(line: u64, text: &str) -> Result<Entry, Problem> {
    let at = |message: String| Problem::new(line, message);
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| at(format!("not JSON: {e}")))?;
    let serde_json::Value::Object(mut map) = value else {
        return Err(at(
            "not an object; give {\"name\": \"/x\", \"record\": {…}}".into(),
        ));
    };
    let name = match map.remove("name") {
        Some(serde_json::Value::String(name)) => name,
        Some(_) => return Err(at("name: not a text".into())),
        None => return Err(at("name: missing".into())),
    };
    let record = map
        .remove("record")
        .ok_or_else(|| at("record: missing".into()))?;
    if let Some(other) = map.keys().next() {
        return Err(at(format!(
            "{other}: unknown field (a line has \"name\" and \"record\")"
        )));
    }
    let body: Body = serde_json::from_value(record).map_err(|e| at(format!("record: {e}")))?;
    item(line, &name, body).map(Entry::Record)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(line: u64, text: &str) -> String {
        match parse_line(line, text) {
            Some(Entry::Skipped(problem)) => problem.to_string(),
            other => panic!("expected a skipped line, got {other:?}"),
        }
    }

    #[test]
    fn a_line_names_its_number_and_field_at_fault() {
        let Some(Entry::Record(ok)) = parse_line(
            3,
            r#"{"name": "/a/../b", "record": {"type": "redirect", "target": "https://e.org/"}}"#,
        ) else {
            panic!("a good line")
        };
        assert_eq!((ok.line, ok.name.as_str()), (3, "/b"));
        assert_eq!(parse_line(4, "  "), None);
        let relative = problem(
            4,
            r#"{"name": "/b", "record": {"type": "redirect", "target": "e.org"}}"#,
        );
        assert!(relative.starts_with("4: /b: target: "), "{relative}");
        let typo = problem(
            5,
            r#"{"name": "/b", "record": {"type": "redirect", "targte": "https://e.org/"}}"#,
        );
        assert!(
            typo.starts_with("5: record: ") && typo.contains("targte"),
            "{typo}"
        );
        assert_eq!(
            problem(6, r#"{"name": "/b", "record": {}, "owner": "x"}"#),
            "6: owner: unknown field (a line has \"name\" and \"record\")"
        );
        assert_eq!(problem(7, r#"{"record": {}}"#), "7: name: missing");
        let bad_name = problem(
            8,
            r#"{"name": "b", "record": {"type": "gone", "message": ""}}"#,
        );
        assert!(
            bad_name.starts_with("8: name \"b\": at byte 0"),
            "{bad_name}"
        );
        assert!(problem(9, "{").starts_with("9: not JSON"));
        assert!(problem(10, "[1]").starts_with("10: not an object"));
    }
}
