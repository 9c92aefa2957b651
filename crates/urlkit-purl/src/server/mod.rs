//! `urlkit purl serve`: every path of the host resolves through the records held in
//! memory, but the reserved prefix `/-/`, which holds the page, the JSON API, health and
//! metrics. Runs on the web tool's connection layer (timeouts, caps, TLS, rate limits).

use std::net::SocketAddr;
use std::time::Duration;
use urlkit_web::{RateLimit, TlsMode};

/// Everything `urlkit purl serve` can be told.
#[derive(Clone, Debug)]
pub struct PurlConfig {
    /// Where to listen (port 0 picks a free port).
    pub addr: SocketAddr,
    /// The database (`sqlite:PATH`).
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
}

/// Runs the resolver until Ctrl-C or SIGTERM.
pub async fn serve(config: PurlConfig) -> anyhow::Result<()> {
    let _ = config;
    todo!()
}
