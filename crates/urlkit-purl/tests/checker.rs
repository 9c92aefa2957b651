//! The link checker against loopback servers that answer each kind of outcome; a name
//! under `.invalid` for DNS failures. Nothing leaves the machine.

use axum::extract::State;
use axum::http::{header, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Router;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use urlkit::purl::Name;
use urlkit_purl::checker::{Checker, CheckerOptions, OutcomeKind, Target, USER_AGENT};

/// What the test server saw.
#[derive(Default)]
struct Seen {
    /// Requests being answered now, and the most at once.
    now: AtomicUsize,
    most: AtomicUsize,
    /// Every request: method and path.
    requests: Mutex<Vec<(Method, String, String)>>,
}

async fn answer(
    State(seen): State<Arc<Seen>>,
    method: Method,
    uri: Uri,
    headers: axum::http::HeaderMap,
) -> Response {
    let now = seen.now.fetch_add(1, Ordering::SeqCst) + 1;
    seen.most.fetch_max(now, Ordering::SeqCst);
    let agent = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    seen.requests
        .lock()
        .unwrap()
        .push((method.clone(), uri.path().to_string(), agent));
    let path = uri.path().to_string();
    let redirect = |status: StatusCode, to: &str| {
        (status, [(header::LOCATION, to.to_string())]).into_response()
    };
    let response = match path.as_str() {
        "/robots.txt" => "User-agent: *\nDisallow: /private/\n".into_response(),
        "/ok" => "fine".into_response(),
        "/head-refused" if method == Method::HEAD => StatusCode::METHOD_NOT_ALLOWED.into_response(),
        "/head-refused" => "fine by GET".into_response(),
        "/moved" => redirect(StatusCode::MOVED_PERMANENTLY, "/moved-again"),
        "/moved-again" => redirect(StatusCode::PERMANENT_REDIRECT, "/new-home"),
        "/new-home" => "here now".into_response(),
        "/temporary" => redirect(StatusCode::FOUND, "/ok"),
        "/moved-then-temporary" => redirect(StatusCode::MOVED_PERMANENTLY, "/temporary"),
        "/moved-to-nothing" => redirect(StatusCode::MOVED_PERMANENTLY, "/missing"),
        "/missing" => StatusCode::NOT_FOUND.into_response(),
        "/gone" => StatusCode::GONE.into_response(),
        "/forbidden" => StatusCode::FORBIDDEN.into_response(),
        "/broken" => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
        "/loop-a" => redirect(StatusCode::FOUND, "/loop-b"),
        "/loop-b" => redirect(StatusCode::FOUND, "/loop-a"),
        "/slow" => {
            tokio::time::sleep(Duration::from_secs(5)).await;
            "late".into_response()
        }
        "/private/page" => "should not be fetched".into_response(),
        p if p.starts_with("/count/") => {
            tokio::time::sleep(Duration::from_millis(30)).await;
            "counted".into_response()
        }
        p if p.starts_with("/hop/") => {
            let n: u32 = p[5..].parse().unwrap_or(0);
            redirect(StatusCode::FOUND, &format!("/hop/{}", n + 1))
        }
        _ => StatusCode::NOT_FOUND.into_response(),
    };
    seen.now.fetch_sub(1, Ordering::SeqCst);
    response
}

async fn server() -> (String, Arc<Seen>) {
    let seen = Arc::new(Seen::default());
    let app = Router::new().fallback(answer).with_state(seen.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (base, seen)
}

fn checker(options: CheckerOptions) -> Arc<Checker> {
    Arc::new(Checker::new(options).unwrap())
}

fn quick() -> CheckerOptions {
    CheckerOptions {
        per_host: 4,
        delay: Duration::ZERO,
        timeout: Duration::from_millis(800),
        max_redirects: 5,
        in_flight: 16,
    }
}

#[tokio::test]
async fn each_kind_of_answer_is_told_apart() {
    let (base, seen) = server().await;
    let checker = checker(quick());
    let check = |path: &str| {
        let checker = checker.clone();
        let url = format!("{base}{path}");
        async move { checker.check(&url).await }
    };
    let ok = check("/ok").await;
    assert_eq!((ok.kind, ok.status), (OutcomeKind::Ok, Some(200)));

    let by_get = check("/head-refused").await;
    assert_eq!((by_get.kind, by_get.status), (OutcomeKind::Ok, Some(200)));

    let moved = check("/moved").await;
    assert_eq!(moved.kind, OutcomeKind::Moved);
    assert_eq!(moved.suggestion, Some(format!("{base}/new-home")));
    assert!(
        moved.detail.contains("301") && moved.detail.contains("308"),
        "{}",
        moved.detail
    );

    let temporary = check("/temporary").await;
    assert_eq!(
        (temporary.kind, temporary.suggestion),
        (OutcomeKind::Ok, None)
    );
    // A permanent redirect to a temporary one: the first place is the one to keep.
    let mixed = check("/moved-then-temporary").await;
    assert_eq!(mixed.kind, OutcomeKind::Moved);
    assert_eq!(mixed.suggestion, Some(format!("{base}/temporary")));
    // Moved to nothing: gone, with nothing to suggest.
    let nowhere = check("/moved-to-nothing").await;
    assert_eq!(
        (nowhere.kind, nowhere.suggestion),
        (OutcomeKind::Gone, None)
    );

    assert_eq!(check("/missing").await.kind, OutcomeKind::Gone);
    let gone = check("/gone").await;
    assert_eq!((gone.kind, gone.status), (OutcomeKind::Gone, Some(410)));
    let forbidden = check("/forbidden").await;
    assert_eq!(
        (forbidden.kind, forbidden.status),
        (OutcomeKind::ClientError, Some(403))
    );
    let broken = check("/broken").await;
    assert_eq!(
        (broken.kind, broken.status),
        (OutcomeKind::ServerError, Some(500))
    );

    let looped = check("/loop-a").await;
    assert_eq!(looped.kind, OutcomeKind::RedirectLoop);
    assert!(
        looped.detail.contains("visited before"),
        "{}",
        looped.detail
    );
    let far = check("/hop/0").await;
    assert_eq!(far.kind, OutcomeKind::RedirectLoop);
    assert!(
        far.detail.contains("more than 5 redirects"),
        "{}",
        far.detail
    );

    let slow = check("/slow").await;
    assert_eq!(slow.kind, OutcomeKind::Timeout, "{}", slow.detail);

    let private = check("/private/page").await;
    assert_eq!(private.kind, OutcomeKind::Disallowed, "{}", private.detail);

    let requests = seen.requests.lock().unwrap().clone();
    assert!(!requests.iter().any(|(_, path, _)| path == "/private/page"));
    // robots.txt was read once, for the one host.
    assert_eq!(
        requests
            .iter()
            .filter(|(_, p, _)| p == "/robots.txt")
            .count(),
        1
    );
    // HEAD first; GET only where HEAD was refused.
    let gets: Vec<&str> = requests
        .iter()
        .filter(|(m, p, _)| m == Method::GET && p != "/robots.txt")
        .map(|(_, p, _)| p.as_str())
        .collect();
    assert_eq!(gets, ["/head-refused"]);
    assert!(requests.iter().all(|(_, _, agent)| agent == USER_AGENT));
    assert!(USER_AGENT.starts_with("urlkit-purl/") && USER_AGENT.ends_with("(+link checker)"));
}

#[tokio::test]
async fn a_name_that_does_not_resolve_is_a_dns_failure() {
    let checker = checker(quick());
    let outcome = checker.check("http://no-such-host.invalid/x").await;
    assert_eq!(outcome.kind, OutcomeKind::Dns, "{}", outcome.detail);
    assert_eq!(outcome.status, None);
}

#[tokio::test]
async fn a_server_that_speaks_no_tls_is_a_tls_failure() {
    // A loopback server that answers every connection with plain text.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            tokio::spawn(async move {
                use tokio::io::{AsyncReadExt, AsyncWriteExt};
                let mut buffer = [0u8; 1024];
                let _ = socket.read(&mut buffer).await;
                let _ = socket
                    .write_all(b"HTTP/1.1 400 Bad Request\r\n\r\nthis is no TLS\r\n")
                    .await;
            });
        }
    });
    let checker = checker(quick());
    let outcome = checker.check(&format!("https://127.0.0.1:{port}/")).await;
    assert_eq!(outcome.kind, OutcomeKind::Tls, "{}", outcome.detail);
}

#[tokio::test]
async fn a_closed_port_is_unreachable_and_bad_urls_are_not_fetched() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let checker = checker(quick());
    let outcome = checker.check(&format!("http://127.0.0.1:{port}/")).await;
    assert_eq!(outcome.kind, OutcomeKind::Unreachable, "{}", outcome.detail);
    let ftp = checker.check("ftp://example.invalid/x").await;
    assert_eq!(ftp.kind, OutcomeKind::ClientError);
    assert!(ftp.detail.contains("ftp"), "{}", ftp.detail);
}

#[tokio::test]
async fn one_host_gets_its_requests_one_at_a_time_and_spaced() {
    let (base, seen) = server().await;
    let name = Name::parse("/t").unwrap();
    let targets: Vec<Target> = (0..8)
        .map(|i| Target {
            name: name.clone(),
            url: format!("{base}/count/{i}"),
        })
        .collect();
    let checker = checker(CheckerOptions {
        per_host: 1,
        delay: Duration::from_millis(40),
        ..quick()
    });
    let started = std::time::Instant::now();
    let mut told = 0;
    let checks = checker.check_all(targets, |_| told += 1).await;
    let took = started.elapsed();
    assert_eq!(checks.len(), 8);
    assert_eq!(told, 8);
    assert!(checks.iter().all(|c| c.outcome.kind == OutcomeKind::Ok));
    assert_eq!(seen.most.load(Ordering::SeqCst), 1);
    // Nine requests (robots.txt first) with 40 ms between each one's end and the next.
    assert!(took >= Duration::from_millis(8 * 40), "{took:?}");

    let (base, seen) = server().await;
    let targets: Vec<Target> = (0..12)
        .map(|i| Target {
            name: name.clone(),
            url: format!("{base}/count/{i}"),
        })
        .collect();
    let checker = self::checker(CheckerOptions {
        per_host: 3,
        delay: Duration::ZERO,
        ..quick()
    });
    checker.check_all(targets, |_| {}).await;
    let most = seen.most.load(Ordering::SeqCst);
    assert!(most <= 3, "{most} at once");
    assert!(most >= 2, "the limit of 3 was never used: {most}");
}

#[tokio::test]
async fn a_url_named_by_many_records_is_checked_once() {
    let (base, seen) = server().await;
    let targets: Vec<Target> = ["/a", "/b", "/c"]
        .iter()
        .map(|n| Target {
            name: Name::parse(n).unwrap(),
            url: format!("{base}/ok"),
        })
        .collect();
    let checks = checker(quick()).check_all(targets, |_| {}).await;
    assert_eq!(checks.len(), 3);
    let heads = seen
        .requests
        .lock()
        .unwrap()
        .iter()
        .filter(|(m, p, _)| m == Method::HEAD && p == "/ok")
        .count();
    assert_eq!(heads, 1);
}
