//! Many new records at once (an import, a benchmark's million): the same checks as
//! [`Store::put`] creating a record, written with their creation events a batch at a time.

use super::{now, stored_name, Store, StoreError, WriteError};
use crate::model::{Actor, Body};
use std::collections::HashSet;
use std::fmt;
use urlkit::purl::Name;

/// Records (and their events) written per transaction.
pub const IMPORT_BATCH: usize = 10_000;

/// Rows per `INSERT` statement: 5 or 6 bound values each, well under SQLite's
/// 32,766 and PostgreSQL's 65,535.
const ROWS_PER_STATEMENT: usize = 500;

/// Why an import stopped: the record at `index` (0-based, in the order given) was refused
/// or could not be written. The batch holding it was rolled back; the `written` records
/// before that batch stay.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ImportError {
    /// The position of the record at fault in the list given, if one is.
    pub index: Option<usize>,
    /// Records written (and kept) before the failing batch.
    pub written: u64,
    /// What was wrong.
    pub error: WriteError,
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            Some(index) => write!(f, "record {}: {}", index + 1, self.error)?,
            None => write!(f, "{}", self.error)?,
        }
        write!(f, " ({} records written before its batch)", self.written)
    }
}

impl std::error::Error for ImportError {}

/// The longest of `prefixes` that `name` lies under.
fn longest_domain<'p>(prefixes: &'p [Name], name: &Name) -> Option<&'p Name> {
    prefixes
        .iter()
        .filter(|prefix| name.is_under(prefix))
        .max_by_key(|prefix| prefix.as_str().len())
}

/// `rows` groups of values for an `INSERT`, each of `per_row` parameters numbered from
/// `$1` on (PostgreSQL's numbered parameters, which SQLite takes too).
fn numbered(rows: usize, per_row: usize, row: impl Fn(usize) -> String) -> String {
    (0..rows)
        .map(|i| row(i * per_row + 1))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Store {
    /// Creates every record of `records`, each with its creation event (who is `actor`,
    /// why is `reason`), [`IMPORT_BATCH`] records per transaction, in the order given.
    /// Returns how many were written.
    ///
    /// Each record is checked as [`Store::put`] checks a creation: the body must make a
    /// valid record ([`WriteError::Invalid`]), the actor must be allowed to write the name
    /// in its domain ([`WriteError::Forbidden`]), and the name must have no record yet, not
    /// even a tombstone, nor come twice in `records` ([`WriteError::Stale`] with the
    /// current record, if stored). Chains are not checked against the other records: the
    /// caller does that (see [`crate::checks::chain_check`]), as for `put`.
    ///
    /// Bad input: the first refused record stops the import with an [`ImportError`]
    /// naming its position; its batch is rolled back (nothing of it is written) and the
    /// batches before it stay written.
    pub async fn import(
        &self,
        actor: &Actor,
        records: Vec<(Name, Body)>,
        reason: Option<&str>,
    ) -> Result<u64, ImportError> {
        let mut written = 0u64;
        let mut seen: HashSet<Name> = HashSet::with_capacity(records.len());
        let mut start = 0;
        let mut rest = records.into_iter();
        loop {
            let batch: Vec<(Name, Body)> = rest.by_ref().take(IMPORT_BATCH).collect();
            if batch.is_empty() {
                return Ok(written);
            }
            let count = batch.len();
            self.import_batch(actor, batch, reason, start, &mut seen)
                .await
                .map_err(|(index, error)| ImportError {
                    index,
                    written,
                    error,
                })?;
            written += count as u64;
            start += count;
        }
    }

    /// One batch in one transaction; an error names the record's position in the import.
    async fn import_batch(
        &self,
        actor: &Actor,
        batch: Vec<(Name, Body)>,
        reason: Option<&str>,
        start: usize,
        seen: &mut HashSet<Name>,
    ) -> Result<(), (Option<usize>, WriteError)> {
        let whole = |error: StoreError| (None, WriteError::Store(error));
        let sql = |error: sqlx::Error| (None, WriteError::Store(error.into()));
        // Checks that need no database first: the bodies, duplicates within the import.
        let mut rows = Vec::with_capacity(batch.len());
        for (i, (name, body)) in batch.into_iter().enumerate() {
            let at = Some(start + i);
            body.clone()
                .into_record(name.clone())
                .map_err(|e| (at, WriteError::Invalid(e)))?;
            if !seen.insert(name.clone()) {
                return Err((at, WriteError::Stale { current: None }));
            }
            let text = serde_json::to_string(&body).expect("a record body is always JSON");
            rows.push((name, text));
        }
        let mut tx = self.begin_write().await.map_err(sql)?;
        let prefixes: Vec<(String,)> = sqlx::query_as("SELECT prefix FROM domains")
            .fetch_all(&mut *tx)
            .await
            .map_err(sql)?;
        let prefixes = prefixes
            .iter()
            .map(|(prefix,)| stored_name(prefix))
            .collect::<Result<Vec<_>, _>>()
            .map_err(whole)?;
        let mut domains = Vec::with_capacity(rows.len());
        for (i, (name, _)) in rows.iter().enumerate() {
            let domain = longest_domain(&prefixes, name).cloned();
            if !actor.may_write(name, domain.as_ref()) {
                return Err((Some(start + i), WriteError::Forbidden { domain }));
            }
            domains.push(domain);
        }
        // Names already stored (tombstones too) are refused with the current record.
        for (chunk_at, chunk) in rows.chunks(ROWS_PER_STATEMENT).enumerate() {
            let marks = (1..=chunk.len())
                .map(|n| format!("${n}"))
                .collect::<Vec<_>>()
                .join(", ");
            let query = format!("SELECT name FROM records WHERE name IN ({marks}) LIMIT 1");
            let mut query = sqlx::query_as::<_, (String,)>(&query);
            for (name, _) in chunk {
                query = query.bind(name.as_str());
            }
            if let Some((found,)) = query.fetch_optional(&mut *tx).await.map_err(sql)? {
                let offset = chunk
                    .iter()
                    .position(|(name, _)| name.as_str() == found)
                    .unwrap_or(0);
                let name = chunk[offset].0.clone();
                let at = start + chunk_at * ROWS_PER_STATEMENT + offset;
                // Roll back before reading: an in-memory database has one connection.
                drop(tx);
                let current = self.get(&name).await.map_err(whole)?;
                return Err((
                    Some(at),
                    WriteError::Stale {
                        current: current.map(Box::new),
                    },
                ));
            }
        }
        let at = now();
        for (chunk, chunk_domains) in rows
            .chunks(ROWS_PER_STATEMENT)
            .zip(domains.chunks(ROWS_PER_STATEMENT))
        {
            let marks = numbered(chunk.len(), 5, |n| {
                format!(
                    "(${}, ${}, 1, ${}, ${}, ${}, FALSE)",
                    n,
                    n + 1,
                    n + 2,
                    n + 3,
                    n + 4
                )
            });
            let query = format!(
                "INSERT INTO records (name, body, version, domain, changed_at, changed_by, \
                 deleted) VALUES {marks}"
            );
            let mut query = sqlx::query(&query);
            for ((name, body), domain) in chunk.iter().zip(chunk_domains) {
                query = query
                    .bind(name.as_str())
                    .bind(body.as_str())
                    .bind(domain.as_ref().map(Name::as_str))
                    .bind(at)
                    .bind(actor.user.as_str());
            }
            query.execute(&mut *tx).await.map_err(sql)?;
            let marks = numbered(chunk.len(), 6, |n| {
                format!(
                    "(${}, 1, ${}, ${}, ${}, 'create', NULL, ${}, ${})",
                    n,
                    n + 1,
                    n + 2,
                    n + 3,
                    n + 4,
                    n + 5
                )
            });
            let query = format!(
                "INSERT INTO events (name, version, at, user_name, token, kind, before_body, \
                 after_body, reason) VALUES {marks}"
            );
            let mut query = sqlx::query(&query);
            for (name, body) in chunk {
                query = query
                    .bind(name.as_str())
                    .bind(at)
                    .bind(actor.user.as_str())
                    .bind(actor.token.as_deref())
                    .bind(body.as_str())
                    .bind(reason);
            }
            query.execute(&mut *tx).await.map_err(sql)?;
        }
        let names = rows.iter().map(|(name, _)| name.as_str());
        super::notify::announce(&mut tx, self.backend, names)
            .await
            .map_err(sql)?;
        tx.commit().await.map_err(sql)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Expect;

    fn admin() -> Actor {
        Actor {
            user: "loader".into(),
            token: None,
            admin: true,
            grants: Vec::new(),
        }
    }

    fn redirect(target: &str) -> Body {
        serde_json::from_str(&format!(r#"{{"type":"redirect","target":"{target}"}}"#)).unwrap()
    }

    fn name(text: &str) -> Name {
        Name::parse(text).unwrap()
    }

    async fn store() -> Store {
        Store::open("sqlite::memory:").await.unwrap()
    }

    #[tokio::test]
    async fn imports_records_with_their_creation_events_across_batches() {
        let store = store().await;
        let records: Vec<_> = (0..IMPORT_BATCH + 7)
            .map(|i| {
                (
                    name(&format!("/b/{i}")),
                    redirect(&format!("https://e.org/{i}")),
                )
            })
            .collect();
        let written = store.import(&admin(), records, Some("bulk")).await.unwrap();
        assert_eq!(written, (IMPORT_BATCH + 7) as u64);
        let last = store
            .get(&name(&format!("/b/{}", IMPORT_BATCH + 6)))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(last.version, 1);
        assert_eq!(last.changed_by, "loader");
        assert_eq!(
            last.record.action,
            redirect(&format!("https://e.org/{}", IMPORT_BATCH + 6)).action
        );
        let history = store.history(&name("/b/3")).await.unwrap();
        assert_eq!(history.len(), 1);
        assert_eq!(history[0].reason.as_deref(), Some("bulk"));
        assert_eq!(history[0].after, redirect("https://e.org/3"));
        assert!(history[0].before.is_none());
        // An imported record changes like any other: it is at version 1.
        store
            .put(
                &admin(),
                &name("/b/3"),
                redirect("https://e.org/new"),
                Expect::Version(1),
                None,
            )
            .await
            .unwrap();
    }

    #[tokio::test]
    async fn a_refused_record_rolls_back_its_batch_and_names_its_position() {
        let store = store().await;
        store
            .put(
                &admin(),
                &name("/taken"),
                redirect("https://e.org/t"),
                Expect::Absent,
                None,
            )
            .await
            .unwrap();
        let mut records: Vec<_> = (0..IMPORT_BATCH + 3)
            .map(|i| (name(&format!("/c/{i}")), redirect("https://e.org/")))
            .collect();
        records.push((name("/taken"), redirect("https://e.org/other")));
        let error = store.import(&admin(), records, None).await.unwrap_err();
        assert_eq!(error.index, Some(IMPORT_BATCH + 3));
        assert_eq!(error.written, IMPORT_BATCH as u64);
        match &error.error {
            WriteError::Stale {
                current: Some(current),
            } => {
                assert_eq!(current.record.action, redirect("https://e.org/t").action)
            }
            other => panic!("expected a stale write, got {other:?}"),
        }
        // The first batch stays, the second (with the refused record) is gone.
        assert!(store.get(&name("/c/0")).await.unwrap().is_some());
        assert!(store
            .get(&name(&format!("/c/{}", IMPORT_BATCH)))
            .await
            .unwrap()
            .is_none());
        assert!(store
            .get(&name(&format!("/c/{}", IMPORT_BATCH - 1)))
            .await
            .unwrap()
            .is_some());
    }

    #[tokio::test]
    async fn duplicates_bad_bodies_and_foreign_domains_are_refused() {
        let store = store().await;
        let twice = vec![
            (name("/d/a"), redirect("https://e.org/")),
            (name("/d/a"), redirect("https://e.org/2")),
        ];
        let error = store.import(&admin(), twice, None).await.unwrap_err();
        assert_eq!(error.index, Some(1));
        assert_eq!(error.written, 0);
        assert!(matches!(error.error, WriteError::Stale { current: None }));
        assert!(store.get(&name("/d/a")).await.unwrap().is_none());

        let relative = vec![
            (name("/d/b"), redirect("https://e.org/")),
            (name("/d/c"), redirect("not-absolute")),
        ];
        let error = store.import(&admin(), relative, None).await.unwrap_err();
        assert_eq!(error.index, Some(1));
        match &error.error {
            WriteError::Invalid(e) => assert_eq!(e.field, "target"),
            other => panic!("expected an invalid record, got {other:?}"),
        }

        let outsider = Actor {
            admin: false,
            ..admin()
        };
        let error = store
            .import(
                &outsider,
                vec![(name("/d/x"), redirect("https://e.org/"))],
                None,
            )
            .await
            .unwrap_err();
        assert_eq!(error.index, Some(0));
        assert!(matches!(
            error.error,
            WriteError::Forbidden { domain: None }
        ));
        assert!(error.to_string().starts_with("record 1: "));
    }
}
