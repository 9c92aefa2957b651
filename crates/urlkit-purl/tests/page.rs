//! The resolver's page over real HTTP: login with its CSRF guard, create and edit with a
//! preview, a stale edit kept, history and restore, refusals in words, languages.

mod common;

use common::{start, Resolver};
use reqwest::header;
use reqwest::StatusCode;
use serde_json::json;

/// The value of the hidden field `name` in a page.
fn hidden(html: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let at = html
        .find(&marker)
        .unwrap_or_else(|| panic!("no {name} in {html}"))
        + marker.len();
    html[at..at + html[at..].find('"').unwrap()].to_string()
}

/// The `name=value` part of a `Set-Cookie` named `name`.
fn set_cookie(response: &reqwest::Response, name: &str) -> Option<String> {
    response
        .headers()
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with(&format!("{name}=")))
        .map(str::to_string)
}

/// Logs alice in: the session cookie (`name=value`) and the session's CSRF token.
async fn log_in(r: &Resolver) -> (String, String) {
    let form = r.get("/-/login").await;
    let login_cookie = set_cookie(&form, "urlkit-purl-login").unwrap();
    let token = hidden(&form.text().await.unwrap(), "csrf");
    let cookie = login_cookie.split(';').next().unwrap().to_string();
    let done = r
        .client
        .post(r.url("/-/login"))
        .header(header::COOKIE, &cookie)
        .form(&[
            ("csrf", token.as_str()),
            ("user", "alice"),
            ("password", "correct horse"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(done.status(), StatusCode::SEE_OTHER);
    let session = set_cookie(&done, "urlkit-purl-session").unwrap();
    assert!(
        session.contains("HttpOnly") && session.contains("SameSite=Strict"),
        "{session}"
    );
    let session = session.split(';').next().unwrap().to_string();
    let home = r
        .client
        .get(r.url("/-/new"))
        .header(header::COOKIE, &session)
        .send()
        .await
        .unwrap();
    assert_eq!(home.status(), StatusCode::OK);
    let csrf = hidden(&home.text().await.unwrap(), "csrf");
    (session, csrf)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logins_are_guarded_and_wrong_passwords_say_so() {
    let r = start("page-login").await;
    // Without the login form's cookie: refused, whatever the password.
    let forged = r
        .client
        .post(r.url("/-/login"))
        .form(&[
            ("csrf", "x"),
            ("user", "alice"),
            ("password", "correct horse"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    assert!(set_cookie(&forged, "urlkit-purl-session").is_none());
    let form = r.get("/-/login").await;
    let cookie = set_cookie(&form, "urlkit-purl-login").unwrap();
    let token = hidden(&form.text().await.unwrap(), "csrf");
    let wrong = r
        .client
        .post(r.url("/-/login"))
        .header(header::COOKIE, cookie.split(';').next().unwrap())
        .form(&[
            ("csrf", token.as_str()),
            ("user", "alice"),
            ("password", "wrong"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    assert!(wrong.text().await.unwrap().contains("do not match"));
    // Without a session, the forms ask for a login.
    let new = r.get("/-/new").await;
    assert_eq!(new.status(), StatusCode::UNAUTHORIZED);
    let (session, csrf) = log_in(&r).await;
    // A form without the session's token changes nothing.
    let no_token = r
        .client
        .post(r.url("/-/edit"))
        .header(header::COOKIE, &session)
        .form(&[
            ("name", "/net/x"),
            ("type", "redirect"),
            ("target", "https://e.org/"),
            ("action", "save"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(no_token.status(), StatusCode::FORBIDDEN);
    assert_eq!(r.get("/net/x").await.status(), StatusCode::NOT_FOUND);
    let logout = r
        .client
        .post(r.url("/-/logout"))
        .header(header::COOKIE, &session)
        .form(&[("csrf", csrf.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(logout.status(), StatusCode::SEE_OTHER);
    let after = r
        .client
        .get(r.url("/-/new"))
        .header(header::COOKIE, &session)
        .send()
        .await
        .unwrap();
    assert_eq!(after.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_is_previewed_saved_kept_through_a_stale_edit_and_restored() {
    let r = start("page-edit").await;
    let (session, csrf) = log_in(&r).await;
    let post = |fields: Vec<(&'static str, String)>| {
        r.client
            .post(r.url("/-/edit"))
            .header(header::COOKIE, &session)
            .form(&fields)
            .send()
    };
    let partial = |action: &str, target: &str, version: &str| {
        vec![
            ("csrf", csrf.clone()),
            ("name", "/net/lib/".to_string()),
            ("type", "partial".to_string()),
            ("target", target.to_string()),
            ("version", version.to_string()),
            ("try_path", "/net/lib/a/b?x=1".to_string()),
            ("reason", "first".to_string()),
            ("action", action.to_string()),
        ]
    };
    let preview = post(partial("preview", "https://books.example/", ""))
        .await
        .unwrap();
    assert_eq!(preview.status(), StatusCode::OK);
    let html = preview.text().await.unwrap();
    assert!(
        html.contains("Location: https://books.example/a/b?x=1"),
        "{html}"
    );
    assert_eq!(
        r.get("/net/lib/a").await.status(),
        StatusCode::NOT_FOUND,
        "a preview saves nothing"
    );
    let bad = post(partial("preview", "books.example", "")).await.unwrap();
    assert_eq!(bad.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.text().await.unwrap().contains("target"));
    let saved = post(partial("save", "https://books.example/", ""))
        .await
        .unwrap();
    assert_eq!(saved.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        saved.headers()[header::LOCATION],
        "/-/info/net/lib/?saved=1"
    );
    let answer = r.get("/net/lib/x").await;
    assert_eq!(
        answer.headers()[header::LOCATION],
        "https://books.example/x"
    );
    // Someone else changes it through the API meanwhile.
    let other = r
        .put(
            &r.net_token,
            "/net/lib/",
            json!({"type": "partial", "target": "https://other.example/"}),
            ("If-Match", "\"1\""),
        )
        .await;
    assert_eq!(other.status(), StatusCode::OK);
    let stale = post(partial("save", "https://mine.example/", "1"))
        .await
        .unwrap();
    assert_eq!(stale.status(), StatusCode::CONFLICT);
    let html = stale.text().await.unwrap();
    assert!(html.contains("now version 2"), "{html}");
    assert!(
        html.contains("https://mine.example/"),
        "the edit is kept: {html}"
    );
    assert_eq!(hidden(&html, "version"), "2");
    assert_eq!(
        r.get("/net/lib/x").await.headers()[header::LOCATION],
        "https://other.example/x"
    );
    // History with what changed, and a version brought back.
    let info = r
        .client
        .get(r.url("/-/info/net/lib/"))
        .header(header::COOKIE, &session)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        info.contains("<del>https://books.example/</del> → <ins>https://other.example/</ins>"),
        "{info}"
    );
    let restore = r
        .client
        .post(r.url("/-/restore"))
        .header(header::COOKIE, &session)
        .form(&[
            ("csrf", csrf.as_str()),
            ("name", "/net/lib/"),
            ("version", "1"),
            ("expect", "2"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(restore.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        r.get("/net/lib/x").await.headers()[header::LOCATION],
        "https://books.example/x"
    );
    // Outside alice's domain: refused in words.
    let mut outside = partial("save", "https://e.org/", "");
    outside[1].1 = "/org/y".into();
    let refused = post(outside).await.unwrap();
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    assert!(refused.text().await.unwrap().contains("/org/"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_speaks_the_tool_s_languages_and_escapes_what_it_shows() {
    let r = start("page-lang").await;
    let czech = r.get("/-/?lang=cs").await;
    assert!(set_cookie(&czech, "urlkit-lang").is_some());
    assert_eq!(czech.headers()[header::CONTENT_LANGUAGE], "cs");
    assert!(czech.text().await.unwrap().contains("Trvalé adresy URL"));
    let persian = r
        .client
        .get(r.url("/-/"))
        .header(header::ACCEPT_LANGUAGE, "fa, en;q=0.5")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(persian.contains("dir=\"rtl\"") && persian.contains("نشانی‌های پایدار"));
    let made = r
        .create(
            "/net/q",
            json!({"type": "gone", "message": "<script>alert(1)</script>"}),
        )
        .await;
    assert_eq!(made.status(), StatusCode::CREATED);
    let search = r.get("/-/?name=/net/").await.text().await.unwrap();
    assert!(search.contains("/-/info/net/q"), "{search}");
    assert!(!search.contains("<script>alert"), "{search}");
    assert!(search.contains("&lt;script&gt;"));
    // A record's `?info` view switches language without following the record.
    let info = r.get("/net/q?info").await.text().await.unwrap();
    assert!(info.contains("href=\"/-/info/net/q?lang=cs\""), "{info}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moved_targets_are_listed_and_accepted_with_the_form() {
    use urlkit_purl::checker::{Outcome, OutcomeKind, TargetCheck};
    let r = start("page-checks").await;
    for (path, target) in [
        ("/net/moved", "https://old.example/a"),
        ("/net/dead", "https://dead.example/"),
    ] {
        let body = json!({"type": "redirect", "target": target});
        assert_eq!(r.create(path, body).await.status(), StatusCode::CREATED);
    }
    let check = |name: &str, target: &str, at: i64, kind, suggestion: Option<&str>| TargetCheck {
        name: common::name(name),
        target: target.into(),
        checked_at: at,
        outcome: Outcome {
            kind,
            status: Some(if kind == OutcomeKind::Moved { 200 } else { 404 }),
            suggestion: suggestion.map(str::to_string),
            detail: "seen".into(),
        },
    };
    r.state
        .registry()
        .store()
        .add_checks(&[
            check(
                "/net/dead",
                "https://dead.example/",
                1_000,
                OutcomeKind::Gone,
                None,
            ),
            check(
                "/net/moved",
                "https://old.example/a",
                2_000,
                OutcomeKind::Moved,
                Some("https://new.example/a"),
            ),
        ])
        .await
        .unwrap();
    // Anyone sees the list, newest first; no accept button without a login.
    let page = r.get("/-/checks").await.text().await.unwrap();
    let moved_at = page.find("/net/moved").unwrap();
    let dead_at = page.find("/net/dead").unwrap();
    assert!(moved_at < dead_at, "{page}");
    assert!(page.contains("https://new.example/a"));
    assert!(!page.contains("action=\"/-/accept\""));
    let (session, csrf) = log_in(&r).await;
    let page = r
        .client
        .get(r.url("/-/checks?domain=/net/"))
        .header(header::COOKIE, &session)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("action=\"/-/accept\""), "{page}");
    assert_eq!(hidden(&page, "expect"), "1");
    // A forged form is refused; the session's own one changes the record.
    let forged = r
        .client
        .post(r.url("/-/accept"))
        .header(header::COOKIE, &session)
        .form(&[
            ("csrf", "forged"),
            ("name", "/net/moved"),
            ("target", "https://old.example/a"),
            ("expect", "1"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    let done = r
        .client
        .post(r.url("/-/accept"))
        .header(header::COOKIE, &session)
        .form(&[
            ("csrf", csrf.as_str()),
            ("name", "/net/moved"),
            ("target", "https://old.example/a"),
            ("expect", "1"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(done.status(), StatusCode::SEE_OTHER);
    assert_eq!(done.headers()["location"], "/-/info/net/moved?saved=2");
    let resolved = r.get("/net/moved").await;
    assert_eq!(resolved.headers()["location"], "https://new.example/a");
    // Nothing left to accept for the dead one.
    let nothing = r
        .client
        .post(r.url("/-/accept"))
        .header(header::COOKIE, &session)
        .form(&[
            ("csrf", csrf.as_str()),
            ("name", "/net/dead"),
            ("target", "https://dead.example/"),
            ("expect", "1"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(nothing.status(), StatusCode::CONFLICT);
}
