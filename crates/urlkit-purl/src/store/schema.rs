//! Opening the database and bringing its schema up to date.
//!
//! The migrations are the files of `migrations/`, compiled in; the version table is
//! sqlx's `_sqlx_migrations`. A database that has a version this program does not know
//! was written by a newer one and is refused ([`StoreProblem::TooNew`]).
//!
//! The same files serve SQLite and PostgreSQL. Where the two differ, PostgreSQL's version
//! gets a few statements more ([`POSTGRES_EXTRA`]): the `rowid` SQLite gives every table.

use super::{Backend, StoreError, StoreProblem};
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{AnyConnection, AnyPool, Connection, Executor};
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
    (
        3,
        "target checks",
        include_str!("../../migrations/0003_checks.sql"),
    ),
    (
        4,
        "archive fallback",
        include_str!("../../migrations/0004_archive.sql"),
    ),
];

/// What PostgreSQL runs after a version's file: (version, SQL).
const POSTGRES_EXTRA: &[(i64, &str)] = &[(
    2,
    // The owner changes are listed in the order they were made (`ORDER BY at, rowid`):
    // SQLite numbers rows by itself, PostgreSQL is given the column.
    "ALTER TABLE owner_changes ADD COLUMN rowid BIGSERIAL;",
)];

/// The schema version this program writes.
pub(super) const LATEST: i64 = MIGRATIONS[MIGRATIONS.len() - 1].0;

/// How long a statement waits for another process's lock before it fails as locked.
pub(super) const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// How long a statement waits for a connection to PostgreSQL (a server that is down is
/// retried until then).
const PG_ACQUIRE_TIMEOUT: Duration = Duration::from_secs(3);

/// Most connections to a database file (SQLite has one writer at a time anyway).
const MAX_CONNECTIONS: u32 = 8;

/// The compiled-in migrations as sqlx reads them, for one kind of database.
#[derive(Debug)]
struct Embedded(Backend);

type Resolved = Result<Vec<Migration>, sqlx::error::BoxDynError>;

impl MigrationSource<'static> for Embedded {
    fn resolve(self) -> Pin<Box<dyn Future<Output = Resolved> + Send + 'static>> {
        let backend = self.0;
        Box::pin(async move {
            Ok(MIGRATIONS
                .iter()
                .map(|&(version, description, sql)| {
                    let extra = POSTGRES_EXTRA
                        .iter()
                        .filter(|_| backend == Backend::Postgres)
                        .find(|(v, _)| *v == version);
                    let sql = match extra {
                        Some((_, extra)) => Cow::Owned(format!("{sql}\n{extra}\n")),
                        None => Cow::Borrowed(sql),
                    };
                    Migration::new(
                        version,
                        Cow::Borrowed(description),
                        MigrationType::Simple,
                        sql,
                        false,
                    )
                })
                .collect())
        })
    }
}

/// A pool on `url`: `sqlite:PATH`, `sqlite://PATH`, `sqlite::memory:` (WAL journal,
/// foreign keys, a busy timeout; a file is created if missing; an in-memory database has
/// one connection, as each connection would be a database of its own), or
/// `postgres://…` / `postgresql://…`.
pub(super) async fn connect(url: &str) -> Result<(AnyPool, Backend), StoreError> {
    sqlx::any::install_default_drivers();
    let backend = if url.starts_with("sqlite:") {
        Backend::Sqlite
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Backend::Postgres
    } else {
        let scheme = url.split_once(':').map_or(url, |(scheme, _)| scheme);
        return Err(StoreError::new(
            StoreProblem::Unreachable,
            format!(
                "{url:?}: unknown database {scheme:?}; give sqlite:PATH, sqlite::memory: \
                 or postgres://USER@HOST:PORT/DATABASE"
            ),
        ));
    };
    let not_an_address = |error: sqlx::Error| {
        StoreError::new(
            StoreProblem::Unreachable,
            format!("{url:?} is not a database address: {error}"),
        )
    };
    let memory = url.contains(":memory:") || url.contains("mode=memory");
    let address = match backend {
        Backend::Sqlite => {
            // Checked as SQLite reads it; a file is created unless a mode says otherwise.
            SqliteConnectOptions::from_str(url).map_err(not_an_address)?;
            if url.contains("mode=") || memory {
                url.to_string()
            } else if url.contains('?') {
                format!("{url}&mode=rwc")
            } else {
                format!("{url}?mode=rwc")
            }
        }
        Backend::Postgres => url.to_string(),
    };
    let options = AnyConnectOptions::from_str(&address).map_err(not_an_address)?;
    let failed = |error: sqlx::Error| {
        let error = StoreError::from(error);
        StoreError::new(
            error.kind,
            format!("cannot open the database {url:?}: {}", error.message),
        )
    };
    // One connection first, so that a file that is no database or a server that does not
    // answer is an error at once (the pool would retry until its timeout).
    if !single_memory(backend, memory) {
        let mut probe = AnyConnection::connect_with(&options)
            .await
            .map_err(failed)?;
        prepare(&mut probe, backend).await.map_err(failed)?;
        probe.close().await.map_err(failed)?;
    }
    let single = single_memory(backend, memory);
    let pool = AnyPoolOptions::new()
        .max_connections(if single { 1 } else { MAX_CONNECTIONS })
        .min_connections(if single { 1 } else { 0 })
        // An in-memory database lives as long as its connection.
        .idle_timeout(if single {
            None
        } else {
            Some(Duration::from_secs(600))
        })
        .max_lifetime(if single {
            None
        } else {
            Some(Duration::from_secs(3600))
        })
        // A server that went away refuses connections at once, but the pool retries
        // until this runs out: a write waits that long before it answers 503.
        .acquire_timeout(match backend {
            Backend::Sqlite => BUSY_TIMEOUT * 2,
            Backend::Postgres => PG_ACQUIRE_TIMEOUT,
        })
        .after_connect(move |connection, _| Box::pin(prepare(connection, backend)))
        .connect_with(options)
        .await
        .map_err(failed)?;
    Ok((pool, backend))
}

/// Whether the database is SQLite's in memory, which lives as long as its one connection.
fn single_memory(backend: Backend, memory: bool) -> bool {
    backend == Backend::Sqlite && memory
}

/// Sets up a new connection: on SQLite what sqlx's own SQLite options would set (`Any`
/// opens with the defaults of the address alone).
async fn prepare(connection: &mut AnyConnection, backend: Backend) -> Result<(), sqlx::Error> {
    if backend == Backend::Sqlite {
        let pragmas = format!(
            "PRAGMA busy_timeout = {}; PRAGMA foreign_keys = ON; \
             PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;",
            BUSY_TIMEOUT.as_millis()
        );
        connection.execute(pragmas.as_str()).await?;
    }
    Ok(())
}

/// Applies the migrations the database lacks; refuses a database of a newer schema.
pub(super) async fn migrate(pool: &AnyPool, backend: Backend, url: &str) -> Result<(), StoreError> {
    let named =
        |error: StoreError| StoreError::new(error.kind, format!("{url:?}: {}", error.message));
    let applied = applied_version(pool, backend).await.map_err(named)?;
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
    let migrator = Migrator::new(Embedded(backend)).await.map_err(|error| {
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
async fn applied_version(pool: &AnyPool, backend: Backend) -> Result<i64, StoreError> {
    let tables = match backend {
        Backend::Sqlite => {
            "SELECT COUNT(*) FROM sqlite_master \
             WHERE type = 'table' AND name = '_sqlx_migrations'"
        }
        Backend::Postgres => {
            "SELECT COUNT(*) FROM pg_catalog.pg_tables \
             WHERE schemaname = current_schema() AND tablename = '_sqlx_migrations'"
        }
    };
    let (found,): (i64,) = sqlx::query_as(tables).fetch_one(pool).await?;
    if found == 0 {
        return Ok(0);
    }
    let (version,): (Option<i64>,) =
        sqlx::query_as("SELECT MAX(version) FROM _sqlx_migrations WHERE success")
            .fetch_one(pool)
            .await?;
    Ok(version.unwrap_or(0))
}
