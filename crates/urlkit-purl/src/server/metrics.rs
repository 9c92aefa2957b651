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
    }

    /// Counts a resolution.
    pub fn resolved(&self, kind: &'static str, status: u16) {
        self.resolutions
            .get_or_create(&ResolutionLabels { kind, status })
            .inc();
    }

    /// Counts a write.
    pub fn wrote(&self, operation: &'static str, outcome: &'static str) {
        self.writes
            .get_or_create(&WriteLabels { operation, outcome })
            .inc();
    }
}
