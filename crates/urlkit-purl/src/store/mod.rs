//! The database: records, their history, domains, users, tokens and resolution counts.
//!
//! One schema for SQLite (the embedded default, in WAL mode) and PostgreSQL (for many
//! resolvers on one database), its migrations versioned in `migrations/` and applied at
//! open. Each query is written once, for both, through `sqlx::Any`. Every change of a
//! record and its history event are written in one transaction with the check of the
//! expected version; the history is only ever appended to. Passwords are stored as
//! Argon2id hashes, tokens as hashes of their secret.

mod archive;
pub mod bulk;
mod checks;
pub mod notify;
mod owners;
mod records;
mod rows;
mod schema;
mod tokens;

pub use archive::{archive_timestamp, check_archive_template, fill_archive_template};
pub use archive::{ArchiveFallback, Archived, MAX_AFTER as MAX_ARCHIVE_AFTER};
pub use checks::CheckFilter;
pub use owners::check_account_name;
pub use records::{DELETED_MESSAGE, SEARCH_CAP};
pub use tokens::TOKEN_PREFIX;

use crate::model::{now, Body, Grant, Millis, Stored};
use sqlx::any::{Any, AnyTypeInfo, AnyTypeInfoKind, AnyValueRef};
use sqlx::AnyPool;
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
    /// Where people are sent once a target fails (none: never).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub archive: Option<ArchiveFallback>,
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

/// A change of owners (a user, group, domain or token added or revoked), as the store
/// keeps it: append-only, like the records' history.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct OwnerChange {
    /// When.
    pub at: Millis,
    /// Who (a user's name).
    pub user: String,
    /// Through which token (its public id), if through one.
    pub token: Option<String>,
    /// What kind of change: `user-add`, `group-add`, `domain-add`, `token-create`,
    /// `token-revoke`.
    pub kind: String,
    /// What it changed: a user's, group's or token's name or id, a domain's prefix.
    pub subject: String,
    /// Its details (members, maintainers, grants …).
    pub detail: serde_json::Value,
}

impl StoreError {
    fn new(kind: StoreProblem, message: impl Into<String>) -> StoreError {
        StoreError {
            kind,
            message: message.into(),
        }
    }
}

/// The kind of a database's failure: PostgreSQL's SQLSTATE classes, or SQLite's primary
/// result codes (the low byte of an extended code) for a locked, read-only, full or
/// unopenable file.
fn problem_of(error: &sqlx::Error) -> StoreProblem {
    match error {
        sqlx::Error::Database(db) => {
            if let Some(pg) = db.try_downcast_ref::<sqlx::postgres::PgDatabaseError>() {
                return pg_problem(pg.code());
            }
            let code = db
                .code()
                .and_then(|code| code.parse::<i64>().ok())
                .unwrap_or(0);
            match code & 0xff {
                5 | 6 => StoreProblem::Locked,
                8 => StoreProblem::ReadOnly,
                13 => StoreProblem::Full,
                14 => StoreProblem::Unreachable,
                _ => StoreProblem::Other,
            }
        }
        sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed => StoreProblem::Unreachable,
        sqlx::Error::Io(_) => StoreProblem::Unreachable,
        _ => StoreProblem::Other,
    }
}

/// The kind of a PostgreSQL error by its SQLSTATE.
fn pg_problem(code: &str) -> StoreProblem {
    match code {
        // Disk full.
        "53100" => StoreProblem::Full,
        // A read-only transaction (a standby, default_transaction_read_only).
        "25006" => StoreProblem::ReadOnly,
        // Lock not available, deadlock, serialization failure.
        "55P03" | "40P01" | "40001" => StoreProblem::Locked,
        // Shut down by an administrator or a crash, not accepting connections yet;
        // too many connections.
        "57P01" | "57P02" | "57P03" | "53300" => StoreProblem::Unreachable,
        // Connection exceptions.
        code if code.starts_with("08") => StoreProblem::Unreachable,
        _ => StoreProblem::Other,
    }
}

impl From<sqlx::Error> for StoreError {
    fn from(error: sqlx::Error) -> StoreError {
        StoreError::new(problem_of(&error), format!("the database failed: {error}"))
    }
}

impl From<StoreError> for WriteError {
    fn from(error: StoreError) -> WriteError {
        WriteError::Store(error)
    }
}

impl From<sqlx::Error> for WriteError {
    fn from(error: sqlx::Error) -> WriteError {
        WriteError::Store(error.into())
    }
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::Stale {
                current: Some(current),
            } => write!(
                f,
                "the record {} is at version {}{}",
                current.record.name,
                current.version,
                if current.deleted { " (deleted)" } else { "" }
            ),
            WriteError::Stale { current: None } => f.write_str("the record does not exist"),
            WriteError::Forbidden {
                domain: Some(domain),
            } => {
                write!(f, "not a maintainer of the domain {domain}")
            }
            WriteError::Forbidden { domain: None } => {
                f.write_str("the name lies in no domain: only an administrator may write it")
            }
            WriteError::Invalid(error) => write!(f, "invalid record: {error}"),
            WriteError::NotFound => f.write_str("no such record or version"),
            WriteError::Store(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for WriteError {}

/// A stored text that should be a name in normal form but is not (a file edited by hand).
fn stored_name(text: &str) -> Result<Name, StoreError> {
    Name::parse(text).map_err(|error| {
        StoreError::new(
            StoreProblem::Other,
            format!("the database holds a bad name {text:?}: {error}"),
        )
    })
}

/// A stored JSON body.
fn stored_body(text: &str) -> Result<Body, StoreError> {
    serde_json::from_str(text).map_err(|error| {
        StoreError::new(
            StoreProblem::Other,
            format!("the database holds a bad record body {text:?}: {error}"),
        )
    })
}

/// A stored truth value: PostgreSQL's `BOOLEAN`, or SQLite's, an integer. `sqlx::Any`
/// cannot read a SQLite column declared `BOOLEAN`: the queries read `column = TRUE`, an
/// expression without a declared type, which SQLite gives as a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Flag(bool);

impl sqlx::Type<Any> for Flag {
    fn type_info() -> AnyTypeInfo {
        <bool as sqlx::Type<Any>>::type_info()
    }

    fn compatible(ty: &AnyTypeInfo) -> bool {
        ty.kind() == AnyTypeInfoKind::Bool || ty.kind().is_integer()
    }
}

impl<'r> sqlx::Decode<'r, Any> for Flag {
    fn decode(value: AnyValueRef<'r>) -> Result<Flag, sqlx::error::BoxDynError> {
        use sqlx::ValueRef;
        if value.type_info().kind() == AnyTypeInfoKind::Bool {
            <bool as sqlx::Decode<Any>>::decode(value).map(Flag)
        } else {
            <i64 as sqlx::Decode<Any>>::decode(value).map(|n| Flag(n != 0))
        }
    }
}

/// Which database a store is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Backend {
    Sqlite,
    Postgres,
}

/// The database, with a pool of connections. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    /// The address, for a connection of its own that follows changes (PostgreSQL).
    url: Option<std::sync::Arc<str>>,
    /// Whether the last change found the disk full (until a change or a probe of
    /// [`Store::check`] finds room again).
    full: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// This process's writers of an SQLite file, one at a time in the order they came.
    writers: WriterQueue,
}

impl Store {
    /// Opens the database at `url` (`sqlite:PATH`, created if missing, `sqlite::memory:`,
    /// or `postgres://USER@HOST:PORT/DATABASE` for an existing PostgreSQL database),
    /// applying the migrations it lacks.
    ///
    /// Bad input: an unknown scheme, a file that is not a database, a server that cannot
    /// be reached, a schema newer than this program, a directory that cannot be written
    /// are errors naming the address.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        let (pool, backend) = schema::connect(url).await?;
        schema::migrate(&pool, backend, url).await?;
        Ok(Store {
            pool,
            backend,
            url: (backend == Backend::Postgres).then(|| url.into()),
            full: Default::default(),
            writers: WriterQueue::default(),
        })
    }

    /// A transaction that writes: on SQLite it waits for its turn among this process's
    /// writers (see [`WriterQueue`]), then takes the write lock at once (`BEGIN
    /// IMMEDIATE`), so that two writers are one after the other; on PostgreSQL rows are
    /// locked as they are changed, and the writes check the version they change.
    ///
    /// Cancelling the returned future (a client that went away) never leaves a
    /// transaction open on a connection of the pool: the `BEGIN` is sent on a
    /// [`WriteTx`] already, which rolls back whatever it began when dropped.
    async fn begin_write(&self) -> Result<WriteTx, StoreError> {
        let turn = self.writer_turn().await?;
        let begin = match self.backend {
            Backend::Sqlite => "BEGIN IMMEDIATE",
            Backend::Postgres => "BEGIN",
        };
        let connection = self.pool.acquire().await?;
        let mut tx = WriteTx::new(connection, turn);
        sqlx::query(begin).execute(&mut *tx).await?;
        Ok(tx)
    }

    /// On SQLite, this writer's turn among the writers of this process (see
    /// [`WriterQueue`]), held until its write has ended; on PostgreSQL none is needed.
    async fn writer_turn(&self) -> Result<Option<tokio::sync::OwnedMutexGuard<()>>, StoreError> {
        match self.backend {
            Backend::Sqlite => Ok(Some(self.writers.turn().await?)),
            Backend::Postgres => Ok(None),
        }
    }

    /// Whether the database answers and can be written (for `/-/readyz`). After a change
    /// found the disk full, this writes (and removes) a row large enough to need new pages,
    /// so that it fails as [`StoreProblem::Full`] until there is room again.
    pub async fn check(&self) -> Result<(), StoreError> {
        let mut tx = self.begin_write().await?;
        let full = self.full.load(std::sync::atomic::Ordering::Relaxed);
        let checked = async {
            // A write that changes nothing still needs the write lock and a writable file.
            sqlx::query("DELETE FROM counts WHERE name = $1 AND hits < 0")
                .bind("/-/readyz")
                .execute(&mut *tx)
                .await?;
            if full {
                // 64 KiB spill into overflow pages; committed, they reach the disk (a
                // rolled back transaction might never write).
                let probe = format!("/-/readyz/{}", "-".repeat(64 << 10));
                sqlx::query("INSERT INTO counts (name, hits) VALUES ($1, -1)")
                    .bind(&probe)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query("DELETE FROM counts WHERE name = $1")
                    .bind(&probe)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await
        }
        .await
        .map_err(StoreError::from);
        if full {
            self.note(&checked)
        } else {
            checked
        }
    }

    /// Notes whether a change found the disk full, for [`Store::check`].
    fn note<T>(&self, result: &Result<T, StoreError>) -> Result<(), StoreError> {
        let full = match result {
            Ok(_) => false,
            Err(error) if error.kind == StoreProblem::Full => true,
            Err(error) => return Err(error.clone()),
        };
        self.full.store(full, std::sync::atomic::Ordering::Relaxed);
        match result {
            Err(error) => Err(error.clone()),
            Ok(_) => Ok(()),
        }
    }

    /// Caps the database at `pages` pages on every connection of the pool (SQLite's
    /// `PRAGMA max_page_count`, a per-connection setting), as a full disk would: a write
    /// that needs more pages fails as [`StoreProblem::Full`]. A cap below the database's
    /// size is raised to its size; the cap in force is returned. For tests of a full disk
    /// without root; connections opened later (after an idle one closed) have no cap.
    /// On PostgreSQL, an error: there is no such setting.
    #[doc(hidden)]
    pub async fn cap_pages(&self, pages: u32) -> Result<u64, StoreError> {
        if self.backend != Backend::Sqlite {
            return Err(StoreError::new(
                StoreProblem::Other,
                "a cap of pages is SQLite's only",
            ));
        }
        let mut held = Vec::new();
        let mut cap = 0;
        for _ in 0..self.pool.options().get_max_connections() {
            let mut connection = self.pool.acquire().await?;
            let (set,): (i64,) = sqlx::query_as(&format!("PRAGMA max_page_count = {pages}"))
                .fetch_one(&mut *connection)
                .await?;
            cap = u64::try_from(set).unwrap_or(0);
            held.push(connection);
        }
        Ok(cap)
    }
}

/// The writers of one SQLite file in this process, one at a time in the order they came.
/// SQLite itself does not queue writers: one that finds the file locked sleeps and tries
/// again (the busy timeout), so a writer that commits and begins again at once (the
/// resolution counts, written a batch after another) can keep another waiting until its
/// busy timeout runs out and its write fails as `Locked`. Here each waits for its turn
/// first, so a write waits for the transactions that came before it, and SQLite's busy
/// timeout is left for writers of other processes (the CLI on the same file).
#[derive(Clone, Debug, Default)]
struct WriterQueue {
    turn: std::sync::Arc<tokio::sync::Mutex<()>>,
}

impl WriterQueue {
    /// The writer's turn; [`StoreProblem::Locked`] when the writers before it take longer
    /// than SQLite's busy timeout would have waited.
    async fn turn(&self) -> Result<tokio::sync::OwnedMutexGuard<()>, StoreError> {
        let turn = std::sync::Arc::clone(&self.turn).lock_owned();
        tokio::time::timeout(schema::BUSY_TIMEOUT, turn)
            .await
            .map_err(|_| {
                StoreError::new(
                    StoreProblem::Locked,
                    format!(
                        "the database is busy: the writes before this one took more than {} s",
                        schema::BUSY_TIMEOUT.as_secs()
                    ),
                )
            })
    }
}

/// A write transaction begun by hand on a connection of the pool. sqlx's own transaction
/// counts how deep a connection is in, and a COMMIT that fails (a full disk, after which
/// SQLite has rolled back on its own) leaves that count at one and the connection refusing
/// every later `BEGIN`. Here a transaction that is dropped uncommitted, or whose COMMIT
/// failed, is rolled back before its connection goes back to the pool (a ROLLBACK with no
/// transaction open does no harm); without a runtime to do that in, the connection is
/// closed instead, which ends the transaction too.
struct WriteTx {
    /// Always `Some` until dropped.
    connection: Option<sqlx::pool::PoolConnection<Any>>,
    /// The writer's turn (SQLite), given up once the transaction has ended.
    turn: Option<tokio::sync::OwnedMutexGuard<()>>,
    committed: bool,
}

impl WriteTx {
    fn new(
        connection: sqlx::pool::PoolConnection<Any>,
        turn: Option<tokio::sync::OwnedMutexGuard<()>>,
    ) -> WriteTx {
        WriteTx {
            connection: Some(connection),
            turn,
            committed: false,
        }
    }

    /// Commits; on failure the transaction is rolled back when this is dropped.
    async fn commit(mut self) -> Result<(), sqlx::Error> {
        sqlx::query("COMMIT").execute(&mut *self).await?;
        self.committed = true;
        Ok(())
    }
}

impl std::ops::Deref for WriteTx {
    type Target = sqlx::AnyConnection;
    fn deref(&self) -> &Self::Target {
        self.connection
            .as_ref()
            .expect("a transaction's connection until it is dropped")
    }
}

impl std::ops::DerefMut for WriteTx {
    fn deref_mut(&mut self) -> &mut Self::Target {
        self.connection
            .as_mut()
            .expect("a transaction's connection until it is dropped")
    }
}

impl Drop for WriteTx {
    fn drop(&mut self) {
        let Some(mut connection) = self.connection.take() else {
            return;
        };
        // The next writer's turn comes once this transaction has ended.
        let turn = self.turn.take();
        if self.committed {
            return;
        }
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                runtime.spawn(async move {
                    let _turn = turn;
                    if let Err(error) = sqlx::query("ROLLBACK").execute(&mut *connection).await {
                        // No transaction open (SQLite ended it on its own) is the state
                        // wanted; anything else is a connection in doubt, not reused.
                        if !error.to_string().contains("no transaction is active") {
                            connection.close_on_drop();
                        }
                    }
                });
            }
            Err(_) => connection.close_on_drop(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    /// A write that has waited since before another began waiting goes first when the
    /// writer before both commits, even when the other writes again at once (as the
    /// resolution counts do, a batch after another): SQLite alone lets whichever retries
    /// first in, and a writer retrying after its longest sleep can wait past its busy
    /// timeout.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn writers_take_turns_in_the_order_they_came() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite:{}", dir.path().join("purl.db").display());
        let store = Store::open(&url).await.unwrap();
        let name = |text: &str| Name::parse(text).unwrap();
        let finished = Arc::new(Mutex::new(Vec::new()));
        let first = store.begin_write().await.unwrap();
        let waiting = {
            let (store, finished) = (store.clone(), Arc::clone(&finished));
            tokio::spawn(async move {
                store.add_counts(&[(name("/waiting"), 1)]).await.unwrap();
                finished.lock().unwrap().push("waiting");
            })
        };
        tokio::time::sleep(Duration::from_millis(200)).await;
        let stream = {
            let (store, finished) = (store.clone(), Arc::clone(&finished));
            tokio::spawn(async move {
                for i in 0..20 {
                    let batch: Vec<(Name, u64)> = (0..200)
                        .map(|j| (name(&format!("/stream/{i}/{j}")), 1))
                        .collect();
                    store.add_counts(&batch).await.unwrap();
                    finished.lock().unwrap().push("stream");
                }
            })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        first.commit().await.unwrap();
        waiting.await.unwrap();
        stream.await.unwrap();
        let finished = finished.lock().unwrap();
        assert_eq!(finished.first(), Some(&"waiting"), "{finished:?}");
    }
}
