//! The link checker: visits every target of the records (redirect and partial targets,
//! negotiated offers and fallbacks; not chains, which lead to other records, nor `404` and
//! `410` messages) and says what became of it.
//!
//! Politely: `HEAD` first, `GET` only where `HEAD` is refused (`405`, `501`); redirects
//! followed by hand, up to a limit, a place seen twice being a loop; a timeout per
//! request; a user agent that names the service; `robots.txt` fetched once per host and
//! honoured (a disallowed target is recorded as such, not fetched; a `Crawl-delay` longer
//! than the configured delay is used instead); at most `per_host` requests to one host at
//! once, and `delay` between one request's end and the next one's start on that host.
//!
//! | module | concept |
//! |---|---|
//! | `classify` | the kinds of outcome, from a status or a failed request |
//! | `robots` | a host's `robots.txt` |

pub mod classify;
pub mod robots;

pub use classify::OutcomeKind;

use crate::model::{now, Millis};
use robots::Robots;
use serde::Serialize;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{OnceCell, Semaphore};
use tokio::time::Instant;
use urlkit::purl::{Action, Name, Record};

/// The user agent the checker sends: the service, its version, and what it is.
pub const USER_AGENT: &str = concat!(
    "urlkit-purl/",
    env!("CARGO_PKG_VERSION"),
    " (+link checker)"
);

/// How the checker goes about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckerOptions {
    /// Requests to one host at once (at least 1).
    pub per_host: usize,
    /// Time between one request's end and the next one's start on one host.
    pub delay: Duration,
    /// How long one request may take, connection included.
    pub timeout: Duration,
    /// Redirects followed from a target before it counts as a loop.
    pub max_redirects: usize,
    /// Targets checked at once over all hosts.
    pub in_flight: usize,
}

impl Default for CheckerOptions {
    fn default() -> Self {
        CheckerOptions {
            per_host: 1,
            delay: Duration::from_millis(1000),
            timeout: Duration::from_secs(10),
            max_redirects: 10,
            in_flight: 256,
        }
    }
}

/// One target of one record.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    /// The record.
    pub name: Name,
    /// The URL it sends people to (a partial record's base).
    pub url: String,
}

/// The targets of one record, in the record's order, each once.
pub fn targets_of(record: &Record) -> Vec<String> {
    let mut urls: Vec<String> = match &record.action {
        Action::Redirect { target, .. } | Action::Partial { target, .. } => vec![target.clone()],
        Action::Negotiate {
            offers, fallback, ..
        } => offers
            .iter()
            .map(|o| o.target.clone())
            .chain(fallback.clone())
            .collect(),
        Action::Chain { .. } | Action::NotFound { .. } | Action::Gone { .. } => Vec::new(),
    };
    let mut seen = HashSet::new();
    urls.retain(|u| seen.insert(u.clone()));
    urls
}

/// The targets of every record, those of names under `prefix` only if one is given.
pub fn targets<'a>(
    records: impl Iterator<Item = &'a Record>,
    prefix: Option<&Name>,
) -> Vec<Target> {
    records
        .filter(|r| prefix.is_none_or(|p| r.name.is_under(p)))
        .flat_map(|r| {
            targets_of(r).into_iter().map(|url| Target {
                name: r.name.clone(),
                url,
            })
        })
        .collect()
}

/// What one check found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// Its kind.
    pub kind: OutcomeKind,
    /// The last HTTP status answered, if any.
    pub status: Option<u16>,
    /// Where permanent redirects lead ([`OutcomeKind::Moved`]): the suggested new target.
    pub suggestion: Option<String>,
    /// What happened, in words (the error, the redirects followed).
    pub detail: String,
}

/// A check of a record's target, as stored in its status history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TargetCheck {
    /// The record.
    pub name: Name,
    /// The target checked.
    pub target: String,
    /// When (milliseconds since the epoch).
    pub checked_at: Millis,
    /// What was found.
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// One host's share of the checker: its requests at once, when the next may start, and its
/// `robots.txt`.
struct Host {
    permits: Arc<Semaphore>,
    next: tokio::sync::Mutex<Instant>,
    robots: OnceCell<Robots>,
}

/// The checker, with its HTTP client and its hosts. Cheap to share (`Arc`).
pub struct Checker {
    client: reqwest::Client,
    options: CheckerOptions,
    hosts: Mutex<HashMap<String, Arc<Host>>>,
}

/// The statuses that say `HEAD` is not served, after which the target is fetched with
/// `GET`.
const HEAD_REFUSED: [u16; 2] = [405, 501];

impl Checker {
    /// A checker going about it as `options` say (a `per_host` or `in_flight` of 0 is read
    /// as 1). Fails only when the TLS setup cannot be made (no root certificates at all).
    pub fn new(options: CheckerOptions) -> Result<Checker, String> {
        let client = reqwest::Client::builder()
            .user_agent(USER_AGENT)
            .redirect(reqwest::redirect::Policy::none())
            .timeout(options.timeout)
            .connect_timeout(options.timeout)
            .pool_max_idle_per_host(options.per_host.max(1))
            .build()
            .map_err(|e| format!("cannot set up the link checker's HTTP client: {e}"))?;
        Ok(Checker {
            client,
            options: CheckerOptions {
                per_host: options.per_host.max(1),
                in_flight: options.in_flight.max(1),
                ..options
            },
            hosts: Mutex::new(HashMap::new()),
        })
    }

    /// The options in force.
    pub fn options(&self) -> &CheckerOptions {
        &self.options
    }

    fn host(&self, url: &reqwest::Url) -> Arc<Host> {
        let key = host_key(url);
        let mut hosts = self.hosts.lock().unwrap_or_else(|p| p.into_inner());
        hosts
            .entry(key)
            .or_insert_with(|| {
                Arc::new(Host {
                    permits: Arc::new(Semaphore::new(self.options.per_host)),
                    next: tokio::sync::Mutex::new(Instant::now()),
                    robots: OnceCell::new(),
                })
            })
            .clone()
    }

    /// Sends one request to `host` within its limits: waits for a free place and for the
    /// delay since the last request ended, and sets when the next may start.
    async fn send(
        &self,
        host: &Host,
        request: reqwest::RequestBuilder,
    ) -> Result<reqwest::Response, reqwest::Error> {
        // The semaphore is never closed.
        let _permit = host.permits.acquire().await;
        {
            let next = host.next.lock().await;
            tokio::time::sleep_until(*next).await;
        }
        let answered = request.send().await;
        let mut delay = self.options.delay;
        if let Some(Some(crawl)) = host.robots.get().map(Robots::crawl_delay) {
            delay = delay.max(crawl);
        }
        *host.next.lock().await = Instant::now() + delay;
        answered
    }

    /// Whether the host's `robots.txt` (fetched the first time it is needed) allows `url`.
    async fn allowed(&self, host: &Host, url: &reqwest::Url) -> bool {
        let robots = host
            .robots
            .get_or_init(|| async {
                let mut at = url.clone();
                at.set_path("/robots.txt");
                at.set_query(None);
                at.set_fragment(None);
                match self.send(host, self.client.get(at)).await {
                    Ok(response) if response.status().is_success() => {
                        match read_capped(response, robots::ROBOTS_CAP).await {
                            Some(body) => Robots::parse(&body),
                            None => Robots::All,
                        }
                    }
                    _ => Robots::All,
                }
            })
            .await;
        robots.allows(url)
    }

    /// Checks one URL: robots, `HEAD` (or `GET`), redirects.
    ///
    /// Bad input: a URL that does not parse, or is not `http` or `https`, is a
    /// [`OutcomeKind::ClientError`] saying so, with no request made.
    pub async fn check(&self, url: &str) -> Outcome {
        let mut current = match reqwest::Url::parse(url) {
            Ok(u) if matches!(u.scheme(), "http" | "https") => u,
            Ok(u) => return not_fetched(format!("{url}: a {} URL is not checked", u.scheme())),
            Err(e) => return not_fetched(format!("{url:?} is not a URL: {e}")),
        };
        let mut seen = HashSet::from([current.as_str().to_string()]);
        let mut permanent_only = true;
        let mut suggestion: Option<String> = None;
        let mut hops: Vec<String> = Vec::new();
        loop {
            let host = self.host(&current);
            if !self.allowed(&host, &current).await {
                return Outcome {
                    kind: OutcomeKind::Disallowed,
                    status: None,
                    suggestion: None,
                    detail: with_hops(
                        &hops,
                        format!("robots.txt of {} disallows {current}", host_key(&current)),
                    ),
                };
            }
            let mut response = self.send(&host, self.client.head(current.clone())).await;
            if let Ok(r) = &response {
                if HEAD_REFUSED.contains(&r.status().as_u16()) {
                    response = self.send(&host, self.client.get(current.clone())).await;
                }
            }
            let response = match response {
                Ok(response) => response,
                Err(error) => {
                    let (kind, text) = classify::of_error(&error);
                    return Outcome {
                        kind,
                        status: None,
                        suggestion: None,
                        detail: with_hops(&hops, text),
                    };
                }
            };
            let status = response.status().as_u16();
            let location = response
                .headers()
                .get(reqwest::header::LOCATION)
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
            drop(response);
            if let (true, Some(location)) = ((300..400).contains(&status), location) {
                let next = match current.join(&location) {
                    Ok(next) if matches!(next.scheme(), "http" | "https") => next,
                    _ => {
                        return Outcome {
                            kind: OutcomeKind::ClientError,
                            status: Some(status),
                            suggestion: None,
                            detail: with_hops(
                                &hops,
                                format!(
                                "{current} answered {status} to {location:?}, not an http(s) URL"
                            ),
                            ),
                        }
                    }
                };
                hops.push(format!("{status} {next}"));
                if matches!(status, 301 | 308) && permanent_only {
                    suggestion = Some(next.to_string());
                } else {
                    permanent_only = false;
                }
                if !seen.insert(next.as_str().to_string()) {
                    return Outcome {
                        kind: OutcomeKind::RedirectLoop,
                        status: Some(status),
                        suggestion: None,
                        detail: with_hops(&hops, format!("{next} was visited before")),
                    };
                }
                if hops.len() > self.options.max_redirects {
                    return Outcome {
                        kind: OutcomeKind::RedirectLoop,
                        status: Some(status),
                        suggestion: None,
                        detail: with_hops(
                            &hops,
                            format!("more than {} redirects", self.options.max_redirects),
                        ),
                    };
                }
                current = next;
                continue;
            }
            let mut kind = classify::of_status(status);
            let suggestion = match (kind, suggestion) {
                (OutcomeKind::Ok, Some(s)) => {
                    kind = OutcomeKind::Moved;
                    Some(s)
                }
                _ => None,
            };
            return Outcome {
                kind,
                status: Some(status),
                suggestion,
                detail: with_hops(&hops, format!("{current} answered {status}")),
            };
        }
    }

    /// Checks every target (each URL once, however many records name it), at most
    /// [`CheckerOptions::in_flight`] at once, the hosts taken in turn so that one large
    /// host does not hold up the others. `done` is told of each result as it comes.
    pub async fn check_all(
        self: &Arc<Self>,
        targets: Vec<Target>,
        mut done: impl FnMut(&TargetCheck),
    ) -> Vec<TargetCheck> {
        let mut by_url: HashMap<String, Vec<Name>> = HashMap::new();
        let mut order: Vec<String> = Vec::new();
        for target in targets {
            let names = by_url.entry(target.url.clone()).or_default();
            if names.is_empty() {
                order.push(target.url);
            }
            if !names.contains(&target.name) {
                names.push(target.name);
            }
        }
        // Round robin over hosts.
        let mut queues: Vec<(String, VecDeque<String>)> = Vec::new();
        for url in order {
            let key = reqwest::Url::parse(&url)
                .map(|u| host_key(&u))
                .unwrap_or_default();
            match queues.iter_mut().find(|(k, _)| *k == key) {
                Some((_, q)) => q.push_back(url),
                None => queues.push((key, VecDeque::from([url]))),
            }
        }
        let mut work = Vec::with_capacity(by_url.len());
        while !queues.is_empty() {
            queues.retain_mut(|(_, q)| match q.pop_front() {
                Some(url) => {
                    work.push(url);
                    true
                }
                None => false,
            });
        }
        let mut results = Vec::new();
        let mut running = tokio::task::JoinSet::new();
        let mut pending = work.into_iter();
        loop {
            while running.len() < self.options.in_flight {
                let Some(url) = pending.next() else { break };
                let checker = self.clone();
                running.spawn(async move {
                    let outcome = checker.check(&url).await;
                    (url, outcome)
                });
            }
            let Some(joined) = running.join_next().await else {
                break;
            };
            let Ok((url, outcome)) = joined else { continue };
            let checked_at = now();
            for name in by_url.remove(&url).unwrap_or_default() {
                let check = TargetCheck {
                    name,
                    target: url.clone(),
                    checked_at,
                    outcome: outcome.clone(),
                };
                done(&check);
                results.push(check);
            }
        }
        results
    }
}

/// A host as the limits count it: scheme, host and port.
fn host_key(url: &reqwest::Url) -> String {
    format!(
        "{}://{}:{}",
        url.scheme(),
        url.host_str().unwrap_or(""),
        url.port_or_known_default().unwrap_or(0)
    )
}

fn not_fetched(detail: String) -> Outcome {
    Outcome {
        kind: OutcomeKind::ClientError,
        status: None,
        suggestion: None,
        detail,
    }
}

fn with_hops(hops: &[String], text: String) -> String {
    if hops.is_empty() {
        text
    } else {
        format!("after {}: {text}", hops.join(", "))
    }
}

/// At most `cap` bytes of a body; `None` when it fails.
async fn read_capped(mut response: reqwest::Response, cap: usize) -> Option<Vec<u8>> {
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.ok()? {
        body.extend_from_slice(&chunk);
        if body.len() >= cap {
            body.truncate(cap);
            break;
        }
    }
    Some(body)
}

/// One run over the records of `registry` (those under `domain` only, if given): every
/// target checked, the results appended to the status history. `done` is told of each
/// result as it comes. Fails only when the results cannot be stored.
pub async fn run(
    registry: &crate::registry::Registry,
    checker: &Arc<Checker>,
    domain: Option<&Name>,
    done: impl FnMut(&TargetCheck),
) -> Result<Vec<TargetCheck>, crate::store::StoreError> {
    let targets = targets(registry.table().records(), domain);
    let checks = checker.check_all(targets, done).await;
    registry.store().add_checks(&checks).await?;
    Ok(checks)
}

/// How many of `checks` are of each kind, in [`OutcomeKind::ALL`]'s order (kinds with none
/// left out).
pub fn tally(checks: &[TargetCheck]) -> Vec<(OutcomeKind, usize)> {
    OutcomeKind::ALL
        .into_iter()
        .map(|k| (k, checks.iter().filter(|c| c.outcome.kind == k).count()))
        .filter(|(_, n)| *n > 0)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use urlkit::purl::Offer;

    #[test]
    fn targets_are_redirects_partials_and_offers() {
        let name = |t: &str| Name::parse(t).unwrap();
        let records = [
            Record {
                name: name("/a"),
                action: Action::Redirect {
                    status: 302,
                    target: "https://a.example/".into(),
                },
                max_age: None,
            },
            Record {
                name: name("/b/"),
                action: Action::Partial {
                    status: 302,
                    target: "https://b.example/base/".into(),
                },
                max_age: None,
            },
            Record {
                name: name("/c"),
                action: Action::Negotiate {
                    status: 303,
                    offers: vec![
                        Offer {
                            media_type: "text/html".into(),
                            language: None,
                            target: "https://c.example/v.html".into(),
                        },
                        Offer {
                            media_type: "text/turtle".into(),
                            language: None,
                            target: "https://c.example/v.ttl".into(),
                        },
                    ],
                    fallback: Some("https://c.example/v.html".into()),
                },
                max_age: None,
            },
            Record {
                name: name("/d"),
                action: Action::Chain { to: name("/a") },
                max_age: None,
            },
            Record {
                name: name("/e"),
                action: Action::Gone {
                    message: "x".into(),
                },
                max_age: None,
            },
        ];
        let all = targets(records.iter(), None);
        let urls: Vec<_> = all.iter().map(|t| t.url.as_str()).collect();
        assert_eq!(
            urls,
            [
                "https://a.example/",
                "https://b.example/base/",
                "https://c.example/v.html",
                "https://c.example/v.ttl"
            ]
        );
        let under = targets(records.iter(), Some(&name("/b/")));
        assert_eq!(under.len(), 1);
        assert_eq!(under[0].name, name("/b/"));
    }
}
