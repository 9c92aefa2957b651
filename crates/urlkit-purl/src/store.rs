//! The database: records, their history, domains, users, tokens and resolution counts.
//!
//! One schema for SQLite (the embedded default, in WAL mode) and, later, PostgreSQL, its
//! migrations versioned in `migrations/` and applied at open. Every change of a record and
//! its history event are written in one transaction; the history is only ever appended to.
//! Passwords are stored as Argon2id hashes, tokens as hashes of their secret.

use crate::model::{Actor, Body, Event, Expect, Grant, Millis, Stored, Version};
use std::fmt;
use urlkit::purl::{Name, RecordError};

/// Why the database could not do what was asked (not a refusal of the request itself).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct StoreError {
    /// What kind of failure.
    pub kind: StoreProblem,
    /// What happened, in words.
    pub message: String,
}

/// The kinds of [`StoreError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StoreProblem {
    /// The database is locked by another process for longer than the wait allows.
    Locked,
    /// The database (or its directory) cannot be written.
    ReadOnly,
    /// The disk is full.
    Full,
    /// The database cannot be opened or reached.
    Unreachable,
    /// The database's schema is newer than this program.
    TooNew,
    /// Anything else the database reported.
    Other,
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for StoreError {}

/// Why a change of a record was refused.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum WriteError {
    /// The record is not at the expected version (or exists where none was expected, or
    /// does not where one was): the current one, if any, is given.
    Stale {
        /// The record as it is now.
        current: Option<Box<Stored>>,
    },
    /// The actor may not write this name (outside its domains, or a tombstone of another
    /// domain).
    Forbidden {
        /// The domain that holds the name, if any.
        domain: Option<Name>,
    },
    /// The record cannot be kept (a relative target, a chain's loop …).
    Invalid(RecordError),
    /// No such record, or no such version to restore.
    NotFound,
    /// The database failed.
    Store(StoreError),
}

/// What to look for among records.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Search {
    /// Names starting with this text (in normal form).
    pub name_prefix: Option<String>,
    /// Targets containing this text.
    pub target_contains: Option<String>,
    /// Records of this domain.
    pub domain: Option<Name>,
    /// Whether tombstones are included.
    pub include_deleted: bool,
    /// At most this many (the store caps it at 1,000).
    pub limit: usize,
    /// Names after this one (for the next page).
    pub after: Option<Name>,
}

/// A domain: a path prefix and who maintains it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Domain {
    /// The prefix (`/net/`).
    pub prefix: Name,
    /// Users and groups (`@group`) that maintain it.
    pub maintainers: Vec<String>,
}

/// A user, without secrets.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct User {
    /// The name.
    pub name: String,
    /// Whether an administrator.
    pub admin: bool,
    /// The groups it belongs to.
    pub groups: Vec<String>,
}

/// A token, without its secret.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TokenInfo {
    /// The public id (part of the secret, shown in the history).
    pub id: String,
    /// Whose.
    pub user: String,
    /// What it may do (within its user's rights).
    pub grants: Vec<Grant>,
    /// What it is for, as its creator said.
    pub label: Option<String>,
    /// When created.
    pub created_at: Millis,
    /// When revoked, if it was.
    pub revoked_at: Option<Millis>,
}

/// The database, with a pool of connections. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Store {}

#[allow(unused_variables)]
impl Store {
    /// Opens the database at `url` (`sqlite:PATH`, created if missing, or
    /// `sqlite::memory:`), applying the migrations it lacks.
    ///
    /// Bad input: an unknown scheme, a file that is not a database, a schema newer than
    /// this program, a directory that cannot be written are errors naming the file.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        todo!()
    }

    /// Whether the database answers and can be written (for `/-/readyz`).
    pub async fn check(&self) -> Result<(), StoreError> {
        todo!()
    }

    /// Every record, tombstones included (to fill the resolver's memory at start).
    pub async fn records(&self) -> Result<Vec<Stored>, StoreError> {
        todo!()
    }

    /// The record of `name`, or its tombstone.
    pub async fn get(&self, name: &Name) -> Result<Option<Stored>, StoreError> {
        todo!()
    }

    /// Creates or changes the record of `name` (a tombstone's name only by a maintainer of
    /// its domain, which counts as a restore of the name), recording the event. The caller
    /// has checked the record against the others (chains).
    ///
    /// Refused: a version other than `expect` ([`WriteError::Stale`] with the current
    /// record), a name the actor may not write, a body that cannot be kept.
    pub async fn put(
        &self,
        actor: &Actor,
        name: &Name,
        body: Body,
        expect: Expect,
        reason: Option<&str>,
    ) -> Result<Stored, WriteError> {
        todo!()
    }

    /// Deletes the record of `name`: it becomes a tombstone answering `410` with
    /// `message`, keeping its history and its domain.
    pub async fn delete(
        &self,
        actor: &Actor,
        name: &Name,
        expect: Expect,
        message: Option<&str>,
        reason: Option<&str>,
    ) -> Result<Stored, WriteError> {
        todo!()
    }

    /// Brings back the record as it was at `version` (a new event, a new version).
    pub async fn restore(
        &self,
        actor: &Actor,
        name: &Name,
        version: Version,
        expect: Expect,
        reason: Option<&str>,
    ) -> Result<Stored, WriteError> {
        todo!()
    }

    /// The history of `name`, oldest first.
    pub async fn history(&self, name: &Name) -> Result<Vec<Event>, StoreError> {
        todo!()
    }

    /// Records matching `search`, by name.
    pub async fn search(&self, search: &Search) -> Result<Vec<Stored>, StoreError> {
        todo!()
    }

    /// The domain that holds `name`: the longest domain prefix it lies under.
    pub async fn domain_of(&self, name: &Name) -> Result<Option<Name>, StoreError> {
        todo!()
    }

    /// Every domain.
    pub async fn domains(&self) -> Result<Vec<Domain>, StoreError> {
        todo!()
    }

    /// Adds a domain (administrators only) or, if it exists, its maintainers.
    pub async fn add_domain(
        &self,
        actor: &Actor,
        prefix: &Name,
        maintainers: &[String],
    ) -> Result<Domain, WriteError> {
        todo!()
    }

    /// Adds a user with an optional password (hashed with Argon2id).
    pub async fn add_user(
        &self,
        name: &str,
        password: Option<&str>,
        admin: bool,
    ) -> Result<User, StoreError> {
        todo!()
    }

    /// The user `name` acting on its own (no token), with the grants of its domains.
    pub async fn actor(&self, name: &str) -> Result<Option<Actor>, StoreError> {
        todo!()
    }

    /// The user whose password this is, or `None` (the same time whether the user exists
    /// or not).
    pub async fn login(&self, name: &str, password: &str) -> Result<Option<Actor>, StoreError> {
        todo!()
    }

    /// Creates a token for `user` with `grants` (each within the user's own rights), and
    /// returns it with its secret, which is not stored and cannot be shown again.
    pub async fn create_token(
        &self,
        user: &str,
        grants: &[Grant],
        label: Option<&str>,
    ) -> Result<(TokenInfo, String), WriteError> {
        todo!()
    }

    /// The actor a token's secret stands for, or `None` for an unknown or revoked token.
    pub async fn authenticate(&self, secret: &str) -> Result<Option<Actor>, StoreError> {
        todo!()
    }

    /// Adds resolution counts (batched by the server, never in a redirect's path).
    pub async fn add_counts(&self, counts: &[(Name, u64)]) -> Result<(), StoreError> {
        todo!()
    }

    /// How often `name` was resolved.
    pub async fn count(&self, name: &Name) -> Result<u64, StoreError> {
        todo!()
    }
}
