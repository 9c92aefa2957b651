//! The link checker's status history: every check of a record's target, appended; read
//! back as the latest check of each target, of one record or of a domain.

use super::{stored_body, stored_name, Store, StoreError, StoreProblem};
use crate::checker::{targets_of, Outcome, OutcomeKind, TargetCheck};
use urlkit::purl::Name;

/// Which of the latest checks to list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckFilter {
    /// Every one.
    All,
    /// Those whose target people no longer reach ([`OutcomeKind::is_broken`]).
    Broken,
    /// Those whose target moved for good (a suggestion to accept).
    Moved,
}

impl CheckFilter {
    fn keeps(self, kind: OutcomeKind) -> bool {
        match self {
            CheckFilter::All => true,
            CheckFilter::Broken => kind.is_broken(),
            CheckFilter::Moved => kind == OutcomeKind::Moved,
        }
    }
}

/// A row of `target_checks`, and the record's body when joined with it.
type Row = (
    String,
    String,
    i64,
    String,
    Option<i64>,
    Option<String>,
    String,
);

const COLUMNS: &str =
    "c.name, c.target, c.checked_at, c.kind, c.http_status, c.suggested, c.detail";

/// Rows written in one statement (7 values each, within SQLite's 32,766 parameters).
const BATCH: usize = 500;

fn check_of(row: Row) -> Result<TargetCheck, StoreError> {
    let (name, target, checked_at, kind, status, suggested, detail) = row;
    let kind = OutcomeKind::parse(&kind).ok_or_else(|| {
        StoreError::new(
            StoreProblem::Other,
            format!("the database holds an unknown kind of check {kind:?} for {name}"),
        )
    })?;
    Ok(TargetCheck {
        name: stored_name(&name)?,
        target,
        checked_at,
        outcome: Outcome {
            kind,
            status: status.and_then(|s| u16::try_from(s).ok()),
            suggestion: suggested,
            detail,
        },
    })
}

impl Store {
    /// Appends checks to the status history, in one transaction.
    pub async fn add_checks(&self, checks: &[TargetCheck]) -> Result<(), StoreError> {
        if checks.is_empty() {
            return Ok(());
        }
        let mut tx = self.begin_write().await?;
        for batch in checks.chunks(BATCH) {
            let mut sql = String::from(
                "INSERT INTO target_checks \
                 (name, target, checked_at, kind, http_status, suggested, detail) VALUES ",
            );
            for i in 0..batch.len() {
                let n = i * 7;
                if i > 0 {
                    sql.push_str(", ");
                }
                sql.push_str(&format!(
                    "(${}, ${}, ${}, ${}, ${}, ${}, ${})",
                    n + 1,
                    n + 2,
                    n + 3,
                    n + 4,
                    n + 5,
                    n + 6,
                    n + 7
                ));
            }
            let mut query = sqlx::query(&sql);
            for check in batch {
                query = query
                    .bind(check.name.as_str())
                    .bind(check.target.as_str())
                    .bind(check.checked_at)
                    .bind(check.outcome.kind.label())
                    .bind(check.outcome.status.map(i64::from))
                    .bind(check.outcome.suggestion.as_deref())
                    .bind(check.outcome.detail.as_str());
            }
            query.execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The latest check of each target of the record `name` (targets it no longer has
    /// left out), in the record's order of targets.
    pub async fn latest_checks(&self, name: &Name) -> Result<Vec<TargetCheck>, StoreError> {
        let Some(stored) = self.get(name).await? else {
            return Ok(Vec::new());
        };
        let sql = format!(
            "SELECT {COLUMNS} FROM target_checks c WHERE c.name = $1 AND c.checked_at = \
             (SELECT MAX(d.checked_at) FROM target_checks d \
              WHERE d.name = c.name AND d.target = c.target)"
        );
        let rows: Vec<Row> = sqlx::query_as(&sql)
            .bind(name.as_str())
            .fetch_all(&self.pool)
            .await?;
        let mut checks = rows
            .into_iter()
            .map(check_of)
            .collect::<Result<Vec<_>, _>>()?;
        let targets = targets_of(&stored.record);
        checks.retain(|c| targets.contains(&c.target));
        checks.sort_by_key(|c| targets.iter().position(|t| *t == c.target));
        checks.dedup_by(|a, b| a.target == b.target);
        Ok(checks)
    }

    /// The latest check of each target of the records (not tombstones) of `domain`, or of
    /// all records, kept by `filter`, newest first (then by name). Targets a record no
    /// longer has are left out.
    pub async fn latest_checks_in(
        &self,
        domain: Option<&Name>,
        filter: CheckFilter,
    ) -> Result<Vec<TargetCheck>, StoreError> {
        let mut sql = format!(
            "SELECT {COLUMNS}, r.body FROM target_checks c JOIN records r ON r.name = c.name \
             WHERE r.deleted = FALSE AND c.checked_at = \
             (SELECT MAX(d.checked_at) FROM target_checks d \
              WHERE d.name = c.name AND d.target = c.target)"
        );
        if domain.is_some() {
            sql.push_str(" AND r.domain = $1");
        }
        sql.push_str(" ORDER BY c.checked_at DESC, c.name, c.target");
        let mut query = sqlx::query_as::<
            _,
            (
                String,
                String,
                i64,
                String,
                Option<i64>,
                Option<String>,
                String,
                String,
            ),
        >(&sql);
        if let Some(domain) = domain {
            query = query.bind(domain.as_str());
        }
        let rows = query.fetch_all(&self.pool).await?;
        let mut checks: Vec<TargetCheck> = Vec::new();
        for (name, target, at, kind, status, suggested, detail, body) in rows {
            let check = check_of((name, target, at, kind, status, suggested, detail))?;
            if !filter.keeps(check.outcome.kind) {
                continue;
            }
            let body = stored_body(&body)?;
            let record = match body.into_record(check.name.clone()) {
                Ok(record) => record,
                Err(_) => continue,
            };
            if !targets_of(&record).contains(&check.target) {
                continue;
            }
            if checks
                .iter()
                .any(|c| c.name == check.name && c.target == check.target)
            {
                continue;
            }
            checks.push(check);
        }
        Ok(checks)
    }

    /// When the newest check was made, if any was.
    pub async fn last_check_at(&self) -> Result<Option<i64>, StoreError> {
        let (at,): (Option<i64>,) = sqlx::query_as("SELECT MAX(checked_at) FROM target_checks")
            .fetch_one(&self.pool)
            .await?;
        Ok(at)
    }

    /// The last `limit` checks of one target of a record, newest first.
    pub async fn target_checks(
        &self,
        name: &Name,
        target: &str,
        limit: usize,
    ) -> Result<Vec<TargetCheck>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM target_checks c WHERE c.name = $1 AND c.target = $2 \
             ORDER BY c.checked_at DESC LIMIT $3"
        );
        let rows: Vec<Row> = sqlx::query_as(&sql)
            .bind(name.as_str())
            .bind(target)
            .bind(i64::try_from(limit).unwrap_or(i64::MAX))
            .fetch_all(&self.pool)
            .await?;
        rows.into_iter().map(check_of).collect()
    }
}
