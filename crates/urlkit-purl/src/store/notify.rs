//! Changes announced to the other resolvers on one PostgreSQL database.
//!
//! Every transaction that writes records sends their names with `pg_notify` on
//! [`CHANNEL`] before it commits; PostgreSQL delivers the notifications at the commit (none
//! for a transaction rolled back), to every connection that listens on the channel of the
//! same database. A [`Follower`] is such a connection: each resolver keeps one and reloads
//! the records named. On SQLite nothing is announced (one resolver a file).
//!
//! A notification's payload is one or more names separated by `\n` (a name holds no
//! control character), at most [`PAYLOAD_BYTES`] bytes, below PostgreSQL's 8,000.

use super::rows::{stored_of, RecordRow, RECORD_COLUMNS};
use super::{stored_name, Backend, Store, StoreError, StoreProblem};
use crate::model::Stored;
use sqlx::postgres::{PgListener, PgPoolOptions};
use std::time::Duration;
use urlkit::purl::Name;

/// The channel the names of changed records are sent on.
pub const CHANNEL: &str = "urlkit_purl_records";

/// The most bytes of names in one notification.
pub const PAYLOAD_BYTES: usize = 7_900;

/// Names bound in one `IN (…)` list when records are read by name.
const NAMES_PER_STATEMENT: usize = 500;

/// How long the follower waits for its connection before it counts as lost.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// `names` packed into payloads of at most [`PAYLOAD_BYTES`] (a longer name, which
/// [`Name`] does not allow, would make a payload of its own).
pub(super) fn payloads<'n>(names: impl IntoIterator<Item = &'n str>) -> Vec<String> {
    let mut all = Vec::new();
    let mut payload = String::new();
    for name in names {
        if !payload.is_empty() && payload.len() + 1 + name.len() > PAYLOAD_BYTES {
            all.push(std::mem::take(&mut payload));
        }
        if !payload.is_empty() {
            payload.push('\n');
        }
        payload.push_str(name);
    }
    if !payload.is_empty() {
        all.push(payload);
    }
    all
}

/// The names of a payload; a line that is not a name in normal form is left out with a
/// warning in the log (sent by something else than this program).
pub fn names_of(payload: &str) -> Vec<Name> {
    payload
        .split('\n')
        .filter(|line| !line.is_empty())
        .filter_map(|line| match stored_name(line) {
            Ok(name) => Some(name),
            Err(error) => {
                tracing::warn!("a change announced on {CHANNEL} left out: {error}");
                None
            }
        })
        .collect()
}

/// Sends `names` on [`CHANNEL`] inside the transaction of `connection` (delivered at its
/// commit). Does nothing on SQLite.
pub(super) async fn announce<'n>(
    connection: &mut sqlx::AnyConnection,
    backend: Backend,
    names: impl IntoIterator<Item = &'n str>,
) -> Result<(), sqlx::Error> {
    if backend != Backend::Postgres {
        return Ok(());
    }
    for payload in payloads(names) {
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(CHANNEL)
            .bind(payload)
            .execute(&mut *connection)
            .await?;
    }
    Ok(())
}

/// What a [`Follower`] heard.
#[derive(Debug)]
pub enum Heard {
    /// Records changed: these names (perhaps some more than once).
    Changed(Vec<Name>),
    /// The connection was lost: changes made since may not have been heard. The follower
    /// is of no more use; open another (and read everything again).
    Lost(StoreError),
}

/// A connection listening on [`CHANNEL`] (PostgreSQL only).
pub struct Follower {
    listener: PgListener,
}

impl Follower {
    /// The next change, or the loss of the connection. Waits at most `idle` for a
    /// notification, then asks the server whether the connection still answers (a
    /// connection cut without a word, by a network, is noticed so), and waits again.
    pub async fn next(&mut self, idle: Duration) -> Heard {
        loop {
            match tokio::time::timeout(idle, self.listener.try_recv()).await {
                Ok(Ok(Some(notification))) => {
                    let mut names = names_of(notification.payload());
                    // Whatever else arrived already comes along.
                    while let Some(more) = self.listener.next_buffered() {
                        names.extend(names_of(more.payload()));
                    }
                    return Heard::Changed(names);
                }
                Ok(Ok(None)) => {
                    return Heard::Lost(StoreError::new(
                        StoreProblem::Unreachable,
                        "the connection that hears other resolvers' changes was lost",
                    ))
                }
                Ok(Err(error)) => return Heard::Lost(error.into()),
                Err(_) => {
                    let ping = sqlx::query("SELECT 1").execute(&mut self.listener);
                    match tokio::time::timeout(CONNECT_TIMEOUT, ping).await {
                        Ok(Ok(_)) => continue,
                        Ok(Err(error)) => return Heard::Lost(error.into()),
                        Err(_) => {
                            return Heard::Lost(StoreError::new(
                                StoreProblem::Unreachable,
                                "the connection that hears other resolvers' changes \
                                 does not answer",
                            ))
                        }
                    }
                }
            }
        }
    }
}

impl Store {
    /// Whether other resolvers may share this database (PostgreSQL), so that their
    /// changes are to be followed ([`Store::follow`]).
    pub fn is_shared(&self) -> bool {
        self.backend == Backend::Postgres
    }

    /// A connection of its own that hears the names of records changed by any resolver
    /// on this database, this one included, from now on.
    ///
    /// Fails when the database is SQLite ([`StoreProblem::Other`]: there is nothing to
    /// follow) or cannot be reached within a few seconds.
    pub async fn follow(&self) -> Result<Follower, StoreError> {
        let Some(url) = self.url.as_deref().filter(|_| self.is_shared()) else {
            return Err(StoreError::new(
                StoreProblem::Other,
                "only a PostgreSQL database announces changes",
            ));
        };
        let pool = PgPoolOptions::new()
            .max_connections(1)
            .min_connections(0)
            .acquire_timeout(CONNECT_TIMEOUT)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_lazy(url)?;
        let mut listener = PgListener::connect_with(&pool).await?;
        // A lost connection is reported, not mended behind the caller's back: the caller
        // reads everything again after it opens another.
        listener.eager_reconnect(false);
        listener.ignore_pool_close_event(true);
        listener.listen(CHANNEL).await?;
        Ok(Follower { listener })
    }

    /// The records of `names` that exist (tombstones too), in no order.
    pub async fn records_named(&self, names: &[Name]) -> Result<Vec<Stored>, StoreError> {
        let mut found = Vec::with_capacity(names.len());
        for chunk in names.chunks(NAMES_PER_STATEMENT) {
            let marks = (1..=chunk.len())
                .map(|n| format!("${n}"))
                .collect::<Vec<_>>()
                .join(", ");
            let sql = format!("SELECT {RECORD_COLUMNS} FROM records WHERE name IN ({marks})");
            let mut query = sqlx::query_as::<_, RecordRow>(&sql);
            for name in chunk {
                query = query.bind(name.as_str());
            }
            for row in query.fetch_all(&self.pool).await? {
                found.push(stored_of(row)?);
            }
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_packed_into_payloads_under_the_limit_and_read_back() {
        let names: Vec<String> = (0..1000)
            .map(|i| format!("/net/{i:04}/{}", "x".repeat(30)))
            .collect();
        let payloads = payloads(names.iter().map(String::as_str));
        assert!(payloads.len() > 1);
        assert!(payloads.iter().all(|p| p.len() <= PAYLOAD_BYTES));
        let back: Vec<String> = payloads
            .iter()
            .flat_map(|p| names_of(p))
            .map(|n| n.as_str().to_string())
            .collect();
        assert_eq!(back, names);
    }

    #[test]
    fn a_payload_line_that_is_no_name_is_left_out() {
        let names = names_of("/a\nnot a name\n\n/b");
        let names: Vec<&str> = names.iter().map(Name::as_str).collect();
        assert_eq!(names, ["/a", "/b"]);
    }

    #[test]
    fn nothing_to_announce_is_no_payload() {
        assert!(payloads([]).is_empty());
    }
}
