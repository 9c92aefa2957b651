//! The urlkit web tool: a page that encodes, decodes and inspects (working with or without
//! JavaScript), a JSON API described by OpenAPI, one-time file downloads, and HTTPS.
//!
//! [`serve`] runs it; [`app`] builds the router alone, for tests.

#![deny(missing_docs)]

pub mod api;
pub mod bucket;

pub mod compress;
pub mod conn;
pub mod cookie;
pub mod error;
pub mod i18n;
pub mod limits;
pub mod metrics;
pub mod page;
pub mod ratelimit;
pub mod routes;
pub mod store;
pub mod tls;

use anyhow::Context;
pub use conn::{
    serve_connections, serve_connections_with, ConnectionLimits, FastPath, PlainAnswer,
    PlainRequest,
};
pub use ratelimit::RateLimit;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use store::{DirStore, ResultStore};
pub use tls::TlsMode;

/// The default time a client has to send a request's headers (slow clients are cut off).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// The default time a connection or a request body may send nothing.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(30);
/// The default cap on open connections (lowered to what the descriptor limit allows).
pub const MAX_CONNECTIONS: usize = 4096;
/// The default cap on uploads processed at once.
pub const MAX_UPLOADS: usize = 16;
/// The slowest an upload may arrive, in bytes a second, averaged over each
/// [`AppState::upload_window`]: slower, it is cut off with a 408 and its slot freed.
pub const MIN_UPLOAD_RATE: u64 = 1024;
/// The default largest upload.
pub const MAX_UPLOAD: u64 = 100 << 20;
/// The default most bytes the result store holds: three results of the largest upload,
/// encoded (which can triple its size), fit.
pub const MAX_STORE: u64 = 1 << 30;

/// Everything `urlkit serve` can be told.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Where to listen (port 0 picks a free port).
    pub addr: SocketAddr,
    /// Plain HTTP, PEM files, or self-signed.
    pub tls: TlsMode,
    /// Where results wait for their download.
    pub store: StoreConfig,
    /// Largest file accepted, in bytes.
    pub max_upload: u64,
    /// How long a result waits for its download.
    pub ttl: Duration,
    /// Most bytes the result store may hold; past it uploads get a 507.
    pub max_store: u64,
    /// How long a client may take to send a request's headers before it is disconnected.
    pub header_timeout: Duration,
    /// How long a connection between requests, or a request body, may send nothing.
    pub idle_timeout: Duration,
    /// Most connections open at once (`None`: [`MAX_CONNECTIONS`], or fewer if the
    /// descriptor limit is lower).
    pub max_connections: Option<usize>,
    /// Most uploads processed at once; past it uploads get a 503.
    pub max_uploads: usize,
    /// Requests per client, or `None` for no limit.
    pub rate_limit: Option<RateLimit>,
    /// Proxies whose `X-Forwarded-For` names the client (for the rate limit).
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// How long requests in flight may take to finish after SIGTERM or Ctrl-C.
    pub shutdown_grace: Duration,
    /// Logs are JSON lines (the start-up line too) rather than text.
    pub json_logs: bool,
}

/// Where results wait for their download.
#[derive(Clone, Debug, Default)]
pub enum StoreConfig {
    /// A private temporary directory, removed at exit.
    #[default]
    Temporary,
    /// This directory (created if missing); leftovers of an earlier run are removed.
    Dir(PathBuf),
    /// An S3 bucket (or a compatible service), shared by any number of instances.
    S3 {
        /// `s3://bucket/prefix`.
        url: String,
        /// The service's endpoint, when not AWS's (or `AWS_ENDPOINT_URL`).
        endpoint: Option<String>,
        /// The region, when not `AWS_REGION`.
        region: Option<String>,
    },
}

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            tls: TlsMode::Off,
            store: StoreConfig::Temporary,
            max_upload: MAX_UPLOAD,
            ttl: Duration::from_secs(15 * 60),
            max_store: MAX_STORE,
            header_timeout: HEADER_TIMEOUT,
            idle_timeout: IDLE_TIMEOUT,
            max_connections: None,
            max_uploads: MAX_UPLOADS,
            rate_limit: None,
            trusted_proxies: Vec::new(),
            shutdown_grace: Duration::from_secs(10),
            json_logs: false,
        }
    }
}

/// What every handler shares: the store and the limits. Cheap to clone.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    store: Arc<dyn ResultStore>,
    max_upload: u64,
    ttl: Duration,
    tls: bool,
    uploads: Arc<tokio::sync::Semaphore>,
    max_uploads: usize,
    /// Uploads in progress per client, so that one client cannot hold every slot.
    uploads_by_client: Arc<std::sync::Mutex<std::collections::HashMap<std::net::IpAddr, usize>>>,
    body_idle_timeout: Duration,
    rate_limit: Option<RateLimit>,
    trusted_proxies: Arc<[ipnet::IpNet]>,
    metrics: Arc<metrics::Metrics>,
    draining: std::sync::atomic::AtomicBool,
}

impl AppState {
    /// State over `store` with these limits; `tls` adds HSTS to every answer. Uploads at
    /// once, the body idle timeout and the rate limit take their defaults
    /// ([`with_limits`](Self::with_limits) sets them).
    pub fn new(store: Arc<dyn ResultStore>, max_upload: u64, ttl: Duration, tls: bool) -> Self {
        AppState {
            inner: Arc::new(Inner {
                store,
                max_upload,
                ttl,
                tls,
                uploads: Arc::new(tokio::sync::Semaphore::new(MAX_UPLOADS)),
                max_uploads: MAX_UPLOADS,
                uploads_by_client: Arc::default(),
                body_idle_timeout: IDLE_TIMEOUT,
                rate_limit: None,
                trusted_proxies: Arc::new([]),
                metrics: Arc::default(),
                draining: Default::default(),
            }),
        }
    }

    /// This state with `max_uploads` uploads at once, request bodies cut off after
    /// `body_idle_timeout` without a byte, and `rate_limit` per client (identified
    /// through `trusted_proxies`).
    pub fn with_limits(
        self,
        max_uploads: usize,
        body_idle_timeout: Duration,
        rate_limit: Option<RateLimit>,
        trusted_proxies: Vec<ipnet::IpNet>,
    ) -> Self {
        AppState {
            inner: Arc::new(Inner {
                store: Arc::clone(&self.inner.store),
                max_upload: self.inner.max_upload,
                ttl: self.inner.ttl,
                tls: self.inner.tls,
                uploads: Arc::new(tokio::sync::Semaphore::new(max_uploads)),
                max_uploads,
                uploads_by_client: Arc::default(),
                body_idle_timeout,
                rate_limit,
                trusted_proxies: trusted_proxies.into(),
                metrics: Arc::clone(&self.inner.metrics),
                draining: Default::default(),
            }),
        }
    }

    /// The result store.
    pub fn store(&self) -> &dyn ResultStore {
        self.inner.store.as_ref()
    }

    /// Largest file accepted, in bytes.
    pub fn max_upload(&self) -> u64 {
        self.inner.max_upload
    }

    /// How long a result waits for its download.
    pub fn ttl(&self) -> Duration {
        self.inner.ttl
    }

    /// Whether the server speaks TLS.
    pub fn tls(&self) -> bool {
        self.inner.tls
    }

    /// A place among the uploads processed at once for `client`, held until the slot is
    /// dropped. Refused when every place is taken, or when the client already holds
    /// [`uploads_per_client`](Self::uploads_per_client) of them.
    pub fn upload_slot(&self, client: std::net::IpAddr) -> Result<UploadSlot, SlotRefused> {
        let mut by_client = self
            .inner
            .uploads_by_client
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let held = by_client.get(&client).copied().unwrap_or(0);
        if held >= self.uploads_per_client() {
            return Err(SlotRefused::ClientHoldsItsShare(held));
        }
        let permit = Arc::clone(&self.inner.uploads)
            .try_acquire_owned()
            .map_err(|_| SlotRefused::ServerFull)?;
        *by_client.entry(client).or_insert(0) += 1;
        Ok(UploadSlot {
            _permit: permit,
            client,
            by_client: Arc::clone(&self.inner.uploads_by_client),
        })
    }

    /// The most uploads one client may have in progress: a quarter of the server's
    /// (at least one).
    pub fn uploads_per_client(&self) -> usize {
        self.inner.max_uploads.div_ceil(4).max(1)
    }

    /// The window over which an upload must average [`MIN_UPLOAD_RATE`]: the body idle
    /// timeout and five seconds more, so a body that stops altogether meets the idle
    /// timeout first.
    pub fn upload_window(&self) -> Duration {
        self.inner.body_idle_timeout + Duration::from_secs(5)
    }

    /// How long a request body may send nothing.
    pub fn body_idle_timeout(&self) -> Duration {
        self.inner.body_idle_timeout
    }

    /// The rate limit per client, if any.
    pub fn rate_limit(&self) -> Option<RateLimit> {
        self.inner.rate_limit
    }

    /// The proxies trusted to name the client in `X-Forwarded-For`.
    pub fn trusted_proxies(&self) -> &[ipnet::IpNet] {
        &self.inner.trusted_proxies
    }

    /// This server's metrics.
    pub fn metrics(&self) -> Arc<metrics::Metrics> {
        Arc::clone(&self.inner.metrics)
    }

    /// Marks the server as shutting down: the readiness check fails from now on.
    pub fn start_draining(&self) {
        self.inner
            .draining
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether the server is shutting down.
    pub fn draining(&self) -> bool {
        self.inner
            .draining
            .load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// The router with every route and layer (see [`routes::router`]).
pub fn app(state: AppState) -> axum::Router {
    routes::router(state)
}

/// Deletes expired results every so often (a quarter of the TTL, between 1 s and 60 s),
/// for as long as the returned task runs.
pub fn spawn_sweeper(state: AppState) -> tokio::task::JoinHandle<()> {
    let every = (state.ttl() / 4).clamp(Duration::from_secs(1), Duration::from_secs(60));
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        loop {
            tick.tick().await;
            match state.store().sweep(state.ttl()).await {
                Ok(0) => {}
                Ok(n) => {
                    state.metrics().results_expired.inc_by(n as u64);
                    tracing::info!("deleted {n} expired result(s)");
                }
                Err(e) => {
                    state.metrics().store_error("sweep");
                    tracing::warn!("cannot sweep the result store: {e}");
                }
            }
        }
    })
}

/// Descriptors kept aside from connections: the listener, standard streams, the store's
/// files and sockets (two per upload), and the connections being refused past the cap.
fn reserved_descriptors(max_uploads: usize) -> usize {
    64 + 2 * max_uploads + conn::REFUSALS_AT_ONCE
}

/// Raises the soft limit on open descriptors to the hard one (as Go and nginx do) and
/// returns how many descriptors the process may then hold.
fn descriptor_limit() -> usize {
    rlimit::increase_nofile_limit(u64::MAX)
        .map_or(1024, |limit| usize::try_from(limit).unwrap_or(usize::MAX))
}

/// The connection cap: the one asked for (or [`MAX_CONNECTIONS`]), lowered so that
/// connections never take the descriptors the rest of the server needs (`max_uploads`
/// files open at once among them).
pub fn connection_cap(asked: Option<usize>, max_uploads: usize) -> usize {
    let room = descriptor_limit()
        .saturating_sub(reserved_descriptors(max_uploads))
        .max(1);
    let wanted = asked.unwrap_or(MAX_CONNECTIONS);
    if wanted > room {
        if asked.is_some() {
            tracing::warn!(
                "--max-connections {wanted} lowered to {room}: the descriptor limit allows no more"
            );
        }
        room
    } else {
        wanted
    }
}

/// The result store `config` asks for, what to call it, and a directory to remove at exit.
async fn open_store(
    config: &ServeConfig,
) -> anyhow::Result<(Arc<dyn ResultStore>, String, Option<PathBuf>)> {
    let (dir, temporary) = match &config.store {
        StoreConfig::S3 {
            url,
            endpoint,
            region,
        } => {
            let bucket = bucket::BucketStore::s3(
                url,
                endpoint.as_deref(),
                region.as_deref(),
                Some(config.max_store),
            )?;
            let checked =
                tokio::time::timeout(Duration::from_secs(15), bucket.check_conditional_create())
                    .await;
            match checked {
                Ok(Ok(())) => {}
                Ok(Err(e)) if e.kind() == std::io::ErrorKind::Unsupported => {
                    anyhow::bail!(
                        "cannot use {url} as the result store: {e}, so once-only downloads \
                         cannot be guaranteed"
                    )
                }
                Ok(Err(e)) => tracing::warn!(
                    "the result store {url} cannot be reached yet ({e}); not ready until it can"
                ),
                Err(_) => tracing::warn!(
                    "the result store {url} does not answer yet; not ready until it does"
                ),
            }
            return Ok((Arc::new(bucket), url.clone(), None));
        }
        StoreConfig::Dir(dir) => (dir.clone(), false),
        StoreConfig::Temporary => (
            store::private_temp_dir().context("cannot create a private temporary directory")?,
            true,
        ),
    };
    match DirStore::open(&dir) {
        Ok(store) => Ok((
            Arc::new(store.with_quota(Some(config.max_store))),
            dir.display().to_string(),
            temporary.then(|| dir.clone()),
        )),
        Err(e) => {
            if temporary {
                let _ = std::fs::remove_dir_all(&dir);
            }
            Err(anyhow::Error::from(e)
                .context(format!("cannot use {} as the result store", dir.display())))
        }
    }
}

/// Runs the web tool until Ctrl-C or SIGTERM, then fails its readiness check, stops
/// accepting and lets requests in flight finish (for at most
/// [`ServeConfig::shutdown_grace`]). Fails when the address cannot be bound, the store
/// cannot be created (or, on S3, does not honour conditional writes), or the TLS files
/// are unreadable or invalid.
pub async fn serve(config: ServeConfig) -> anyhow::Result<()> {
    let tls = tls::config(&config.tls).await?;
    let listener = std::net::TcpListener::bind(config.addr)
        .with_context(|| format!("cannot listen on {}", config.addr))?;
    listener.set_nonblocking(true)?;
    let (store, store_name, temporary) = open_store(&config).await?;
    let state = AppState::new(store, config.max_upload, config.ttl, tls.is_some()).with_limits(
        config.max_uploads,
        config.idle_timeout,
        config.rate_limit,
        config.trusted_proxies.clone(),
    );
    let limits = ConnectionLimits {
        header_timeout: config.header_timeout,
        idle_timeout: config.idle_timeout,
        max_connections: connection_cap(config.max_connections, config.max_uploads),
        shutdown_grace: config.shutdown_grace,
    };
    let sweeper = spawn_sweeper(state.clone());
    let metrics = state.metrics();
    let router = app(state.clone());
    let local = listener.local_addr()?;
    let scheme = if tls.is_some() { "https" } else { "http" };
    let announcement = format!(
        "serving on {scheme}://{local}  (results in {store_name}, upload limit {}, store limit \
         {}, kept {}s, {} connections at most)",
        urlkit_api::shown::human_size(config.max_upload),
        urlkit_api::shown::human_size(config.max_store),
        config.ttl.as_secs(),
        limits.max_connections,
    );
    let signal = shutdown_signal();
    announce(config.json_logs, &announcement);
    let listener = tokio::net::TcpListener::from_std(listener)?;
    let shutdown = async {
        signal.await;
        state.start_draining();
        announce(config.json_logs, "shutting down");
    };
    serve_connections(listener, router, tls, limits, metrics, shutdown).await;
    sweeper.abort();
    if let Some(dir) = temporary {
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(())
}

/// A line for the operator: `urlkit: …` on stderr, or a log record when logs are JSON. A
/// stderr nobody reads any more is no reason to stop serving.
fn announce(json: bool, line: &str) {
    if json {
        tracing::info!("{line}");
    } else {
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "urlkit: {line}");
    }
}

/// Listens for Ctrl-C (SIGINT) and SIGTERM from the moment it is called (a signal that
/// comes before the future is first awaited is not lost); the future completes at the
/// first of them. Call it inside the runtime, before announcing that the server is up.
pub fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    use tokio::signal::unix::{signal, Signal, SignalKind};
    async fn first(signal: std::io::Result<Signal>) {
        match signal {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    }
    let interrupt = first(signal(SignalKind::interrupt()));
    let terminate = first(signal(SignalKind::terminate()));
    async move {
        tokio::select! {
            _ = interrupt => {},
            _ = terminate => {},
        }
    }
}

/// Parses a size: bytes (`1048576`), or a number with a unit: `K`/`KB`/`KiB`, `M`/`MB`/`MiB`,
/// `G`/`GB`/`GiB` (all binary multiples, case-insensitive). Anything else is an error.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let number: u64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a size (try 100MiB, 10M or 1048576)"))?;
    let multiplier: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        _ => {
            return Err(format!(
                "{text:?}: unknown unit (use K, M, G, KiB, MiB or GiB)"
            ))
        }
    };
    number
        .checked_mul(multiplier)
        .ok_or_else(|| format!("{text:?} is too large"))
}

/// Parses a duration: seconds (`90`), or a number with `s`, `m`, `h` or `d` (`15m`).
/// Anything else, or zero, is an error.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let number: u64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a duration (try 15m, 90s or 1h)"))?;
    let seconds = match unit.trim() {
        "" | "s" => 1,
        "m" | "min" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => return Err(format!("{text:?}: unknown unit (use s, m, h or d)")),
    };
    match number.checked_mul(seconds) {
        Some(0) => Err(format!("{text:?}: the duration must be positive")),
        Some(s) => Ok(Duration::from_secs(s)),
        None => Err(format!("{text:?} is too long")),
    }
}

/// A place among the uploads processed at once, given back when dropped.
pub struct UploadSlot {
    _permit: tokio::sync::OwnedSemaphorePermit,
    client: std::net::IpAddr,
    by_client: Arc<std::sync::Mutex<std::collections::HashMap<std::net::IpAddr, usize>>>,
}

impl Drop for UploadSlot {
    fn drop(&mut self) {
        let mut by_client = self
            .by_client
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(held) = by_client.get_mut(&self.client) {
            *held -= 1;
            if *held == 0 {
                by_client.remove(&self.client);
            }
        }
    }
}

/// Why no upload slot was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotRefused {
    /// Every slot of the server is taken.
    ServerFull,
    /// The client already holds its share, this many.
    ClientHoldsItsShare(usize),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_accept_bytes_and_binary_units() {
        assert_eq!(parse_size("100MiB"), Ok(100 << 20));
        assert_eq!(parse_size("10M"), Ok(10 << 20));
        assert_eq!(parse_size("1048576"), Ok(1 << 20));
        assert_eq!(parse_size("2 kb"), Ok(2048));
        assert!(parse_size("ten").is_err());
        assert!(parse_size("5XB").is_err());
        assert!(parse_size("99999999999999G").is_err());
    }

    #[test]
    fn durations_accept_seconds_and_units() {
        assert_eq!(parse_duration("15m"), Ok(Duration::from_secs(900)));
        assert_eq!(parse_duration("90"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("2h"), Ok(Duration::from_secs(7200)));
        assert!(parse_duration("0s").is_err());
        assert!(parse_duration("soon").is_err());
    }

    #[test]
    fn rfc3339_formats_known_instants() {
        let t = std::time::UNIX_EPOCH + Duration::from_secs(951_782_400 + 3661);
        assert_eq!(api::rfc3339(t), "2000-02-29T01:01:01Z");
        assert_eq!(api::rfc3339(std::time::UNIX_EPOCH), "1970-01-01T00:00:00Z");
    }
}
