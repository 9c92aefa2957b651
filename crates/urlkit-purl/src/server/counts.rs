//! Resolution counts per record, gathered in memory and written in batches, so that no
//! redirect waits on the database. No client address is kept.

use crate::store::Store;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;
use urlkit::purl::Name;

/// How often gathered counts are written.
pub const FLUSH_EVERY: Duration = Duration::from_secs(2);

/// Names written a transaction.
pub const BATCH: usize = 2_000;

/// Counts not yet written.
#[derive(Default)]
pub struct Counts {
    pending: Mutex<HashMap<Name, u64>>,
}

impl Counts {
    /// Adds one resolution of `name`.
    pub fn add(&self, name: &Name) {
        let mut pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
        match pending.get_mut(name) {
            Some(n) => *n += 1,
            None => {
                pending.insert(name.clone(), 1);
            }
        }
    }

    /// Writes what was gathered, [`BATCH`] names a transaction, so that a write of a
    /// record waits for one batch at most. On failure the counts not written are kept for
    /// the next try and the error returned.
    pub async fn flush(&self, store: &Store) -> Result<(), crate::store::StoreError> {
        let gathered: Vec<(Name, u64)> = {
            let mut pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
            if pending.is_empty() {
                return Ok(());
            }
            pending.drain().collect()
        };
        let mut batches = gathered.chunks(BATCH);
        while let Some(batch) = batches.next() {
            if let Err(e) = store.add_counts(batch).await {
                let mut pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
                for (name, n) in std::iter::once(batch).chain(batches).flatten() {
                    *pending.entry(name.clone()).or_insert(0) += n;
                }
                return Err(e);
            }
        }
        Ok(())
    }

    /// Counts gathered for `name` and not yet written.
    pub fn pending(&self, name: &Name) -> u64 {
        let pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
        pending.get(name).copied().unwrap_or(0)
    }
}
