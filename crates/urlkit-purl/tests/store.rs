//! The store against real SQLite files in a temporary directory and in memory, and
//! against a real PostgreSQL server (most tests run on both).

#[path = "common/postgres.rs"]
mod postgres;
#[path = "common/values.rs"]
mod values;

use values::{admin, name, redirect};

use std::os::unix::fs::PermissionsExt;
use urlkit::purl::{Action, Name, RecordProblem};
use urlkit_purl::checks::chain_check;
use urlkit_purl::model::{Actor, Body, EventKind, Expect, Grant, Right};
use urlkit_purl::store::{Search, Store, StoreProblem, WriteError, TOKEN_PREFIX};

fn file_url(dir: &tempfile::TempDir) -> String {
    format!("sqlite:{}", dir.path().join("purl.db").display())
}

/// A database for one run of a test: a SQLite file in a temporary directory, or a
/// PostgreSQL server's.
struct Db {
    url: String,
    _dir: Option<tempfile::TempDir>,
    _server: Option<postgres::Postgres>,
}

/// The databases a test runs on: SQLite, and PostgreSQL when it is installed (see
/// [`postgres::Postgres::start`]).
fn databases(test: &str) -> Vec<Db> {
    let dir = tempfile::tempdir().unwrap();
    let mut all = vec![Db {
        url: file_url(&dir),
        _dir: Some(dir),
        _server: None,
    }];
    if let Some(server) = postgres::Postgres::start(test) {
        all.push(Db {
            url: server.url(),
            _dir: None,
            _server: Some(server),
        });
    }
    all
}

/// A store with users `net` (maintaining `/net/`) and `org` (maintaining `/org/` through
/// the group `orgs`).
async fn owned(url: &str) -> (Store, Actor, Actor) {
    let store = Store::open(url).await.unwrap();
    store
        .add_user("net", Some("net secret"), false)
        .await
        .unwrap();
    store.add_user("org", None, false).await.unwrap();
    store
        .add_group(&admin(), "orgs", &["org".to_string()])
        .await
        .unwrap();
    store
        .add_domain(&admin(), &name("/net/"), &["net".to_string()])
        .await
        .unwrap();
    store
        .add_domain(&admin(), &name("/org/"), &["@orgs".to_string()])
        .await
        .unwrap();
    let net = store.actor("net").await.unwrap().unwrap();
    let org = store.actor("org").await.unwrap().unwrap();
    (store, net, org)
}

#[tokio::test]
async fn create_update_and_stale_versions() {
    for db in databases("create_update_and_stale_versions") {
        create_update_and_stale_versions_on(&db.url).await;
    }
}

async fn create_update_and_stale_versions_on(url: &str) {
    let store = Store::open(url).await.unwrap();
    let a = name("/net/a");
    let first = store
        .put(
            &admin(),
            &a,
            redirect("https://example.com/1"),
            Expect::Absent,
            Some("new"),
        )
        .await
        .unwrap();
    assert_eq!(first.version, 1);
    let second = store
        .put(
            &admin(),
            &a,
            redirect("https://example.com/2"),
            Expect::Version(1),
            None,
        )
        .await
        .unwrap();
    assert_eq!(second.version, 2);
    // A writer still at version 1 is refused with the record as it is now.
    match store
        .put(
            &admin(),
            &a,
            redirect("https://example.com/3"),
            Expect::Version(1),
            None,
        )
        .await
    {
        Err(WriteError::Stale {
            current: Some(current),
        }) => {
            assert_eq!(current.version, 2);
            assert_eq!(
                current.record.action,
                redirect("https://example.com/2").action
            );
        }
        other => panic!("expected stale, got {other:?}"),
    }
    // If-None-Match on an existing name is stale too.
    match store
        .put(
            &admin(),
            &a,
            redirect("https://example.com/4"),
            Expect::Absent,
            None,
        )
        .await
    {
        Err(WriteError::Stale {
            current: Some(current),
        }) => assert_eq!(current.version, 2),
        other => panic!("expected stale, got {other:?}"),
    }
    // A version on a name without a record is stale with no current record.
    assert!(matches!(
        store
            .put(
                &admin(),
                &name("/net/b"),
                redirect("https://example.com/"),
                Expect::Version(3),
                None
            )
            .await,
        Err(WriteError::Stale { current: None })
    ));
    let history = store.history(&a).await.unwrap();
    assert_eq!(history.len(), 2);
    assert_eq!(history[0].kind, EventKind::Create);
    assert_eq!(history[0].before, None);
    assert_eq!(history[0].reason.as_deref(), Some("new"));
    assert_eq!(history[1].kind, EventKind::Update);
    assert_eq!(history[1].before, Some(redirect("https://example.com/1")));
    assert_eq!(history[1].after, redirect("https://example.com/2"));
    assert_eq!(history[1].user, "root");
}

#[tokio::test]
async fn invalid_bodies_are_refused_with_their_field() {
    for db in databases("invalid_bodies_are_refused_with_their_field") {
        invalid_bodies_are_refused_with_their_field_on(&db.url).await;
    }
}

async fn invalid_bodies_are_refused_with_their_field_on(url: &str) {
    let store = Store::open(url).await.unwrap();
    match store
        .put(
            &admin(),
            &name("/x"),
            redirect("relative/path"),
            Expect::Absent,
            None,
        )
        .await
    {
        Err(WriteError::Invalid(error)) => {
            assert_eq!(error.field, "target");
            assert_eq!(error.kind, RecordProblem::Target);
        }
        other => panic!("expected invalid, got {other:?}"),
    }
    assert_eq!(store.get(&name("/x")).await.unwrap(), None);
    assert!(store.history(&name("/x")).await.unwrap().is_empty());
}

#[tokio::test]
async fn delete_makes_a_tombstone_that_keeps_its_history_and_domain() {
    for db in databases("delete_makes_a_tombstone_that_keeps_its_history_and_domain") {
        delete_makes_a_tombstone_that_keeps_its_history_and_domain_on(&db.url).await;
    }
}

async fn delete_makes_a_tombstone_that_keeps_its_history_and_domain_on(url: &str) {
    let (store, net, org) = owned(url).await;
    let x = name("/net/x");
    store
        .put(
            &net,
            &x,
            redirect("https://example.net/x"),
            Expect::Absent,
            None,
        )
        .await
        .unwrap();
    let gone = store
        .delete(&net, &x, Expect::Version(1), None, Some("moved away"))
        .await
        .unwrap();
    assert!(gone.deleted);
    assert_eq!(gone.version, 2);
    assert!(
        matches!(gone.record.action, Action::Gone { ref message } if message.contains("deleted"))
    );
    let tombstone = store.get(&x).await.unwrap().unwrap();
    assert_eq!(tombstone, gone);
    assert_eq!(tombstone.domain, Some(name("/net/")));
    let history = store.history(&x).await.unwrap();
    assert_eq!(history.len(), 2);
    assert_eq!(history[1].kind, EventKind::Delete);
    assert_eq!(history[1].reason.as_deref(), Some("moved away"));
    // Deleting again finds nothing to delete.
    assert!(matches!(
        store.delete(&net, &x, Expect::Version(2), None, None).await,
        Err(WriteError::NotFound)
    ));
    // Tombstones are left out of searches unless asked for.
    let all = Search {
        name_prefix: Some("/net/".into()),
        ..Search::default()
    };
    assert!(store.search(&all).await.unwrap().is_empty());
    let with_deleted = Search {
        include_deleted: true,
        ..all
    };
    assert_eq!(store.search(&with_deleted).await.unwrap().len(), 1);

    // Another domain's maintainer cannot take the name, even as an "absent" record; even
    // after a domain is added that is a longer prefix of it.
    store
        .add_domain(&admin(), &name("/net/x"), &["@orgs".to_string()])
        .await
        .unwrap();
    let org = store.actor(&org.user).await.unwrap().unwrap();
    assert!(matches!(
        store
            .put(&org, &x, redirect("https://example.org/"), Expect::Absent, None)
            .await,
        Err(WriteError::Forbidden { domain: Some(d) }) if d == name("/net/")
    ));
    // Its own maintainer can bring the name back.
    let back = store
        .put(
            &net,
            &x,
            redirect("https://example.net/y"),
            Expect::Absent,
            None,
        )
        .await
        .unwrap();
    assert_eq!(back.version, 3);
    assert!(!back.deleted);
}

#[tokio::test]
async fn no_spelling_of_a_path_reaches_another_domain() {
    for db in databases("no_spelling_of_a_path_reaches_another_domain") {
        no_spelling_of_a_path_reaches_another_domain_on(&db.url).await;
    }
}

async fn no_spelling_of_a_path_reaches_another_domain_on(url: &str) {
    let (store, net, _org) = owned(url).await;
    store
        .put(
            &admin(),
            &name("/org/x"),
            redirect("https://example.org/x"),
            Expect::Absent,
            None,
        )
        .await
        .unwrap();
    for spelling in [
        "/net/../org/x",
        "/net/%2E%2E/org/x",
        "/net/%2e%2e/org/x",
        "/net/./../org/x",
        "/%6Frg/x",
        "/%6frg/x",
    ] {
        let parsed = name(spelling);
        assert_eq!(parsed, name("/org/x"), "{spelling}");
        assert!(
            matches!(
                store
                    .put(
                        &net,
                        &parsed,
                        redirect("https://evil.example/"),
                        Expect::Version(1),
                        None
                    )
                    .await,
                Err(WriteError::Forbidden { .. })
            ),
            "{spelling}"
        );
    }
    // An escaped slash is a different name, still in /net/ (not a way out of it).
    let escaped = name("/net%2F..%2Forg/x");
    assert!(!escaped.is_under(&name("/org/")));
    assert!(matches!(
        store
            .put(
                &net,
                &escaped,
                redirect("https://evil.example/"),
                Expect::Absent,
                None
            )
            .await,
        Err(WriteError::Forbidden { domain: None })
    ));
    // A look-alike of "org" (Cyrillic о) is another name, in no domain of net's.
    let lookalike = name("/\u{43e}rg/x");
    assert_ne!(lookalike, name("/org/x"));
    assert!(matches!(
        store
            .put(
                &net,
                &lookalike,
                redirect("https://evil.example/"),
                Expect::Absent,
                None
            )
            .await,
        Err(WriteError::Forbidden { domain: None })
    ));
    // Nothing changed the record of /org/x.
    let kept = store.get(&name("/org/x")).await.unwrap().unwrap();
    assert_eq!(kept.version, 1);
    assert_eq!(kept.record.action, redirect("https://example.org/x").action);
    // And net writes in its own domain.
    store
        .put(
            &net,
            &name("/net/a/../b"),
            redirect("https://example.net/b"),
            Expect::Absent,
            None,
        )
        .await
        .unwrap();
    assert!(store.get(&name("/net/b")).await.unwrap().is_some());
}

#[tokio::test]
async fn restore_brings_back_a_version_as_a_new_one() {
    for db in databases("restore_brings_back_a_version_as_a_new_one") {
        restore_brings_back_a_version_as_a_new_one_on(&db.url).await;
    }
}

async fn restore_brings_back_a_version_as_a_new_one_on(url: &str) {
    let store = Store::open(url).await.unwrap();
    let r = name("/r");
    for (i, expect) in [Expect::Absent, Expect::Version(1), Expect::Version(2)]
        .into_iter()
        .enumerate()
    {
        store
            .put(
                &admin(),
                &r,
                redirect(&format!("https://example.com/{}", i + 1)),
                expect,
                None,
            )
            .await
            .unwrap();
    }
    store
        .delete(&admin(), &r, Expect::Version(3), None, None)
        .await
        .unwrap();
    let restored = store
        .restore(&admin(), &r, 2, Expect::Version(4), Some("back to 2"))
        .await
        .unwrap();
    assert_eq!(restored.version, 5);
    assert!(!restored.deleted);
    assert_eq!(
        restored.record.action,
        redirect("https://example.com/2").action
    );
    let history = store.history(&r).await.unwrap();
    assert_eq!(history.len(), 5);
    assert_eq!(history[4].kind, EventKind::Restore);
    assert_eq!(history[4].reason.as_deref(), Some("back to 2"));
    assert!(matches!(
        history[4].before.as_ref().unwrap().action,
        Action::Gone { .. }
    ));
    assert!(matches!(
        store
            .restore(&admin(), &r, 9, Expect::Version(5), None)
            .await,
        Err(WriteError::NotFound)
    ));
    assert!(matches!(
        store
            .restore(&admin(), &r, 1, Expect::Version(4), None)
            .await,
        Err(WriteError::Stale { .. })
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_writers_of_one_version_one_wins() {
    for db in databases("two_writers_of_one_version_one_wins") {
        two_writers_of_one_version_one_wins_on(&db.url).await;
    }
}

async fn two_writers_of_one_version_one_wins_on(url: &str) {
    let store = Store::open(url).await.unwrap();
    // A second pool on the file, as another process would have.
    let other = Store::open(url).await.unwrap();
    let c = name("/c");
    store
        .put(
            &admin(),
            &c,
            redirect("https://example.com/0"),
            Expect::Absent,
            None,
        )
        .await
        .unwrap();
    for round in 1..=10 {
        let writers: Vec<_> = (0..2)
            .map(|w| {
                let store = if w == 0 { store.clone() } else { other.clone() };
                let c = c.clone();
                tokio::spawn(async move {
                    store
                        .put(
                            &admin(),
                            &c,
                            redirect(&format!("https://example.com/{round}/{w}")),
                            Expect::Version(round),
                            None,
                        )
                        .await
                })
            })
            .collect();
        let mut won = 0;
        let mut stale = 0;
        for writer in writers {
            match writer.await.unwrap() {
                Ok(_) => won += 1,
                Err(WriteError::Stale {
                    current: Some(current),
                }) => {
                    assert_eq!(current.version, round + 1);
                    stale += 1
                }
                Err(other) => panic!("round {round}: {other:?}"),
            }
        }
        assert_eq!((won, stale), (1, 1), "round {round}");
    }
    assert_eq!(store.history(&c).await.unwrap().len(), 11);
}

#[tokio::test]
async fn a_reopened_database_keeps_everything() {
    for db in databases("a_reopened_database_keeps_everything") {
        a_reopened_database_keeps_everything_on(&db.url).await;
    }
}

async fn a_reopened_database_keeps_everything_on(url: &str) {
    let secret;
    {
        let (store, net, _) = owned(url).await;
        store
            .put(
                &net,
                &name("/net/k"),
                redirect("https://example.net/k"),
                Expect::Absent,
                None,
            )
            .await
            .unwrap();
        store
            .add_counts(&[(name("/net/k"), 3), (name("/net/k"), 4)])
            .await
            .unwrap();
        secret = store
            .create_token(
                "net",
                &[Grant {
                    domain: name("/net/"),
                    right: Right::Write,
                }],
                Some("ci"),
            )
            .await
            .unwrap()
            .1;
    }
    let store = Store::open(url).await.unwrap();
    if url.starts_with("sqlite:") {
        // The file is in WAL mode, for every connection after.
        let (mode,): (String,) = sqlx::query_as("PRAGMA journal_mode")
            .fetch_one(&sqlx::SqlitePool::connect(url).await.unwrap())
            .await
            .unwrap();
        assert_eq!(mode, "wal");
    }
    let k = store.get(&name("/net/k")).await.unwrap().unwrap();
    assert_eq!(k.version, 1);
    assert_eq!(k.domain, Some(name("/net/")));
    assert_eq!(k.changed_by, "net");
    assert_eq!(store.history(&name("/net/k")).await.unwrap().len(), 1);
    assert_eq!(store.count(&name("/net/k")).await.unwrap(), 7);
    // Many names at once (more than one statement's rows), twice: each adds up.
    // More names than one statement takes, Unicode among them.
    let many: Vec<(Name, u64)> = (0..9_000)
        .map(|i| (name(&format!("/net/many/é{i}")), i % 7 + 1))
        .collect();
    store.add_counts(&many).await.unwrap();
    store.add_counts(&many).await.unwrap();
    for i in [0u64, 399, 3_999, 4_000, 8_999] {
        let hits = store
            .count(&name(&format!("/net/many/é{i}")))
            .await
            .unwrap();
        assert_eq!(hits, 2 * (i % 7 + 1), "/net/many/é{i}");
    }
    assert_eq!(store.domains().await.unwrap().len(), 2);
    assert!(store.login("net", "net secret").await.unwrap().is_some());
    let actor = store.authenticate(&secret).await.unwrap().unwrap();
    assert_eq!(actor.user, "net");
    assert_eq!(store.records().await.unwrap().len(), 1);
}

#[tokio::test]
async fn a_read_only_database_reads_and_refuses_writes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("purl.db");
    let url = file_url(&dir);
    let writer = Store::open(&url).await.unwrap();
    writer
        .put(
            &admin(),
            &name("/ro"),
            redirect("https://example.com/ro"),
            Expect::Absent,
            None,
        )
        .await
        .unwrap();
    // The writer stays open, so the WAL's files exist for a reader of a read-only
    // directory.
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o555)).unwrap();
    // Root ignores file modes: then the file is also opened read-only by its address.
    let privileged = std::fs::OpenOptions::new().write(true).open(&path).is_ok();
    let reader_url = if privileged {
        format!("{url}?mode=ro")
    } else {
        url.clone()
    };
    let reader = Store::open(&reader_url).await.unwrap();
    let ro = reader.get(&name("/ro")).await.unwrap().unwrap();
    assert_eq!(ro.version, 1);
    match reader
        .put(
            &admin(),
            &name("/ro"),
            redirect("https://example.com/2"),
            Expect::Version(1),
            None,
        )
        .await
    {
        Err(WriteError::Store(error)) => assert_eq!(error.kind, StoreProblem::ReadOnly, "{error}"),
        other => panic!("expected a read-only store, got {other:?}"),
    }
    assert_eq!(
        reader.check().await.unwrap_err().kind,
        StoreProblem::ReadOnly
    );
    assert_eq!(reader.get(&name("/ro")).await.unwrap().unwrap().version, 1);
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    drop(writer);
}

#[tokio::test]
async fn a_newer_schema_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let url = file_url(&dir);
    Store::open(&url).await.unwrap();
    {
        use sqlx::ConnectOptions;
        let mut conn = url
            .parse::<sqlx::sqlite::SqliteConnectOptions>()
            .unwrap()
            .connect()
            .await
            .unwrap();
        sqlx::query(
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
             VALUES (999, 'future', TRUE, x'00', 0)",
        )
        .execute(&mut conn)
        .await
        .unwrap();
    }
    let error = Store::open(&url).await.unwrap_err();
    assert_eq!(error.kind, StoreProblem::TooNew);
    assert!(error.message.contains("999"), "{}", error.message);
    assert!(error.message.contains("purl.db"), "{}", error.message);
}

#[tokio::test]
async fn bad_addresses_are_named() {
    let error = Store::open("mysql://localhost/x").await.unwrap_err();
    assert!(error.message.contains("mysql"), "{}", error.message);
    let error = Store::open("sqlite:/nonexistent-dir-for-urlkit/x.db")
        .await
        .unwrap_err();
    assert_eq!(error.kind, StoreProblem::Unreachable, "{}", error.message);
    assert!(
        error.message.contains("/nonexistent-dir-for-urlkit/x.db"),
        "{}",
        error.message
    );
}

#[tokio::test]
async fn passwords_are_hashed_and_logins_checked() {
    let dir = tempfile::tempdir().unwrap();
    let url = file_url(&dir);
    let store = Store::open(&url).await.unwrap();
    store
        .add_user("ann", Some("correct horse"), true)
        .await
        .unwrap();
    let row: (String,) = sqlx::query_as("SELECT password_hash FROM users WHERE name = 'ann'")
        .fetch_one(&sqlx::SqlitePool::connect(&url).await.unwrap())
        .await
        .unwrap();
    assert!(row.0.starts_with("$argon2id$"), "{}", row.0);
    assert!(!row.0.contains("correct horse"));
    let raw = std::fs::read(dir.path().join("purl.db")).unwrap();
    let wal = std::fs::read(dir.path().join("purl.db-wal")).unwrap_or_default();
    for bytes in [&raw, &wal] {
        assert!(!bytes.windows(13).any(|w| w == b"correct horse"));
    }
    let ann = store.login("ann", "correct horse").await.unwrap().unwrap();
    assert!(ann.admin);
    assert_eq!(store.login("ann", "wrong").await.unwrap(), None);
    assert_eq!(store.login("nobody", "correct horse").await.unwrap(), None);
    assert!(store.add_user("ann", None, false).await.is_err());
    let error = store.add_user("a b", None, false).await.unwrap_err();
    assert!(error.message.contains("byte 1"), "{}", error.message);
}

#[tokio::test]
async fn tokens_are_stored_hashed_scoped_and_revocable() {
    let dir = tempfile::tempdir().unwrap();
    let url = file_url(&dir);
    let (store, _net, _org) = owned(&url).await;
    let write_net = Grant {
        domain: name("/net/"),
        right: Right::Write,
    };
    let (info, secret) = store
        .create_token("net", std::slice::from_ref(&write_net), Some("deploy"))
        .await
        .unwrap();
    assert!(secret.starts_with(TOKEN_PREFIX));
    assert!(secret.contains(&info.id));
    let rows: Vec<(String, String)> = sqlx::query_as("SELECT id, secret_hash FROM tokens")
        .fetch_all(&sqlx::SqlitePool::connect(&url).await.unwrap())
        .await
        .unwrap();
    assert_eq!(rows.len(), 1);
    let random = secret.rsplit('_').next().unwrap();
    assert!(!rows[0].1.contains(random));
    for file in ["purl.db", "purl.db-wal"] {
        let bytes = std::fs::read(dir.path().join(file)).unwrap_or_default();
        assert!(
            !bytes.windows(random.len()).any(|w| w == random.as_bytes()),
            "{file}"
        );
    }
    // Grants outside the user's domains are refused.
    assert!(matches!(
        store
            .create_token(
                "net",
                &[Grant {
                    domain: name("/org/"),
                    right: Right::Read,
                }],
                None,
            )
            .await,
        Err(WriteError::Forbidden { domain: Some(d) }) if d == name("/org/")
    ));
    let actor = store.authenticate(&secret).await.unwrap().unwrap();
    assert_eq!(actor.token.as_deref(), Some(info.id.as_str()));
    assert_eq!(actor.grants, vec![write_net.clone()]);
    let written = store
        .put(
            &actor,
            &name("/net/t"),
            redirect("https://example.net/t"),
            Expect::Absent,
            None,
        )
        .await
        .unwrap();
    assert_eq!(written.changed_by, "net");
    assert_eq!(
        store.history(&name("/net/t")).await.unwrap()[0]
            .token
            .as_deref(),
        Some(info.id.as_str())
    );
    // A wrong secret with the right id, and texts that are no token, fail.
    let mut forged = secret.clone();
    let last = forged.pop().unwrap();
    forged.push(if last == '0' { '1' } else { '0' });
    assert_eq!(store.authenticate(&forged).await.unwrap(), None);
    assert_eq!(store.authenticate("upt_").await.unwrap(), None);
    assert_eq!(store.authenticate("Bearer x").await.unwrap(), None);
    // A token is never more than its user: a non-administrator's empty token has no
    // rights.
    let (_, empty) = store.create_token("net", &[], None).await.unwrap();
    let empty = store.authenticate(&empty).await.unwrap().unwrap();
    assert!(!empty.admin && empty.grants.is_empty());
    // An administrator's token without grants acts as the administrator; with grants,
    // within them.
    store.add_user("boss", None, true).await.unwrap();
    let (_, all) = store.create_token("boss", &[], None).await.unwrap();
    assert!(store.authenticate(&all).await.unwrap().unwrap().admin);
    let (_, scoped) = store
        .create_token("boss", std::slice::from_ref(&write_net), None)
        .await
        .unwrap();
    let scoped = store.authenticate(&scoped).await.unwrap().unwrap();
    assert!(!scoped.admin);
    assert!(!scoped.may_write(&name("/org/x"), Some(&name("/org/"))));
    assert!(scoped.may_write(&name("/net/x"), Some(&name("/net/"))));
    assert!(store.revoke_token(&info.id).await.unwrap());
    assert_eq!(store.authenticate(&secret).await.unwrap(), None);
    assert!(!store.revoke_token(&info.id).await.unwrap());
}

#[tokio::test]
async fn chains_that_loop_are_refused() {
    for db in databases("chains_that_loop_are_refused") {
        chains_that_loop_are_refused_on(&db.url).await;
    }
}

async fn chains_that_loop_are_refused_on(url: &str) {
    let store = Store::open(url).await.unwrap();
    let chain = |to: &str| Body {
        action: Action::Chain { to: name(to) },
        max_age: None,
    };
    store
        .put(&admin(), &name("/a"), chain("/b"), Expect::Absent, None)
        .await
        .unwrap();
    store
        .put(&admin(), &name("/b"), chain("/c"), Expect::Absent, None)
        .await
        .unwrap();
    let records = store.records().await.unwrap();
    let closing = chain("/a").into_record(name("/c")).unwrap();
    let error = chain_check(&records, &closing).unwrap_err();
    assert_eq!(error.kind, RecordProblem::ChainLoop);
    assert_eq!(error.field, "to");
    let open = chain("/d").into_record(name("/c")).unwrap();
    chain_check(&records, &open).unwrap();
}

#[tokio::test]
async fn a_file_that_is_no_database_is_named() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("purl.db"), vec![b'x'; 4096]).unwrap();
    let error = Store::open(&file_url(&dir)).await.unwrap_err();
    assert!(error.message.contains("purl.db"), "{}", error.message);
    assert!(
        error.message.contains("not a database"),
        "{}",
        error.message
    );
}

/// A connection of another process to the SQLite file at `url`, holding its write lock.
async fn another_writer(url: &str) -> sqlx::SqliteConnection {
    use sqlx::ConnectOptions;
    let mut other = url
        .parse::<sqlx::sqlite::SqliteConnectOptions>()
        .unwrap()
        .connect()
        .await
        .unwrap();
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut other)
        .await
        .unwrap();
    other
}

/// A write whose caller goes away while SQLite makes it wait (a client that disconnects
/// during a `PUT`) must not leave its connection in the pool with the write lock taken:
/// every later write, of this process or another, would then fail as locked.
#[tokio::test]
async fn a_write_given_up_while_it_waits_leaves_no_lock_behind() {
    let dir = tempfile::tempdir().unwrap();
    let url = file_url(&dir);
    let store = Store::open(&url).await.unwrap();
    let mut other = another_writer(&url).await;
    // The store's write waits for it, and its caller stops waiting.
    let given_up = tokio::time::timeout(
        std::time::Duration::from_millis(300),
        store.add_counts(&[(name("/given-up"), 1)]),
    )
    .await;
    assert!(given_up.is_err(), "the write should still be waiting");
    sqlx::query("ROLLBACK").execute(&mut other).await.unwrap();
    // SQLite retries a waiting `BEGIN` after a sleep of its own: give it the time to
    // take the lock, had it been left running.
    tokio::time::sleep(std::time::Duration::from_millis(700)).await;
    // The other process writes again, within its own busy timeout.
    sqlx::query("PRAGMA busy_timeout = 5000")
        .execute(&mut other)
        .await
        .unwrap();
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut other)
        .await
        .expect("the write lock is free again");
    sqlx::query("ROLLBACK").execute(&mut other).await.unwrap();
    // And so does the store, on every connection of its pool.
    for i in 0..16 {
        store
            .add_counts(&[(name(&format!("/after/{i}")), 1)])
            .await
            .unwrap();
    }
    assert_eq!(store.count(&name("/given-up")).await.unwrap(), 0);
    assert_eq!(store.count(&name("/after/15")).await.unwrap(), 1);
}

#[tokio::test]
async fn a_database_locked_by_another_writer_is_locked() {
    let dir = tempfile::tempdir().unwrap();
    let url = file_url(&dir);
    let store = Store::open(&url).await.unwrap();
    let mut holder = another_writer(&url).await;
    // The store waits for its busy timeout, then gives up.
    match store
        .put(
            &admin(),
            &name("/l"),
            redirect("https://example.com/"),
            Expect::Absent,
            None,
        )
        .await
    {
        Err(WriteError::Store(error)) => assert_eq!(error.kind, StoreProblem::Locked, "{error}"),
        other => panic!("expected a locked store, got {other:?}"),
    }
    // Reads go on meanwhile (WAL), and the write goes through once the lock is gone.
    assert_eq!(store.get(&name("/l")).await.unwrap(), None);
    sqlx::query("ROLLBACK").execute(&mut holder).await.unwrap();
    store
        .put(
            &admin(),
            &name("/l"),
            redirect("https://example.com/"),
            Expect::Absent,
            None,
        )
        .await
        .unwrap();
}

#[test]
fn the_postgres_harness_starts_and_stops_a_server() {
    let Some(server) = postgres::Postgres::start("the_postgres_harness_starts_and_stops_a_server")
    else {
        return;
    };
    let port = server.port();
    std::net::TcpStream::connect(("127.0.0.1", port)).expect("the server listens");
    drop(server);
    assert!(
        std::net::TcpStream::connect(("127.0.0.1", port)).is_err(),
        "the server stopped with its guard"
    );
}

/// Two resolvers on one PostgreSQL database (two stores: two pools) creating, then
/// changing, one record at the same expected version at once: each time exactly one wins,
/// the other is stale with the winner's record, and the history holds exactly the
/// winners' events.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_on_postgres_writing_one_record_one_wins() {
    let test = "two_instances_on_postgres_writing_one_record_one_wins";
    let Some(server) = postgres::Postgres::start(test) else {
        return;
    };
    let first = Store::open(&server.url()).await.unwrap();
    let second = Store::open(&server.url()).await.unwrap();
    let c = name("/c");
    let mut winners = Vec::new();
    for round in 0..=10i64 {
        let expect = if round == 0 {
            Expect::Absent
        } else {
            Expect::Version(round)
        };
        let barrier = std::sync::Arc::new(tokio::sync::Barrier::new(2));
        let writers: Vec<_> = [first.clone(), second.clone()]
            .into_iter()
            .enumerate()
            .map(|(w, store)| {
                let c = c.clone();
                let barrier = barrier.clone();
                tokio::spawn(async move {
                    let body = redirect(&format!("https://example.com/{round}/{w}"));
                    barrier.wait().await;
                    let put = store.put(&admin(), &c, body.clone(), expect, None).await;
                    (body, put)
                })
            })
            .collect();
        let mut won = Vec::new();
        let mut stale = Vec::new();
        for writer in writers {
            match writer.await.unwrap() {
                (body, Ok(stored)) => {
                    assert_eq!(stored.version, round + 1);
                    won.push(body)
                }
                (
                    _,
                    Err(WriteError::Stale {
                        current: Some(current),
                    }),
                ) => stale.push(current),
                (_, Err(other)) => panic!("round {round}: {other:?}"),
            }
        }
        assert_eq!((won.len(), stale.len()), (1, 1), "round {round}");
        assert_eq!(stale[0].version, round + 1, "round {round}");
        assert_eq!(stale[0].record.action, won[0].action, "round {round}");
        winners.push(won.remove(0));
    }
    let history = first.history(&c).await.unwrap();
    let versions: Vec<i64> = history.iter().map(|event| event.version).collect();
    assert_eq!(versions, (1..=11).collect::<Vec<_>>());
    for (event, winner) in history.iter().zip(&winners) {
        assert_eq!(&event.after, winner, "version {}", event.version);
    }
    assert_eq!(history[0].kind, EventKind::Create);
    assert_eq!(history[1].before.as_ref(), Some(&winners[0]));
    let now = second.get(&c).await.unwrap().unwrap();
    assert_eq!(now.version, 11);
    assert_eq!(now.record.action, winners[10].action);
}

/// PostgreSQL's failures are the store's problems: a read-only database refuses writes as
/// read-only, a stopped server (or a port nobody listens on) is unreachable.
#[tokio::test]
async fn postgres_failures_are_named() {
    let Some(server) = postgres::Postgres::start("postgres_failures_are_named") else {
        return;
    };
    let store = Store::open(&server.url()).await.unwrap();
    store
        .put(
            &admin(),
            &name("/a"),
            redirect("https://example.com/a"),
            Expect::Absent,
            None,
        )
        .await
        .unwrap();
    server.create_database("readonly");
    let admin_pool = sqlx::PgPool::connect(&server.url_of("readonly"))
        .await
        .unwrap();
    Store::open(&server.url_of("readonly")).await.unwrap();
    sqlx::query("ALTER DATABASE readonly SET default_transaction_read_only = on")
        .execute(&admin_pool)
        .await
        .unwrap();
    admin_pool.close().await;
    let reader = Store::open(&server.url_of("readonly")).await.unwrap();
    assert!(reader.get(&name("/a")).await.unwrap().is_none());
    match reader
        .put(
            &admin(),
            &name("/a"),
            redirect("https://example.com/a"),
            Expect::Absent,
            None,
        )
        .await
    {
        Err(WriteError::Store(error)) => {
            assert_eq!(error.kind, StoreProblem::ReadOnly, "{}", error.message)
        }
        other => panic!("expected a read-only database, got {other:?}"),
    }
    let port = server.port();
    drop(server);
    let error = store.get(&name("/a")).await.unwrap_err();
    assert_eq!(error.kind, StoreProblem::Unreachable, "{}", error.message);
    let url = format!("postgres://postgres@127.0.0.1:{port}/purl");
    let error = Store::open(&url).await.unwrap_err();
    assert_eq!(error.kind, StoreProblem::Unreachable, "{}", error.message);
    assert!(error.message.contains(&url), "{}", error.message);
}

/// What the other tests leave out, on both databases: imports in batches, searches by
/// prefix, target and domain, owner changes in the order made, the readiness check.
#[tokio::test]
async fn imports_searches_owner_changes_and_checks() {
    for db in databases("imports_searches_owner_changes_and_checks") {
        imports_searches_owner_changes_and_checks_on(&db.url).await;
    }
}

async fn imports_searches_owner_changes_and_checks_on(url: &str) {
    let (store, net, _org) = owned(url).await;
    let records: Vec<(Name, Body)> = (0..1200)
        .map(|i| {
            (
                name(&format!("/net/i/{i:04}")),
                redirect(&format!("https://example.net/{i}")),
            )
        })
        .collect();
    assert_eq!(
        store.import(&net, records, Some("bulk")).await.unwrap(),
        1200
    );
    let again = vec![(name("/net/i/0005"), redirect("https://example.net/x"))];
    let error = store.import(&net, again, None).await.unwrap_err();
    assert_eq!(error.index, Some(0));
    assert!(matches!(
        error.error,
        WriteError::Stale { current: Some(_) }
    ));
    let imported = store.get(&name("/net/i/1199")).await.unwrap().unwrap();
    assert_eq!(imported.version, 1);
    assert_eq!(imported.domain, Some(name("/net/")));
    assert!(!imported.deleted);
    let history = store.history(&name("/net/i/0007")).await.unwrap();
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].reason.as_deref(), Some("bulk"));

    let by_prefix = Search {
        name_prefix: Some("/net/i/11".into()),
        limit: 50,
        ..Search::default()
    };
    let found = store.search(&by_prefix).await.unwrap();
    assert_eq!(found.len(), 50);
    assert_eq!(found[0].record.name, name("/net/i/1100"));
    let next = Search {
        after: Some(name("/net/i/1190")),
        ..by_prefix.clone()
    };
    let found = store.search(&next).await.unwrap();
    assert_eq!(found.len(), 9);
    let by_target = Search {
        target_contains: Some("example.net/11_".into()),
        ..Search::default()
    };
    assert!(store.search(&by_target).await.unwrap().is_empty());
    let by_target = Search {
        target_contains: Some("example.net/119".into()),
        domain: Some(name("/net/")),
        ..Search::default()
    };
    assert_eq!(store.search(&by_target).await.unwrap().len(), 11);

    for (i, kind) in ["user-add", "domain-add", "token-create"]
        .iter()
        .enumerate()
    {
        store
            .record_owner_change(
                &admin(),
                kind,
                &format!("s{i}"),
                &serde_json::json!({"i": i}),
            )
            .await
            .unwrap();
    }
    let changes = store.owner_changes().await.unwrap();
    let kinds: Vec<&str> = changes.iter().map(|c| c.kind.as_str()).collect();
    assert_eq!(kinds, ["user-add", "domain-add", "token-create"]);
    assert_eq!(changes[2].detail, serde_json::json!({"i": 2}));
    store.check().await.unwrap();
}

#[tokio::test]
async fn records_are_read_a_page_at_a_time_and_loaded_whole() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&file_url(&dir)).await.unwrap();
    // Chains (`/a/…`) sort before the records they lead to.
    for i in 0..11 {
        store
            .put(
                &admin(),
                &name(&format!("/z/{i}")),
                redirect(&format!("https://e.org/{i}")),
                Expect::Absent,
                None,
            )
            .await
            .unwrap();
        let chain = Body {
            action: Action::Chain {
                to: name(&format!("/z/{i}")),
            },
            max_age: None,
        };
        store
            .put(
                &admin(),
                &name(&format!("/a/{i}")),
                chain,
                Expect::Absent,
                None,
            )
            .await
            .unwrap();
    }
    store
        .delete(&admin(), &name("/z/3"), Expect::Version(1), None, None)
        .await
        .unwrap();
    let all = store.records().await.unwrap();
    assert_eq!(all.len(), 22);
    for page in [1, 4, 11, 22, 100] {
        let mut paged = Vec::new();
        store
            .each_record_paged(page, |stored| paged.push(stored))
            .await
            .unwrap();
        assert_eq!(paged, all, "pages of {page}");
    }
    let registry = urlkit_purl::registry::Registry::load(store).await.unwrap();
    let table = registry.table();
    assert_eq!(table.len(), 22);
    match table.resolve("/a/5", None, None, None) {
        urlkit::purl::Answer::Redirect { location, .. } => assert_eq!(location, "https://e.org/5"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        table.resolve("/a/3", None, None, None),
        urlkit::purl::Answer::Message { status: 410, .. }
    ));
}
