//! The link checker's results in the resolver: stored as a status history, listed by the
//! API per domain, shown by the info view, counted in the metrics, and a moved target's
//! suggestion accepted in one step. Targets are a loopback server's.

mod common;
#[path = "common/postgres.rs"]
mod postgres;

use axum::http::{header, StatusCode as AxumStatus};
use axum::response::IntoResponse;
use common::{name, start};
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use urlkit_purl::checker::{self, Checker, CheckerOptions, Outcome, OutcomeKind, TargetCheck};
use urlkit_purl::store::CheckFilter;

/// A loopback server: `/ok` 200, `/old` moved for good to `/new`, `/dead` 404, `/boom` 500.
async fn targets() -> String {
    let app = axum::Router::new().fallback(|uri: axum::http::Uri| async move {
        match uri.path() {
            "/ok" | "/new" => "fine".into_response(),
            "/old" => (AxumStatus::MOVED_PERMANENTLY, [(header::LOCATION, "/new")]).into_response(),
            "/boom" => AxumStatus::INTERNAL_SERVER_ERROR.into_response(),
            _ => AxumStatus::NOT_FOUND.into_response(),
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    base
}

fn checker() -> Arc<Checker> {
    Arc::new(
        Checker::new(CheckerOptions {
            per_host: 2,
            delay: Duration::ZERO,
            timeout: Duration::from_secs(5),
            ..Default::default()
        })
        .unwrap(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn checks_are_listed_shown_counted_and_a_suggestion_accepted() {
    let r = start("checks-api").await;
    let base = targets().await;
    for (path, body) in [
        (
            "/net/fine",
            json!({"type": "redirect", "target": format!("{base}/ok")}),
        ),
        (
            "/net/moved",
            json!({"type": "redirect", "target": format!("{base}/old"), "status": 301}),
        ),
        (
            "/net/dead/",
            json!({"type": "partial", "target": format!("{base}/dead/")}),
        ),
        (
            "/net/vocab",
            json!({"type": "negotiate", "offers": [
            {"media_type": "text/html", "target": format!("{base}/ok")},
            {"media_type": "text/turtle", "target": format!("{base}/boom")}]}),
        ),
        ("/net/alias", json!({"type": "chain", "to": "/net/fine"})),
    ] {
        assert_eq!(
            r.create(path, body).await.status(),
            StatusCode::CREATED,
            "{path}"
        );
    }
    let checks = checker::run(r.state.registry(), &checker(), None, |_| {})
        .await
        .unwrap();
    // Five targets (the chain has none); /ok is checked once for two records.
    assert_eq!(checks.len(), 5);

    // Broken ones, newest first, of the domain; the moved one on its own.
    let broken: Vec<Value> = r
        .get("/-/api/checks?domain=/net/&status=broken")
        .await
        .json()
        .await
        .unwrap();
    let mut found: Vec<(String, String)> = broken
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["kind"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            ("/net/dead/".to_string(), "gone".to_string()),
            ("/net/vocab".to_string(), "server_error".to_string())
        ]
    );
    assert!(broken.iter().all(|c| c["broken"] == true));
    let moved: Vec<Value> = r
        .get("/-/api/checks?domain=/net/&status=moved")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(moved.len(), 1);
    assert_eq!(moved[0]["name"], "/net/moved");
    assert_eq!(moved[0]["suggestion"], format!("{base}/new"));
    assert_eq!(moved[0]["status"], 200);
    let none: Vec<Value> = r
        .get("/-/api/checks?domain=/org/")
        .await
        .json()
        .await
        .unwrap();
    assert!(none.is_empty());
    let bad = r.get("/-/api/checks?status=dead").await;
    assert_eq!(bad.status(), StatusCode::BAD_REQUEST);
    assert!(bad.text().await.unwrap().contains("broken, moved or all"));

    // The info view shows the last check of each target.
    let info: Value = r
        .client
        .get(r.url("/net/vocab?info"))
        .header("accept", "application/json")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let kinds: Vec<&str> = info["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["ok", "server_error"]);
    let html = r.get("/-/info/net/dead/").await.text().await.unwrap();
    assert!(html.contains("gone") && html.contains("(404)"), "{html}");

    // The gauges count targets by their last kind.
    urlkit_purl::server::checks::update_gauges(&r.state).await;
    let metrics = r.get("/-/metrics").await.text().await.unwrap();
    assert!(metrics.contains("purl_targets{kind=\"ok\"} 2"), "{metrics}");
    assert!(metrics.contains("purl_targets{kind=\"gone\"} 1"));
    assert!(metrics.contains("purl_targets{kind=\"moved\"} 1"));

    // Accepting: needs a token and If-Match, and a suggestion.
    let accept = |token: Option<&str>, if_match: Option<&str>, path: &str| {
        let mut request = r
            .client
            .post(r.url(&format!("/-/api/purls{path}/accept-suggestion")));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(v) = if_match {
            request = request.header("if-match", v);
        }
        request.send()
    };
    assert_eq!(
        accept(None, Some("\"1\""), "/net/moved")
            .await
            .unwrap()
            .status(),
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        accept(Some(&r.net_token), None, "/net/moved")
            .await
            .unwrap()
            .status(),
        StatusCode::PRECONDITION_REQUIRED
    );
    let nothing = accept(Some(&r.net_token), Some("\"1\""), "/net/dead/")
        .await
        .unwrap();
    assert_eq!(nothing.status(), StatusCode::CONFLICT);
    let stale = accept(Some(&r.net_token), Some("\"7\""), "/net/moved")
        .await
        .unwrap();
    assert_eq!(stale.status(), StatusCode::PRECONDITION_FAILED);
    let done = accept(Some(&r.net_token), Some("\"1\""), "/net/moved")
        .await
        .unwrap();
    assert_eq!(done.status(), StatusCode::OK);
    assert_eq!(done.headers()["etag"], "\"2\"");
    let view: Value = done.json().await.unwrap();
    assert_eq!(view["record"]["target"], format!("{base}/new"));
    assert_eq!(view["record"]["status"], 301);
    let history: Vec<Value> = r
        .get("/-/api/history/net/moved")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(history[1]["reason"], "target moved: accepted suggestion");
    // It resolves there now, and the old target's check no longer counts as moved.
    let resolved = r.get("/net/moved").await;
    assert_eq!(
        resolved.headers()["location"],
        format!("{base}/new").as_str()
    );
    let moved: Vec<Value> = r
        .get("/-/api/checks?status=moved")
        .await
        .json()
        .await
        .unwrap();
    assert!(moved.is_empty(), "{moved:?}");
    // A POST on a record's path that is no acceptance is refused.
    let other = r
        .client
        .post(r.url("/-/api/purls/net/fine"))
        .send()
        .await
        .unwrap();
    assert_eq!(other.status(), StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_status_history_keeps_every_check_and_reads_the_latest() {
    let r = start("checks-store").await;
    assert_eq!(
        r.create(
            "/net/a",
            json!({"type": "redirect", "target": "https://a.example/"})
        )
        .await
        .status(),
        StatusCode::CREATED
    );
    let store = r.state.registry().store();
    assert_eq!(store.last_check_at().await.unwrap(), None);
    let check = |at: i64, kind: OutcomeKind, status: Option<u16>| TargetCheck {
        name: name("/net/a"),
        target: "https://a.example/".into(),
        checked_at: at,
        outcome: Outcome {
            kind,
            status,
            suggestion: None,
            detail: format!("check at {at}"),
        },
    };
    store
        .add_checks(&[
            check(1_000, OutcomeKind::Ok, Some(200)),
            check(2_000, OutcomeKind::Timeout, None),
            check(3_000, OutcomeKind::ServerError, Some(503)),
        ])
        .await
        .unwrap();
    let latest = store.latest_checks(&name("/net/a")).await.unwrap();
    assert_eq!(latest.len(), 1);
    assert_eq!(latest[0].checked_at, 3_000);
    assert_eq!(latest[0].outcome.status, Some(503));
    let last_two = store
        .target_checks(&name("/net/a"), "https://a.example/", 2)
        .await
        .unwrap();
    let kinds: Vec<OutcomeKind> = last_two.iter().map(|c| c.outcome.kind).collect();
    assert_eq!(kinds, [OutcomeKind::ServerError, OutcomeKind::Timeout]);
    assert_eq!(store.last_check_at().await.unwrap(), Some(3_000));
    let broken = store
        .latest_checks_in(Some(&name("/net/")), CheckFilter::Broken)
        .await
        .unwrap();
    assert_eq!(broken.len(), 1);
    assert!(store
        .latest_checks_in(Some(&name("/net/")), CheckFilter::Moved)
        .await
        .unwrap()
        .is_empty());
    // A tombstone's checks are no longer listed.
    let gone = r
        .client
        .delete(r.url("/-/api/purls/net/a"))
        .bearer_auth(&r.net_token)
        .header("if-match", "\"1\"")
        .send()
        .await
        .unwrap();
    assert_eq!(gone.status(), StatusCode::OK);
    assert!(store
        .latest_checks_in(None, CheckFilter::All)
        .await
        .unwrap()
        .is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_resolver_checks_on_its_schedule() {
    use urlkit_purl::server::checks::{spawn, CheckSchedule};
    let r = start("checks-schedule").await;
    let base = targets().await;
    let body = json!({"type": "redirect", "target": format!("{base}/dead")});
    assert_eq!(r.create("/net/d", body).await.status(), StatusCode::CREATED);
    let store = r.state.registry().store();
    // Off: nothing runs.
    assert!(spawn(&r.state, &CheckSchedule::default()).is_none());
    let schedule = CheckSchedule {
        every: Some(Duration::from_millis(300)),
        options: CheckerOptions {
            delay: Duration::ZERO,
            timeout: Duration::from_secs(5),
            ..Default::default()
        },
    };
    let task = spawn(&r.state, &schedule).unwrap();
    let mut runs = Vec::new();
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        if let Some(at) = store.last_check_at().await.unwrap() {
            if runs.last() != Some(&at) {
                runs.push(at);
            }
            if runs.len() == 2 {
                break;
            }
        }
    }
    task.abort();
    assert_eq!(runs.len(), 2, "two runs within 5 s: {runs:?}");
    assert!(runs[1] - runs[0] >= 300, "{runs:?}");
    let latest = store.latest_checks(&name("/net/d")).await.unwrap();
    assert_eq!(latest[0].outcome.kind, OutcomeKind::Gone);
    let metrics = r.get("/-/metrics").await.text().await.unwrap();
    assert!(
        metrics.contains("purl_targets{kind=\"gone\"} 1"),
        "{metrics}"
    );
}

/// The status history's queries on PostgreSQL too (when it is installed), each written once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_status_history_reads_the_same_on_postgres() {
    use urlkit_purl::model::{Actor, Body, Expect};
    use urlkit_purl::store::Store;
    let Some(server) = postgres::Postgres::start("checks_history") else {
        return;
    };
    let store = Store::open(&server.url()).await.unwrap();
    let admin = Actor {
        user: "root".into(),
        token: None,
        admin: true,
        grants: vec![],
    };
    let body: Body =
        serde_json::from_value(json!({"type": "redirect", "target": "https://a.example/"}))
            .unwrap();
    store
        .put(&admin, &name("/a"), body, Expect::Absent, None)
        .await
        .unwrap();
    assert_eq!(store.last_check_at().await.unwrap(), None);
    let check = |at: i64, kind: OutcomeKind, suggestion: Option<&str>| TargetCheck {
        name: name("/a"),
        target: "https://a.example/".into(),
        checked_at: at,
        outcome: Outcome {
            kind,
            status: Some(200),
            suggestion: suggestion.map(str::to_string),
            detail: format!("at {at}"),
        },
    };
    store
        .add_checks(&[
            check(1_000, OutcomeKind::Ok, None),
            check(2_000, OutcomeKind::Moved, Some("https://b.example/")),
        ])
        .await
        .unwrap();
    assert_eq!(store.last_check_at().await.unwrap(), Some(2_000));
    let latest = store.latest_checks(&name("/a")).await.unwrap();
    assert_eq!(latest.len(), 1);
    assert_eq!(
        latest[0].outcome.suggestion.as_deref(),
        Some("https://b.example/")
    );
    let moved = store
        .latest_checks_in(None, CheckFilter::Moved)
        .await
        .unwrap();
    assert_eq!(moved.len(), 1);
    let all = store
        .target_checks(&name("/a"), "https://a.example/", 10)
        .await
        .unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(all[1].outcome.kind, OutcomeKind::Ok);
}

/// A loopback target whose every path answers `404` until `up` is set, then `200`.
async fn switchable_target(up: Arc<std::sync::atomic::AtomicBool>) -> String {
    let app = axum::Router::new().fallback(move || {
        let up = up.clone();
        async move {
            if up.load(std::sync::atomic::Ordering::SeqCst) {
                "back".into_response()
            } else {
                AxumStatus::NOT_FOUND.into_response()
            }
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    base
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_target_is_sent_to_the_archive_until_it_answers_again() {
    let r = start("checks-archive").await;
    let up = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let base = switchable_target(up.clone()).await;
    let target = format!("{base}/paper");
    let store = r.state.registry().store().clone();
    let root = store.actor("root").await.unwrap().unwrap();
    let template = "https://web.archive.org/web/{timestamp}/{url}";
    store
        .set_archive(
            &root,
            &name("/net/"),
            Some(&urlkit_purl::store::ArchiveFallback {
                template: template.to_string(),
                after: 2,
            }),
        )
        .await
        .unwrap();
    assert_eq!(
        r.create("/net/paper", json!({"type": "redirect", "target": target}))
            .await
            .status(),
        StatusCode::CREATED
    );
    // Another record of the domain, whose target is changed once it falls back.
    assert_eq!(
        r.create("/net/edited", json!({"type": "redirect", "target": target}))
            .await
            .status(),
        StatusCode::CREATED
    );
    // The same target in a domain without the setting.
    let created = r
        .put(
            &r.admin_token,
            "/org/paper",
            json!({"type": "redirect", "target": target, "status": 301}),
            ("If-None-Match", "*"),
        )
        .await;
    assert_eq!(created.status(), StatusCode::CREATED);
    let location = |response: reqwest::Response| {
        (
            response.status(),
            response.headers()[header::LOCATION.as_str()]
                .to_str()
                .unwrap()
                .to_string(),
        )
    };
    let run = || async {
        tokio::time::sleep(Duration::from_millis(5)).await;
        checker::run(r.state.registry(), &checker(), None, |_| {})
            .await
            .unwrap();
        urlkit_purl::server::checks::after_run(&r.state).await;
    };

    // One failure is not enough.
    run().await;
    assert_eq!(
        location(r.get("/net/paper").await),
        (StatusCode::FOUND, target.clone())
    );
    // Two in a row are: a 302 to the archived copy, as of the record's last change (the
    // target never answered well).
    run().await;
    let changed_at = store
        .get(&name("/net/paper"))
        .await
        .unwrap()
        .unwrap()
        .changed_at;
    let archived = format!(
        "https://web.archive.org/web/{}/{target}",
        urlkit_purl::store::archive_timestamp(changed_at)
    );
    let (status, sent_to) = location(r.get("/net/paper").await);
    assert_eq!(
        (status, sent_to.as_str()),
        (StatusCode::FOUND, archived.as_str())
    );
    let digits = &sent_to["https://web.archive.org/web/".len()..][..14];
    assert!(digits.bytes().all(|b| b.is_ascii_digit()), "{sent_to}");
    // Since the second failure, and still since then after two more.
    let second = store
        .target_checks(&name("/net/paper"), &target, 1)
        .await
        .unwrap()[0]
        .checked_at;
    let since = || async {
        let held = store.archived().await.unwrap();
        let names: Vec<&str> = held.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["/net/edited", "/net/paper"]);
        assert_eq!(held[1].location, archived);
        held[1].since
    };
    assert_eq!(since().await, second);
    run().await;
    run().await;
    assert_eq!(since().await, second);
    // The domain without the setting still sends people to the target.
    assert_eq!(
        location(r.get("/org/paper").await),
        (StatusCode::MOVED_PERMANENTLY, target.clone())
    );

    // A record whose target is changed is followed to its new target at once.
    let (status, before) = location(r.get("/net/edited").await);
    assert_eq!(status, StatusCode::FOUND);
    assert!(
        before.starts_with("https://web.archive.org/web/"),
        "{before}"
    );
    let elsewhere = format!("{base}/elsewhere");
    let edited = r
        .put(
            &r.net_token,
            "/net/edited",
            json!({"type": "redirect", "target": elsewhere}),
            ("If-Match", "\"1\""),
        )
        .await;
    assert_eq!(edited.status(), StatusCode::OK);
    assert_eq!(
        location(r.get("/net/edited").await),
        (StatusCode::FOUND, elsewhere.clone())
    );
    let edited_info: Value = r.get_json("/net/edited?info").await;
    assert!(edited_info.get("archived").is_none(), "{edited_info}");

    // The info view says so, as JSON and as a page.
    let info: Value = r.get_json("/net/paper?info").await;
    assert_eq!(info["archived"]["location"], archived.as_str());
    assert_eq!(info["archived"]["target"], target.as_str());
    assert_eq!(
        info["archived"]["since"],
        urlkit_purl::server::api::rfc3339(second)
    );
    let page = r.get("/net/paper?info").await.text().await.unwrap();
    assert!(page.contains("sent to an archived copy since"), "{page}");
    assert!(page.contains(&archived), "{page}");
    let other: Value = r.get_json("/org/paper?info").await;
    assert!(other.get("archived").is_none(), "{other}");

    // The target answers again: after the next run people reach it again.
    up.store(true, std::sync::atomic::Ordering::SeqCst);
    run().await;
    assert_eq!(
        location(r.get("/net/paper").await),
        (StatusCode::FOUND, target.clone())
    );
    let info: Value = r.get_json("/net/paper?info").await;
    assert!(info.get("archived").is_none(), "{info}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn administrators_set_and_turn_off_the_archive_fallback_through_the_api() {
    let r = start("checks-archive-api").await;
    let post = |token: &str, body: Value| {
        r.client
            .post(r.url("/-/api/domains/archive"))
            .bearer_auth(token)
            .json(&body)
            .send()
    };
    let template = "https://web.archive.org/web/{timestamp}/{url}";
    let by_maintainer = post(
        &r.net_token,
        json!({"prefix": "/net/", "template": template, "after": 2}),
    )
    .await
    .unwrap();
    assert_eq!(by_maintainer.status(), StatusCode::FORBIDDEN);
    let bad = post(
        &r.admin_token,
        json!({"prefix": "/net/", "template": "https://web.archive.org/web/", "after": 2}),
    )
    .await
    .unwrap();
    assert_eq!(bad.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let bad: Value = bad.json().await.unwrap();
    assert_eq!(bad["error"]["field"], "template");
    assert!(bad.to_string().contains("{url}"), "{bad}");
    let zero = post(
        &r.admin_token,
        json!({"prefix": "/net/", "template": template, "after": 0}),
    )
    .await
    .unwrap();
    assert_eq!(zero.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let unknown = post(
        &r.admin_token,
        json!({"prefix": "/edu/", "template": template, "after": 2}),
    )
    .await
    .unwrap();
    assert_eq!(unknown.status(), StatusCode::NOT_FOUND);
    let set = post(
        &r.admin_token,
        json!({"prefix": "/net/", "template": template, "after": 2}),
    )
    .await
    .unwrap();
    assert_eq!(set.status(), StatusCode::OK);
    let set: Value = set.json().await.unwrap();
    assert_eq!(set["archive"], json!({"template": template, "after": 2}));
    let domains: Value = r.get("/-/api/domains").await.json().await.unwrap();
    let net = domains
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["prefix"] == "/net/")
        .unwrap();
    assert_eq!(net["archive"]["after"], 2);
    let off = post(&r.admin_token, json!({"prefix": "/net/"}))
        .await
        .unwrap();
    assert_eq!(off.status(), StatusCode::OK);
    let off: Value = off.json().await.unwrap();
    assert!(off.get("archive").is_none(), "{off}");
    let kinds: Vec<String> = r
        .state
        .registry()
        .store()
        .owner_changes()
        .await
        .unwrap()
        .into_iter()
        .filter(|c| c.kind == "domain-archive")
        .map(|c| c.subject)
        .collect();
    assert_eq!(kinds, ["/net/", "/net/"]);
}

/// Which records fall back to the archive, from the stored checks alone, on SQLite and (when
/// it is installed) PostgreSQL: the row of failures, its start, and the copy's time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_archived_records_read_the_same_on_sqlite_and_postgres() {
    use urlkit_purl::model::{Actor, Body, Expect};
    use urlkit_purl::store::{ArchiveFallback, Store};
    let dir = tempfile::tempdir().unwrap();
    let mut urls = vec![format!("sqlite:{}", dir.path().join("purl.db").display())];
    let server = postgres::Postgres::start("checks_archived");
    if let Some(server) = &server {
        urls.push(server.url());
    }
    for url in urls {
        let store = Store::open(&url).await.unwrap();
        let admin = Actor {
            user: "root".into(),
            token: None,
            admin: true,
            grants: vec![],
        };
        store.add_domain(&admin, &name("/d/"), &[]).await.unwrap();
        let target = "https://a.example/x";
        for (path, kind) in [("/d/a", "redirect"), ("/d/p/", "partial")] {
            let body: Body =
                serde_json::from_value(json!({"type": kind, "target": target})).unwrap();
            store
                .put(&admin, &name(path), body, Expect::Absent, None)
                .await
                .unwrap();
        }
        let check = |path: &str, at: i64, kind: OutcomeKind| TargetCheck {
            name: name(path),
            target: target.into(),
            checked_at: at,
            outcome: Outcome {
                kind,
                status: None,
                suggestion: None,
                detail: format!("at {at}"),
            },
        };
        let mut checks = Vec::new();
        for path in ["/d/a", "/d/p/"] {
            checks.extend([
                check(path, 1_000, OutcomeKind::Ok),
                check(path, 2_000, OutcomeKind::Gone),
                check(path, 3_000, OutcomeKind::Disallowed),
                check(path, 4_000, OutcomeKind::Timeout),
                check(path, 5_000, OutcomeKind::ServerError),
                check(path, 6_000, OutcomeKind::Dns),
            ]);
        }
        store.add_checks(&checks).await.unwrap();
        assert!(store.archived().await.unwrap().is_empty(), "{url}: off");
        let set = |after: u32| ArchiveFallback {
            template: "https://archive.example/{timestamp}/{url}".into(),
            after,
        };
        store
            .set_archive(&admin, &name("/d/"), Some(&set(2)))
            .await
            .unwrap();
        let archived = store.archived().await.unwrap();
        assert_eq!(archived.len(), 1, "{url}: only the plain redirect");
        assert_eq!(archived[0].name, name("/d/a"));
        // The row began after the disallowed check; its second failure came at 5 s.
        assert_eq!(archived[0].since, 5_000, "{url}");
        assert_eq!(archived[0].snapshot, 1_000, "{url}");
        assert_eq!(
            archived[0].location,
            "https://archive.example/19700101000001/https://a.example/x"
        );
        // Four in a row are not there: the disallowed check ends the row.
        store
            .set_archive(&admin, &name("/d/"), Some(&set(4)))
            .await
            .unwrap();
        assert!(store.archived().await.unwrap().is_empty(), "{url}");
        store.set_archive(&admin, &name("/d/"), None).await.unwrap();
        assert!(store.archived().await.unwrap().is_empty(), "{url}");
    }
}
