//! The resolver over a real SQLite database file and real HTTP on loopback: resolution,
//! the API's owners and versions, history and restore, the info view, metrics.

mod common;

use common::{name, start};
use reqwest::header;
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::io::{Read, Write};

fn location(response: &reqwest::Response) -> &str {
    response.headers()[header::LOCATION].to_str().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_created_record_redirects_and_changes_need_the_current_version() {
    let r = start("versions").await;
    let created = r
        .create(
            "/net/a",
            json!({"type": "redirect", "target": "https://example.org/a"}),
        )
        .await;
    assert_eq!(created.status(), StatusCode::CREATED);
    assert_eq!(created.headers()[header::ETAG], "\"1\"");
    let answer = r.get("/net/a").await;
    assert_eq!(answer.status(), StatusCode::FOUND);
    assert_eq!(location(&answer), "https://example.org/a");
    assert_eq!(answer.headers()[header::CACHE_CONTROL], "max-age=300");

    // Creating it again, writing without a precondition, or with a stale one: refused.
    let again = r
        .create(
            "/net/a",
            json!({"type": "redirect", "target": "https://example.org/b"}),
        )
        .await;
    assert_eq!(again.status(), StatusCode::PRECONDITION_FAILED);
    let bare = r
        .client
        .put(r.url("/-/api/purls/net/a"))
        .bearer_auth(&r.net_token)
        .json(&json!({"type": "redirect", "target": "https://example.org/b"}))
        .send()
        .await
        .unwrap();
    assert_eq!(bare.status(), StatusCode::PRECONDITION_REQUIRED);
    let body = json!({"type": "redirect", "status": 307, "target": "https://example.org/b", "reason": "moved"});
    let first = r
        .put(&r.net_token, "/net/a", body.clone(), ("If-Match", "\"1\""))
        .await;
    assert_eq!(first.status(), StatusCode::OK);
    assert_eq!(first.headers()[header::ETAG], "\"2\"");
    // A second maintainer who read version 1 loses nothing: told what is there now.
    let second = r
        .put(&r.net_token, "/net/a", body, ("If-Match", "\"1\""))
        .await;
    assert_eq!(second.status(), StatusCode::PRECONDITION_FAILED);
    assert_eq!(second.headers()[header::ETAG], "\"2\"");
    let current: Value = second.json().await.unwrap();
    assert_eq!(current["record"]["target"], "https://example.org/b");
    let answer = r.get("/net/a").await;
    assert_eq!(answer.status(), StatusCode::TEMPORARY_REDIRECT);
    assert_eq!(location(&answer), "https://example.org/b");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn partial_records_pass_the_rest_byte_for_byte_and_names_are_normalized() {
    let r = start("partial").await;
    let made = r
        .create(
            "/net/lib/",
            json!({"type": "partial", "target": "https://archive.example/books/"}),
        )
        .await;
    assert_eq!(made.status(), StatusCode::CREATED);
    let made = r
        .create(
            "/net/b",
            json!({"type": "redirect", "target": "https://example.org/b"}),
        )
        .await;
    assert_eq!(made.status(), StatusCode::CREATED);
    let answer = r.get("/net/lib/vol%201/ch%C3%A9?page=2&x=%2F").await;
    assert_eq!(answer.status(), StatusCode::FOUND);
    assert_eq!(
        location(&answer),
        "https://archive.example/books/vol%201/ch%C3%A9?page=2&x=%2F"
    );
    // As a browser would reach it: dot segments, escapes of unreserved characters.
    for path in ["/net/x/../b", "/net/%62", "/net/./b"] {
        let answer = r.raw(path);
        assert!(answer.starts_with("HTTP/1.1 302"), "{path}: {answer}");
        assert!(
            answer.contains("location: https://example.org/b\r\n"),
            "{path}: {answer}"
        );
    }
    assert!(r.raw("/net/nothing").starts_with("HTTP/1.1 404"));
    assert!(r.raw("/net/%zz").starts_with("HTTP/1.1 400"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nobody_writes_outside_their_domains_whatever_the_spelling() {
    let r = start("owners").await;
    let anonymous = r
        .client
        .put(r.url("/-/api/purls/net/a"))
        .header("If-None-Match", "*")
        .json(&json!({"type": "redirect", "target": "https://example.org/"}))
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    assert!(anonymous.headers().contains_key(header::WWW_AUTHENTICATE));
    let forged = r
        .put(
            "upt_nope_nope",
            "/net/a",
            json!({"type": "gone", "message": "x"}),
            ("If-None-Match", "*"),
        )
        .await;
    assert_eq!(forged.status(), StatusCode::UNAUTHORIZED);
    let body = json!({"type": "redirect", "target": "https://evil.example/"});
    // Sent byte for byte: each spelling must stay out of /org/.
    for path in [
        "/-/api/purls/org/x",
        "/-/api/purls/net/../org/x",
        "/-/api/purls/net/%2E%2E/org/x",
        "/-/api/purls/%6Eet/../org/x",
        "/-/api/purls/nothing/x",
    ] {
        let mut stream = std::net::TcpStream::connect(r.addr).unwrap();
        let text = body.to_string();
        write!(
            stream,
            "PUT {path} HTTP/1.1\r\nHost: purl.test\r\nAuthorization: Bearer {}\r\nIf-None-Match: *\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
            r.net_token,
            text.len()
        )
        .unwrap();
        let mut answer = String::new();
        let _ = stream.read_to_string(&mut answer);
        assert!(answer.starts_with("HTTP/1.1 403"), "{path}: {answer}");
    }
    // `%2F` is not a slash: the name `/net%2F..%2Forg/x` is in no domain.
    let slash = r
        .put(
            &r.net_token,
            "/net%2F..%2Forg/x",
            body.clone(),
            ("If-None-Match", "*"),
        )
        .await;
    assert_eq!(slash.status(), StatusCode::FORBIDDEN);
    assert!(r.raw("/org/x").starts_with("HTTP/1.1 404"));
    // An administrator may.
    let admin = r
        .put(
            &r.admin_token,
            "/org/x",
            json!({"type": "redirect", "target": "https://example.org/"}),
            ("If-None-Match", "*"),
        )
        .await;
    assert_eq!(admin.status(), StatusCode::CREATED);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_records_are_refused_with_the_field_and_byte() {
    let r = start("refusals").await;
    let relative = r
        .create(
            "/net/a",
            json!({"type": "redirect", "target": "/elsewhere"}),
        )
        .await;
    assert_eq!(relative.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let error: Value = relative.json().await.unwrap();
    assert_eq!(error["error"]["code"], "bad-target");
    assert_eq!(error["error"]["field"], "target");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("byte 0"),
        "{error}"
    );
    let unknown = r
        .create(
            "/net/a",
            json!({"type": "redirect", "target": "https://e.org/", "stauts": 301}),
        )
        .await;
    assert_eq!(unknown.status(), StatusCode::BAD_REQUEST);
    let text = unknown.text().await.unwrap();
    assert!(text.contains("stauts"), "{text}");
    // A chain that would come back to itself.
    assert_eq!(
        r.create("/net/c1", json!({"type": "chain", "to": "/net/c2"}))
            .await
            .status(),
        StatusCode::CREATED
    );
    let loop_back = r
        .create("/net/c2", json!({"type": "chain", "to": "/net/c1"}))
        .await;
    assert_eq!(loop_back.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let error: Value = loop_back.json().await.unwrap();
    assert_eq!(error["error"]["code"], "chain-loop");
    // A chain to a missing record answers 508, not a redirect.
    assert_eq!(r.get("/net/c1").await.status(), StatusCode::LOOP_DETECTED);
    let huge = r
        .create(
            "/net/big",
            json!({"type": "gone", "message": "x".repeat(300 << 10)}),
        )
        .await;
    assert_eq!(huge.status(), StatusCode::PAYLOAD_TOO_LARGE);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn negotiated_records_follow_accept_with_q_values() {
    let r = start("negotiate").await;
    let made = r
        .create(
            "/net/thing",
            json!({"type": "negotiate", "offers": [
                {"media_type": "text/html", "target": "https://e.org/thing.html"},
                {"media_type": "text/turtle", "target": "https://e.org/thing.ttl"}
            ]}),
        )
        .await;
    assert_eq!(made.status(), StatusCode::CREATED);
    let ask = |accept: &'static str| {
        r.client
            .get(r.url("/net/thing"))
            .header(header::ACCEPT, accept)
            .send()
    };
    let turtle = ask("text/html;q=0.5, text/turtle").await.unwrap();
    assert_eq!(turtle.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&turtle), "https://e.org/thing.ttl");
    assert!(turtle.headers()[header::VARY]
        .to_str()
        .unwrap()
        .contains("Accept"));
    let html = ask("text/*;q=0.9, text/turtle;q=0.1").await.unwrap();
    assert_eq!(location(&html), "https://e.org/thing.html");
    let none = ask("application/pdf").await.unwrap();
    assert_eq!(none.status(), StatusCode::NOT_ACCEPTABLE);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deletion_leaves_a_tombstone_with_its_history_and_restore_brings_a_version_back() {
    let r = start("history").await;
    r.create(
        "/net/h",
        json!({"type": "redirect", "target": "https://e.org/1"}),
    )
    .await;
    r.put(
        &r.net_token,
        "/net/h",
        json!({"type": "redirect", "target": "https://e.org/2", "reason": "new home"}),
        ("If-Match", "\"1\""),
    )
    .await;
    let deleted = r
        .client
        .delete(r.url("/-/api/purls/net/h"))
        .bearer_auth(&r.net_token)
        .header("If-Match", "\"2\"")
        .json(&json!({"message": "withdrawn", "reason": "retracted"}))
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), StatusCode::OK);
    let gone = r.get("/net/h").await;
    assert_eq!(gone.status(), StatusCode::GONE);
    assert!(gone.text().await.unwrap().contains("withdrawn"));
    let history: Value = r.get("/-/api/history/net/h").await.json().await.unwrap();
    let kinds: Vec<&str> = history
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["create", "update", "delete"]);
    assert_eq!(history[1]["reason"], "new home");
    assert_eq!(history[1]["user"], "alice");
    assert_eq!(history[1]["before"]["target"], "https://e.org/1");
    let restored = r
        .client
        .post(r.url("/-/api/restore/net/h"))
        .bearer_auth(&r.net_token)
        .header("If-Match", "\"3\"")
        .json(&json!({"version": 1, "reason": "back"}))
        .send()
        .await
        .unwrap();
    assert_eq!(restored.status(), StatusCode::OK);
    assert_eq!(restored.headers()[header::ETAG], "\"4\"");
    let back = r.get("/net/h").await;
    assert_eq!(location(&back), "https://e.org/1");
    // A clone answers as its original does now, with a history of its own.
    let clone = r
        .client
        .post(r.url("/-/api/clone/net/h2"))
        .bearer_auth(&r.net_token)
        .json(&json!({"from": "/net/h", "reason": "a second name"}))
        .send()
        .await
        .unwrap();
    assert_eq!(clone.status(), StatusCode::CREATED);
    assert_eq!(location(&r.get("/net/h2").await), "https://e.org/1");
    let again = r
        .client
        .post(r.url("/-/api/clone/net/h2"))
        .bearer_auth(&r.net_token)
        .json(&json!({"from": "/net/h"}))
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::PRECONDITION_FAILED);
    // The info view, without an account, as HTML and as JSON.
    let page = r.get("/net/h?info").await;
    assert_eq!(page.status(), StatusCode::OK);
    let html = page.text().await.unwrap();
    assert!(
        html.contains("https://e.org/1") && html.contains("retracted"),
        "{html}"
    );
    let info: Value = r
        .client
        .get(r.url("/-/info/net/h"))
        .header(header::ACCEPT, "application/json")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(info["version"], 4);
    assert_eq!(info["domain"], "/net/");
    assert_eq!(info["history"].as_array().unwrap().len(), 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resolutions_are_counted_in_batches_and_metrics_name_them() {
    let r = start("counts").await;
    r.create(
        "/net/m",
        json!({"type": "redirect", "target": "https://e.org/m"}),
    )
    .await;
    for _ in 0..5 {
        assert_eq!(r.get("/net/m").await.status(), StatusCode::FOUND);
    }
    assert_eq!(r.get("/net/none").await.status(), StatusCode::NOT_FOUND);
    r.state.flush_counts().await;
    assert_eq!(
        r.state
            .registry()
            .store()
            .count(&name("/net/m"))
            .await
            .unwrap(),
        5
    );
    let metrics = r.get("/-/metrics").await.text().await.unwrap();
    assert!(
        metrics.contains("urlkit_purl_resolutions_total{kind=\"redirect\",status=\"302\"} 5"),
        "{metrics}"
    );
    assert!(metrics.contains("urlkit_purl_writes_total{operation=\"put\",outcome=\"ok\"} 1"));
    let ready = r.get("/-/readyz").await;
    assert_eq!(ready.status(), StatusCode::OK);
    let document: Value = r.get("/-/api/openapi.json").await.json().await.unwrap();
    for (path, method, _) in urlkit_purl::server::openapi::ROUTES {
        assert!(
            document["paths"][path][method].is_object(),
            "{path} {method}"
        );
    }
    // Every documented route exists (answers something other than a resolution's 404).
    for (path, method, _) in urlkit_purl::server::openapi::ROUTES {
        let concrete = path.replace("{name}", "net/m");
        let request = r
            .client
            .request(method.to_uppercase().parse().unwrap(), r.url(&concrete))
            .send()
            .await
            .unwrap();
        let status = request.status();
        let text = request.text().await.unwrap();
        assert!(
            !text.contains("no persistent URL named /-"),
            "{path}: {status} {text}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_locked_database_stops_writes_not_redirects() {
    use sqlx::Connection;
    let r = start("locked").await;
    r.create(
        "/net/l",
        json!({"type": "redirect", "target": "https://e.org/l"}),
    )
    .await;
    // Another process holds the database's write lock.
    let file = r.dir.join("purl.db");
    let mut other = sqlx::SqliteConnection::connect(&format!("sqlite:{}", file.display()))
        .await
        .unwrap();
    sqlx::query("BEGIN EXCLUSIVE")
        .execute(&mut other)
        .await
        .unwrap();
    let started = std::time::Instant::now();
    let answer = r.get("/net/l").await;
    assert_eq!(answer.status(), StatusCode::FOUND);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(2),
        "a redirect does not wait for the database"
    );
    let (write, ready) = tokio::join!(
        r.put(
            &r.net_token,
            "/net/l",
            json!({"type": "redirect", "target": "https://e.org/new"}),
            ("If-Match", "\"1\""),
        ),
        r.get("/-/readyz")
    );
    assert_eq!(write.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(write.headers().contains_key(header::RETRY_AFTER));
    let error: Value = write.json().await.unwrap();
    assert_eq!(error["error"]["code"], "database-locked");
    assert_eq!(ready.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(location(&r.get("/net/l").await), "https://e.org/l");
    // The lock released, writes go through again by themselves.
    sqlx::query("ROLLBACK").execute(&mut other).await.unwrap();
    other.close().await.unwrap();
    assert_eq!(r.get("/-/readyz").await.status(), StatusCode::OK);
    let write = r
        .put(
            &r.net_token,
            "/net/l",
            json!({"type": "redirect", "target": "https://e.org/new"}),
            ("If-Match", "\"1\""),
        )
        .await;
    assert_eq!(write.status(), StatusCode::OK);
    assert_eq!(location(&r.get("/net/l").await), "https://e.org/new");
}

/// A JSON request with a Bearer token.
async fn send(
    r: &common::Resolver,
    method: reqwest::Method,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> reqwest::Response {
    let mut request = r.client.request(method, r.url(path)).bearer_auth(token);
    if let Some(body) = body {
        request = request.json(&body);
    }
    request.send().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn administrators_manage_owners_through_the_api_and_every_change_is_recorded() {
    use reqwest::Method;
    let r = start("owners-api").await;
    // alice maintains /net/ but is no administrator: every owner change is refused.
    for (method, path, body) in [
        (Method::GET, "/-/api/users", None),
        (Method::GET, "/-/api/owner-changes", None),
        (
            Method::POST,
            "/-/api/users",
            Some(json!({"name": "mallory", "password": "x", "admin": true})),
        ),
        (
            Method::POST,
            "/-/api/domains",
            Some(json!({"prefix": "/net/", "maintainers": ["alice"]})),
        ),
        (
            Method::POST,
            "/-/api/groups",
            Some(json!({"name": "editors", "members": ["alice"]})),
        ),
    ] {
        let refused = send(&r, method.clone(), path, &r.net_token, body).await;
        assert_eq!(refused.status(), StatusCode::FORBIDDEN, "{method} {path}");
        let error: Value = refused.json().await.unwrap();
        assert_eq!(error["error"]["code"], "forbidden");
    }
    let anonymous = r.client.get(r.url("/-/api/users")).send().await.unwrap();
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    let store = r.state.registry().store();
    assert!(!store.has_user("mallory").await.unwrap());
    assert!(store.owner_changes().await.unwrap().is_empty());

    // The administrator adds bob, a domain he maintains, and a group.
    let token = r.admin_token.clone();
    let bad = send(
        &r,
        Method::POST,
        "/-/api/users",
        &token,
        Some(json!({"name": "bob smith", "password": "pw"})),
    )
    .await;
    assert_eq!(bad.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let bad: Value = bad.json().await.unwrap();
    assert_eq!(bad["error"]["field"], "name");
    assert!(
        bad["error"]["message"]
            .as_str()
            .unwrap()
            .contains("at byte 3"),
        "{bad}"
    );
    let made = send(
        &r,
        Method::POST,
        "/-/api/users",
        &token,
        Some(json!({"name": "bob", "password": "tr0ub4dor"})),
    )
    .await;
    assert_eq!(made.status(), StatusCode::CREATED);
    let bob: Value = made.json().await.unwrap();
    assert_eq!(bob, json!({"name": "bob", "admin": false, "groups": []}));
    let again = send(
        &r,
        Method::POST,
        "/-/api/users",
        &token,
        Some(json!({"name": "bob", "password": "other"})),
    )
    .await;
    assert_eq!(again.status(), StatusCode::CONFLICT);
    let unknown = send(
        &r,
        Method::POST,
        "/-/api/domains",
        &token,
        Some(json!({"prefix": "/edu/", "maintainers": ["nobody"]})),
    )
    .await;
    assert_eq!(unknown.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let group = send(
        &r,
        Method::POST,
        "/-/api/groups",
        &token,
        Some(json!({"name": "editors", "members": ["bob"]})),
    )
    .await;
    assert_eq!(group.status(), StatusCode::CREATED);
    let domain = send(
        &r,
        Method::POST,
        "/-/api/domains",
        &token,
        Some(json!({"prefix": "/edu/", "maintainers": ["@editors"]})),
    )
    .await;
    assert_eq!(domain.status(), StatusCode::CREATED);
    let domain: Value = domain.json().await.unwrap();
    assert_eq!(
        domain,
        json!({"prefix": "/edu/", "maintainers": ["@editors"]})
    );
    let users: Value = send(&r, Method::GET, "/-/api/users", &token, None)
        .await
        .json()
        .await
        .unwrap();
    let bob = users
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["name"] == "bob")
        .unwrap();
    assert_eq!(bob["groups"], json!(["editors"]));
    assert!(!users.to_string().contains("argon2"), "{users}");

    // bob gets a token with his password (a wrong one is refused) and writes in /edu/.
    let wrong = r
        .client
        .post(r.url("/-/api/tokens"))
        .basic_auth("bob", Some("wrong"))
        .json(&json!({"grants": [{"domain": "/edu/", "right": "write"}]}))
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    let created = r
        .client
        .post(r.url("/-/api/tokens"))
        .basic_auth("bob", Some("tr0ub4dor"))
        .json(&json!({"grants": [{"domain": "/edu/", "right": "write"}], "label": "laptop"}))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), StatusCode::CREATED);
    let created: Value = created.json().await.unwrap();
    let bob_token = created["secret"].as_str().unwrap().to_string();
    let bob_id = created["token"]["id"].as_str().unwrap().to_string();
    let wrote = r
        .put(
            &bob_token,
            "/edu/a",
            json!({"type": "redirect", "target": "https://example.edu/a"}),
            ("If-None-Match", "*"),
        )
        .await;
    assert_eq!(wrote.status(), StatusCode::CREATED);
    let outside = r
        .put(
            &bob_token,
            "/net/b",
            json!({"type": "redirect", "target": "https://example.edu/b"}),
            ("If-None-Match", "*"),
        )
        .await;
    assert_eq!(outside.status(), StatusCode::FORBIDDEN);
    // bob logs in on the page too.
    let form = r.get("/-/login").await;
    let cookie = form
        .headers()
        .get_all(header::SET_COOKIE)
        .iter()
        .map(|v| v.to_str().unwrap().split(';').next().unwrap().to_string())
        .find(|v| v.starts_with("urlkit-purl-login="))
        .unwrap();
    let page = form.text().await.unwrap();
    let at = page.find("name=\"csrf\" value=\"").unwrap() + 19;
    let csrf = &page[at..at + page[at..].find('"').unwrap()];
    let login = r
        .client
        .post(r.url("/-/login"))
        .header(header::COOKIE, &cookie)
        .form(&[("csrf", csrf), ("user", "bob"), ("password", "tr0ub4dor")])
        .send()
        .await
        .unwrap();
    assert_eq!(login.status(), StatusCode::SEE_OTHER);

    // bob lists his tokens; he may not list alice's nor revoke them.
    let mine: Value = send(&r, Method::GET, "/-/api/tokens", &bob_token, None)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(mine.as_array().unwrap().len(), 1);
    assert_eq!(mine[0]["id"], bob_id.as_str());
    assert_eq!(mine[0]["label"], "laptop");
    assert!(!mine.to_string().contains(&bob_token));
    let theirs = send(
        &r,
        Method::GET,
        "/-/api/tokens?user=alice",
        &bob_token,
        None,
    )
    .await;
    assert_eq!(theirs.status(), StatusCode::FORBIDDEN);
    let alice_id = r.net_token.split('_').nth(1).unwrap().to_string();
    let not_his = send(
        &r,
        Method::DELETE,
        &format!("/-/api/tokens/{alice_id}"),
        &bob_token,
        None,
    )
    .await;
    assert_eq!(not_his.status(), StatusCode::NOT_FOUND);
    let still = r
        .create(
            "/net/still",
            json!({"type": "redirect", "target": "https://example.org/"}),
        )
        .await;
    assert_eq!(still.status(), StatusCode::CREATED);

    // bob revokes his own token: it is refused from then on.
    let revoked = send(
        &r,
        Method::DELETE,
        &format!("/-/api/tokens/{bob_id}"),
        &bob_token,
        None,
    )
    .await;
    assert_eq!(revoked.status(), StatusCode::OK);
    let revoked: Value = revoked.json().await.unwrap();
    assert!(revoked["revoked_at"].is_i64(), "{revoked}");
    let refused = r
        .put(
            &bob_token,
            "/edu/b",
            json!({"type": "redirect", "target": "https://example.edu/b"}),
            ("If-None-Match", "*"),
        )
        .await;
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    // The administrator revokes anyone's: alice's token stops working.
    let by_admin = send(
        &r,
        Method::DELETE,
        &format!("/-/api/tokens/{alice_id}"),
        &token,
        None,
    )
    .await;
    assert_eq!(by_admin.status(), StatusCode::OK);
    let twice = send(
        &r,
        Method::DELETE,
        &format!("/-/api/tokens/{alice_id}"),
        &token,
        None,
    )
    .await;
    assert_eq!(twice.status(), StatusCode::NOT_FOUND);
    let refused = r
        .create(
            "/net/after",
            json!({"type": "redirect", "target": "https://example.org/"}),
        )
        .await;
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);

    let changes = store.owner_changes().await.unwrap();
    let seen: Vec<(&str, &str, &str)> = changes
        .iter()
        .map(|c| (c.user.as_str(), c.kind.as_str(), c.subject.as_str()))
        .collect();
    assert_eq!(
        seen,
        [
            ("root", "user-add", "bob"),
            ("root", "group-add", "editors"),
            ("root", "domain-add", "/edu/"),
            ("bob", "token-create", bob_id.as_str()),
            ("bob", "token-revoke", bob_id.as_str()),
            ("root", "token-revoke", alice_id.as_str()),
        ]
    );
    assert!(changes[0].token.is_some());
    let listed: Value = send(&r, Method::GET, "/-/api/owner-changes", &token, None)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(listed, serde_json::to_value(&changes).unwrap());
    let refused = send(&r, Method::GET, "/-/api/owner-changes", &bob_token, None).await;
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED, "revoked");
    assert_eq!(changes[3].token, None, "made with a password, not a token");
    assert_eq!(changes[0].detail["password"], true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_refuses_writes_with_503_while_redirects_go_on() {
    let r = start("full").await;
    let made = r
        .create(
            "/net/a",
            json!({"type": "redirect", "target": "https://example.org/a"}),
        )
        .await;
    assert_eq!(made.status(), StatusCode::CREATED);
    let store = r.state.registry().store().clone();
    // No page more than the database has now: a change whose history event needs new
    // pages (a long reason spills into overflow pages) finds the disk full.
    store.cap_pages(1).await.unwrap();
    let reason = "r".repeat(64 << 10);
    let body = json!({"type": "redirect", "target": "https://example.org/b", "reason": reason});
    let full = r
        .put(&r.net_token, "/net/a", body.clone(), ("If-Match", "\"1\""))
        .await;
    assert_eq!(full.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(full.headers()[header::RETRY_AFTER], "5");
    let error: Value = full.json().await.unwrap();
    assert_eq!(error["error"]["code"], "disk-full", "{error}");
    assert!(
        error["error"]["message"].as_str().unwrap().contains("full"),
        "{error}"
    );
    // Nothing changed: the record, its version and its redirect are as before.
    let record = r.get("/-/api/purls/net/a").await;
    assert_eq!(record.headers()[header::ETAG], "\"1\"");
    let answer = r.get("/net/a").await;
    assert_eq!(answer.status(), StatusCode::FOUND);
    assert_eq!(location(&answer), "https://example.org/a");
    let history: Value = r.get("/-/api/history/net/a").await.json().await.unwrap();
    assert_eq!(history.as_array().unwrap().len(), 1);
    let metrics = r.get("/-/metrics").await.text().await.unwrap();
    assert!(
        metrics.contains("urlkit_purl_writes_total{operation=\"put\",outcome=\"unavailable\"} 1"),
        "{metrics}"
    );

    // Not ready while the disk is full: a probe that needs room fails.
    let ready = r.get("/-/readyz").await;
    assert_eq!(ready.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(ready.headers().contains_key(header::RETRY_AFTER));
    let error: Value = ready.json().await.unwrap();
    assert_eq!(error["error"]["code"], "disk-full", "{error}");
    let answer = r.get("/net/a").await;
    assert_eq!(location(&answer), "https://example.org/a");

    // Room again: ready, and the same write goes through.
    store.cap_pages(1 << 30).await.unwrap();
    let ready = r.get("/-/readyz").await;
    assert_eq!(
        ready.status(),
        StatusCode::OK,
        "{}",
        ready.text().await.unwrap()
    );
    let done = r
        .put(&r.net_token, "/net/a", body, ("If-Match", "\"1\""))
        .await;
    let status = done.status();
    let etag = done.headers().get(header::ETAG).cloned();
    assert_eq!(status, StatusCode::OK, "{}", done.text().await.unwrap());
    assert_eq!(etag.unwrap(), "\"2\"");
    let answer = r.get("/net/a").await;
    assert_eq!(location(&answer), "https://example.org/b");
}

/// The status line, headers (but `date`) and body of `method path` sent byte for byte.
fn raw_answer(addr: std::net::SocketAddr, method: &str, path: &str, accept: &str) -> String {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: purl.test\r\nAccept: {accept}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer
        .split("\r\n")
        .filter(|line| !line.starts_with("date:"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// [`raw_answer`] of the resolver at `fast` and of the one at `slow`.
async fn fast_and_slow(
    fast: std::net::SocketAddr,
    slow: std::net::SocketAddr,
    method: &'static str,
    path: &'static str,
    accept: &'static str,
) -> (String, String) {
    let fast = tokio::task::spawn_blocking(move || raw_answer(fast, method, path, accept));
    let slow = tokio::task::spawn_blocking(move || raw_answer(slow, method, path, accept));
    (fast.await.unwrap(), slow.await.unwrap())
}

/// Everything a server answers to `parts`, written one after another a moment apart, read
/// until it closes the connection, without the `date` lines.
fn conversation(addr: std::net::SocketAddr, parts: &[String]) -> String {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    for part in parts {
        stream.write_all(part.as_bytes()).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(30));
    }
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer
        .split("\r\n")
        .filter(|line| !line.starts_with("date:"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn purls_answered_in_front_of_the_router_answer_as_the_router_does() {
    let r = start("front").await;
    for (path, body) in [
        (
            "/net/f",
            json!({"type": "redirect", "target": "https://e.org/f", "max_age": 60}),
        ),
        (
            "/net/p/",
            json!({"type": "partial", "status": 307, "target": "https://e.org/p/"}),
        ),
        ("/net/c", json!({"type": "chain", "to": "/net/f"})),
        (
            "/net/n",
            json!({"type": "negotiate", "offers": [{"media_type": "text/turtle", "target": "https://e.org/n.ttl"}]}),
        ),
        ("/net/g", json!({"type": "gone", "message": "withdrawn"})),
        (
            "/net/日本",
            json!({"type": "redirect", "target": "https://e.org/ja"}),
        ),
    ] {
        assert_eq!(
            r.create(path, body).await.status(),
            StatusCode::CREATED,
            "{path}"
        );
    }
    // The same state behind the router alone: with a rate limit nothing takes the fast path.
    let config = urlkit_purl::server::PurlConfig {
        rate_limit: Some(urlkit_web::RateLimit {
            per_second: 10_000.0,
            burst: 10_000,
        }),
        ..Default::default()
    };
    let router = urlkit_purl::server::app(r.state.clone(), &config);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let slow = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(listener, router).await.unwrap();
    });
    // And the router with the answers put in front of it, as `app` gives it to those who
    // serve it themselves.
    let router = urlkit_purl::server::app(r.state.clone(), &Default::default());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let fronted = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(listener, router).await.unwrap();
    });
    let requests = [
        ("GET", "/net/f", "*/*"),
        ("HEAD", "/net/f", "*/*"),
        ("GET", "/net/./x/../f", "*/*"),
        ("GET", "/net/p/a/b?q=1", "*/*"),
        ("GET", "/net/c", "*/*"),
        ("GET", "/net/n", "text/turtle"),
        ("GET", "/net/n", "text/html"),
        ("GET", "/net/g", "*/*"),
        ("HEAD", "/net/g", "*/*"),
        ("GET", "/net/%E6%97%A5%E6%9C%AC", "*/*"),
        ("GET", "/net/none", "*/*"),
        ("GET", "/net/%zz", "*/*"),
        ("POST", "/net/f", "*/*"),
        ("GET", "/-/nothing", "*/*"),
        ("GET", "/-/healthz", "*/*"),
        ("GET", "/net/f?info", "application/json"),
    ];
    for (method, path, accept) in requests {
        let (fast, slow) = fast_and_slow(r.addr, slow, method, path, accept).await;
        let in_front =
            tokio::task::spawn_blocking(move || raw_answer(fronted, method, path, accept))
                .await
                .unwrap();
        assert_eq!(in_front, slow, "{method} {path} (app)");
        assert!(fast.starts_with("HTTP/1.1 "), "{method} {path}: {fast}");
        assert!(
            fast.contains("x-content-type-options: nosniff"),
            "{method} {path}: {fast}"
        );
        assert!(
            fast.contains("referrer-policy: no-referrer"),
            "{method} {path}: {fast}"
        );
        assert_eq!(fast, slow, "{method} {path}");
    }
    // All three count in the connection metrics as requests no route matched.
    let metrics = r.get("/-/metrics").await.text().await.unwrap();
    for line in [
        "urlkit_http_requests_total{route=\"unmatched\",method=\"GET\",status=\"302\"} 12",
        "urlkit_http_requests_total{route=\"unmatched\",method=\"HEAD\",status=\"302\"} 3",
        "urlkit_http_requests_total{route=\"unmatched\",method=\"GET\",status=\"410\"} 3",
        "urlkit_purl_resolutions_total{kind=\"partial\",status=\"307\"} 3",
        "urlkit_purl_resolutions_total{kind=\"not_acceptable\",status=\"406\"} 3",
        "urlkit_purl_resolutions_total{kind=\"bad_name\",status=\"400\"} 3",
    ] {
        assert!(metrics.contains(line), "{line}\n{metrics}");
    }
    // Targets with bytes that only the checks of `Uri` take, odd `Accept` values.
    for (method, path, accept) in [
        ("GET", "/net/p/{x}|y", "*/*"),
        ("GET", "/net/p/^q^?a=`b`", "*/*"),
        ("GET", "/net/p/a?b?c#d", "*/*"),
        (
            "GET",
            "/net/n",
            "text/turtle;q=0.5, text/html;q=0.1, */*;q=0",
        ),
        ("GET", "/net/n", "\ttext/turtle"),
        ("GET", "/net/n", "text/h\u{e9}"),
        ("GET", "//net/f", "*/*"),
    ] {
        let (fast, slow) = fast_and_slow(r.addr, slow, method, path, accept).await;
        assert_eq!(fast, slow, "{method} {path} {accept}");
    }
    // Whole conversations: requests sent one after another on a connection, the fast path's
    // and the router's mixed, heads cut across writes, HTTP/1.0, a head hyper refuses.
    let keep = "Host: purl.test\r\n";
    let conversations: Vec<Vec<String>> = vec![
        vec![format!(
            "GET /net/f HTTP/1.1\r\n{keep}\r\nHEAD /net/g HTTP/1.1\r\n{keep}\r\n\
             GET /net/n HTTP/1.1\r\n{keep}Accept: text/turtle\r\n\r\n\
             GET /net/p/x HTTP/1.1\r\n{keep}Connection: keep-alive\r\n\r\n\
             GET /-/healthz HTTP/1.1\r\n{keep}\r\nGET /net/f HTTP/1.1\r\n{keep}\r\n\
             POST /net/f HTTP/1.1\r\n{keep}Content-Length: 2\r\n\r\n{{}}\
             GET /net/g HTTP/1.1\r\n{keep}Connection: close\r\n\r\n"
        )],
        vec![
            "GET /net/f HT".to_owned(),
            format!("TP/1.1\r\n{keep}"),
            format!("\r\nGET /net/c HTTP/1.1\r\n{keep}Connection: close\r\n\r\n"),
        ],
        vec!["GET /net/f HTTP/1.0\r\n\r\n".to_owned()],
        vec![format!(
            "GET /net/f HTTP/1.1\r\n{keep}\r\nGET /net/f HTTP/1.1\r\nBad Header: x\r\n\r\n"
        )],
    ];
    for (parts, answers) in conversations.into_iter().zip([8, 2, 1, 2]) {
        let (fast_addr, slow_addr) = (r.addr, slow);
        let sent = parts.clone();
        let fast = tokio::task::spawn_blocking(move || conversation(fast_addr, &sent))
            .await
            .unwrap();
        let sent = parts.clone();
        let slow = tokio::task::spawn_blocking(move || conversation(slow_addr, &sent))
            .await
            .unwrap();
        assert_eq!(fast.matches("HTTP/1.").count(), answers, "{fast}");
        assert_eq!(fast, slow, "{parts:?}");
    }
}

/// Reads what `stream` sends until it closes (or `limit` passes: `None`), and how long it
/// took.
fn read_until_closed(
    stream: &mut std::net::TcpStream,
    limit: std::time::Duration,
) -> Option<(String, std::time::Duration)> {
    let started = std::time::Instant::now();
    stream.set_read_timeout(Some(limit)).unwrap();
    let mut all = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        match stream.read(&mut chunk) {
            Ok(0) => {
                return Some((
                    String::from_utf8_lossy(&all).into_owned(),
                    started.elapsed(),
                ))
            }
            Ok(n) => all.extend_from_slice(&chunk[..n]),
            // A reset closes too.
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {
                return Some((
                    String::from_utf8_lossy(&all).into_owned(),
                    started.elapsed(),
                ))
            }
            Err(_) => return None,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_answered_at_once_are_closed_when_silent_slow_or_shutting_down() {
    let r = start("fast-silence").await;
    r.create(
        "/net/s",
        json!({"type": "redirect", "target": "https://e.org/s"}),
    )
    .await;
    let config = urlkit_purl::server::PurlConfig {
        header_timeout: std::time::Duration::from_millis(400),
        idle_timeout: std::time::Duration::from_millis(600),
        ..Default::default()
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let state = r.state.clone();
    let server = tokio::spawn(async move {
        urlkit_purl::server::serve_on(&state, &config, listener, async {
            let _ = stopped.await;
        })
        .await;
    });
    let limit = std::time::Duration::from_secs(5);
    tokio::task::spawn_blocking(move || {
        // A head sent a byte at a time, never finished: closed at the header timeout.
        let mut slow = std::net::TcpStream::connect(addr).unwrap();
        let dripping = std::thread::spawn({
            let mut slow = slow.try_clone().unwrap();
            move || {
                for byte in b"GET /net/s HTTP/1.1\r\nHost: x\r\nX-Long: aaaaaaaaaaaaaaaaaaaaaaaa" {
                    if slow.write_all(&[*byte]).is_err() {
                        break;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
            }
        });
        let (answer, took) =
            read_until_closed(&mut slow, limit).expect("a dripping head is closed");
        assert!(answer.is_empty(), "{answer}");
        assert!(took < std::time::Duration::from_secs(2), "{took:?}");
        let _ = dripping.join();
        // Answered, then silent: closed at the idle timeout, after its answer.
        let mut quiet = std::net::TcpStream::connect(addr).unwrap();
        quiet
            .write_all(b"GET /net/s HTTP/1.1\r\nHost: x\r\n\r\n")
            .unwrap();
        let (answer, took) =
            read_until_closed(&mut quiet, limit).expect("a silent connection is closed");
        assert!(answer.starts_with("HTTP/1.1 302 Found\r\n"), "{answer}");
        assert!(answer.contains("location: https://e.org/s\r\n"), "{answer}");
        assert!(took >= std::time::Duration::from_millis(300), "{took:?}");
        assert!(took < std::time::Duration::from_secs(3), "{took:?}");
    })
    .await
    .unwrap();
    // Kept open between requests, then the server shuts down: closed at once, not at the
    // idle timeout's end.
    let mut open = std::net::TcpStream::connect(addr).unwrap();
    let answered = tokio::task::spawn_blocking(move || {
        open.write_all(b"GET /net/s HTTP/1.1\r\nHost: x\r\n\r\n")
            .unwrap();
        let mut first = [0u8; 17];
        open.read_exact(&mut first).unwrap();
        open
    })
    .await
    .unwrap();
    stop.send(()).unwrap();
    let mut open = answered;
    let closed = tokio::task::spawn_blocking(move || read_until_closed(&mut open, limit))
        .await
        .unwrap();
    let (_, took) = closed.expect("an open connection is closed at shutdown");
    assert!(took < std::time::Duration::from_millis(500), "{took:?}");
    tokio::time::timeout(limit, server).await.unwrap().unwrap();
}
