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
