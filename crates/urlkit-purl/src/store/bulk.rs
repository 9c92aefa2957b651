//! Many new records at once (an import, a benchmark's million): the same checks as
//! [`Store::put`] creating a record, written with their creation events a batch at a time.

use super::rows::{body_text, event_of, kind_text, stored_of, EventRow, RecordRow, RECORD_COLUMNS};
use super::{now, stored_name, Store, StoreError, WriteError};
use crate::model::{Actor, Body, Expect, Stored};
use crate::transfer::exported::Exported;
use std::collections::{HashMap, HashSet};
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
    /// `sql` with its numbered parameters (`$1`, `$2` …, in increasing order in the text)
    /// as SQLite's anonymous `?` on SQLite: sqlx looks up each numbered parameter's name
    /// by a scan of all of them, which for a statement of thousands of values costs more
    /// than the statement itself.
    fn positional(&self, sql: String) -> String {
        if self.backend != super::Backend::Sqlite {
            return sql;
        }
        let mut out = String::with_capacity(sql.len());
        let mut chars = sql.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '$' && chars.peek().is_some_and(char::is_ascii_digit) {
                while chars.peek().is_some_and(char::is_ascii_digit) {
                    chars.next();
                }
                out.push('?');
            } else {
                out.push(c);
            }
        }
        out
    }

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
        let mut tx = self
            .begin_write()
            .await
            .map_err(|error| (None, WriteError::Store(error)))?;
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
            let query = self.positional(query);
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
            let query = self.positional(query);
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
            let query = self.positional(query);
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

/// What an import did, or would do, with one record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Applied {
    /// The name had no record: created (for an export, with its whole history).
    Created,
    /// The name had another record (or a tombstone): a new version, with the import's
    /// reason.
    Changed,
    /// The name has this record already: left alone.
    Unchanged,
    /// Not written, and why (a name outside the actor's domains, a change by someone else
    /// meanwhile …).
    Refused(String),
}

impl Store {
    /// A page of the export: at most `page` records (at least one) with names after
    /// `after` (all from the first when `None`), in order of name, each with its whole
    /// history. An empty page is the end.
    pub async fn export_page(
        &self,
        after: Option<&Name>,
        page: usize,
    ) -> Result<Vec<Exported>, StoreError> {
        let page = i64::try_from(page.max(1)).unwrap_or(i64::MAX);
        let after = after.map_or("", Name::as_str);
        let rows: Vec<RecordRow> = sqlx::query_as(&format!(
            "SELECT {RECORD_COLUMNS} FROM records WHERE name > $1 ORDER BY name LIMIT $2"
        ))
        .bind(after)
        .bind(page)
        .fetch_all(&self.pool)
        .await?;
        let Some(last) = rows.last().map(|row| row.0.clone()) else {
            return Ok(Vec::new());
        };
        let events: Vec<EventRow> = sqlx::query_as(
            "SELECT name, version, at, user_name, token, kind, before_body, after_body, reason \
             FROM events WHERE name > $1 AND name <= $2 ORDER BY name, version",
        )
        .bind(after)
        .bind(&last)
        .fetch_all(&self.pool)
        .await?;
        let mut events = events.into_iter().peekable();
        let mut page = Vec::with_capacity(rows.len());
        for row in rows {
            let stored = stored_of(row)?;
            let mut history = Vec::new();
            while let Some(event) = events.next_if(|e| e.0.as_str() <= stored.record.name.as_str())
            {
                // Events of a name without a record (none are written so) are left out.
                if event.0 == stored.record.name.as_str() {
                    history.push(event_of(event)?);
                }
            }
            page.push(Exported::of(&stored, &history));
        }
        Ok(page)
    }

    /// The stored records of `names` (tombstones too).
    async fn current_of<'n>(
        &self,
        names: impl Iterator<Item = &'n Name>,
    ) -> Result<HashMap<String, Stored>, StoreError> {
        let names: Vec<&Name> = names.collect();
        let mut found = HashMap::with_capacity(names.len());
        for chunk in names.chunks(ROWS_PER_STATEMENT) {
            let marks = (1..=chunk.len())
                .map(|n| format!("${n}"))
                .collect::<Vec<_>>()
                .join(", ");
            let query = format!("SELECT {RECORD_COLUMNS} FROM records WHERE name IN ({marks})");
            let query = self.positional(query);
            let mut query = sqlx::query_as::<_, RecordRow>(&query);
            for name in chunk {
                query = query.bind(name.as_str());
            }
            for row in query.fetch_all(&self.pool).await? {
                let stored = stored_of(row)?;
                found.insert(stored.record.name.as_str().to_string(), stored);
            }
        }
        Ok(found)
    }

    /// Imports `records` (a batch of an import; names should not repeat): a name without
    /// a record gets one, created with the others in one transaction; a name whose record
    /// (or tombstone) differs gets a new version; a name that has this record already is
    /// left alone. Each change is the actor's, with `reason`, owner checks as for
    /// [`Store::put`]. With `dry_run` nothing is written and the answer says what would be.
    /// Chains are not checked against the other records (the caller does that).
    ///
    /// Bad input: a record the actor may not write, a body that makes no record, a name
    /// given twice, or a record changed by someone else meanwhile is
    /// [`Applied::Refused`], the others written; a database that fails is the error (the
    /// creations of the batch are then not written, the changes before it are).
    pub async fn apply(
        &self,
        actor: &Actor,
        records: Vec<(Name, Body)>,
        reason: Option<&str>,
        dry_run: bool,
    ) -> Result<Vec<Applied>, StoreError> {
        let current = self
            .current_of(records.iter().map(|(name, _)| name))
            .await?;
        let prefixes = self.domain_prefixes().await?;
        let mut answers = Vec::with_capacity(records.len());
        let mut creations = Vec::new();
        let mut changes = Vec::new();
        let mut seen = HashSet::with_capacity(records.len());
        for (i, (name, body)) in records.into_iter().enumerate() {
            if !seen.insert(name.clone()) {
                answers.push(Applied::Refused("the name comes twice".into()));
                continue;
            }
            if let Err(error) = body.clone().into_record(name.clone()) {
                answers.push(Applied::Refused(WriteError::Invalid(error).to_string()));
                continue;
            }
            let answer = match current.get(name.as_str()) {
                None => {
                    let domain = longest_domain(&prefixes, &name);
                    if actor.may_write(&name, domain) {
                        creations.push((i, name, body));
                        Applied::Created
                    } else {
                        Applied::Refused(
                            WriteError::Forbidden {
                                domain: domain.cloned(),
                            }
                            .to_string(),
                        )
                    }
                }
                Some(stored) if !stored.deleted && Body::of(&stored.record) == body => {
                    Applied::Unchanged
                }
                Some(stored) => {
                    if actor.may_write(&name, stored.domain.as_ref()) {
                        changes.push((i, name, body, stored.version));
                        Applied::Changed
                    } else {
                        Applied::Refused(
                            WriteError::Forbidden {
                                domain: stored.domain.clone(),
                            }
                            .to_string(),
                        )
                    }
                }
            };
            answers.push(answer);
        }
        if dry_run {
            return Ok(answers);
        }
        if !creations.is_empty() {
            let positions: Vec<usize> = creations.iter().map(|(i, _, _)| *i).collect();
            let batch = creations
                .into_iter()
                .map(|(_, name, body)| (name, body))
                .collect();
            if let Err((at, error)) = self
                .import_batch(actor, batch, reason, 0, &mut HashSet::new())
                .await
            {
                match (at, error) {
                    (Some(at), error) => {
                        // Created meanwhile by someone else: this batch is written again
                        // without it by the caller's next import of the file.
                        answers[positions[at]] = Applied::Refused(format!(
                            "{error}; nothing of its batch of {} new records was written",
                            positions.len()
                        ));
                        for &i in &positions {
                            if answers[i] == Applied::Created {
                                answers[i] = Applied::Refused(
                                    "not written: another record of its batch was refused".into(),
                                );
                            }
                        }
                    }
                    (None, WriteError::Store(error)) => return Err(error),
                    (None, other) => {
                        return Err(StoreError::new(
                            super::StoreProblem::Other,
                            other.to_string(),
                        ))
                    }
                }
            }
        }
        for (i, name, body, version) in changes {
            match self
                .put(actor, &name, body, Expect::Version(version), reason)
                .await
            {
                Ok(_) => {}
                Err(WriteError::Store(error)) => return Err(error),
                Err(other) => answers[i] = Applied::Refused(other.to_string()),
            }
        }
        Ok(answers)
    }

    /// Imports records of an export (see [`crate::transfer::export`]): a name without a
    /// record gets it with its whole history as exported (versions, events with their
    /// authors, tokens, times and reasons, tombstone, domain), so that the database's
    /// export gives the same lines; a name whose record is the exported one (version,
    /// body, tombstone) is left alone; a name with another record gets the exported one as
    /// a new version (a deletion for a tombstone) with `reason`. With `dry_run` nothing is
    /// written.
    ///
    /// Bad input: histories are written as given, so only an administrator may import
    /// them: anyone else has every record [`Applied::Refused`]; a tombstone in the file
    /// over another tombstone, or a change refused as by [`Store::put`], is refused too.
    /// A database that fails is the error (the batch's new records are then not written).
    pub async fn apply_exported(
        &self,
        actor: &Actor,
        records: Vec<Exported>,
        reason: Option<&str>,
        dry_run: bool,
    ) -> Result<Vec<Applied>, StoreError> {
        if !actor.admin {
            return Ok(records
                .iter()
                .map(|_| {
                    Applied::Refused(
                        "an export's histories are written as they are: only an administrator \
                         imports them"
                            .into(),
                    )
                })
                .collect());
        }
        let current = self.current_of(records.iter().map(|r| &r.name)).await?;
        let mut answers = Vec::with_capacity(records.len());
        let mut creations: Vec<&Exported> = Vec::new();
        let mut changes = Vec::new();
        let mut seen = HashSet::with_capacity(records.len());
        for (i, exported) in records.iter().enumerate() {
            if !seen.insert(exported.name.clone()) {
                answers.push(Applied::Refused("the name comes twice".into()));
                continue;
            }
            answers.push(match current.get(exported.name.as_str()) {
                None => {
                    creations.push(exported);
                    Applied::Created
                }
                Some(stored)
                    if stored.version == exported.version
                        && stored.deleted == exported.deleted
                        && Body::of(&stored.record) == exported.record =>
                {
                    Applied::Unchanged
                }
                Some(stored) if stored.deleted && exported.deleted => Applied::Refused(format!(
                    "a tombstone here (version {}) and in the file (version {}): left as it is",
                    stored.version, exported.version
                )),
                Some(stored) => {
                    changes.push((i, exported, stored.version));
                    Applied::Changed
                }
            });
        }
        if dry_run {
            return Ok(answers);
        }
        if !creations.is_empty() {
            self.insert_exported(&creations).await?;
        }
        for (i, exported, version) in changes {
            let name = &exported.name;
            let written = if exported.deleted {
                let message = match &exported.record.action {
                    urlkit::purl::Action::Gone { message } => Some(message.as_str()),
                    _ => None,
                };
                self.delete(actor, name, Expect::Version(version), message, reason)
                    .await
            } else {
                self.put(
                    actor,
                    name,
                    exported.record.clone(),
                    Expect::Version(version),
                    reason,
                )
                .await
            };
            match written {
                Ok(_) => {}
                Err(WriteError::Store(error)) => return Err(error),
                Err(other) => answers[i] = Applied::Refused(other.to_string()),
            }
        }
        Ok(answers)
    }

    /// Writes exported records and their events as they are, in one transaction.
    async fn insert_exported(&self, records: &[&Exported]) -> Result<(), StoreError> {
        let mut tx = self.begin_write().await?;
        for chunk in records.chunks(ROWS_PER_STATEMENT) {
            let marks = numbered(chunk.len(), 7, |n| {
                format!(
                    "(${}, ${}, ${}, ${}, ${}, ${}, ${})",
                    n,
                    n + 1,
                    n + 2,
                    n + 3,
                    n + 4,
                    n + 5,
                    n + 6
                )
            });
            let query = format!(
                "INSERT INTO records (name, body, version, domain, changed_at, changed_by, \
                 deleted) VALUES {marks}"
            );
            let query = self.positional(query);
            let mut query = sqlx::query(&query);
            for exported in chunk {
                query = query
                    .bind(exported.name.as_str())
                    .bind(body_text(&exported.record))
                    .bind(exported.version)
                    .bind(exported.domain.as_ref().map(Name::as_str))
                    .bind(exported.changed_at)
                    .bind(exported.changed_by.as_str())
                    .bind(exported.deleted);
            }
            query.execute(&mut *tx).await?;
        }
        let events: Vec<crate::model::Event> = records.iter().flat_map(|r| r.events()).collect();
        for chunk in events.chunks(ROWS_PER_STATEMENT / 2) {
            let marks = numbered(chunk.len(), 9, |n| {
                let marks: Vec<String> = (n..n + 9).map(|m| format!("${m}")).collect();
                format!("({})", marks.join(", "))
            });
            let query = format!(
                "INSERT INTO events (name, version, at, user_name, token, kind, before_body, \
                 after_body, reason) VALUES {marks}"
            );
            let query = self.positional(query);
            let mut query = sqlx::query(&query);
            for event in chunk {
                query = query
                    .bind(event.name.as_str())
                    .bind(event.version)
                    .bind(event.at)
                    .bind(event.user.as_str())
                    .bind(event.token.as_deref())
                    .bind(kind_text(event.kind))
                    .bind(event.before.as_ref().map(body_text))
                    .bind(body_text(&event.after))
                    .bind(event.reason.as_deref());
            }
            query.execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The prefixes of every domain.
    async fn domain_prefixes(&self) -> Result<Vec<Name>, StoreError> {
        let prefixes: Vec<(String,)> = sqlx::query_as("SELECT prefix FROM domains")
            .fetch_all(&self.pool)
            .await?;
        prefixes
            .iter()
            .map(|(prefix,)| stored_name(prefix))
            .collect()
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
