//! The link checker's throughput: targets checked per minute against a set of loopback
//! hosts (each a server on a port of 127.0.0.1) whose targets are a mix of quick, slow,
//! failing, moved and silent ones, within the per-host limits. Prints one line per setting
//! and the most requests any host saw at once. Run by `scripts/measure/bench-checker.sh`.
//!
//!   checker_throughput [HOSTS] [TARGETS_PER_HOST] [TIMEOUT_MS]

use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use urlkit::purl::Name;
use urlkit_purl::checker::{tally, Checker, CheckerOptions, Target};

#[derive(Default)]
struct Load {
    now: AtomicUsize,
    most: AtomicUsize,
}

/// What target `i` of a host does: of every 20, 12 answer at once, 3 after 200 ms, 2 are
/// 404, 1 is a 500, 1 moved for good, 1 never answers within the timeout.
/// A request being answered, counted off when its answer is done or dropped (a client that
/// timed out closes the connection, and the server drops the answer's future).
struct Busy(Arc<Load>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.now.fetch_sub(1, Ordering::SeqCst);
    }
}

async fn answer(load: Arc<Load>, uri: Uri) -> Response {
    let now = load.now.fetch_add(1, Ordering::SeqCst) + 1;
    load.most.fetch_max(now, Ordering::SeqCst);
    let _busy = Busy(load.clone());
    let i: usize = uri
        .path()
        .trim_start_matches("/t/")
        .parse()
        .unwrap_or(usize::MAX);
    let response = match (uri.path(), i % 20) {
        ("/robots.txt", _) => "User-agent: *\nDisallow: /private/\n".into_response(),
        ("/new", _) => "moved here".into_response(),
        (_, 0..=11) => {
            tokio::time::sleep(Duration::from_millis(5)).await;
            "ok".into_response()
        }
        (_, 12..=14) => {
            tokio::time::sleep(Duration::from_millis(200)).await;
            "slow".into_response()
        }
        (_, 15 | 16) => StatusCode::NOT_FOUND.into_response(),
        (_, 17) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
        (_, 18) => (StatusCode::MOVED_PERMANENTLY, [(header::LOCATION, "/new")]).into_response(),
        _ => {
            tokio::time::sleep(Duration::from_secs(60)).await;
            "too late".into_response()
        }
    };
    response
}

#[tokio::main]
async fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| {
            a.parse()
                .expect("numbers: HOSTS TARGETS_PER_HOST TIMEOUT_MS")
        })
        .collect();
    let hosts = args.first().copied().unwrap_or(20);
    let per_host_targets = args.get(1).copied().unwrap_or(40);
    let timeout = Duration::from_millis(args.get(2).copied().unwrap_or(1000) as u64);
    let mut loads = Vec::new();
    let mut targets = Vec::new();
    let name = Name::parse("/bench").unwrap();
    for _ in 0..hosts {
        let load = Arc::new(Load::default());
        let shared = load.clone();
        let app = axum::Router::new().fallback(move |uri: Uri| answer(shared.clone(), uri));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await });
        for i in 0..per_host_targets {
            targets.push(Target {
                name: name.clone(),
                url: format!("{base}/t/{i}"),
            });
        }
        loads.push(load);
    }
    println!(
        "{hosts} loopback hosts x {per_host_targets} targets = {} targets; timeout {} ms; \
         per 20 targets: 12 quick, 3 slow (200 ms), 2 404, 1 500, 1 moved, 1 silent",
        targets.len(),
        timeout.as_millis()
    );
    for (per_host, delay_ms) in [(1, 0), (1, 100), (2, 0), (4, 0)] {
        for load in &loads {
            load.most.store(0, Ordering::SeqCst);
        }
        let checker = Arc::new(
            Checker::new(CheckerOptions {
                per_host,
                delay: Duration::from_millis(delay_ms),
                timeout,
                ..Default::default()
            })
            .unwrap(),
        );
        let started = Instant::now();
        let checks = checker.check_all(targets.clone(), |_| {}).await;
        let took = started.elapsed();
        let most = loads
            .iter()
            .map(|l| l.most.load(Ordering::SeqCst))
            .max()
            .unwrap_or(0);
        let kinds: Vec<String> = tally(&checks)
            .iter()
            .map(|(k, n)| format!("{n} {k}"))
            .collect();
        println!(
            "per host {per_host}, delay {delay_ms:>3} ms: {:>7.0} targets/min ({} in {:.1} s; most at once on one host: {most}) [{}]",
            checks.len() as f64 * 60.0 / took.as_secs_f64(),
            checks.len(),
            took.as_secs_f64(),
            kinds.join(", ")
        );
    }
}
