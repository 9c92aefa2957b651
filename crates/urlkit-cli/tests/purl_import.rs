//! `urlkit purl import FILE`: JSON Lines of records into a database file, then read back
//! with `urlkit purl show`, through the built binary.

mod common;

use common::{stderr, stdout, urlkit};
use std::process::Output;

fn run(db: &str, args: &[&str], stdin: &str) -> Output {
    let mut all = vec!["purl"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--db", db, "--user", "loader"]);
    urlkit(&all, stdin)
}

const LINES: &str = r#"{"name": "/net/a", "record": {"type": "redirect", "target": "https://example.net/a"}}

{"name": "/net/docs/", "record": {"type": "partial", "target": "https://docs.example.net/", "status": 307}}
{"name": "/net/vocab", "record": {"type": "negotiate", "offers": [{"media_type": "text/turtle", "target": "https://example.net/v.ttl"}], "fallback": "https://example.net/v.html"}}
{"name": "/net/old", "record": {"type": "chain", "to": "/net/a"}}
"#;

#[test]
fn imports_json_lines_and_shows_what_was_imported() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("purl.db").display());
    let file = dir.path().join("records.jsonl");
    std::fs::write(&file, LINES).unwrap();
    let out = run(
        &db,
        &["import", file.to_str().unwrap(), "--reason", "migrated"],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "created 4, changed 0, unchanged 0, skipped 0\n"
    );

    let show = run(&db, &["show", "/net/docs/", "--json"], "");
    assert!(show.status.success(), "{}", stderr(&show));
    let shown: serde_json::Value = serde_json::from_str(&stdout(&show)).unwrap();
    assert_eq!(shown["record"]["target"], "https://docs.example.net/");
    assert_eq!(shown["record"]["type"], "partial");
    assert_eq!(shown["record"]["status"], 307);
    assert_eq!(shown["version"], 1);
    assert_eq!(shown["changed_by"], "loader");

    let history = run(&db, &["history", "/net/old"], "");
    let history = stdout(&history);
    assert!(
        history.contains("create by loader: migrated") && history.contains("chain to /net/a"),
        "{history}"
    );

    // A new name is created, a changed record gets a new version, an equal one is left.
    let again = dir.path().join("again.jsonl");
    std::fs::write(
        &again,
        "{\"name\": \"/net/b\", \"record\": {\"type\": \"gone\", \"message\": \"x\"}}\n\
         {\"name\": \"/net/a\", \"record\": {\"type\": \"redirect\", \"target\": \"https://e.org/\"}}\n\
         {\"name\": \"/net/docs/\", \"record\": {\"type\": \"partial\", \"target\": \"https://docs.example.net/\", \"status\": 307}}\n",
    )
    .unwrap();
    let out = run(&db, &["import", again.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "created 1, changed 1, unchanged 1, skipped 0\n"
    );
    let history = stdout(&run(&db, &["history", "/net/a"], ""));
    assert!(history.contains("update by loader: import"), "{history}");
    let docs = stdout(&run(&db, &["history", "/net/docs/"], ""));
    assert!(
        !docs.contains("import"),
        "an equal record is left alone: {docs}"
    );
    let out = run(&db, &["import", again.to_str().unwrap()], "");
    assert_eq!(
        stdout(&out),
        "created 0, changed 0, unchanged 3, skipped 0\n"
    );
}

#[test]
fn a_bad_line_is_named_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("purl.db").display());
    let lines = "{\"name\": \"/x/1\", \"record\": {\"type\": \"redirect\", \"target\": \"https://e.org/1\"}}\n\
                 {\"name\": \"/x/2\", \"record\": {\"type\": \"redirect\", \"target\": \"https://e.org/2\", \"status\": 200}}\n";
    let out = run(&db, &["import", "-"], lines);
    assert_eq!(out.status.code(), Some(1));
    let error = stderr(&out);
    assert!(
        error.contains("-:2: /x/2: status: 200 is not a redirect status")
            && error.contains("nothing written"),
        "{error}"
    );
    let first = run(&db, &["show", "/x/1"], "");
    assert_eq!(first.status.code(), Some(1));

    let looping = "{\"name\": \"/y/a\", \"record\": {\"type\": \"chain\", \"to\": \"/y/b\"}}\n\
                   {\"name\": \"/y/b\", \"record\": {\"type\": \"chain\", \"to\": \"/y/a\"}}\n";
    let out = run(&db, &["import", "-"], looping);
    assert_eq!(out.status.code(), Some(1));
    let error = stderr(&out);
    // Chains are checked for loops after the other records: the one closing the loop is
    // refused, named with its line.
    assert!(
        error.contains("-:2: /y/b: to: ") && error.contains("1 not imported"),
        "{error}"
    );
    assert_eq!(run(&db, &["show", "/y/b"], "").status.code(), Some(1));
}
