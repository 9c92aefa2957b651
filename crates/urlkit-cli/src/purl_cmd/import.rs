//! `urlkit purl import FILE`: many new records from JSON Lines, one record a line:
//!
//! ```text
//! {"name": "/net/docs", "record": {"type": "partial", "target": "https://docs.example.net/"}}
//! {"name": "/net/a", "record": {"type": "redirect", "target": "https://example.net/a", "status": 301}}
//! ```
//!
//! `record` is the body the API's `PUT /-/api/purls/{name}` takes (without `reason`):
//! `type` and its fields, and `max_age`. Blank lines are skipped. Every line is read and checked (name, body, chains
//! against the stored records and the file's) before anything is written, so a bad line
//! writes nothing; then the records are written 10,000 per transaction. A name that
//! already has a record (or a tombstone) stops the import at its batch: the batches
//! before it stay written, and the message says how many records that is.

use super::{refused, Outcome, Stop};
use std::io::BufRead;
use urlkit::purl::{Action, Name, Table};
use urlkit_purl::model::{Actor, Body};
use urlkit_purl::store::{Store, WriteError};

/// What `import` was given.
pub(super) struct ImportArgs<'a> {
    pub file: &'a std::path::Path,
    pub reason: Option<&'a str>,
}

/// One line of the file: a name and its record's body, with its line number.
fn read_line(line_number: usize, text: &str) -> Result<(Name, Body), String> {
    let at = |message: String| format!("line {line_number}: {message}");
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
    let name = Name::parse(&name).map_err(|e| {
        at(format!(
            "name {name:?}: at byte {}: {}",
            e.position, e.message
        ))
    })?;
    let body: Body = serde_json::from_value(record).map_err(|e| at(format!("record: {e}")))?;
    body.clone()
        .into_record(name.clone())
        .map_err(|e| at(format!("record.{}: {}", e.field, e.message)))?;
    Ok((name, body))
}

/// Runs `urlkit purl import`.
pub(super) async fn run(store: &Store, actor: &Actor, args: ImportArgs<'_>) -> Outcome {
    let shown = args.file.display();
    let reader: Box<dyn BufRead> = if args.file.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let file = std::fs::File::open(args.file)
            .map_err(|e| Stop::Usage(format!("cannot read {shown}: {e}")))?;
        Box::new(std::io::BufReader::new(file))
    };
    let mut records = Vec::new();
    let mut lines = Vec::new();
    let mut chains = false;
    for (i, line) in reader.lines().enumerate() {
        let line = line.map_err(|e| refused(format!("{shown}: line {}: {e}", i + 1)))?;
        if line.trim().is_empty() {
            continue;
        }
        let (name, body) = read_line(i + 1, &line)
            .map_err(|message| refused(format!("{shown}: {message}; nothing written")))?;
        chains |= matches!(body.action, Action::Chain { .. });
        records.push((name, body));
        lines.push(i + 1);
    }
    if chains {
        check_chains(store, &records, &lines)
            .await
            .map_err(|message| refused(format!("{shown}: {message}; nothing written")))?;
    }
    let count = records.len();
    let written = store
        .import(actor, records, args.reason)
        .await
        .map_err(|e| {
            let line = e.index.and_then(|i| lines.get(i)).copied();
            let place = line.map_or(String::new(), |line| format!("line {line}: "));
            let what = match &e.error {
                WriteError::Stale { current: Some(_) } => {
                    "the name already has a record (import only creates)".to_string()
                }
                WriteError::Stale { current: None } => {
                    "the name comes twice in the file".to_string()
                }
                other => other.to_string(),
            };
            refused(format!(
                "{shown}: {place}{what}; {} records written before its batch",
                e.written
            ))
        })?;
    out!("imported {written} of {count} records");
    Ok(())
}

/// Chains checked against the stored records and the file's: each must lead to no loop.
async fn check_chains(
    store: &Store,
    records: &[(Name, Body)],
    lines: &[usize],
) -> Result<(), String> {
    let mut table = Table::new();
    for stored in store.records().await.map_err(|e| e.to_string())? {
        let _ = table.insert(stored.record);
    }
    let mut chains = Vec::new();
    for (i, (name, body)) in records.iter().enumerate() {
        let record = body
            .clone()
            .into_record(name.clone())
            .map_err(|e| e.to_string())?;
        if matches!(record.action, Action::Chain { .. }) {
            chains.push((i, record));
        } else {
            let _ = table.insert(record);
        }
    }
    for (i, record) in chains {
        table
            .insert(record)
            .map_err(|e| format!("line {}: record.{}: {}", lines[i], e.field, e.message))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::read_line;

    #[test]
    fn a_line_names_its_number_and_field_at_fault() {
        let ok = read_line(
            3,
            r#"{"name": "/a/../b", "record": {"type": "redirect", "target": "https://e.org/"}}"#,
        )
        .unwrap();
        assert_eq!(ok.0.as_str(), "/b");
        let relative = read_line(
            4,
            r#"{"name": "/b", "record": {"type": "redirect", "target": "e.org"}}"#,
        );
        assert!(relative.unwrap_err().starts_with("line 4: record.target: "));
        let typo = read_line(
            5,
            r#"{"name": "/b", "record": {"type": "redirect", "targte": "https://e.org/"}}"#,
        );
        let typo = typo.unwrap_err();
        assert!(
            typo.starts_with("line 5: record: ") && typo.contains("targte"),
            "{typo}"
        );
        let extra = read_line(6, r#"{"name": "/b", "record": {}, "owner": "x"}"#);
        assert_eq!(
            extra.unwrap_err(),
            "line 6: owner: unknown field (a line has \"name\" and \"record\")"
        );
        let no_name = read_line(7, r#"{"record": {}}"#);
        assert_eq!(no_name.unwrap_err(), "line 7: name: missing");
        let bad_name = read_line(8, r#"{"name": "b", "record": {}}"#);
        assert!(bad_name
            .unwrap_err()
            .starts_with("line 8: name \"b\": at byte 0"));
        assert!(read_line(9, "{")
            .unwrap_err()
            .starts_with("line 9: not JSON"));
    }
}
