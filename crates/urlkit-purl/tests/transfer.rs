//! Records out and in through the store: an export imported into an empty database
//! exports the same bytes, on SQLite and on a real PostgreSQL server (and from one to the
//! other); imports check owners as any write does.

#[path = "common/postgres.rs"]
mod postgres;
#[path = "common/values.rs"]
mod values;

use values::{admin, name, redirect};

use urlkit::purl::{Action, Name, Offer};
use urlkit_purl::model::{Actor, Body, Expect, Grant, Right};
use urlkit_purl::store::bulk::Applied;
use urlkit_purl::store::Store;
use urlkit_purl::transfer::export::{parse_line, Exported};
use urlkit_purl::transfer::Entry;

fn alice() -> Actor {
    Actor {
        user: "alice".into(),
        token: Some("tok1".into()),
        admin: false,
        grants: vec![Grant {
            domain: name("/net/"),
            right: Right::Write,
        }],
    }
}

/// Versions, a deletion and a restore through a token, a tombstone, negotiated, partial
/// and chained records, a name outside ASCII, a domain.
async fn fill(store: &Store) {
    store.add_user("alice", None, false).await.unwrap();
    store
        .add_domain(&admin(), &name("/net/"), &["alice".to_string()])
        .await
        .unwrap();
    let a = name("/net/a");
    store
        .put(
            &alice(),
            &a,
            redirect("https://e.org/1"),
            Expect::Absent,
            None,
        )
        .await
        .unwrap();
    store
        .put(
            &alice(),
            &a,
            redirect("https://e.org/2"),
            Expect::Version(1),
            Some("moved"),
        )
        .await
        .unwrap();
    store
        .delete(&alice(), &a, Expect::Version(2), None, Some("gone"))
        .await
        .unwrap();
    store
        .restore(&alice(), &a, 1, Expect::Version(3), Some("back"))
        .await
        .unwrap();
    let negotiated = Body {
        action: Action::Negotiate {
            status: 303,
            offers: vec![
                Offer {
                    media_type: "text/turtle".into(),
                    language: Some("en".into()),
                    target: "https://e.org/v.ttl".into(),
                },
                Offer {
                    media_type: "text/html".into(),
                    language: None,
                    target: "https://e.org/v.html".into(),
                },
            ],
            fallback: Some("https://e.org/v.html".into()),
        },
        max_age: Some(60),
    };
    let partial = Body {
        action: Action::Partial {
            status: 307,
            target: "https://e.org/docs/".into(),
        },
        max_age: None,
    };
    let chain = Body {
        action: Action::Chain { to: a.clone() },
        max_age: None,
    };
    for (n, body) in [
        ("/net/vocab", negotiated),
        ("/net/日本/", partial),
        ("/net/old", chain),
        ("/x", redirect("https://e.org/x")),
    ] {
        let actor = if n == "/x" { admin() } else { alice() };
        store
            .put(&actor, &name(n), body, Expect::Absent, None)
            .await
            .unwrap();
    }
    store
        .delete(&admin(), &name("/x"), Expect::Version(1), Some("bye"), None)
        .await
        .unwrap();
}

/// The whole export, read two records a page.
async fn export(store: &Store) -> String {
    let mut text = String::new();
    let mut after: Option<Name> = None;
    loop {
        let page = store.export_page(after.as_ref(), 2).await.unwrap();
        let Some(last) = page.last() else {
            return text;
        };
        after = Some(last.name.clone());
        for record in &page {
            text.push_str(&record.line());
            text.push('\n');
        }
    }
}

fn read(text: &str) -> Vec<Exported> {
    text.lines()
        .enumerate()
        .map(|(i, line)| match parse_line(i as u64 + 1, line) {
            Some(Entry::Record(exported)) => exported,
            other => panic!("line {}: {other:?}", i + 1),
        })
        .collect()
}

/// Imports an export into `store`: chains after the others, as the importer does.
async fn import(store: &Store, actor: &Actor, text: &str) -> Vec<Applied> {
    let (chains, others): (Vec<Exported>, Vec<Exported>) = read(text)
        .into_iter()
        .partition(|e| matches!(e.record.action, Action::Chain { .. }));
    let mut applied = store
        .apply_exported(actor, others, Some("import"), false)
        .await
        .unwrap();
    applied.extend(
        store
            .apply_exported(actor, chains, Some("import"), false)
            .await
            .unwrap(),
    );
    applied
}

async fn round_trip(from: &str, to: &str) {
    let first = Store::open(from).await.unwrap();
    fill(&first).await;
    let exported = export(&first).await;
    assert_eq!(exported.lines().count(), 5, "{exported}");
    assert!(exported.contains("\"token\":\"tok1\""), "{exported}");
    assert!(exported.contains("/net/%E6%97%A5%E6%9C%AC/"), "{exported}");
    let second = Store::open(to).await.unwrap();
    let applied = import(&second, &admin(), &exported).await;
    assert_eq!(applied, vec![Applied::Created; 5]);
    assert!(export(&second).await == exported, "the export changed");
    // Twice: nothing changes.
    let applied = import(&second, &admin(), &exported).await;
    assert_eq!(applied, vec![Applied::Unchanged; 5]);
    assert!(export(&second).await == exported);
    let history = second.history(&name("/net/a")).await.unwrap();
    assert_eq!(history.len(), 4);
    assert_eq!(history[1].reason.as_deref(), Some("moved"));
    assert_eq!(history[2].token.as_deref(), Some("tok1"));
    let x = second.get(&name("/x")).await.unwrap().unwrap();
    assert!(x.deleted);
    assert_eq!(
        second.get(&name("/net/a")).await.unwrap().unwrap().domain,
        Some(name("/net/"))
    );
}

#[tokio::test]
async fn an_export_imported_into_an_empty_sqlite_database_exports_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let from = format!("sqlite:{}", dir.path().join("a.db").display());
    let to = format!("sqlite:{}", dir.path().join("b.db").display());
    round_trip(&from, &to).await;
}

#[tokio::test]
async fn an_export_imported_into_an_empty_postgres_database_exports_the_same_bytes() {
    let test = "an_export_imported_into_an_empty_postgres_database_exports_the_same_bytes";
    let Some(server) = postgres::Postgres::start(test) else {
        return;
    };
    server.create_database("second");
    server.create_database("third");
    round_trip(&server.url(), &server.url_of("second")).await;
    // From SQLite to PostgreSQL: the same bytes too.
    let dir = tempfile::tempdir().unwrap();
    let from = format!("sqlite:{}", dir.path().join("a.db").display());
    let sqlite = Store::open(&from).await.unwrap();
    fill(&sqlite).await;
    let exported = export(&sqlite).await;
    let pg = Store::open(&server.url_of("third")).await.unwrap();
    import(&pg, &admin(), &exported).await;
    assert!(export(&pg).await == exported);
}

#[tokio::test]
async fn imports_check_owners_as_any_write() {
    let store = Store::open("sqlite::memory:").await.unwrap();
    fill(&store).await;
    let exported = export(&store).await;
    // Histories are written as given: only an administrator imports an export.
    let empty = Store::open("sqlite::memory:").await.unwrap();
    let applied = empty
        .apply_exported(&alice(), read(&exported), None, false)
        .await
        .unwrap();
    assert!(applied
        .iter()
        .all(|a| matches!(a, Applied::Refused(m) if m.contains("administrator"))));
    assert!(export(&empty).await.is_empty());
    // Records: inside alice's domain written, outside refused; equal ones left alone.
    let records = vec![
        (name("/net/new"), redirect("https://e.org/new")),
        (name("/org/x"), redirect("https://e.org/x")),
        (name("/x"), redirect("https://e.org/x")),
        (name("/net/a"), redirect("https://e.org/1")),
        (name("/net/vocab"), redirect("https://e.org/v")),
    ];
    let dry = store
        .apply(&alice(), records.clone(), Some("import"), true)
        .await
        .unwrap();
    assert_eq!(dry[0], Applied::Created);
    assert!(
        matches!(&dry[1], Applied::Refused(m) if m.contains("no domain")),
        "{dry:?}"
    );
    assert!(
        matches!(&dry[2], Applied::Refused(m) if m.contains("no domain")),
        "{dry:?}"
    );
    assert_eq!(dry[3], Applied::Unchanged);
    assert_eq!(dry[4], Applied::Changed);
    assert!(
        store.get(&name("/net/new")).await.unwrap().is_none(),
        "a dry run writes nothing"
    );
    let applied = store
        .apply(&alice(), records.clone(), Some("import"), false)
        .await
        .unwrap();
    assert_eq!(applied, dry);
    let vocab = store.history(&name("/net/vocab")).await.unwrap();
    assert_eq!(vocab.last().unwrap().reason.as_deref(), Some("import"));
    assert_eq!(vocab.last().unwrap().version, 2);
    let again = store
        .apply(&alice(), records, Some("import"), false)
        .await
        .unwrap();
    assert_eq!(again[0], Applied::Unchanged);
    assert_eq!(again[4], Applied::Unchanged);
}
