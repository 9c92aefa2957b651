//! The resolver's own metrics, registered beside the connection layer's.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;

/// A resolution's labels: what kind of answer, and its status.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ResolutionLabels {
    /// `redirect`, `partial`, `negotiated`, `message`, `not_acceptable`, `broken_chain`,
    /// `no_record`, `bad_name`.
    pub kind: &'static str,
    /// The HTTP status.
    pub status: u16,
}

/// A write's labels: what it did and how it ended.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct WriteLabels {
    /// `put`, `delete`, `restore`.
    pub operation: &'static str,
    /// `ok`, `stale`, `forbidden`, `invalid`, `not_found`, `unavailable`.
    pub outcome: &'static str,
}

/// A gauge of targets' labels: the kind of their last check.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct TargetLabels {
    /// `ok`, `moved`, `gone`, `client_error`, `server_error`, `redirect_loop`, `dns`,
    /// `tls`, `timeout`, `unreachable`, `disallowed`.
    pub kind: &'static str,
}

/// The kinds of resolution, as [`ResolutionLabels::kind`] names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A plain redirect (perhaps through a chain).
    Redirect,
    /// A partial record's redirect.
    Partial,
    /// A negotiated record's redirect.
    Negotiated,
    /// A record's `404` or `410` message.
    Message,
    /// `406`: no offer of a negotiated record fits.
    NotAcceptable,
    /// `508`: a chain too deep or to nowhere.
    BrokenChain,
    /// `404`: the rest of a partial name would leave its target's site.
    LeavesTarget,
    /// `404`: no record.
    NoRecord,
    /// `400`: not a name.
    BadName,
}

impl Kind {
    const ALL: [Kind; 9] = [
        Kind::Redirect,
        Kind::Partial,
        Kind::Negotiated,
        Kind::Message,
        Kind::NotAcceptable,
        Kind::BrokenChain,
        Kind::LeavesTarget,
        Kind::NoRecord,
        Kind::BadName,
    ];

    /// The label.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Redirect => "redirect",
            Kind::Partial => "partial",
            Kind::Negotiated => "negotiated",
            Kind::Message => "message",
            Kind::NotAcceptable => "not_acceptable",
            Kind::BrokenChain => "broken_chain",
            Kind::LeavesTarget => "leaves_target",
            Kind::NoRecord => "no_record",
            Kind::BadName => "bad_name",
        }
    }
}

/// The statuses a resolution answers with, whose counters are kept at hand.
pub const RESOLUTION_STATUSES: [u16; 10] = [301, 302, 303, 307, 308, 400, 404, 406, 410, 508];

/// Counters of one family kept at hand by a few small indices, so that counting takes no
/// lock and formats no label once a counter exists.
#[derive(Clone, Debug)]
pub struct Handy<const N: usize> {
    cells: [std::sync::OnceLock<Counter>; N],
}

impl<const N: usize> Default for Handy<N> {
    fn default() -> Self {
        Handy {
            cells: std::array::from_fn(|_| std::sync::OnceLock::new()),
        }
    }
}

impl<const N: usize> Handy<N> {
    /// The counter at `at` (below `N`), made by `make` the first time.
    pub fn get(&self, at: usize, make: impl FnOnce() -> Counter) -> &Counter {
        self.cells[at].get_or_init(make)
    }
}

/// Every metric of the resolver.
#[derive(Clone, Default)]
pub struct PurlMetrics {
    /// Resolutions, by kind and status.
    pub resolutions: Family<ResolutionLabels, Counter>,
    /// Writes, by operation and outcome.
    pub writes: Family<WriteLabels, Counter>,
    /// API requests refused before any write: no or a bad token (401), a bad body.
    pub refusals: Counter,
    /// Records held in memory (tombstones included).
    pub records: Gauge,
    /// Batches of resolution counts that could not be written (kept for the next try).
    pub count_flush_failures: Counter,
    /// Targets by the kind of their last check (set after each run of the checker).
    pub targets: Family<TargetLabels, Gauge>,
    /// The counters of `resolutions` by kind and status, at hand.
    handy: Handy<{ Kind::ALL.len() * RESOLUTION_STATUSES.len() }>,
}

impl PurlMetrics {
    /// Registers every metric under `purl_` in `registry`.
    pub fn register(&self, registry: &mut Registry) {
        let registry = registry.sub_registry_with_prefix("purl");
        registry.register(
            "resolutions",
            "Requests resolved, by kind of answer and status",
            self.resolutions.clone(),
        );
        registry.register(
            "writes",
            "Changes of records, by operation and outcome",
            self.writes.clone(),
        );
        registry.register(
            "refusals",
            "API requests refused before a write (authentication, malformed bodies)",
            self.refusals.clone(),
        );
        registry.register(
            "records",
            "Records held in memory, tombstones included",
            self.records.clone(),
        );
        registry.register(
            "count_flush_failures",
            "Batches of resolution counts the database did not take",
            self.count_flush_failures.clone(),
        );
        registry.register(
            "targets",
            "Targets of records by the kind of their last check",
            self.targets.clone(),
        );
    }

    /// Sets how many targets' last check was of `kind`.
    pub fn set_targets(&self, kind: &'static str, n: i64) {
        self.targets.get_or_create(&TargetLabels { kind }).set(n);
    }

    /// Counts a resolution.
    pub fn resolved(&self, kind: &'static str, status: u16) {
        self.resolutions
            .get_or_create(&ResolutionLabels { kind, status })
            .inc();
    }

    /// Counts a resolution of `kind` answered with `status`: an atomic increment, once
    /// its counter exists.
    pub fn resolved_as(&self, kind: Kind, status: axum::http::StatusCode) {
        let status = status.as_u16();
        let kind_at = Kind::ALL.iter().position(|k| *k == kind).unwrap_or(0);
        match RESOLUTION_STATUSES.iter().position(|s| *s == status) {
            Some(status_at) => {
                let at = kind_at * RESOLUTION_STATUSES.len() + status_at;
                self.handy
                    .get(at, || {
                        self.resolutions
                            .get_or_create(&ResolutionLabels {
                                kind: kind.label(),
                                status,
                            })
                            .clone()
                    })
                    .inc();
            }
            None => self.resolved(kind.label(), status),
        }
    }

    /// Counts a write.
    pub fn wrote(&self, operation: &'static str, outcome: &'static str) {
        self.writes
            .get_or_create(&WriteLabels { operation, outcome })
            .inc();
    }
}
