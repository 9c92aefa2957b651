//! Requests per client: a token bucket per client address (`tower_governor`). Past it, a
//! 429 JSON answer with `Retry-After`.
//!
//! The client is the peer of the connection; behind a proxy named in `--trusted-proxy`, it
//! is the nearest address in `X-Forwarded-For` that is not itself a trusted proxy (a
//! client cannot forge its way past the proxy, which appends the address it saw). IPv6
//! clients are counted per /64, the block one subscriber usually holds.

use crate::error::ApiError;
use crate::AppState;
use axum::extract::connect_info::ConnectInfo;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use ipnet::IpNet;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tower_governor::governor::{GovernorConfig, GovernorConfigBuilder};
use tower_governor::key_extractor::KeyExtractor;
use tower_governor::{GovernorError, GovernorLayer};

/// A rate limit: `per_second` requests a second on average, `burst` at once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateLimit {
    /// Requests a second on average (may be below 1).
    pub per_second: f64,
    /// Requests a client may make at once before the average applies.
    pub burst: u32,
}

impl RateLimit {
    /// Parses `N` or `N/s` (a second), `N/m` (a minute), `N/h` (an hour); the burst is
    /// twice the requests of a second, at least 10. Zero or anything else is an error.
    pub fn parse(text: &str) -> Result<RateLimit, String> {
        let (number, unit) = text.trim().split_once('/').unwrap_or((text.trim(), "s"));
        let count: u32 = number
            .trim()
            .parse()
            .map_err(|_| format!("{text:?} is not a rate (try 20, 20/s or 600/m)"))?;
        let seconds = match unit.trim() {
            "s" => 1.0,
            "m" | "min" => 60.0,
            "h" => 3600.0,
            _ => return Err(format!("{text:?}: unknown unit (use /s, /m or /h)")),
        };
        if count == 0 {
            return Err(format!("{text:?}: the rate must be positive"));
        }
        let per_second = f64::from(count) / seconds;
        Ok(RateLimit {
            per_second,
            burst: ((per_second * 2.0).ceil() as u32).max(10),
        })
    }

    fn period(&self) -> Duration {
        Duration::from_secs_f64(1.0 / self.per_second).max(Duration::from_nanos(1))
    }
}

/// Who a request counts against.
#[derive(Clone, Debug)]
pub struct ClientKey {
    trusted_proxies: Arc<[IpNet]>,
}

impl KeyExtractor for ClientKey {
    type Key = IpAddr;

    fn extract<T>(&self, request: &Request<T>) -> Result<IpAddr, GovernorError> {
        // Without a peer address (a router served without one) every request is one client.
        let peer = request
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
        Ok(counted_as(client_ip(
            peer,
            request.headers(),
            &self.trusted_proxies,
        )))
    }
}

/// The client's address: `peer`, or when `peer` is a trusted proxy, the last address of
/// `X-Forwarded-For` (all such headers, in order) that is not a trusted proxy; the first
/// one when all are. Entries that are not addresses end the search at the last trusted one.
pub fn client_ip(peer: IpAddr, headers: &HeaderMap, trusted_proxies: &[IpNet]) -> IpAddr {
    let trusted = |ip: &IpAddr| trusted_proxies.iter().any(|net| net.contains(ip));
    if !trusted(&peer) {
        return peer;
    }
    let hops: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .collect();
    let mut client = peer;
    for hop in hops.iter().rev() {
        match hop.parse::<IpAddr>() {
            Ok(ip) => {
                client = ip;
                if !trusted(&ip) {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    client
}

/// The client a request comes from, as the rate limit and the upload slots count it:
/// [`client_ip`] through the server's trusted proxies, IPv6 per /64. A request without a
/// peer address (a router served without one) is `0.0.0.0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Client(pub IpAddr);

impl FromRequestParts<AppState> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
        Ok(Client(counted_as(client_ip(
            peer,
            &parts.headers,
            state.trusted_proxies(),
        ))))
    }
}

/// IPv6 addresses counted per /64; IPv4-mapped ones as IPv4.
fn counted_as(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let bits = u128::from(v6) & !((1u128 << 64) - 1);
                IpAddr::V6(Ipv6Addr::from(bits))
            }
        },
        v4 => v4,
    }
}

/// `router` with `limit` applied per client, and a task that forgets clients idle for a
/// while (so the table does not grow with every address ever seen).
pub fn limit<S: Clone + Send + Sync + 'static>(
    router: Router<S>,
    limit: RateLimit,
    trusted_proxies: &[IpNet],
) -> Router<S> {
    // `finish` refuses only a zero period or burst, which `RateLimit` never has.
    let Some(config): Option<GovernorConfig<ClientKey, _>> = GovernorConfigBuilder::default()
        .period(limit.period())
        .burst_size(limit.burst)
        .key_extractor(ClientKey {
            trusted_proxies: trusted_proxies.into(),
        })
        .finish()
    else {
        return router;
    };
    let limiter = Arc::clone(config.limiter());
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(60));
        loop {
            tick.tick().await;
            limiter.retain_recent();
        }
    });
    router.layer(GovernorLayer::new(config).error_handler(too_many))
}

fn too_many(error: GovernorError) -> Response {
    match error {
        GovernorError::TooManyRequests { wait_time, headers } => {
            // The wait is rounded down to whole seconds; `Retry-After: 0` would invite the
            // client straight back.
            let seconds = u32::try_from(wait_time).unwrap_or(u32::MAX).max(1);
            let mut response = ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "rate-limited",
                format!("too many requests from your address; try again in {seconds} s"),
            )
            .into_response();
            if let Some(headers) = headers {
                response.headers_mut().extend(headers);
            }
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(seconds),
            );
            response
        }
        other => ApiError::internal("cannot apply the rate limit", other).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nets(list: &[&str]) -> Vec<IpNet> {
        list.iter().map(|n| n.parse().unwrap()).collect()
    }

    fn forwarded(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append("x-forwarded-for", value.parse().unwrap());
        }
        headers
    }

    #[test]
    fn forwarded_for_counts_only_from_a_trusted_proxy() {
        let proxy: IpAddr = "127.0.0.1".parse().unwrap();
        let stranger: IpAddr = "203.0.113.9".parse().unwrap();
        let headers = forwarded(&["198.51.100.1, 192.0.2.7"]);
        let trusted = nets(&["127.0.0.1/32", "10.0.0.0/8"]);
        assert_eq!(client_ip(stranger, &headers, &trusted), stranger);
        assert_eq!(client_ip(proxy, &headers, &[]), proxy);
        assert_eq!(
            client_ip(proxy, &headers, &trusted),
            "192.0.2.7".parse::<IpAddr>().unwrap()
        );
        // Trusted hops are skipped; a forged entry before the real client is not reached.
        let headers = forwarded(&["6.6.6.6, 192.0.2.7", "10.1.2.3"]);
        assert_eq!(
            client_ip(proxy, &headers, &trusted),
            "192.0.2.7".parse::<IpAddr>().unwrap()
        );
        assert_eq!(client_ip(proxy, &forwarded(&["junk"]), &trusted), proxy);
        assert_eq!(client_ip(proxy, &HeaderMap::new(), &trusted), proxy);
    }

    #[test]
    fn rates_parse_with_units() {
        assert_eq!(RateLimit::parse("20").unwrap().per_second, 20.0);
        assert_eq!(RateLimit::parse("600/m").unwrap().per_second, 10.0);
        assert_eq!(RateLimit::parse("600/m").unwrap().burst, 20);
        assert_eq!(RateLimit::parse("36/h").unwrap().burst, 10);
        assert!(RateLimit::parse("0").is_err());
        assert!(RateLimit::parse("fast").is_err());
        assert!(RateLimit::parse("5/d").is_err());
    }

    #[test]
    fn ipv6_clients_count_per_64() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::2".parse().unwrap();
        assert_eq!(counted_as(a), counted_as(b));
        let mapped: IpAddr = "::ffff:192.0.2.1".parse().unwrap();
        assert_eq!(counted_as(mapped), "192.0.2.1".parse::<IpAddr>().unwrap());
    }
}
