//! Opening the database and bringing its schema up to date.
//!
//! The migrations are the files of `migrations/`, compiled in; the version table is
//! sqlx's `_sqlx_migrations`. A database that has a version this program does not know
//! was written by a newer one and is refused ([`StoreProblem::TooNew`]).

use super::{StoreError, StoreProblem};
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;
use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;
use std::str::FromStr;
use std::time::Duration;

/// The migrations, in order: (version, description, SQL).
const MIGRATIONS: &[(i64, &str, &str)] = &[
    (
        1,
        "records",
        include_str!("../../migrations/0001_records.sql"),
    ),
    (
        2,
        "owner changes",
        include_str!("../../migrations/0002_owner_changes.sql"),
    ),
];

/// The schema version this program writes.
pub(super) const LATEST: i64 = MIGRATIONS[MIGRATIONS.len() - 1].0;

/// How long a statement waits for another process's lock before it fails as locked.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Most connections to a database file (SQLite has one writer at a time anyway).
const MAX_CONNECTIONS: u32 = 8;

/// The compiled-in migrations as sqlx reads them.
#[derive(Debug)]
struct Embedded;

type Resolved = Result<Vec<Migration>, sqlx::error::BoxDynError>;

impl MigrationSource<'static> for Embedded {
    fn resolve(self) -> Pin<Box<dyn Future<Output = Resolved> + Send + 'static>> {
        Box::pin(async {
            Ok(MIGRATIONS
                .iter()
                .map(|&(version, description, sql)| {
                    Migration::new(
                        version,
                        Cow::Borrowed(description),
                        MigrationType::Simple,
                        Cow::Borrowed(sql),
                        false,
                    )
                })
                .collect())
        })
    }
}

/// A pool on `url` (`sqlite:PATH`, `sqlite://PATH`, `sqlite::memory:`): WAL journal,
/// foreign keys, a busy timeout; a file is created if missing; an in-memory database has
/// one connection (each connection would be a database of its own).
pub(super) async fn connect(url: &str) -> Result<SqlitePool, StoreError> {
    if !url.starts_with("sqlite:") {
        let scheme = url.split_once(':').map_or(url, |(scheme, _)| scheme);
        return Err(StoreError::new(
            StoreProblem::Unreachable,
            format!("{url:?}: unknown database {scheme:?}; give sqlite:PATH or sqlite::memory:"),
        ));
    }
    let options = SqliteConnectOptions::from_str(url)
        .map_err(|error| {
            StoreError::new(
                StoreProblem::Unreachable,
                format!("{url:?} is not a database address: {error}"),
            )
        })?
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .foreign_keys(true)
        .busy_timeout(BUSY_TIMEOUT);
    let memory = url.contains(":memory:") || url.contains("mode=memory");
    let pool = SqlitePoolOptions::new()
        .max_connections(if memory { 1 } else { MAX_CONNECTIONS })
        .min_connections(if memory { 1 } else { 0 })
        // An in-memory database lives as long as its connection.
        .idle_timeout(if memory {
            None
        } else {
            Some(Duration::from_secs(600))
        })
        .max_lifetime(if memory {
            None
        } else {
            Some(Duration::from_secs(3600))
        })
        .acquire_timeout(BUSY_TIMEOUT * 2)
        .connect_with(options)
        .await
        .map_err(|error| {
            let error = StoreError::from(error);
            StoreError::new(
                error.kind,
                format!("cannot open the database {url:?}: {}", error.message),
            )
        })?;
    Ok(pool)
}

/// Applies the migrations the database lacks; refuses a database of a newer schema.
pub(super) async fn migrate(pool: &SqlitePool, url: &str) -> Result<(), StoreError> {
    let named =
        |error: StoreError| StoreError::new(error.kind, format!("{url:?}: {}", error.message));
    let applied = applied_version(pool).await.map_err(named)?;
    if applied > LATEST {
        return Err(StoreError::new(
            StoreProblem::TooNew,
            format!(
                "{url:?} has schema version {applied}, newer than this program's {LATEST}: \
                 use a newer urlkit"
            ),
        ));
    }
    if applied == LATEST {
        // Nothing to do, and nothing written: a read-only file opens for reading.
        return Ok(());
    }
    let migrator = Migrator::new(Embedded).await.map_err(|error| {
        StoreError::new(StoreProblem::Other, format!("the migrations: {error}"))
    })?;
    migrator.run(pool).await.map_err(|error| match error {
        sqlx::migrate::MigrateError::Execute(error) => named(error.into()),
        other => StoreError::new(
            StoreProblem::Other,
            format!("{url:?}: cannot bring the schema up to date: {other}"),
        ),
    })
}

/// The newest schema version applied to the database (0 for a new one).
async fn applied_version(pool: &SqlitePool) -> Result<i64, StoreError> {
    let table: Option<(String,)> = sqlx::query_as(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'",
    )
    .fetch_optional(pool)
    .await?;
    if table.is_none() {
        return Ok(0);
    }
    let (version,): (Option<i64>,) =
        sqlx::query_as("SELECT MAX(version) FROM _sqlx_migrations WHERE success")
            .fetch_one(pool)
            .await?;
    Ok(version.unwrap_or(0))
}
