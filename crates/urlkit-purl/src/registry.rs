//! The records held in memory beside the store. Every request is answered from memory and
//! never waits on the database; a write is checked (owner, version, the chains of all
//! records), stored with its history event, and only then applied to memory.

use crate::model::{Actor, Body, Expect, Stored, Version};
use crate::store::{Store, StoreError, WriteError};
use std::sync::{Arc, RwLock, RwLockReadGuard};
use urlkit::purl::{Action, Name, Record, Table};

/// The records in memory and the store they come from. Cheap to clone.
#[derive(Clone)]
pub struct Registry {
    store: Store,
    table: Arc<RwLock<Table>>,
}

impl Registry {
    /// Loads every record of `store` (tombstones too: they answer `410`).
    ///
    /// Fails when the store cannot be read. A record the library refuses (written by
    /// another version of the program) is left out with a warning in the log rather than
    /// stopping the resolver.
    pub async fn load(store: Store) -> Result<Registry, StoreError> {
        let mut table = Table::new();
        // Chains are checked against the records already inserted, so a chain whose
        // target comes later would look fine either way: insert chains last.
        let mut chains = Vec::new();
        let keep = |table: &mut Table, record: Record| {
            let name = record.name.clone();
            if let Err(e) = table.insert(record) {
                tracing::warn!("record {name} left out: {e}");
            }
        };
        store
            .each_record(|stored| {
                if matches!(stored.record.action, Action::Chain { .. }) && !stored.deleted {
                    chains.push(stored.record);
                } else {
                    keep(&mut table, stored.record);
                }
            })
            .await?;
        for record in chains {
            keep(&mut table, record);
        }
        Ok(Registry {
            store,
            table: Arc::new(RwLock::new(table)),
        })
    }

    /// The store behind.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The records, for reading (answer while holding it, briefly).
    pub fn table(&self) -> RwLockReadGuard<'_, Table> {
        // A panic while the lock was held cannot leave the table half changed: every
        // change is one `insert`. Go on with what it holds.
        self.table
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn apply(&self, stored: &Stored) {
        let mut table = self
            .table
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        // Checked before storing; a concurrent write could only have added a chain that
        // now loops, which the store's order makes rare. Keep the stored truth in memory
        // either way: replace without the chain check.
        let name = stored.record.name.clone();
        if table.insert(stored.record.clone()).is_err() {
            table.remove(&name);
            tracing::warn!("record {name} loops through a chain written at the same time");
        }
    }

    /// Creates or changes the record of `name` (see [`Store::put`]), first checking it
    /// against the other records (a chain may not come back to itself).
    pub async fn put(
        &self,
        actor: &Actor,
        name: &Name,
        body: Body,
        expect: Expect,
        reason: Option<&str>,
    ) -> Result<Stored, WriteError> {
        let record = body.clone().into_record(name.clone());
        let record = record.map_err(WriteError::Invalid)?;
        self.table().check(&record).map_err(WriteError::Invalid)?;
        let stored = self.store.put(actor, name, body, expect, reason).await?;
        self.apply(&stored);
        Ok(stored)
    }

    /// Deletes the record of `name` (see [`Store::delete`]): from now on it answers `410`.
    pub async fn delete(
        &self,
        actor: &Actor,
        name: &Name,
        expect: Expect,
        message: Option<&str>,
        reason: Option<&str>,
    ) -> Result<Stored, WriteError> {
        let stored = self
            .store
            .delete(actor, name, expect, message, reason)
            .await?;
        self.apply(&stored);
        Ok(stored)
    }

    /// Brings back the record of `name` as it was at `version` (see [`Store::restore`]).
    pub async fn restore(
        &self,
        actor: &Actor,
        name: &Name,
        version: Version,
        expect: Expect,
        reason: Option<&str>,
    ) -> Result<Stored, WriteError> {
        let stored = self
            .store
            .restore(actor, name, version, expect, reason)
            .await?;
        self.apply(&stored);
        Ok(stored)
    }
}
