//! Records and their history: reads, and changes written with their event in one
//! transaction after the owner, the expected version and the body are checked.

use super::rows::{body_text, event_of, kind_text, stored_of, EventRow, RecordRow, RECORD_COLUMNS};
use super::{now, stored_body, stored_name, Search, Store, StoreError, WriteError};
use crate::model::{Actor, Body, Event, EventKind, Expect, Stored, Version};
use sqlx::Any;
use urlkit::purl::{Action, Name};

/// What a tombstone says when its deletion gave no message.
pub const DELETED_MESSAGE: &str = "This persistent URL was deleted.";

/// Most records one search answers.
pub const SEARCH_CAP: usize = 1000;

async fn get_in<'e, E>(executor: E, name: &Name) -> Result<Option<Stored>, StoreError>
where
    E: sqlx::Executor<'e, Database = Any>,
{
    let row: Option<RecordRow> = sqlx::query_as(&format!(
        "SELECT {RECORD_COLUMNS} FROM records WHERE name = $1"
    ))
    .bind(name.as_str())
    .fetch_optional(executor)
    .await?;
    row.map(stored_of).transpose()
}

/// The longest domain prefix `name` lies under.
pub(super) async fn domain_in<'e, E>(executor: E, name: &Name) -> Result<Option<Name>, StoreError>
where
    E: sqlx::Executor<'e, Database = Any>,
{
    let prefixes: Vec<(String,)> = sqlx::query_as("SELECT prefix FROM domains")
        .fetch_all(executor)
        .await?;
    let mut best: Option<Name> = None;
    for (prefix,) in prefixes {
        let prefix = stored_name(&prefix)?;
        if name.is_under(&prefix)
            && best
                .as_ref()
                .is_none_or(|b| prefix.as_str().len() > b.as_str().len())
        {
            best = Some(prefix);
        }
    }
    Ok(best)
}

/// What a change makes of the current record (if any): its kind, the new body and
/// whether that is a tombstone.
type Change =
    Box<dyn FnOnce(Option<&Stored>) -> Result<(EventKind, Body, bool), WriteError> + Send>;

impl Store {
    /// Every record, tombstones included (to fill the resolver's memory at start).
    pub async fn records(&self) -> Result<Vec<Stored>, StoreError> {
        let rows: Vec<RecordRow> = sqlx::query_as(&format!(
            "SELECT {RECORD_COLUMNS} FROM records ORDER BY name"
        ))
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter().map(stored_of).collect()
    }

    /// Every record, tombstones included, handed to `each` in order of name, read a page
    /// of rows at a time (the resolver's memory is filled without holding every row
    /// twice). Stops at the first record the database cannot give.
    pub async fn each_record(&self, each: impl FnMut(Stored)) -> Result<(), StoreError> {
        self.each_record_paged(10_000, each).await
    }

    /// [`Store::each_record`], `page` rows a read (at least one).
    pub async fn each_record_paged(
        &self,
        page: usize,
        mut each: impl FnMut(Stored),
    ) -> Result<(), StoreError> {
        let page = i64::try_from(page.max(1)).unwrap_or(i64::MAX);
        let mut after: Option<String> = None;
        loop {
            // Each page from where the last ended, through the index of names.
            let rows: Vec<RecordRow> = sqlx::query_as(&format!(
                "SELECT {RECORD_COLUMNS} FROM records WHERE name > $1 ORDER BY name LIMIT $2"
            ))
            .bind(after.as_deref().unwrap_or(""))
            .bind(page)
            .fetch_all(&self.pool)
            .await?;
            let full = i64::try_from(rows.len()) == Ok(page);
            after = rows.last().map(|row| row.0.clone());
            for row in rows {
                each(stored_of(row)?);
            }
            if !full {
                return Ok(());
            }
        }
    }

    /// The record of `name`, or its tombstone.
    pub async fn get(&self, name: &Name) -> Result<Option<Stored>, StoreError> {
        get_in(&self.pool, name).await
    }

    /// Creates or changes the record of `name` (a tombstone's name only by a maintainer of
    /// its domain, which counts as a restore of the name), recording the event. The caller
    /// has checked the record against the others (chains).
    ///
    /// `Expect::Absent` is met by no record or by a tombstone (which answers `410`: the
    /// name has no record to lose); `Expect::Version(v)` by the record, or tombstone, at
    /// version `v`.
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
        let change: Change = Box::new(move |current| {
            let kind = match current {
                Some(current) if !current.deleted => EventKind::Update,
                _ => EventKind::Create,
            };
            Ok((kind, body, false))
        });
        self.change(actor, name, expect, reason, change).await
    }

    /// Deletes the record of `name`: it becomes a tombstone answering `410` with
    /// `message` (by default [`DELETED_MESSAGE`]), keeping its history and its domain.
    ///
    /// Refused: no record (or a tombstone already) is [`WriteError::NotFound`]; a version
    /// other than `expect` is [`WriteError::Stale`]; a name the actor may not write.
    pub async fn delete(
        &self,
        actor: &Actor,
        name: &Name,
        expect: Expect,
        message: Option<&str>,
        reason: Option<&str>,
    ) -> Result<Stored, WriteError> {
        let message = message.unwrap_or(DELETED_MESSAGE).to_string();
        let change: Change = Box::new(move |current| match current {
            Some(current) if !current.deleted => Ok((
                EventKind::Delete,
                Body {
                    action: Action::Gone { message },
                    max_age: None,
                },
                true,
            )),
            _ => Err(WriteError::NotFound),
        });
        self.change(actor, name, expect, reason, change).await
    }

    /// Brings back the record as it was at `version` (a new event, a new version).
    ///
    /// Refused: no event of that version is [`WriteError::NotFound`]; a version other
    /// than `expect` is [`WriteError::Stale`]; a name the actor may not write.
    pub async fn restore(
        &self,
        actor: &Actor,
        name: &Name,
        version: Version,
        expect: Expect,
        reason: Option<&str>,
    ) -> Result<Stored, WriteError> {
        let row: Option<(String, String)> =
            sqlx::query_as("SELECT after_body, kind FROM events WHERE name = $1 AND version = $2")
                .bind(name.as_str())
                .bind(version)
                .fetch_optional(&self.pool)
                .await
                .map_err(StoreError::from)?;
        let Some((after, kind)) = row else {
            return Err(WriteError::NotFound);
        };
        let body = stored_body(&after)?;
        let tombstone = kind == kind_text(EventKind::Delete);
        let change: Change = Box::new(move |current| match current {
            Some(_) => Ok((EventKind::Restore, body, tombstone)),
            None => Err(WriteError::NotFound),
        });
        self.change(actor, name, expect, reason, change).await
    }

    /// The history of `name`, oldest first.
    pub async fn history(&self, name: &Name) -> Result<Vec<Event>, StoreError> {
        let rows: Vec<EventRow> = sqlx::query_as(
            "SELECT name, version, at, user_name, token, kind, before_body, after_body, reason \
             FROM events WHERE name = $1 ORDER BY version",
        )
        .bind(name.as_str())
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter().map(event_of).collect()
    }

    /// Records matching `search`, by name, at most [`SEARCH_CAP`] (a `limit` of 0 is the
    /// cap). A target matches when one of the record's targets contains the text (case
    /// counts).
    pub async fn search(&self, search: &Search) -> Result<Vec<Stored>, StoreError> {
        let limit = match search.limit {
            0 => SEARCH_CAP,
            n => n.min(SEARCH_CAP),
        };
        let mut sql = format!("SELECT {RECORD_COLUMNS} FROM records WHERE 1 = 1");
        let mut binds: Vec<String> = Vec::new();
        if let Some(prefix) = &search.name_prefix {
            binds.push(prefix.clone());
            let n = binds.len();
            sql.push_str(&format!(" AND substr(name, 1, length(${n})) = ${n}"));
        }
        if let Some(text) = &search.target_contains {
            let escaped = text
                .replace('\\', "\\\\")
                .replace('%', "\\%")
                .replace('_', "\\_");
            binds.push(format!("%{escaped}%"));
            sql.push_str(&format!(" AND body LIKE ${} ESCAPE '\\'", binds.len()));
        }
        if let Some(domain) = &search.domain {
            binds.push(domain.as_str().to_string());
            sql.push_str(&format!(" AND domain = ${}", binds.len()));
        }
        if let Some(after) = &search.after {
            binds.push(after.as_str().to_string());
            sql.push_str(&format!(" AND name > ${}", binds.len()));
        }
        if !search.include_deleted {
            sql.push_str(" AND deleted = FALSE");
        }
        sql.push_str(" ORDER BY name");
        if search.target_contains.is_none() {
            sql.push_str(&format!(" LIMIT {limit}"));
        }
        let mut query = sqlx::query_as::<_, RecordRow>(&sql);
        for bind in &binds {
            query = query.bind(bind);
        }
        let rows = query.fetch_all(&self.pool).await?;
        let mut found = Vec::new();
        for row in rows {
            let stored = stored_of(row)?;
            if let Some(text) = &search.target_contains {
                if !targets(&stored.record.action).any(|t| t.contains(text.as_str())) {
                    continue;
                }
            }
            found.push(stored);
            if found.len() == limit {
                break;
            }
        }
        Ok(found)
    }

    /// The domain that holds `name`: the longest domain prefix it lies under.
    pub async fn domain_of(&self, name: &Name) -> Result<Option<Name>, StoreError> {
        domain_in(&self.pool, name).await
    }

    /// One change in one transaction: the current record read under the write lock, the
    /// actor, the expected version and the new body checked, the record and its event
    /// written.
    async fn change(
        &self,
        actor: &Actor,
        name: &Name,
        expect: Expect,
        reason: Option<&str>,
        change: Change,
    ) -> Result<Stored, WriteError> {
        let changed = self.change_in(actor, name, expect, reason, change).await;
        match &changed {
            Ok(_) => {
                let _ = self.note(&Ok(()));
            }
            Err(WriteError::Store(error)) => {
                let _ = self.note::<()>(&Err(error.clone()));
            }
            Err(_) => {}
        }
        changed
    }

    async fn change_in(
        &self,
        actor: &Actor,
        name: &Name,
        expect: Expect,
        reason: Option<&str>,
        change: Change,
    ) -> Result<Stored, WriteError> {
        // On SQLite, BEGIN IMMEDIATE takes the write lock first, so two writers of one
        // version are one after the other: the second reads the first's change and is
        // stale. On PostgreSQL both may read the same version: the UPDATE below changes
        // only that version (the second waits for the first's row lock, then finds a newer
        // version and changes nothing), and of two INSERTs of a new name the second fails
        // on the primary key; either way the second is stale.
        let mut tx = self.begin_write().await?;
        let current = get_in(&mut *tx, name).await?;
        let domain = match &current {
            Some(current) => current.domain.clone(),
            None => domain_in(&mut *tx, name).await?,
        };
        if !actor.may_write(name, domain.as_ref()) {
            return Err(WriteError::Forbidden { domain });
        }
        let met = match (expect, &current) {
            (Expect::Absent, None) => true,
            (Expect::Absent, Some(current)) => current.deleted,
            (Expect::Version(v), Some(current)) => current.version == v,
            (Expect::Version(_), None) => false,
        };
        if !met {
            return Err(WriteError::Stale {
                current: current.map(Box::new),
            });
        }
        let (kind, body, deleted) = change(current.as_ref())?;
        let record = body
            .clone()
            .into_record(name.clone())
            .map_err(WriteError::Invalid)?;
        let at = now();
        let version = current.as_ref().map_or(1, |c| c.version + 1);
        let after = body_text(&body);
        let written = match &current {
            None => {
                let inserted = sqlx::query(
                    "INSERT INTO records (name, body, version, domain, changed_at, changed_by, \
                     deleted) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .bind(name.as_str())
                .bind(&after)
                .bind(version)
                .bind(domain.as_ref().map(Name::as_str))
                .bind(at)
                .bind(&actor.user)
                .bind(deleted)
                .execute(&mut *tx)
                .await;
                match inserted {
                    Err(sqlx::Error::Database(error)) if error.is_unique_violation() => {
                        // Another writer created the name since it was read: the
                        // transaction is spoilt, so the current record is read outside it.
                        drop(tx);
                        let current = self.get(name).await?;
                        return Err(WriteError::Stale {
                            current: current.map(Box::new),
                        });
                    }
                    other => other.map_err(StoreError::from)?,
                }
            }
            Some(current) => sqlx::query(
                "UPDATE records SET body = $2, version = $3, changed_at = $4, changed_by = $5, \
                 deleted = $6 WHERE name = $1 AND version = $7",
            )
            .bind(name.as_str())
            .bind(&after)
            .bind(version)
            .bind(at)
            .bind(&actor.user)
            .bind(deleted)
            .bind(current.version)
            .execute(&mut *tx)
            .await
            .map_err(StoreError::from)?,
        };
        if written.rows_affected() != 1 {
            // Another writer got in between (a database without BEGIN IMMEDIATE).
            let current = get_in(&mut *tx, name).await?;
            return Err(WriteError::Stale {
                current: current.map(Box::new),
            });
        }
        sqlx::query(
            "INSERT INTO events (name, version, at, user_name, token, kind, before_body, \
             after_body, reason) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(name.as_str())
        .bind(version)
        .bind(at)
        .bind(&actor.user)
        .bind(actor.token.as_deref())
        .bind(kind_text(kind))
        .bind(current.as_ref().map(|c| body_text(&Body::of(&c.record))))
        .bind(&after)
        .bind(reason)
        .execute(&mut *tx)
        .await
        .map_err(StoreError::from)?;
        // The other resolvers on the database reload the record when this commits.
        super::notify::announce(&mut tx, self.backend, [name.as_str()])
            .await
            .map_err(StoreError::from)?;
        tx.commit().await.map_err(StoreError::from)?;
        Ok(Stored {
            record,
            version,
            domain,
            changed_at: at,
            changed_by: actor.user.clone(),
            deleted,
        })
    }
}

/// The targets a record redirects to.
fn targets(action: &Action) -> impl Iterator<Item = &str> {
    let (one, offers, fallback): (Option<&str>, &[urlkit::purl::Offer], Option<&str>) = match action
    {
        Action::Redirect { target, .. } | Action::Partial { target, .. } => {
            (Some(target), &[], None)
        }
        Action::Negotiate {
            offers, fallback, ..
        } => (None, offers, fallback.as_deref()),
        _ => (None, &[], None),
    };
    one.into_iter()
        .chain(offers.iter().map(|o| o.target.as_str()))
        .chain(fallback)
}
