//! Several resolvers on one real PostgreSQL database, over real HTTP: an edit through one
//! reaches the others within a second, two writes of one record at once give one success
//! and one `412`, and a database outage stops writes but not redirects, the service coming
//! back by itself when the database does. Each test starts its own server (see
//! `common/postgres.rs`: skipped by name without PostgreSQL, a failure under `CI=true`).

#[path = "common/postgres.rs"]
mod postgres;
#[path = "common/values.rs"]
mod values;

use values::{name, redirect};

use reqwest::header;
use reqwest::redirect::Policy;
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::future::Future;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use urlkit::purl::{Action, Name};
use urlkit_purl::model::{Actor, Body, Expect};
use urlkit_purl::registry::{Following, Registry};
use urlkit_purl::server::{app, PurlConfig, PurlState};
use urlkit_purl::store::Store;

/// How long an edit may take to reach the other instances.
const EDIT_REACHES_ALL: Duration = Duration::from_secs(1);

/// How long the service may take to come back after the database did.
const RECOVERY: Duration = Duration::from_secs(30);

/// The tokens of the owners [`owners`] makes.
struct Tokens {
    /// alice's, with write rights on `/net/`.
    net: String,
    /// root's, an administrator's.
    admin: String,
}

/// Users root (administrator) and alice (password `correct horse`), the domains `/net/`
/// (alice's) and `/org/` (root's), and a token each.
async fn owners(url: &str) -> Tokens {
    let store = Store::open(url).await.unwrap();
    let (net, admin) = values::owners(&store).await;
    Tokens { net, admin }
}

/// One resolver on the database at `url`, as `urlkit purl serve` runs it (records loaded,
/// the follower of other instances' changes started), on a loopback port.
struct Instance {
    addr: SocketAddr,
    state: PurlState,
    client: reqwest::Client,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Drop for Instance {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

async fn instance(url: &str) -> Instance {
    let store = Store::open(url).await.unwrap();
    let registry = Registry::load(store).await.unwrap();
    let follower = registry
        .spawn_follower()
        .expect("a PostgreSQL database is followed");
    let state = PurlState::new(registry, 300, false);
    let router = app(state.clone(), &PurlConfig::default());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(async move {
        axum::serve(listener, router).await.unwrap();
    });
    let client = reqwest::Client::builder()
        .redirect(Policy::none())
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap();
    let instance = Instance {
        addr,
        state,
        client,
        tasks: vec![follower, server],
    };
    within(Duration::from_secs(20), "the follower listens", || async {
        instance.state.registry().following() == Following::Listening
    })
    .await;
    instance
}

impl Instance {
    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(self.url(path)).send().await.unwrap()
    }

    async fn put(
        &self,
        token: &str,
        path: &str,
        body: Value,
        precondition: (&str, &str),
    ) -> reqwest::Response {
        self.client
            .put(self.url(&format!("/-/api/purls{path}")))
            .bearer_auth(token)
            .header(precondition.0, precondition.1)
            .json(&body)
            .send()
            .await
            .unwrap()
    }

    /// The status and `Location` a request for `path` gets.
    async fn answer(&self, path: &str) -> (u16, String) {
        let response = self.get(path).await;
        let location = response
            .headers()
            .get(header::LOCATION)
            .map(|l| l.to_str().unwrap().to_string())
            .unwrap_or_default();
        (response.status().as_u16(), location)
    }
}

/// Waits until `condition` holds, checking every 10 ms; fails the test naming `what` when
/// it still does not after `bound`. Returns how long it took.
async fn within<F, C>(bound: Duration, what: &str, mut condition: C) -> Duration
where
    C: FnMut() -> F,
    F: Future<Output = bool>,
{
    let started = Instant::now();
    loop {
        if condition().await {
            return started.elapsed();
        }
        assert!(started.elapsed() < bound, "{what}: not within {bound:?}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Waits until every one of `instances` answers `path` with `status` and `location`.
async fn all_answer(instances: &[&Instance], path: &str, status: u16, location: &str) {
    for (n, instance) in instances.iter().enumerate() {
        within(
            EDIT_REACHES_ALL,
            &format!("instance {n} answers {path} with {status} {location}"),
            || async { instance.answer(path).await == (status, location.to_string()) },
        )
        .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edit_through_one_instance_reaches_the_others_within_a_second() {
    let test = "an_edit_through_one_instance_reaches_the_others_within_a_second";
    let Some(server) = postgres::Postgres::start(test) else {
        return;
    };
    let tokens = owners(&server.url()).await;
    let [a, b, c] = [
        instance(&server.url()).await,
        instance(&server.url()).await,
        instance(&server.url()).await,
    ];
    // Created through one, changed through another, deleted through the third, restored.
    let created = a
        .put(
            &tokens.net,
            "/net/a",
            json!({"type": "redirect", "target": "https://e.org/1"}),
            ("If-None-Match", "*"),
        )
        .await;
    assert_eq!(created.status(), StatusCode::CREATED);
    all_answer(&[&b, &c], "/net/a", 302, "https://e.org/1").await;
    let changed = b
        .put(
            &tokens.net,
            "/net/a",
            json!({"type": "redirect", "target": "https://e.org/2"}),
            ("If-Match", "\"1\""),
        )
        .await;
    assert_eq!(changed.status(), StatusCode::OK);
    all_answer(&[&a, &c], "/net/a", 302, "https://e.org/2").await;
    let deleted = c
        .client
        .delete(c.url("/-/api/purls/net/a"))
        .bearer_auth(&tokens.net)
        .header(header::IF_MATCH, "\"2\"")
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), StatusCode::OK);
    all_answer(&[&a, &b], "/net/a", 410, "").await;
    let restored = a
        .client
        .post(a.url("/-/api/restore/net/a"))
        .bearer_auth(&tokens.net)
        .header(header::IF_MATCH, "\"3\"")
        .json(&json!({"version": 1}))
        .send()
        .await
        .unwrap();
    assert_eq!(restored.status(), StatusCode::OK);
    all_answer(&[&b, &c], "/net/a", 302, "https://e.org/1").await;
    // A chain made on one instance is followed on the others, and sees its target change.
    let chain = b
        .put(
            &tokens.net,
            "/net/chain",
            json!({"type": "chain", "to": "/net/a"}),
            ("If-None-Match", "*"),
        )
        .await;
    assert_eq!(chain.status(), StatusCode::CREATED);
    all_answer(&[&a, &c], "/net/chain", 302, "https://e.org/1").await;
    let changed = c
        .put(
            &tokens.net,
            "/net/a",
            json!({"type": "redirect", "target": "https://e.org/5"}),
            ("If-Match", "\"4\""),
        )
        .await;
    assert_eq!(changed.status(), StatusCode::OK);
    all_answer(&[&a, &b, &c], "/net/chain", 302, "https://e.org/5").await;
    // An import on the database itself (the command line's), in more than one batch of
    // announcements, reaches every instance.
    let loader = Store::open(&server.url()).await.unwrap();
    let admin = loader.actor("root").await.unwrap().unwrap();
    let records: Vec<(Name, Body)> = (0..2_000)
        .map(|i| {
            (
                name(&format!("/org/import/{i:05}")),
                redirect(&format!("https://e.org/import/{i}")),
            )
        })
        .collect();
    assert_eq!(loader.import(&admin, records, None).await.unwrap(), 2_000);
    for (path, target) in [
        ("/org/import/00000", "https://e.org/import/0"),
        ("/org/import/01999", "https://e.org/import/1999"),
    ] {
        all_answer(&[&a, &b, &c], path, 302, target).await;
    }
    for instance in [&a, &b, &c] {
        // 2,000 imported, /net/a and /net/chain.
        assert_eq!(instance.state.registry().table().len(), 2_002);
        let metrics = instance.get("/-/metrics").await.text().await.unwrap();
        assert!(
            metrics
                .lines()
                .any(|line| line == "urlkit_purl_records 2002"),
            "{metrics}"
        );
    }
    // The API's view of the record is the same everywhere.
    for instance in [&a, &b, &c] {
        let record = instance.get("/-/api/purls/net/a").await;
        assert_eq!(record.headers()[header::ETAG], "\"5\"");
    }
}

/// Two instances changing one record at the same version at once, ten times: each time one
/// `200` and one `412` naming the winner's version, and the history holds exactly the
/// winners, in order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_writing_one_record_at_once_give_one_success_and_one_412() {
    let test = "two_instances_writing_one_record_at_once_give_one_success_and_one_412";
    let Some(server) = postgres::Postgres::start(test) else {
        return;
    };
    let tokens = owners(&server.url()).await;
    let (a, b) = (instance(&server.url()).await, instance(&server.url()).await);
    let created = a
        .put(
            &tokens.net,
            "/net/r",
            json!({"type": "redirect", "target": "https://e.org/0"}),
            ("If-None-Match", "*"),
        )
        .await;
    assert_eq!(created.status(), StatusCode::CREATED);
    let mut winners = vec!["https://e.org/0".to_string()];
    for round in 1..=10 {
        async fn write(
            instance: &Instance,
            token: &str,
            version: &str,
            target: String,
        ) -> (String, reqwest::Response) {
            let body = json!({"type": "redirect", "target": target});
            let put = instance
                .put(token, "/net/r", body, ("If-Match", version))
                .await;
            (target, put)
        }
        let version = format!("\"{round}\"");
        let (first, second) = tokio::join!(
            write(
                &a,
                &tokens.net,
                &version,
                format!("https://e.org/{round}/a")
            ),
            write(
                &b,
                &tokens.net,
                &version,
                format!("https://e.org/{round}/b")
            )
        );
        let mut won = Vec::new();
        let mut stale = Vec::new();
        for (target, response) in [first, second] {
            match response.status() {
                StatusCode::OK => won.push(target),
                StatusCode::PRECONDITION_FAILED => stale.push(response),
                other => panic!("round {round}: {other}"),
            }
        }
        assert_eq!((won.len(), stale.len()), (1, 1), "round {round}");
        let next = format!("\"{}\"", round + 1);
        assert_eq!(
            stale[0].headers()[header::ETAG],
            next.as_str(),
            "round {round}"
        );
        winners.push(won.remove(0));
    }
    let history: Value = a.get("/-/api/history/net/r").await.json().await.unwrap();
    let events = history
        .as_array()
        .or_else(|| history["events"].as_array())
        .unwrap_or_else(|| panic!("{history}"));
    let versions: Vec<i64> = events
        .iter()
        .map(|event| event["version"].as_i64().unwrap())
        .collect();
    assert_eq!(versions, (1..=11).collect::<Vec<_>>());
    for (event, winner) in events.iter().zip(&winners) {
        assert_eq!(
            event["after"]["target"].as_str(),
            Some(winner.as_str()),
            "{event}"
        );
    }
    all_answer(&[&a, &b], "/net/r", 302, &winners[10]).await;
}

/// The write routes of the API, each as an administrator would send it, with what they
/// send: (method, path, JSON body, If-Match).
fn api_writes() -> Vec<(&'static str, &'static str, Value, Option<&'static str>)> {
    vec![
        (
            "PUT",
            "/-/api/purls/net/o",
            json!({"type": "redirect", "target": "https://e.org/x"}),
            Some("\"1\""),
        ),
        (
            "PUT",
            "/-/api/purls/net/new",
            json!({"type": "redirect", "target": "https://e.org/x"}),
            None,
        ),
        ("DELETE", "/-/api/purls/net/o", json!({}), Some("\"1\"")),
        (
            "POST",
            "/-/api/restore/net/o",
            json!({"version": 1}),
            Some("\"1\""),
        ),
        (
            "POST",
            "/-/api/clone/net/copy",
            json!({"from": "/net/o"}),
            None,
        ),
        (
            "POST",
            "/-/api/domains",
            json!({"prefix": "/edu/", "maintainers": ["alice"]}),
            None,
        ),
        ("POST", "/-/api/users", json!({"name": "bob"}), None),
        (
            "POST",
            "/-/api/groups",
            json!({"name": "editors", "members": ["alice"]}),
            None,
        ),
        (
            "POST",
            "/-/api/tokens",
            json!({"grants": [{"domain": "/net/", "right": "write"}]}),
            None,
        ),
        ("DELETE", "/-/api/tokens/0123456789abcdef", json!({}), None),
    ]
}

/// The value of the hidden field `name` in a page.
fn hidden(html: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let at = html
        .find(&marker)
        .unwrap_or_else(|| panic!("no {name} in {html}"))
        + marker.len();
    html[at..at + html[at..].find('"').unwrap()].to_string()
}

/// The `name=value` of the `Set-Cookie` named `name`.
fn cookie(response: &reqwest::Response, name: &str) -> String {
    response
        .headers()
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with(&format!("{name}=")))
        .and_then(|v| v.split(';').next())
        .unwrap_or_else(|| panic!("no cookie {name}"))
        .to_string()
}

/// Logs alice in on the page of `instance`: the session cookie and its CSRF token, and
/// the login form's cookie and token (for a second login).
async fn log_in(instance: &Instance) -> (String, String, String, String) {
    let form = instance.get("/-/login").await;
    let login_cookie = cookie(&form, "urlkit-purl-login");
    let login_csrf = hidden(&form.text().await.unwrap(), "csrf");
    let done = instance
        .client
        .post(instance.url("/-/login"))
        .header(header::COOKIE, &login_cookie)
        .form(&[
            ("csrf", login_csrf.as_str()),
            ("user", "alice"),
            ("password", "correct horse"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(done.status(), StatusCode::SEE_OTHER);
    let session = cookie(&done, "urlkit-purl-session");
    let page = instance
        .client
        .get(instance.url("/-/new"))
        .header(header::COOKIE, &session)
        .send()
        .await
        .unwrap();
    let csrf = hidden(&page.text().await.unwrap(), "csrf");
    (session, csrf, login_cookie, login_csrf)
}

/// PostgreSQL stopped under two instances: redirects go on from memory without waiting,
/// every write route (API and page) answers `503` with `Retry-After`, `/-/readyz` fails;
/// started again on the same data and port, writes go through again and reach the other
/// instance, and both are ready again, by themselves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_outage_stops_writes_not_redirects_and_the_service_comes_back() {
    let test = "a_database_outage_stops_writes_not_redirects_and_the_service_comes_back";
    let Some(server) = postgres::Postgres::start(test) else {
        return;
    };
    let tokens = owners(&server.url()).await;
    let (a, b) = (instance(&server.url()).await, instance(&server.url()).await);
    let created = a
        .put(
            &tokens.net,
            "/net/o",
            json!({"type": "redirect", "target": "https://e.org/o"}),
            ("If-None-Match", "*"),
        )
        .await;
    assert_eq!(created.status(), StatusCode::CREATED);
    all_answer(&[&a, &b], "/net/o", 302, "https://e.org/o").await;
    let (session, csrf, login_cookie, login_csrf) = log_in(&a).await;
    for instance in [&a, &b] {
        assert_eq!(instance.get("/-/readyz").await.status(), StatusCode::OK);
    }

    server.stop();
    for (n, instance) in [&a, &b].into_iter().enumerate() {
        let started = Instant::now();
        assert_eq!(
            instance.answer("/net/o").await,
            (302, "https://e.org/o".to_string()),
            "instance {n}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "a redirect does not wait for the database"
        );
    }
    let unavailable = |what: String, response: reqwest::Response| {
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE, "{what}");
        assert!(
            response.headers().contains_key(header::RETRY_AFTER),
            "{what}: no Retry-After"
        );
    };
    // Each waits for the database a few seconds: all at once.
    let mut writes = tokio::task::JoinSet::new();
    for (method, path, body, expect) in api_writes() {
        let mut request = b
            .client
            .request(method.parse().unwrap(), b.url(path))
            .bearer_auth(&tokens.admin)
            .json(&body);
        request = match expect {
            Some(version) => request.header(header::IF_MATCH, version),
            None => request.header(header::IF_NONE_MATCH, "*"),
        };
        let send = request.send();
        writes.spawn(async move { (format!("{method} {path}"), send.await.unwrap()) });
    }
    let page_writes: Vec<(&str, Vec<(&str, &str)>)> = vec![
        (
            "/-/edit",
            vec![
                ("csrf", &csrf),
                ("name", "/net/o"),
                ("type", "redirect"),
                ("target", "https://e.org/page"),
                ("version", "1"),
                ("action", "save"),
            ],
        ),
        (
            "/-/restore",
            vec![
                ("csrf", &csrf),
                ("name", "/net/o"),
                ("version", "1"),
                ("expect", "1"),
            ],
        ),
        (
            "/-/delete",
            vec![("csrf", &csrf), ("name", "/net/o"), ("expect", "1")],
        ),
    ];
    for (path, form) in page_writes {
        let send = a
            .client
            .post(a.url(path))
            .header(header::COOKIE, &session)
            .form(&form)
            .send();
        writes.spawn(async move { (format!("POST {path}"), send.await.unwrap()) });
    }
    let login = a
        .client
        .post(a.url("/-/login"))
        .header(header::COOKIE, &login_cookie)
        .form(&[
            ("csrf", login_csrf.as_str()),
            ("user", "alice"),
            ("password", "correct horse"),
        ])
        .send();
    writes.spawn(async move { ("POST /-/login".to_string(), login.await.unwrap()) });
    let mut answered = 0;
    while let Some(write) = writes.join_next().await {
        let (what, response) = write.unwrap();
        unavailable(what, response);
        answered += 1;
    }
    assert_eq!(answered, api_writes().len() + 4);
    for instance in [&a, &b] {
        let ready = instance.get("/-/readyz").await;
        assert_eq!(ready.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(instance.answer("/net/o").await.0, 302);
    }

    server.start_again();
    within(RECOVERY, "a write through b succeeds again", || async {
        let response = b
            .put(
                &tokens.net,
                "/net/o",
                json!({"type": "redirect", "target": "https://e.org/back"}),
                ("If-Match", "\"1\""),
            )
            .await;
        response.status() == StatusCode::OK
    })
    .await;
    within(RECOVERY, "the other instance sees it", || async {
        a.answer("/net/o").await == (302, "https://e.org/back".to_string())
    })
    .await;
    for (n, instance) in [&a, &b].into_iter().enumerate() {
        within(
            RECOVERY,
            &format!("instance {n} is ready again"),
            || async { instance.get("/-/readyz").await.status() == StatusCode::OK },
        )
        .await;
    }
    // Listening again: the next edit reaches the other instance within the second.
    let changed = a
        .put(
            &tokens.net,
            "/net/o",
            json!({"type": "redirect", "target": "https://e.org/again"}),
            ("If-Match", "\"2\""),
        )
        .await;
    assert_eq!(changed.status(), StatusCode::OK);
    all_answer(&[&b], "/net/o", 302, "https://e.org/again").await;
}

/// The follower's connection ended by the server (as a restart of a connection pooler or
/// a network would): it is opened again, and what changed meanwhile is read by comparing
/// every record, without a restart of the instance.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_follower_connection_is_opened_again_and_nothing_is_missed() {
    let test = "a_lost_follower_connection_is_opened_again_and_nothing_is_missed";
    let Some(server) = postgres::Postgres::start(test) else {
        return;
    };
    owners(&server.url()).await;
    let a = instance(&server.url()).await;
    let writer = Store::open(&server.url()).await.unwrap();
    let root = writer.actor("root").await.unwrap().unwrap();
    let admin = sqlx::PgPool::connect(&server.url()).await.unwrap();
    for round in 0..3 {
        let ended: Vec<(bool,)> = sqlx::query_as(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE datname = 'purl' AND query LIKE 'LISTEN%'",
        )
        .fetch_all(&admin)
        .await
        .unwrap();
        assert_eq!(ended.len(), 1, "round {round}: one follower listens");
        let path = format!("/org/missed/{round}");
        writer
            .put(
                &root,
                &name(&path),
                redirect(&format!("https://e.org/{round}")),
                Expect::Absent,
                None,
            )
            .await
            .unwrap();
        within(
            Duration::from_secs(10),
            &format!("round {round}: the change reaches the instance"),
            || async { a.answer(&path).await == (302, format!("https://e.org/{round}")) },
        )
        .await;
        within(
            Duration::from_secs(10),
            &format!("round {round}: listening again"),
            || async { a.state.registry().following() == Following::Listening },
        )
        .await;
    }
}

/// A registry compares every record with the store and takes in what changed behind it:
/// records created, changed and deleted by another writer, and a record taken out of the
/// database by hand. On SQLite and PostgreSQL.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resync_takes_in_every_change_made_behind_memory() {
    let dir = tempfile::tempdir().unwrap();
    let sqlite = format!("sqlite:{}", dir.path().join("purl.db").display());
    let server = postgres::Postgres::start("a_resync_takes_in_every_change_made_behind_memory");
    let mut urls = vec![sqlite];
    urls.extend(server.as_ref().map(postgres::Postgres::url));
    for url in urls {
        let store = Store::open(&url).await.unwrap();
        let root = Actor {
            user: "root".into(),
            token: None,
            admin: true,
            grants: vec![],
        };
        for n in 0..5 {
            let target = format!("https://e.org/{n}");
            let path = name(&format!("/r/{n}"));
            store
                .put(&root, &path, redirect(&target), Expect::Absent, None)
                .await
                .unwrap();
        }
        let registry = Registry::load(Store::open(&url).await.unwrap())
            .await
            .unwrap();
        assert_eq!(
            registry.resync().await.unwrap(),
            0,
            "{url}: nothing changed"
        );
        store
            .put(
                &root,
                &name("/r/new"),
                redirect("https://e.org/new"),
                Expect::Absent,
                None,
            )
            .await
            .unwrap();
        store
            .put(
                &root,
                &name("/r/1"),
                redirect("https://e.org/one"),
                Expect::Version(1),
                None,
            )
            .await
            .unwrap();
        store
            .delete(&root, &name("/r/2"), Expect::Version(1), None, None)
            .await
            .unwrap();
        store
            .put(
                &root,
                &name("/r/chain"),
                Body {
                    action: Action::Chain { to: name("/r/new") },
                    max_age: None,
                },
                Expect::Absent,
                None,
            )
            .await
            .unwrap();
        sqlx::any::install_default_drivers();
        let raw = sqlx::AnyPool::connect(&url).await.unwrap();
        sqlx::query("DELETE FROM records WHERE name = '/r/3'")
            .execute(&raw)
            .await
            .unwrap();
        raw.close().await;
        // Memory is as loaded until the resync.
        assert!(registry.table().get(&name("/r/new")).is_none(), "{url}");
        assert_eq!(registry.resync().await.unwrap(), 5, "{url}");
        let table = registry.table();
        let answer = |path: &str| format!("{:?}", table.resolve(path, None, None, None));
        assert!(answer("/r/new").contains("https://e.org/new"), "{url}");
        assert!(answer("/r/chain").contains("https://e.org/new"), "{url}");
        assert!(answer("/r/1").contains("https://e.org/one"), "{url}");
        assert!(
            answer("/r/2").contains("status: 410"),
            "{url}: {}",
            answer("/r/2")
        );
        assert!(
            answer("/r/3").contains("NoRecord"),
            "{url}: {}",
            answer("/r/3")
        );
        assert!(answer("/r/4").contains("https://e.org/4"), "{url}");
        assert_eq!(table.len(), 6, "{url}");
    }
}
