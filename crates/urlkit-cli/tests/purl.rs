//! `urlkit purl …` on a database file in a temporary directory, through the built binary.

mod common;

use common::{stderr, stdout, urlkit};
use std::process::Output;

struct Db {
    dir: tempfile::TempDir,
    url: String,
}

impl Db {
    fn new() -> Db {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite:{}", dir.path().join("purl.db").display());
        Db { dir, url }
    }

    /// Runs `urlkit purl ARGS --db … --user tester`.
    fn run(&self, args: &[&str]) -> Output {
        self.run_with(args, "")
    }

    fn run_with(&self, args: &[&str], stdin: &str) -> Output {
        let mut all = vec!["purl"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--db", &self.url, "--user", "tester"]);
        urlkit(&all, stdin)
    }

    /// Runs and expects success, giving the standard output.
    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        stdout(&out)
    }

    /// Runs and expects a refusal (status 1), giving the standard error.
    fn refused(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{args:?}: {}{}",
            stdout(&out),
            stderr(&out)
        );
        stderr(&out)
    }

    /// Every byte of the database's files.
    fn bytes(&self) -> Vec<u8> {
        let mut all = Vec::new();
        for entry in std::fs::read_dir(self.dir.path()).unwrap() {
            all.extend(std::fs::read(entry.unwrap().path()).unwrap());
        }
        all
    }
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn records_round_trip() {
    let db = Db::new();
    assert!(db
        .ok(&[
            "add",
            "/net/docs",
            "https://docs.example.net/",
            "--partial",
            "--reason",
            "first"
        ])
        .contains("version 1"));
    let shown = json(&db.ok(&["show", "/net/docs", "--json"]));
    assert_eq!(shown["version"], 1);
    assert_eq!(shown["record"]["name"], "/net/docs");
    assert_eq!(shown["record"]["action"]["type"], "partial");
    assert_eq!(
        shown["record"]["action"]["target"],
        "https://docs.example.net/"
    );
    assert_eq!(shown["record"]["action"]["status"], 302);
    assert_eq!(shown["changed_by"], "tester");

    // add is create-only.
    let refusal = db.refused(&["add", "/net/docs", "https://other.example/"]);
    assert!(refusal.contains("version 1"), "{refusal}");

    assert!(db
        .ok(&[
            "set",
            "/net/docs",
            "https://docs.example.org/",
            "--status",
            "307"
        ])
        .contains("version 2"));
    let shown = db.ok(&["show", "/net/docs"]);
    assert!(shown.contains("307 https://docs.example.org/"), "{shown}");
    assert!(shown.contains("by tester"), "{shown}");

    let history = json(&db.ok(&["history", "/net/docs", "--json"]));
    let events = history.as_array().unwrap();
    assert_eq!(events.len(), 2);
    assert_eq!(events[0]["kind"], "create");
    assert_eq!(events[0]["reason"], "first");
    assert_eq!(events[1]["kind"], "update");
    assert_eq!(events[1]["before"]["target"], "https://docs.example.net/");
    assert_eq!(events[1]["after"]["target"], "https://docs.example.org/");

    assert!(db.ok(&["rm", "/net/docs"]).contains("version 3"));
    let shown = json(&db.ok(&["show", "/net/docs", "--json"]));
    assert_eq!(shown["deleted"], true);
    assert_eq!(shown["record"]["action"]["type"], "gone");

    assert!(db.ok(&["restore", "/net/docs", "1"]).contains("version 4"));
    let shown = json(&db.ok(&["show", "/net/docs", "--json"]));
    assert_eq!(shown["deleted"], false);
    assert_eq!(shown["record"]["action"]["type"], "partial");
    assert_eq!(
        shown["record"]["action"]["target"],
        "https://docs.example.net/"
    );
    let history = db.ok(&["history", "/net/docs"]);
    assert!(history.contains("version 4"), "{history}");
    assert!(history.contains("restore by tester"), "{history}");

    db.ok(&["add", "/org/a", "https://example.org/a"]);
    db.ok(&["clone", "/org/a", "/org/b"]);
    let found = json(&db.ok(&["search", "--name", "/org/", "--json"]));
    let names: Vec<&str> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["record"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["/org/a", "/org/b"]);
    // A prefix is read as names are: escapes of unreserved characters decoded.
    let found = db.ok(&["search", "--name", "/%6Frg/"]);
    assert_eq!(found.lines().count(), 2, "{found}");
    let found = db.ok(&["search", "--target", "docs.example.net"]);
    assert!(found.starts_with("/net/docs "), "{found}");
    assert_eq!(found.lines().count(), 1);
}

#[test]
fn a_stale_version_is_refused_naming_the_current_one() {
    let db = Db::new();
    db.ok(&["add", "/s", "https://example.com/1"]);
    db.ok(&["set", "/s", "https://example.com/2"]);
    let refusal = db.refused(&["set", "/s", "https://example.com/3", "--version", "1"]);
    assert!(refusal.contains("version 2"), "{refusal}");
    let shown = json(&db.ok(&["show", "/s", "--json"]));
    assert_eq!(shown["record"]["action"]["target"], "https://example.com/2");
}

#[test]
fn bad_targets_and_names_are_refused_with_their_byte() {
    let db = Db::new();
    let refusal = db.refused(&["add", "/r", "example.com/x"]);
    assert!(refusal.contains("target"), "{refusal}");
    assert!(refusal.contains("byte"), "{refusal}");
    let out = db.run(&["add", "/r", "https://example.com/", "--status", "200"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("status"), "{}", stderr(&out));
    let out = db.run(&["add", "/a%zz", "https://example.com/"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("byte 2"), "{}", stderr(&out));
    let out = db.run(&["add", "/a"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(db.refused(&["show", "/r"]).contains("no such record"));
}

#[test]
fn a_chain_loop_is_refused() {
    let db = Db::new();
    db.ok(&["add", "/a", "--chain", "/b"]);
    db.ok(&["add", "/b", "--chain", "/c"]);
    let refusal = db.refused(&["add", "/c", "--chain", "/a"]);
    assert!(refusal.contains("comes back"), "{refusal}");
    db.refused(&["show", "/c"]);
    db.ok(&["add", "/c", "https://example.com/c"]);
}

#[test]
fn negotiated_records_from_offers() {
    let db = Db::new();
    db.ok(&[
        "add",
        "/v",
        "--offer",
        "text/html=https://example.com/v.html",
        "--offer",
        "text/turtle;lang=en=https://example.com/v.ttl",
        "--fallback",
        "https://example.com/v.html",
    ]);
    let shown = json(&db.ok(&["show", "/v", "--json"]));
    let action = &shown["record"]["action"];
    assert_eq!(action["type"], "negotiate");
    assert_eq!(action["status"], 303);
    assert_eq!(action["offers"][1]["media_type"], "text/turtle");
    assert_eq!(action["offers"][1]["language"], "en");
    assert_eq!(action["offers"][1]["target"], "https://example.com/v.ttl");
    assert_eq!(action["fallback"], "https://example.com/v.html");
}

#[test]
fn owners_and_tokens() {
    let db = Db::new();
    let out = db.run_with(
        &["user", "add", "alice", "--password-stdin"],
        "s3cret pass\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    db.ok(&["group", "add", "editors", "--member", "alice"]);
    db.ok(&["domain", "add", "/net/", "--maintainer", "@editors"]);
    assert!(db
        .refused(&["domain", "add", "/org/", "--maintainer", "nobody"])
        .contains("nobody"));
    assert!(db
        .refused(&["token", "create", "alice", "--domain", "/org/"])
        .contains("does not maintain /org/"));
    let out = db.run(&["token", "create", "alice"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--domain"), "{}", stderr(&out));
    let out = db.run(&[
        "token",
        "create",
        "alice",
        "--domain",
        "/net/=write",
        "--label",
        "ci",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let secret = stdout(&out).trim().to_string();
    assert!(secret.starts_with("upt_"), "{secret}");
    let bytes = db.bytes();
    assert!(!bytes.windows(secret.len()).any(|w| w == secret.as_bytes()));
    let random = secret.rsplit('_').next().unwrap();
    assert!(!bytes.windows(random.len()).any(|w| w == random.as_bytes()));
    assert!(!bytes.windows(11).any(|w| w == b"s3cret pass"));
    let id = secret.split('_').nth(1).unwrap();
    let listed = db.ok(&["token", "list"]);
    assert!(
        listed.contains(id) && listed.contains("/net/=write"),
        "{listed}"
    );
    db.ok(&["token", "revoke", id]);
    assert!(db.ok(&["token", "list"]).contains("revoked"));
    db.refused(&["token", "revoke", id]);
}

#[test]
fn serve_takes_the_web_tools_options() {
    let out = urlkit(&["purl", "serve", "--help"], "");
    assert!(out.status.success());
    let help = stdout(&out);
    for option in [
        "--addr",
        "127.0.0.1:8081",
        "--db",
        "sqlite:urlkit-purl.db",
        "--tls-cert",
        "--tls-self-signed",
        "--rate-limit",
        "--trusted-proxy",
        "--max-connections",
        "--header-timeout",
        "--idle-timeout",
        "--default-max-age",
        "--log-format",
    ] {
        assert!(help.contains(option), "{option} in {help}");
    }
    assert!(help.contains("[default: 300]"), "{help}");
    let out = urlkit(&["purl", "serve", "--addr", "nowhere"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = urlkit(&["purl", "serve", "--rate-limit", "fast"], "");
    assert_eq!(out.status.code(), Some(2));
}
