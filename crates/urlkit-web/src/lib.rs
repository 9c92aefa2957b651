//! The urlkit web tool: a page that encodes, decodes and inspects (working with or without
//! JavaScript), a JSON API described by OpenAPI, one-time file downloads, and HTTPS.
//!
//! [`serve`] runs it; [`app`] builds the router alone, for tests.

#![deny(missing_docs)]

pub mod api;
pub mod codec;
pub mod error;
pub mod i18n;
pub mod page;
pub mod routes;
pub mod store;
pub mod tls;
pub mod view;

use anyhow::Context;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use store::{DirStore, ResultStore};
pub use tls::TlsMode;

/// The default time a client has to send a request's headers (slow clients are cut off).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// Everything `urlkit serve` can be told.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Where to listen (port 0 picks a free port).
    pub addr: SocketAddr,
    /// Plain HTTP, PEM files, or self-signed.
    pub tls: TlsMode,
    /// The result directory; `None`: a private temporary directory, removed at exit.
    pub store: Option<PathBuf>,
    /// Largest file accepted, in bytes.
    pub max_upload: u64,
    /// How long a result waits for its download.
    pub ttl: Duration,
    /// Most bytes the result store may hold (`None`: no limit); past it uploads get a 507.
    pub max_store: Option<u64>,
    /// How long a client may take to send a request's headers before it is disconnected.
    pub header_timeout: Duration,
}

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            tls: TlsMode::Off,
            store: None,
            max_upload: 100 * 1024 * 1024,
            ttl: Duration::from_secs(15 * 60),
            max_store: None,
            header_timeout: HEADER_TIMEOUT,
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
}

impl AppState {
    /// State over `store` with these limits; `tls` adds HSTS to every answer.
    pub fn new(store: Arc<dyn ResultStore>, max_upload: u64, ttl: Duration, tls: bool) -> Self {
        AppState {
            inner: Arc::new(Inner {
                store,
                max_upload,
                ttl,
                tls,
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
                Ok(n) => tracing::info!("deleted {n} expired result(s)"),
                Err(e) => tracing::warn!("cannot sweep the result store: {e}"),
            }
        }
    })
}

/// Runs the web tool until Ctrl-C or SIGTERM. Fails when the address cannot be bound, the
/// store cannot be created, or the TLS files are unreadable or invalid.
pub async fn serve(config: ServeConfig) -> anyhow::Result<()> {
    let tls = tls::config(&config.tls).await?;
    let listener = std::net::TcpListener::bind(config.addr)
        .with_context(|| format!("cannot listen on {}", config.addr))?;
    listener.set_nonblocking(true)?;
    let (dir, temporary) = match &config.store {
        Some(dir) => (dir.clone(), false),
        None => (
            store::private_temp_dir().context("cannot create a private temporary directory")?,
            true,
        ),
    };
    let store = match DirStore::open(&dir) {
        Ok(store) => store.with_quota(config.max_store),
        Err(e) => {
            if temporary {
                let _ = std::fs::remove_dir_all(&dir);
            }
            return Err(anyhow::Error::from(e)
                .context(format!("cannot use {} as the result store", dir.display())));
        }
    };
    let state = AppState::new(
        Arc::new(store),
        config.max_upload,
        config.ttl,
        tls.is_some(),
    );
    let sweeper = spawn_sweeper(state.clone());
    let router = app(state);
    let local = listener.local_addr()?;
    let scheme = if tls.is_some() { "https" } else { "http" };
    eprintln!(
        "urlkit: serving on {scheme}://{local}  (results in {}, upload limit {}, kept {}s)",
        dir.display(),
        human_size(config.max_upload),
        config.ttl.as_secs()
    );
    let result = match tls {
        None => {
            let listener = tokio::net::TcpListener::from_std(listener)?;
            serve_router(listener, router, config.header_timeout, shutdown_signal()).await;
            Ok(())
        }
        Some(tls) => {
            let handle = axum_server::Handle::new();
            let stopper = handle.clone();
            tokio::spawn(async move {
                shutdown_signal().await;
                stopper.graceful_shutdown(Some(Duration::from_secs(10)));
            });
            let mut server = axum_server::from_tcp_rustls(listener, tls);
            server
                .http_builder()
                .http1()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(config.header_timeout);
            server
                .handle(handle)
                .serve(router.into_make_service())
                .await
                .map_err(anyhow::Error::from)
        }
    };
    sweeper.abort();
    if temporary {
        let _ = std::fs::remove_dir_all(&dir);
    }
    result
}

/// Serves `router` on `listener` over HTTP/1.1 and HTTP/2 until `shutdown` completes, then
/// lets requests in flight finish (for at most ten seconds).
///
/// Unlike a plain accept loop, a client that does not send a request's headers within
/// `header_timeout` is disconnected, so slow clients cannot hold connections open; a
/// failed `accept` (such as running out of file descriptors) is logged and retried after
/// a short pause instead of ending the server.
pub async fn serve_router(
    listener: tokio::net::TcpListener,
    router: axum::Router,
    header_timeout: Duration,
    shutdown: impl std::future::Future<Output = ()>,
) {
    use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
    let mut builder = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    builder
        .http2()
        .timer(TokioTimer::new())
        .keep_alive_interval(Some(Duration::from_secs(30)));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    tracing::warn!("cannot accept a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let service = hyper_util::service::TowerToHyperService::new(router.clone());
        let connection = builder
            .serve_connection_with_upgrades(TokioIo::new(stream), service)
            .into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!("connection ended: {e}");
            }
        });
    }
    drop(listener);
    tokio::select! {
        () = graceful.shutdown() => {},
        () = tokio::time::sleep(Duration::from_secs(10)) => {},
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
    eprintln!("urlkit: shutting down");
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

/// A size for people: `100 MiB`, `512 KiB`, `10 bytes`.
pub fn human_size(bytes: u64) -> String {
    const UNITS: [(&str, u64); 3] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)];
    for (unit, size) in UNITS {
        if bytes >= size && bytes.is_multiple_of(size) {
            return format!("{} {unit}", bytes / size);
        }
    }
    for (unit, size) in UNITS {
        if bytes >= size {
            return format!("{:.1} {unit}", bytes as f64 / size as f64);
        }
    }
    format!("{bytes} bytes")
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

    #[test]
    fn human_sizes() {
        assert_eq!(human_size(100 << 20), "100 MiB");
        assert_eq!(human_size(1500), "1.5 KiB");
        assert_eq!(human_size(10), "10 bytes");
    }
}
