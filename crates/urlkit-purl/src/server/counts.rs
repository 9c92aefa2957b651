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

    /// Writes what was gathered, [`BATCH`] names a transaction, so that a write of a
    /// record waits for one batch at most. On failure the counts not written are kept for
    /// the next try and the error returned.
    pub async fn flush(&self, registry: &Registry) -> Result<(), crate::store::StoreError> {
        let mut gathered = registry.table().take_counts();
        gathered.extend(self.unwritten().drain());
        if gathered.is_empty() {
            return Ok(());
        }
        let mut batches = gathered.chunks(BATCH);
        while let Some(batch) = batches.next() {
            if let Err(e) = registry.store().add_counts(batch).await {
                let mut unwritten = self.unwritten();
                for (name, n) in std::iter::once(batch).chain(batches).flatten() {
                    *unwritten.entry(name.clone()).or_insert(0) += n;
                }
                return Err(e);
            }
        }
        Ok(())
    }

    /// Counts gathered for `name` and not yet written.
    pub fn pending(&self, registry: &Registry, name: &Name) -> u64 {
        let unwritten = self.unwritten().get(name).copied().unwrap_or(0);
        registry.table().count(name) + unwritten
    }
}
