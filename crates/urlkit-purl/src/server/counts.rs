//! Resolution counts per record: each answer adds one to a counter beside its record in
//! the table (no lock, no allocation), and the counts are taken and written in batches, so
//! that no redirect waits on the database. No client address is kept.

use crate::registry::Registry;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;
use urlkit::purl::Name;

/// How often gathered counts are written.
pub const FLUSH_EVERY: Duration = Duration::from_secs(10);

/// Names written a transaction.
pub const BATCH: usize = 2_000;

/// Counts taken from the table that the database did not take yet.
#[derive(Default)]
pub struct Counts {
    unwritten: Mutex<HashMap<Name, u64>>,
}

impl Counts {
    fn unwritten(&self) -> std::sync::MutexGuard<'_, HashMap<Name, u64>> {
        self.unwritten.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Writes what was gathered, [`BATCH`] names a transaction, taken from the table a
    /// batch at a time with a pause for requests between batches, so that neither a
    /// write of a record nor a request waits for more than one batch. On failure the
    /// counts of the failed batch are kept for the next try (those not taken yet stay in
    /// the table) and the error returned.
    pub async fn flush(&self, registry: &Registry) -> Result<(), crate::store::StoreError> {
        let kept: Vec<(Name, u64)> = self.unwritten().drain().collect();
        let mut kept_batches = kept.chunks(BATCH);
        while let Some(batch) = kept_batches.next() {
            if let Err(e) = self.write(registry, batch).await {
                self.keep(kept_batches.flatten());
                return Err(e);
            }
        }
        let mut from = Some(0);
        while let Some(at) = from {
            let (batch, next) = registry.table().take_counts_from(at, BATCH);
            from = next;
            if !batch.is_empty() {
                self.write(registry, &batch).await?;
            }
            tokio::task::yield_now().await;
        }
        Ok(())
    }

    /// Writes one batch, or keeps it for the next try.
    async fn write(
        &self,
        registry: &Registry,
        batch: &[(Name, u64)],
    ) -> Result<(), crate::store::StoreError> {
        let written = registry.store().add_counts(batch).await;
        if written.is_err() {
            self.keep(batch);
        }
        written
    }

    fn keep<'a>(&self, rows: impl IntoIterator<Item = &'a (Name, u64)>) {
        let mut unwritten = self.unwritten();
        for (name, n) in rows {
            *unwritten.entry(name.clone()).or_insert(0) += n;
        }
    }

    /// Counts gathered for `name` and not yet written.
    pub fn pending(&self, registry: &Registry, name: &Name) -> u64 {
        let unwritten = self.unwritten().get(name).copied().unwrap_or(0);
        registry.table().count(name) + unwritten
    }
}
