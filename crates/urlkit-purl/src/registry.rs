//! The records held in memory beside the store. Every request is answered from memory and
//! never waits on the database; a write is checked (owner, version, the chains of all
//! records), stored with its history event, and only then applied to memory.
//!
//! On PostgreSQL other resolvers may write the same database: a follower task
//! ([`Registry::spawn_follower`]) hears the names of the records they change and reloads
//! those records, and after a lost connection it compares every record with memory and
//! reloads those that differ (changes made while it was not listening).

use crate::model::{Actor, Body, Expect, Stored, Version};
use crate::store::notify::Heard;
use crate::store::{Store, StoreError, WriteError};
use std::collections::HashSet;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::Duration;
use urlkit::purl::{Action, Name, Record, Table};

/// Whether a resolver hears the changes other resolvers make to its database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Following {
    /// Nothing to follow: SQLite, or no follower started.
    Alone,
    /// Listening: other resolvers' changes reach memory within moments.
    Listening,
    /// Not listening (not yet, or the connection was lost and is being opened again):
    /// other resolvers' changes do not reach memory until it is back.
    Lost,
}

/// How long the follower waits, with no change heard, before it asks whether its
/// connection still answers.
pub const FOLLOW_PING: Duration = Duration::from_secs(30);

/// The first wait before the follower opens its connection again; it doubles up to
/// [`FOLLOW_RETRY_MAX`].
const FOLLOW_RETRY: Duration = Duration::from_millis(100);

/// The longest wait between two tries of the follower to open its connection.
pub const FOLLOW_RETRY_MAX: Duration = Duration::from_secs(2);

/// The records in memory and the store they come from. Cheap to clone.
#[derive(Clone)]
pub struct Registry {
    store: Store,
    table: Arc<RwLock<Table>>,
    /// Held while records read from the store are applied, and while a write applies its
    /// record: a record read before a write cannot be applied after it.
    applying: Arc<tokio::sync::Mutex<()>>,
    following: Arc<AtomicU8>,
}

/// Keeps `record` in `table`, replacing the one of its name. Checked before storing; a
/// concurrent write could only have added a chain that now loops, which the store's
/// order makes rare. Keep the stored truth in memory either way: a record the table
/// refuses is taken out.
fn keep(table: &mut Table, record: Record) {
    let name = record.name.clone();
    if let Err(e) = table.insert(record) {
        table.remove(&name);
        tracing::warn!("record {name} left out of memory: {e}");
    }
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
            applying: Arc::default(),
            following: Arc::new(AtomicU8::new(Following::Alone as u8)),
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

    fn table_mut(&self) -> RwLockWriteGuard<'_, Table> {
        self.table
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Applies a record this resolver wrote.
    async fn apply(&self, stored: &Stored) {
        let _applying = self.applying.lock().await;
        keep(&mut self.table_mut(), stored.record.clone());
    }

    /// Reads the records of `names` from the store again and applies them to memory
    /// (tombstones too; a name the store has no record of is taken out), all at once:
    /// a request sees every one of them changed or none. Chains are applied last, each
    /// checked against the others as at a write. Returns how many records changed in
    /// memory.
    ///
    /// Fails when the store cannot be read; memory is then unchanged.
    pub async fn reload(&self, names: &[Name]) -> Result<usize, StoreError> {
        if names.is_empty() {
            return Ok(0);
        }
        let _applying = self.applying.lock().await;
        let mut found = self.store.records_named(names).await?;
        // Chains last: a chain's target may be among the others.
        found.sort_by_key(|stored| matches!(stored.record.action, Action::Chain { .. }));
        let present: HashSet<&Name> = found.iter().map(|stored| &stored.record.name).collect();
        let mut table = self.table_mut();
        let mut changed = 0;
        for name in names {
            if !present.contains(name) && table.remove(name).is_some() {
                changed += 1;
            }
        }
        for stored in found {
            if table.get(&stored.record.name) != Some(&stored.record) {
                keep(&mut table, stored.record);
                changed += 1;
            }
        }
        Ok(changed)
    }

    /// Compares every record of the store with memory, off the request path, then reloads
    /// those that differ and takes out those the store no longer has, all at once (see
    /// [`Registry::reload`]). For changes made while this resolver was not listening.
    /// Returns how many records changed in memory.
    ///
    /// Fails when the store cannot be read; memory is then unchanged.
    pub async fn resync(&self) -> Result<usize, StoreError> {
        let mut differ = Vec::new();
        // The names the store holds, as hashes: a few bytes a record. (Two names of one
        // hash would keep a record the store no longer has until the next resync.)
        let hasher = std::hash::RandomState::new();
        let mut stored_names = HashSet::new();
        self.store
            .each_record(|stored| {
                stored_names.insert(hasher.hash_one(stored.record.name.as_str()));
                if self.table().get(&stored.record.name) != Some(&stored.record) {
                    differ.push(stored.record.name);
                }
            })
            .await?;
        differ.extend(
            self.table()
                .records()
                .filter(|record| !stored_names.contains(&hasher.hash_one(record.name.as_str())))
                .map(|record| record.name.clone()),
        );
        self.reload(&differ).await
    }

    /// Whether this resolver hears other resolvers' changes.
    pub fn following(&self) -> Following {
        match self.following.load(Ordering::Relaxed) {
            x if x == Following::Listening as u8 => Following::Listening,
            x if x == Following::Lost as u8 => Following::Lost,
            _ => Following::Alone,
        }
    }

    fn set_following(&self, following: Following) {
        self.following.store(following as u8, Ordering::Relaxed);
    }

    /// On a database other resolvers may share (PostgreSQL), starts the task that follows
    /// their changes: it listens for the names of changed records and reloads them
    /// ([`Registry::reload`]); whenever it (re)opens its connection, it first compares
    /// every record with memory ([`Registry::resync`]), so that nothing changed while it
    /// was not listening is missed. A lost connection is opened again, after a wait that
    /// grows to [`FOLLOW_RETRY_MAX`]. Runs until aborted. On SQLite, `None`: there is only
    /// one resolver a file.
    pub fn spawn_follower(&self) -> Option<tokio::task::JoinHandle<()>> {
        if !self.store.is_shared() {
            return None;
        }
        self.set_following(Following::Lost);
        let registry = self.clone();
        Some(tokio::spawn(async move { registry.follow().await }))
    }

    async fn follow(&self) {
        let mut wait = FOLLOW_RETRY;
        let mut told = false;
        loop {
            let error = match self.follow_once().await {
                Ok(lost) | Err(lost) => lost,
            };
            if self.following() == Following::Listening {
                wait = FOLLOW_RETRY;
                told = false;
            }
            self.set_following(Following::Lost);
            if !told {
                tracing::warn!(
                    "other resolvers' changes are not heard until the database answers: {error}"
                );
                told = true;
            }
            tokio::time::sleep(wait).await;
            wait = (wait * 2).min(FOLLOW_RETRY_MAX);
        }
    }

    /// Listens until the connection is lost (the error returned).
    async fn follow_once(&self) -> Result<StoreError, StoreError> {
        let mut follower = self.store.follow().await?;
        // Listening already: whatever changes from now on is heard after this.
        let changed = self.resync().await?;
        if changed > 0 {
            tracing::info!("{changed} records changed by other resolvers reloaded");
        }
        tracing::info!("following the changes of other resolvers on the database");
        self.set_following(Following::Listening);
        loop {
            match follower.next(FOLLOW_PING).await {
                Heard::Changed(names) => {
                    // Names not reloaded would be missed: start again, with a resync.
                    self.reload(&names).await?;
                }
                Heard::Lost(error) => return Ok(error),
            }
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
        self.apply(&stored).await;
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
        self.apply(&stored).await;
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
        self.apply(&stored).await;
        Ok(stored)
    }
}
