//! `urlkit purl export` and `urlkit purl import --format …`: an export imported into an
//! empty database exports the same bytes; other services' files are read into records,
//! with what is not understood named by file and line; importing twice changes nothing.

mod common;

use common::{stderr, stdout, urlkit};
use std::process::Output;

fn run(db: &str, user: &str, args: &[&str], stdin: &str) -> Output {
    let mut all = vec!["purl"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--db", db, "--user", user]);
    urlkit(&all, stdin)
}

fn ok(out: Output) -> String {
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    stdout(&out)
}

/// A database with a history worth keeping: versions, a deletion and a restore, a
/// tombstone, negotiated, partial and chained records, a name outside ASCII, a domain.
fn filled(db: &str) {
    ok(run(db, "alice", &["user", "add", "alice"], ""));
    ok(run(
        db,
        "alice",
        &["domain", "add", "/net/", "--maintainer", "alice"],
        "",
    ));
    let steps: &[&[&str]] = &[
        &["add", "/net/a", "https://example.net/a"],
        &[
            "set",
            "/net/a",
            "https://example.net/b",
            "--status",
            "301",
            "--reason",
            "moved",
        ],
        &["rm", "/net/a"],
        &["restore", "/net/a", "2", "--reason", "back"],
        &[
            "add",
            "/net/café/",
            "https://example.net/docs/",
            "--partial",
            "--status",
            "307",
        ],
        &[
            "add",
            "/net/vocab",
            "--offer",
            "text/html=https://example.net/v.html",
            "--offer",
            "text/turtle;lang=en=https://example.net/v.ttl",
            "--fallback",
            "https://example.net/v.html",
            "--max-age",
            "60",
        ],
        &["add", "/net/old", "--chain", "/net/a"],
        &["add", "/gone", "https://example.org/x"],
        &["rm", "/gone", "--message", "withdrawn"],
        &["add", "/nf", "--not-found", "never here"],
    ];
    for step in steps {
        ok(run(db, "alice", step, ""));
    }
}

#[test]
fn an_export_imported_into_an_empty_database_exports_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let first = format!("sqlite:{}", dir.path().join("first.db").display());
    let second = format!("sqlite:{}", dir.path().join("second.db").display());
    filled(&first);
    let exported = ok(run(&first, "alice", &["export"], ""));
    assert_eq!(exported.lines().count(), 6, "{exported}");
    let lines: Vec<serde_json::Value> = exported
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let names: Vec<&str> = lines.iter().map(|l| l["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "/gone",
            "/net/a",
            "/net/caf%C3%A9/",
            "/net/old",
            "/net/vocab",
            "/nf"
        ]
    );
    let a = &lines[1];
    assert_eq!(a["version"], 4);
    assert_eq!(a["domain"], "/net/");
    let kinds: Vec<&str> = a["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["create", "update", "delete", "restore"]);
    assert_eq!(a["history"][1]["reason"], "moved");
    assert_eq!(lines[0]["deleted"], true);
    assert_eq!(lines[0]["record"]["message"], "withdrawn");

    let file = dir.path().join("records.jsonl");
    std::fs::write(&file, &exported).unwrap();
    let file = file.to_str().unwrap();
    // The export is told from plain JSON Lines by its first line.
    let out = ok(run(&second, "bob", &["import", file], ""));
    assert_eq!(out, "created 6, changed 0, unchanged 0, skipped 0\n");
    let again = ok(run(&second, "bob", &["export"], ""));
    assert!(
        again == exported,
        "the export changed:\n{exported}\n{again}"
    );
    let out_file = dir.path().join("again.jsonl");
    ok(run(
        &second,
        "bob",
        &["export", "--out", out_file.to_str().unwrap()],
        "",
    ));
    assert_eq!(std::fs::read_to_string(&out_file).unwrap(), exported);

    // Into a database that holds those records already: nothing changes.
    let out = ok(run(
        &second,
        "bob",
        &["import", file, "--format", "export"],
        "",
    ));
    assert_eq!(out, "created 0, changed 0, unchanged 6, skipped 0\n");
    assert!(ok(run(&second, "bob", &["export"], "")) == exported);

    // A record changed since: the export's becomes a new version, said by --dry-run first.
    ok(run(
        &second,
        "bob",
        &["set", "/net/old", "https://example.net/elsewhere"],
        "",
    ));
    let dry = ok(run(&second, "bob", &["import", file, "--dry-run"], ""));
    assert!(
        dry.contains("change /net/old\n") && dry.contains("unchanged /net/a\n"),
        "{dry}"
    );
    assert!(
        dry.ends_with("would create 0, change 1, leave 5 unchanged, skip 0\n"),
        "{dry}"
    );
    let history = ok(run(&second, "bob", &["history", "/net/old"], ""));
    assert!(
        !history.contains(": import"),
        "a dry run writes nothing: {history}"
    );
    ok(run(&second, "bob", &["import", file], ""));
    let history = ok(run(&second, "bob", &["history", "/net/old"], ""));
    assert!(history.contains("update by bob: import"), "{history}");
    assert!(ok(run(&second, "bob", &["show", "/net/old"], "")).contains("chain to /net/a"));
}

#[test]
fn an_htaccess_becomes_records_under_its_prefix_and_twice_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("purl.db").display());
    let file = dir.path().join(".htaccess");
    std::fs::write(
        &file,
        "Options +FollowSymLinks\n\
         RewriteEngine on\n\
         RewriteCond %{HTTP_ACCEPT} text/turtle\n\
         RewriteRule ^onto$ https://example.org/onto.ttl [R=303,L]\n\
         RewriteRule ^onto$ https://example.org/onto.html [R=303,L]\n\
         RewriteRule ^docs/(.*)$ https://docs.example.org/$1 [R=302,L,NE]\n",
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let out = run(&db, "loader", &["import", file], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--prefix"), "{}", stderr(&out));
    let args = ["import", file, "--prefix", "/w3id/"];
    let out = run(&db, "loader", &args, "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "created 2, changed 0, unchanged 0, skipped 0, 1 noted\n"
    );
    assert!(
        stderr(&out).contains(&format!("{file}:1: note: Options")),
        "{}",
        stderr(&out)
    );
    let show = ok(run(&db, "loader", &["show", "/w3id/onto", "--json"], ""));
    let shown: serde_json::Value = serde_json::from_str(&show).unwrap();
    assert_eq!(shown["record"]["type"], "negotiate");
    assert_eq!(shown["record"]["offers"][0]["media_type"], "text/turtle");
    assert_eq!(shown["record"]["fallback"], "https://example.org/onto.html");
    let docs = ok(run(&db, "loader", &["show", "/w3id/docs/", "--json"], ""));
    assert!(docs.contains("\"partial\""), "{docs}");
    let out = run(&db, "loader", &args, "");
    assert_eq!(
        stdout(&out),
        "created 0, changed 0, unchanged 2, skipped 0, 1 noted\n"
    );
}

#[test]
fn what_is_not_understood_is_named_and_stops_the_import_unless_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("purl.db").display());
    let xml = dir.path().join("purls.xml");
    std::fs::write(
        &xml,
        "<purls>\n\
         <purl id=\"/p/a\" type=\"302\"><maintainers><uid>alice</uid></maintainers>\
         <target url=\"https://example.org/a\"/></purl>\n\
         <purl id=\"/p/b\" type=\"teleport\"><target url=\"https://example.org/b\"/></purl>\n\
         <purl id=\"/p/c\" type=\"410\"/>\n\
         </purls>\n",
    )
    .unwrap();
    let xml = xml.to_str().unwrap();
    let out = run(&db, "loader", &["import", xml], "");
    assert_eq!(out.status.code(), Some(1));
    let error = stderr(&out);
    assert!(
        error.contains(&format!("{xml}:3: /p/b: type \"teleport\" not understood"))
            && error.contains("nothing written"),
        "{error}"
    );
    assert_eq!(
        run(&db, "loader", &["show", "/p/a"], "").status.code(),
        Some(1)
    );

    let dry = run(&db, "loader", &["import", xml, "--dry-run"], "");
    assert_eq!(dry.status.code(), Some(1));
    assert_eq!(
        stdout(&dry),
        "create /p/a\ncreate /p/c\ndry run, nothing written: would create 2, change 0, \
         leave 0 unchanged, skip 1, 1 noted\n"
    );
    assert!(stderr(&dry).contains(&format!("{xml}:2: note: /p/a: maintainers alice")));

    let out = run(&db, "loader", &["import", xml, "--skip-unknown"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "created 2, changed 0, unchanged 0, skipped 1, 1 noted\n"
    );
    assert!(stderr(&out).contains(&format!("{xml}:3: /p/b:")));
    let gone = run(&db, "loader", &["show", "/p/c"], "");
    assert!(stdout(&gone).contains("410"), "{}", stdout(&gone));

    let csv = dir.path().join("records.csv");
    std::fs::write(
        &csv,
        "name,type,target,status\n/p/a,redirect,https://example.org/a2,301\n/p/d,chain,/p/a,\n\n/p/e,redirect,relative,\n",
    )
    .unwrap();
    let csv = csv.to_str().unwrap();
    let out = run(&db, "loader", &["import", csv], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(&format!("{csv}:5: /p/e: target: not an absolute URL")),
        "{}",
        stderr(&out)
    );
    let out = run(
        &db,
        "loader",
        &["import", csv, "--skip-unknown", "--reason", "from csv"],
        "",
    );
    assert_eq!(
        stdout(&out),
        "created 1, changed 1, unchanged 0, skipped 1\n",
        "{}",
        stderr(&out)
    );
    let history = ok(run(&db, "loader", &["history", "/p/a"], ""));
    assert!(history.contains("update by loader: from csv"), "{history}");

    let unknown = dir.path().join("records.txt");
    std::fs::write(&unknown, "x").unwrap();
    let out = run(&db, "loader", &["import", unknown.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("give --format"), "{}", stderr(&out));
}
