//! `urlkit purl …` on a database file in a temporary directory, through the built binary.

mod common;
#[path = "../../urlkit-purl/tests/common/postgres.rs"]
mod postgres;

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
    assert_eq!(shown["name"], "/net/docs");
    assert_eq!(shown["record"]["type"], "partial");
    assert_eq!(shown["record"]["target"], "https://docs.example.net/");
    assert_eq!(shown["record"]["status"], 302);
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
    assert_eq!(shown["record"]["type"], "gone");

    assert!(db.ok(&["restore", "/net/docs", "1"]).contains("version 4"));
    let shown = json(&db.ok(&["show", "/net/docs", "--json"]));
    assert_eq!(shown["deleted"], false);
    assert_eq!(shown["record"]["type"], "partial");
    assert_eq!(shown["record"]["target"], "https://docs.example.net/");
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
        .map(|s| s["name"].as_str().unwrap())
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
    assert_eq!(shown["record"]["target"], "https://example.com/2");
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
    let action = &shown["record"];
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

    // Every change of owners is kept, by whom; the refused ones are not.
    let changes = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async {
            let store = urlkit_purl::store::Store::open(&db.url).await.unwrap();
            store.owner_changes().await.unwrap()
        });
    let seen: Vec<(&str, &str, &str)> = changes
        .iter()
        .map(|c| (c.user.as_str(), c.kind.as_str(), c.subject.as_str()))
        .collect();
    assert_eq!(
        seen,
        [
            ("tester", "user-add", "alice"),
            ("tester", "group-add", "editors"),
            ("tester", "domain-add", "/net/"),
            ("tester", "token-create", id),
            ("tester", "token-revoke", id),
        ]
    );
    assert_eq!(changes[2].detail["maintainers"][0], "@editors");
}

#[test]
fn a_domain_archive_fallback_is_set_checked_and_turned_off() {
    let db = Db::new();
    db.ok(&["domain", "add", "/net/"]);
    let set = db.ok(&[
        "domain",
        "archive",
        "/net/",
        "--template",
        "https://web.archive.org/web/{timestamp}/{url}",
        "--after",
        "3",
    ]);
    assert!(set.contains("after 3 failed checks"), "{set}");
    let listed = db.ok(&["domain", "list"]);
    assert!(
        listed.contains("archive after 3: https://web.archive.org/web/{timestamp}/{url}"),
        "{listed}"
    );
    let no_url = db.refused(&[
        "domain",
        "archive",
        "/net/",
        "--template",
        "https://web.archive.org/web/",
        "--after",
        "3",
    ]);
    assert!(no_url.contains("{url}"), "{no_url}");
    let relative = db.refused(&[
        "domain",
        "archive",
        "/net/",
        "--template",
        "web/{url}",
        "--after",
        "3",
    ]);
    assert!(relative.contains("absolute URL"), "{relative}");
    let zero = db.refused(&[
        "domain",
        "archive",
        "/net/",
        "--template",
        "https://a.example/{url}",
        "--after",
        "0",
    ]);
    assert!(zero.contains("1 to 1000"), "{zero}");
    let unknown = db.refused(&["domain", "archive", "/org/", "--off"]);
    assert!(unknown.contains("no such domain"), "{unknown}");
    // The refused ones changed nothing.
    assert!(db.ok(&["domain", "list"]).contains("archive after 3"));
    let out = db.run(&["domain", "archive", "/net/", "--after", "3"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(db
        .ok(&["domain", "archive", "/net/", "--off"])
        .contains("no archive fallback"));
    assert!(!db.ok(&["domain", "list"]).contains("archive"));

    let changes = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async {
            let store = urlkit_purl::store::Store::open(&db.url).await.unwrap();
            store.owner_changes().await.unwrap()
        });
    let archive: Vec<&serde_json::Value> = changes
        .iter()
        .filter(|c| c.kind == "domain-archive" && c.subject == "/net/")
        .map(|c| &c.detail)
        .collect();
    assert_eq!(archive.len(), 2);
    assert_eq!(archive[0]["after"], 3);
    assert_eq!(archive[1]["template"], serde_json::Value::Null);
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

/// `urlkit purl serve` on the database of `db`, on a free loopback port: the child and
/// the URL it prints. Its standard error is read on, so that it never blocks.
struct Server {
    child: std::process::Child,
    url: String,
}

impl Server {
    fn start(db: &Db) -> Server {
        Server::start_with(db, &[])
    }

    /// A server on `db` with more options (`--tls-cert …`).
    fn start_with(db: &Db, options: &[&str]) -> Server {
        use std::io::BufRead;
        let mut child = common::urlkit_command()
            .args(["purl", "serve", "--addr", "127.0.0.1:0", "--db", &db.url])
            .args(options)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = std::io::BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        lines.read_line(&mut line).unwrap();
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://") || w.starts_with("https://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        std::thread::spawn(move || std::io::copy(&mut lines, &mut std::io::sink()));
        Server { child, url }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `urlkit purl ARGS --server URL` with `token` (if any) in `URLKIT_PURL_TOKEN`.
fn remote(url: &str, token: Option<&str>, args: &[&str]) -> Output {
    let mut all = vec!["purl"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--server", url]);
    let mut command = common::urlkit_command();
    command
        .args(&all)
        .env_remove("URLKIT_PURL_TOKEN")
        .stdin(std::process::Stdio::null());
    if let Some(token) = token {
        command.env("URLKIT_PURL_TOKEN", token);
    }
    command.output().unwrap()
}

#[test]
fn records_round_trip_through_a_server() {
    let db = Db::new();
    let out = db.run_with(&["user", "add", "alice", "--password-stdin"], "pw\n");
    assert!(out.status.success(), "{}", stderr(&out));
    db.ok(&["domain", "add", "/net/", "--maintainer", "alice"]);
    db.ok(&["add", "/org/x", "https://example.org/x"]);
    let token = stdout(&db.run(&["token", "create", "alice", "--domain", "/net/=write"]))
        .trim()
        .to_string();
    assert!(token.starts_with("upt_"), "{token}");
    let server = Server::start(&db);
    let url = server.url.as_str();
    let ok = |args: &[&str]| {
        let out = remote(url, Some(&token), args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        stdout(&out)
    };
    let refused = |token: Option<&str>, args: &[&str]| {
        let out = remote(url, token, args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stdout(&out));
        assert!(stdout(&out).is_empty(), "{}", stdout(&out));
        stderr(&out)
    };

    assert_eq!(
        ok(&[
            "add",
            "/net/docs",
            "https://docs.example.net/",
            "--partial",
            "--reason",
            "first"
        ]),
        "created /net/docs (version 1)\n"
    );
    // The same record, the same output as on the file (the history names the token's user).
    let shown = json(&ok(&["show", "/net/docs", "--json"]));
    assert_eq!(shown, json(&db.ok(&["show", "/net/docs", "--json"])));
    assert_eq!(shown["record"]["type"], "partial");
    assert_eq!(shown["changed_by"], "alice");
    assert_eq!(ok(&["show", "/net/docs"]), db.ok(&["show", "/net/docs"]));
    assert!(refused(
        Some(&token),
        &["add", "/net/docs", "https://other.example/"]
    )
    .contains("version 1"));
    assert_eq!(
        ok(&[
            "set",
            "/net/docs",
            "https://docs.example.org/",
            "--status",
            "307"
        ]),
        "changed /net/docs (version 2)\n"
    );
    // A stale version is refused naming the current one, as on the file.
    let stale = refused(
        Some(&token),
        &["set", "/net/docs", "https://x.example/", "--version", "1"],
    );
    assert!(stale.contains("at version 2"), "{stale}");
    let history = json(&ok(&["history", "/net/docs", "--json"]));
    assert_eq!(history, json(&db.ok(&["history", "/net/docs", "--json"])));
    assert_eq!(history[1]["after"]["target"], "https://docs.example.org/");
    assert_eq!(history[1]["token"], token.split('_').nth(1).unwrap());
    let history = ok(&["history", "/net/docs"]);
    assert!(history.contains("update by alice (token "), "{history}");
    assert_eq!(
        ok(&["rm", "/net/docs", "--message", "Retired."]),
        "deleted /net/docs (version 3)\n"
    );
    assert!(ok(&["show", "/net/docs"]).contains("410 Retired."));
    assert_eq!(
        ok(&["restore", "/net/docs", "1", "--reason", "back"]),
        "restored version 1 of /net/docs (version 4)\n"
    );
    assert_eq!(
        ok(&["clone", "/net/docs", "/net/manual"]),
        "created /net/manual (version 1)\n"
    );
    let found = ok(&["search", "--name", "/net/"]);
    assert_eq!(found, db.ok(&["search", "--name", "/net/"]));
    assert_eq!(found.lines().count(), 2, "{found}");
    assert!(
        found.starts_with("/net/docs  v4  302 https://docs.example.net/… (partial)"),
        "{found}"
    );
    let found = json(&ok(&["search", "--target", "example.org", "--json"]));
    assert_eq!(found.as_array().unwrap().len(), 1);
    assert_eq!(found[0]["name"], "/org/x");

    // The server keeps its owners: outside alice's domain, refused by the server.
    let outside = refused(Some(&token), &["set", "/org/x", "https://evil.example/"]);
    assert!(outside.contains("/org/"), "{outside}");
    // No token, a wrong one, a revoked one: refused, nothing changed.
    let missing = refused(None, &["set", "/net/docs", "https://x.example/"]);
    assert!(missing.contains("URLKIT_PURL_TOKEN"), "{missing}");
    let wrong = refused(
        Some("upt_0000_ffff"),
        &["set", "/net/docs", "https://x.example/"],
    );
    assert!(wrong.contains("unknown or revoked"), "{wrong}");
    db.ok(&["token", "revoke", token.split('_').nth(1).unwrap()]);
    let revoked = refused(Some(&token), &["rm", "/net/manual"]);
    assert!(revoked.contains("unknown or revoked"), "{revoked}");
    assert!(db.ok(&["show", "/net/docs"]).contains("version 4"));
    assert!(db.ok(&["show", "/net/manual"]).contains("version 1"));
    // Reads need no token.
    assert!(remote(url, None, &["show", "/net/docs"]).status.success());
    assert!(refused(None, &["show", "/net/nothing"]).contains("no such record"));
    // Only the records commands work through a server.
    let out = remote(url, Some(&token), &["token", "list"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("records commands"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_unreachable_or_bad_server_is_a_clear_refusal() {
    // A port nothing listens on: bound, then closed.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}");
    let out = remote(&url, Some("upt_a_b"), &["show", "/net/a"]);
    assert_eq!(out.status.code(), Some(1));
    let message = stderr(&out);
    assert!(
        message.starts_with(&format!("urlkit: cannot reach the resolver at {url}")),
        "{message}"
    );
    assert!(!message.contains("panicked"), "{message}");
    let out = remote("ftp://example.org/", None, &["show", "/net/a"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("http:// or https://"),
        "{}",
        stderr(&out)
    );
    let out = remote("not a url", None, &["show", "/net/a"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_private_certificate_is_trusted_when_named() {
    let db = Db::new();
    db.ok(&["add", "/net/a", "https://example.net/a"]);
    let (cert, key) = urlkit_web::tls::self_signed().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (cert_file, key_file) = (dir.path().join("cert.pem"), dir.path().join("key.pem"));
    std::fs::write(&cert_file, cert).unwrap();
    std::fs::write(&key_file, key).unwrap();
    let cert_path = cert_file.to_str().unwrap();
    let server = Server::start_with(
        &db,
        &[
            "--tls-cert",
            cert_path,
            "--tls-key",
            key_file.to_str().unwrap(),
        ],
    );
    assert!(
        server.url.starts_with("https://127.0.0.1:"),
        "{}",
        server.url
    );
    // Not trusted by the system: the certificate is named as the reason.
    let out = remote(&server.url, None, &["show", "/net/a"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("certificate"), "{}", stderr(&out));
    // Trusted once named, by option or by environment.
    let out = remote(
        &server.url,
        None,
        &["show", "/net/a", "--ca-cert", cert_path],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("https://example.net/a"),
        "{}",
        stdout(&out)
    );
    let mut command = common::urlkit_command();
    let out = command
        .args(["purl", "show", "/net/a", "--server", &server.url])
        .env("URLKIT_PURL_CA_CERT", cert_path)
        .env_remove("URLKIT_PURL_TOKEN")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    // A file that is not a certificate, or is missing, is refused by name.
    let out = remote(
        &server.url,
        None,
        &["show", "/net/a", "--ca-cert", key_file.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("key.pem: no certificate"),
        "{}",
        stderr(&out)
    );
    let missing = dir.path().join("missing.pem");
    let out = remote(
        &server.url,
        None,
        &["show", "/net/a", "--ca-cert", missing.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("missing.pem: cannot read it"),
        "{}",
        stderr(&out)
    );
    // On the database file it has nothing to trust: the command works as without it.
    let out = db.run(&["show", "/net/a", "--ca-cert", cert_path]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    let db = Db::new();
    db.ok(&["add", "/a", "https://example.com/a"]);
    db.ok(&["set", "/a", "https://example.com/b"]);
    // The reading end is closed before the program writes: `urlkit purl history | head -0`.
    let mut child = common::urlkit_command()
        .args(["purl", "history", "/a", "--db", &db.url])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
}

/// `GET path` on a server, without following redirects: the status line and the
/// `Location` header.
fn get(url: &str, path: &str) -> (String, Option<String>) {
    use std::io::{Read, Write};
    let addr = url.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let head = answer.split("\r\n\r\n").next().unwrap_or("");
    let mut lines = head.lines();
    let status = lines.next().unwrap_or("").to_string();
    let location = lines.find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("location")
            .then(|| value.trim().to_string())
    });
    (status, location)
}

/// `--db postgres://…`: the commands and two resolvers work on one PostgreSQL database.
#[test]
fn records_and_resolvers_on_postgres() {
    let Some(server) = postgres::Postgres::start("records_and_resolvers_on_postgres") else {
        return;
    };
    let db = Db {
        dir: tempfile::tempdir().unwrap(),
        url: server.url(),
    };
    assert_eq!(
        db.ok(&["add", "/net/x", "https://example.net/x"]),
        "created /net/x (version 1)\n"
    );
    let shown = json(&db.ok(&["show", "/net/x", "--json"]));
    assert_eq!(shown["version"], 1, "{shown}");
    let first = Server::start(&db);
    let second = Server::start(&db);
    for resolver in [&first, &second] {
        let (status, location) = get(&resolver.url, "/net/x");
        assert!(status.contains(" 302 "), "{status}");
        assert_eq!(location.as_deref(), Some("https://example.net/x"));
        let (status, _) = get(&resolver.url, "/net/none");
        assert!(status.contains(" 404 "), "{status}");
    }
    // A stale version is refused on PostgreSQL as on a file.
    db.ok(&["set", "/net/x", "https://example.net/y", "--version", "1"]);
    let refused = db.refused(&["set", "/net/x", "https://example.net/z", "--version", "1"]);
    assert!(refused.contains("version 2"), "{refused}");
    let history = json(&db.ok(&["history", "/net/x", "--json"]));
    assert_eq!(history.as_array().unwrap().len(), 2, "{history}");
}

/// A loopback HTTP server on a thread: `/ok` answers 200, anything else 404 (robots.txt
/// too: everything allowed). Its base URL.
fn target_server() -> String {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut request = [0u8; 2048];
            let n = stream.read(&mut request).unwrap_or(0);
            let text = String::from_utf8_lossy(&request[..n]);
            let path = text.split_whitespace().nth(1).unwrap_or("");
            let status = if path == "/ok" {
                "200 OK"
            } else {
                "404 Not Found"
            };
            let _ = stream.write_all(
                format!("HTTP/1.1 {status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                    .as_bytes(),
            );
        }
    });
    base
}

#[test]
fn check_lists_the_broken_targets_and_fails_for_them() {
    let db = Db::new();
    let base = target_server();
    db.ok(&["domain", "add", "/net/"]);
    db.ok(&["domain", "add", "/org/"]);
    db.ok(&["add", "/net/fine", &format!("{base}/ok")]);
    db.ok(&["add", "/org/dead", &format!("{base}/dead")]);
    let tuning = ["--delay-ms", "0", "--timeout", "5"];
    // One domain, all well: status 0, nothing listed, the summary on standard error.
    let mut args = vec!["check", "--domain", "/net/"];
    args.extend(tuning);
    let out = db.run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    assert!(
        stderr(&out).contains("checked 1 targets") && stderr(&out).contains("1 ok"),
        "{}",
        stderr(&out)
    );
    // Every record: the dead one listed, status 1.
    let mut args = vec!["check"];
    args.extend(tuning);
    let out = db.run(&args);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let listed = stdout(&out);
    assert!(listed.starts_with("/org/dead  gone  "), "{listed}");
    assert!(!listed.contains("/net/fine"), "{listed}");
    assert!(
        stderr(&out).contains("1 broken targets"),
        "{}",
        stderr(&out)
    );
    // As JSON lines: every check.
    let mut args = vec!["check", "--json"];
    args.extend(tuning);
    let lines: Vec<serde_json::Value> = stdout(&db.run(&args)).lines().map(json).collect();
    assert_eq!(lines.len(), 2);
    assert!(lines
        .iter()
        .any(|l| l["name"] == "/net/fine" && l["kind"] == "ok"));
    let bad = db.run(&["check", "--concurrency-per-host", "0"]);
    assert_eq!(bad.status.code(), Some(2));
}
