//! `urlkit purl serve`: every path of the host resolves through the records held in
//! memory, but the reserved prefix `/-/`, which holds the JSON API, the info views, health
//! and metrics. Runs on the web tool's connection layer (timeouts, caps, TLS, rate limits).
//!
//! | module | concept |
//! |---|---|
//! | `front` | the fast path: resolutions answered before the router and its middleware |
//! | `resolve` | the answer to a request for a PURL, from memory |
//! | `info` | a record shown instead of followed (`?info`, `/-/info/…`) |
//! | `page` | the page: browse, search, log in, create and edit with a preview, history, restore |
//! | `session` | the page's logins and CSRF tokens |
//! | `api` | the JSON API: records, history, restore, search, domains, tokens |
//! | `owners` | the JSON API's users, groups, domains and tokens (administrators) |
//! | `checks` | the link checker on a schedule, its results in the API, a suggestion accepted |
//! | `counts` | resolutions per record, written in batches |
//! | `metrics` | the resolver's Prometheus metrics |
//! | `openapi` | the API's description |

pub mod api;
pub mod checks;
mod counts;
mod front;
pub mod info;
pub mod metrics;
pub mod openapi;
pub mod owners;
pub mod page;
pub mod resolve;
pub mod session;

use crate::registry::{Following, Registry};
use crate::store::Store;
use anyhow::Context;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, HeaderValue, StatusCode, Uri};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::Router;
use counts::Counts;
use metrics::PurlMetrics;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use urlkit_web::error::ApiError;
use urlkit_web::metrics::Metrics;
use urlkit_web::{ConnectionLimits, RateLimit, TlsMode};

/// The largest body the API takes (a record with many offers fits many times).
pub const BODY_LIMIT: usize = 256 << 10;

/// `Cache-Control: max-age` of redirects whose record sets none: short, so that an edit
/// reaches clients soon.
pub const DEFAULT_MAX_AGE: u32 = 300;

/// Everything `urlkit purl serve` can be told.
#[derive(Clone, Debug)]
pub struct PurlConfig {
    /// Where to listen (port 0 picks a free port).
    pub addr: SocketAddr,
    /// The database (`sqlite:PATH` or `postgres://…`).
    pub db: String,
    /// Plain HTTP, PEM files, or self-signed.
    pub tls: TlsMode,
    /// `Cache-Control: max-age` of redirects whose record sets none.
    pub default_max_age: u32,
    /// How long a client may take to send a request's headers.
    pub header_timeout: Duration,
    /// How long a connection between requests, or a request body, may send nothing.
    pub idle_timeout: Duration,
    /// Most connections open at once (`None`: the web tool's default).
    pub max_connections: Option<usize>,
    /// Requests per client, or `None` for no limit.
    pub rate_limit: Option<RateLimit>,
    /// Proxies whose `X-Forwarded-For` names the client.
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// How long requests in flight may take to finish after SIGTERM or Ctrl-C.
    pub shutdown_grace: Duration,
    /// Logs are JSON lines rather than text.
    pub json_logs: bool,
    /// When the link checker runs, and how (off by default).
    pub checks: checks::CheckSchedule,
}

impl Default for PurlConfig {
    fn default() -> Self {
        PurlConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 8081)),
            db: "sqlite:urlkit-purl.db".into(),
            tls: TlsMode::Off,
            default_max_age: DEFAULT_MAX_AGE,
            header_timeout: urlkit_web::HEADER_TIMEOUT,
            idle_timeout: urlkit_web::IDLE_TIMEOUT,
            max_connections: None,
            rate_limit: None,
            trusted_proxies: Vec::new(),
            shutdown_grace: Duration::from_secs(10),
            json_logs: false,
            checks: checks::CheckSchedule::default(),
        }
    }
}

/// What every handler shares. Cheap to clone.
#[derive(Clone)]
pub struct PurlState {
    registry: Registry,
    metrics: Arc<PurlMetrics>,
    connection_metrics: Arc<Metrics>,
    counts: Arc<Counts>,
    sessions: Arc<session::Sessions>,
    /// Logins checked at once (each costs an Argon2id hash).
    logins: Arc<tokio::sync::Semaphore>,
    /// `Cache-Control` of redirects whose record sets none.
    default_cache_control: HeaderValue,
    draining: Arc<AtomicBool>,
    tls: bool,
    /// Records sent to an archived copy (their domain's fallback), swapped after checks.
    archive: Arc<checks::ArchiveMap>,
}

/// `Retry-After` of a readiness check failed because other resolvers' changes are not heard:
/// the follower tries again at least this often.
const FOLLOW_RETRY_AFTER: u32 = 2;

/// Logins whose password is checked at once; the others wait.
pub const LOGINS_AT_ONCE: usize = 2;

impl PurlState {
    /// The state of a resolver over `registry`.
    pub fn new(registry: Registry, default_max_age: u32, tls: bool) -> PurlState {
        let purl = PurlMetrics::default();
        let mut connection_metrics = Metrics::new();
        purl.register(connection_metrics.registry_mut());
        purl.records.set(registry.table().len() as i64);
        PurlState {
            registry,
            metrics: Arc::new(purl),
            connection_metrics: Arc::new(connection_metrics),
            counts: Arc::new(Counts::default()),
            sessions: Arc::new(session::Sessions::default()),
            logins: Arc::new(tokio::sync::Semaphore::new(LOGINS_AT_ONCE)),
            default_cache_control: resolve::cache_control(default_max_age),
            draining: Arc::new(AtomicBool::new(false)),
            tls,
            archive: Arc::default(),
        }
    }

    /// The records and their store.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// The records sent to an archived copy, as of the last check run.
    pub fn archive(&self) -> &checks::ArchiveMap {
        &self.archive
    }

    /// Writes the resolution counts gathered so far.
    pub async fn flush_counts(&self) {
        if self.counts.flush(&self.registry).await.is_err() {
            self.metrics.count_flush_failures.inc();
        }
    }

    /// Writes the resolution counts every few seconds (`counts::FLUSH_EVERY`), until
    /// aborted.
    pub fn spawn_count_writer(&self) -> tokio::task::JoinHandle<()> {
        let state = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(counts::FLUSH_EVERY);
            loop {
                tick.tick().await;
                state.flush_counts().await;
            }
        })
    }
}

/// The resolver's routes: `/-/…` and every other path as a PURL (a `GET` or `HEAD` of a
/// PURL answered in front of the routes, unless a rate limit is set).
pub fn app(state: PurlState, config: &PurlConfig) -> Router {
    let rate_limited = config.rate_limit.is_some();
    let router = routes(state.clone(), config);
    if rate_limited {
        return router;
    }
    Router::new().fallback_service(front::Front::new(state, router))
}

fn routes(state: PurlState, config: &PurlConfig) -> Router {
    let api = Router::new()
        .route("/-/api/purls", get(api::search))
        .route(
            "/-/api/purls/{*name}",
            get(api::get_record)
                .put(api::put_record)
                .delete(api::delete_record)
                .post(checks::accept_route),
        )
        .route("/-/api/checks", get(checks::list))
        .route("/-/api/history/{*name}", get(api::history))
        .route("/-/api/restore/{*name}", post(api::restore_record))
        .route("/-/api/clone/{*name}", post(api::clone_record))
        .route("/-/api/domains", get(api::domains).post(owners::add_domain))
        .route("/-/api/domains/archive", post(owners::set_archive))
        .route("/-/api/users", get(owners::users).post(owners::add_user))
        .route("/-/api/groups", post(owners::add_group))
        .route("/-/api/owner-changes", get(owners::changes))
        .route(
            "/-/api/tokens",
            get(owners::tokens).post(owners::create_token),
        )
        .route("/-/api/tokens/{id}", delete(owners::revoke_token))
        .route("/-/api/openapi.json", get(openapi::document))
        .route("/-/info/{*name}", get(info_route))
        .route("/-/", get(page::home))
        .route("/-/login", get(page::login_page).post(page::login))
        .route("/-/logout", post(page::logout))
        .route("/-/new", get(page::new_page))
        .route("/-/edit", post(page::edit))
        .route("/-/edit/{*name}", get(page::edit_page))
        .route("/-/restore", post(page::restore))
        .route("/-/delete", post(page::delete))
        .route("/-/checks", get(page::checks_page))
        .route("/-/accept", post(page::accept))
        .route("/-/assets/{name}", get(urlkit_web::page::asset))
        .route("/-/readyz", get(readyz))
        .route("/-/metrics", get(metrics_route))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .method_not_allowed_fallback(urlkit_web::api::method_not_allowed);
    let mut limited = api.fallback(resolve::resolve);
    if let Some(limit) = config.rate_limit {
        limited = urlkit_web::ratelimit::limit(limited, limit, &config.trusted_proxies);
    }
    let health = Router::new().route("/-/healthz", get(urlkit_web::api::healthz));
    limited
        .merge(health)
        .layer(middleware::map_response(security_headers))
        .layer(middleware::from_fn_with_state(
            state.connection_metrics.clone(),
            urlkit_web::metrics::observe,
        ))
        .with_state(state)
}

async fn security_headers(mut response: Response) -> Response {
    add_security_headers(response.headers_mut());
    response
}

/// The headers every answer of the resolver gets, in the order they are added.
static SECURITY_HEADERS: [(header::HeaderName, &str); 3] = [
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (
        header::CONTENT_SECURITY_POLICY,
        "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; \
         base-uri 'none'; frame-ancestors 'none'",
    ),
    (header::REFERRER_POLICY, "no-referrer"),
];

fn add_security_headers(h: &mut axum::http::HeaderMap) {
    for (name, value) in &SECURITY_HEADERS {
        h.insert(name.clone(), HeaderValue::from_static(value));
    }
}

async fn info_route(
    State(state): State<PurlState>,
    uri: Uri,
    headers: axum::http::HeaderMap,
) -> Response {
    let rest = uri.path().strip_prefix("/-/info").unwrap_or("");
    match urlkit::purl::Name::parse(rest) {
        Ok(name) => info::show(&state, &name, &uri, &headers).await,
        Err(e) => ApiError::bad_request("bad-name", format!("{rest:?} is not a name: {e}"))
            .into_response(),
    }
}

/// `GET /-/readyz`: `200` while the database answers and can be written, the changes of
/// other resolvers on a shared database are heard, and the server is not shutting down;
/// `503` otherwise (resolution goes on either way).
async fn readyz(State(state): State<PurlState>) -> Response {
    if state.draining.load(Ordering::Relaxed) {
        return ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "shutting-down",
            "the resolver is shutting down",
        )
        .into_response();
    }
    if let Err(e) = state.registry.store().check().await {
        return api::unavailable(&e);
    }
    if state.registry.following() == Following::Lost {
        return ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "not-following",
            "the changes other resolvers make to the database are not heard yet: \
             this resolver may answer with records changed since",
        )
        .retry_after(FOLLOW_RETRY_AFTER)
        .into_response();
    }
    axum::Json(serde_json::json!({"status": "ready"})).into_response()
}

async fn metrics_route(State(state): State<PurlState>) -> Response {
    // Other resolvers' changes on a shared database change the count too.
    state
        .metrics
        .records
        .set(state.registry.table().len() as i64);
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/openmetrics-text; version=1.0.0; charset=utf-8"),
        )],
        state.connection_metrics.render(),
    )
        .into_response()
}

/// Runs the resolver until Ctrl-C or SIGTERM: opens (and migrates) the database, loads
/// every record into memory, and serves. Fails when the database cannot be opened, the
/// address cannot be bound, or the TLS files are unreadable.
pub async fn serve(config: PurlConfig) -> anyhow::Result<()> {
    let tls = urlkit_web::tls::config(&config.tls).await?;
    let store = Store::open(&config.db)
        .await
        .with_context(|| format!("cannot open the database {}", config.db))?;
    let registry = Registry::load(store)
        .await
        .context("cannot read the records")?;
    let listener = std::net::TcpListener::bind(config.addr)
        .with_context(|| format!("cannot listen on {}", config.addr))?;
    listener.set_nonblocking(true)?;
    let state = PurlState::new(registry, config.default_max_age, tls.is_some());
    let local = listener.local_addr()?;
    let scheme = if tls.is_some() { "https" } else { "http" };
    let records = state.registry.table().len();
    // Listening for SIGTERM before saying so: a signal at once still ends it cleanly.
    let signal = urlkit_web::shutdown_signal();
    let line = format!(
        "resolving on {scheme}://{local}  ({records} records from {}; API at /-/api/, described at /-/api/openapi.json)",
        config.db
    );
    if config.json_logs {
        tracing::info!("{line}");
    } else {
        eprintln!("urlkit: {line}");
    }
    let writer = state.spawn_count_writer();
    // Other resolvers' changes on a shared database (PostgreSQL).
    let follower = state.registry.spawn_follower();
    // The archive fallbacks as the stored checks have them (nothing to do when no
    // domain has one).
    checks::refresh_archive(&state).await;
    let checker = checks::spawn(&state, &config.checks);
    let listener = tokio::net::TcpListener::from_std(listener)?;
    let draining = state.draining.clone();
    let shutdown = async move {
        signal.await;
        draining.store(true, Ordering::Relaxed);
    };
    connections(&state, &config, listener, tls, shutdown).await;
    writer.abort();
    if let Some(follower) = follower {
        follower.abort();
    }
    if let Some(checker) = checker {
        checker.abort();
    }
    state.flush_counts().await;
    Ok(())
}

/// Serves `state` on `listener` over plain HTTP with the connection layer of [`serve`]
/// (timeouts, caps, resolutions answered before the routes unless `config` sets a rate
/// limit) until `shutdown` completes. The tasks [`serve`] adds (counts, checks, the
/// follower) are the caller's.
pub async fn serve_on(
    state: &PurlState,
    config: &PurlConfig,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()>,
) {
    connections(state, config, listener, None, shutdown).await;
}

async fn connections(
    state: &PurlState,
    config: &PurlConfig,
    listener: tokio::net::TcpListener,
    tls: Option<Arc<rustls::ServerConfig>>,
    shutdown: impl std::future::Future<Output = ()>,
) {
    let limits = ConnectionLimits {
        header_timeout: config.header_timeout,
        idle_timeout: config.idle_timeout,
        // The resolver opens no files per request: only the database's few.
        max_connections: urlkit_web::connection_cap(config.max_connections, 0),
        shutdown_grace: config.shutdown_grace,
    };
    let router = routes(state.clone(), config);
    // With a rate limit the routes take every request, so that one limit counts them all.
    let fast = config
        .rate_limit
        .is_none()
        .then(|| Arc::new(front::Resolutions::new(state)) as Arc<dyn urlkit_web::FastPath>);
    urlkit_web::serve_connections_with(
        listener,
        router,
        fast,
        tls,
        limits,
        state.connection_metrics.clone(),
        shutdown,
    )
    .await;
}
