//! A domain's archive fallback: once a record's target has failed a set number of checks
//! in a row, people are sent to an archived copy (a URL template filled in) instead. Off
//! unless an administrator sets it for the domain.

use super::{stored_body, stored_name, Domain, Store, StoreError, WriteError};
use crate::checker::TargetCheck;
use crate::model::Actor;
use serde::Serialize;
use std::time::{Duration, UNIX_EPOCH};
use urlkit::inspect::whatwg;
use urlkit::purl::{Action, Name};

/// A domain's archive fallback.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ArchiveFallback {
    /// The archived copy's URL, with `{url}` for the target and perhaps `{timestamp}`
    /// (`https://web.archive.org/web/{timestamp}/{url}`).
    pub template: String,
    /// After how many failed checks in a row (1 or more).
    pub after: u32,
}

impl ArchiveFallback {
    /// The fallback of a domain's stored columns (none unless both are set).
    pub(super) fn stored(template: Option<String>, after: Option<i64>) -> Option<ArchiveFallback> {
        let after = u32::try_from(after?).ok().filter(|n| *n > 0)?;
        Some(ArchiveFallback {
            template: template?,
            after,
        })
    }
}

/// A record whose target failed its domain's number of checks in a row: where people are
/// sent instead, and since when.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Archived {
    /// The record.
    pub name: Name,
    /// Its target, no longer reached.
    pub target: String,
    /// The archived copy people are sent to.
    pub location: String,
    /// Since when: the check that made the failures in a row as many as the domain asks
    /// (milliseconds since the epoch).
    pub since: i64,
    /// The time the copy is asked for: the target's last good check, or the record's last
    /// change if it never had one (milliseconds since the epoch).
    pub snapshot: i64,
}

/// The most checks in a row a fallback may wait for.
pub const MAX_AFTER: u32 = 1000;

/// Checks an archive template: it must contain `{url}`, may contain `{timestamp}`, and
/// once filled in (with `https://example.com/` and a time) be an absolute `http` or
/// `https` URL by the URL Standard.
///
/// Bad input: a template without `{url}`, with another `{…}` placeholder, or that does not
/// make such a URL, is an error naming the problem (and the byte where the URL parser
/// stopped).
pub fn check_archive_template(template: &str) -> Result<(), String> {
    if !template.contains("{url}") {
        return Err(format!(
            "the archive template {template:?} has no {{url}} (where the target goes)"
        ));
    }
    let rest = template.replace("{url}", "").replace("{timestamp}", "");
    if let Some(at) = rest.find('{') {
        let tail: String = rest[at..].chars().take(20).collect();
        return Err(format!(
            "the archive template {template:?} has an unknown placeholder at {tail:?}; \
             only {{url}} and {{timestamp}} are filled in"
        ));
    }
    let filled = fill_archive_template(template, "https://example.com/", 0);
    let url = whatwg::parse(&filled, None).map_err(|failure| {
        format!(
            "the archive template {template:?} does not make an absolute URL ({filled:?}): \
             {} at byte {}: {}",
            failure.component, failure.position, failure.message
        )
    })?;
    let scheme = url.scheme();
    if scheme != "http" && scheme != "https" {
        return Err(format!(
            "the archive template {template:?} makes a {scheme}: URL; it must be http or https"
        ));
    }
    Ok(())
}

/// `template` with `{url}` replaced by `url` (as it is) and `{timestamp}` by `at`
/// (milliseconds since the epoch, UTC) as `YYYYMMDDhhmmss`.
pub fn fill_archive_template(template: &str, url: &str, at: i64) -> String {
    template
        .replace("{timestamp}", &archive_timestamp(at))
        .replace("{url}", url)
}

/// `at` (milliseconds since the epoch, UTC) as `YYYYMMDDhhmmss`; times before the epoch
/// are taken as the epoch.
pub fn archive_timestamp(at: i64) -> String {
    let at = UNIX_EPOCH + Duration::from_millis(u64::try_from(at).unwrap_or(0));
    let t = urlkit_web::api::UtcTime::of(at);
    format!(
        "{:04}{:02}{:02}{:02}{:02}{:02}",
        t.year, t.month, t.day, t.hour, t.minute, t.second
    )
}

impl Store {
    /// Sets (or, with `None`, clears) the archive fallback of the domain `prefix`
    /// (administrators only), recorded among the owner changes as `domain-archive`.
    ///
    /// Refused: an actor who is not an administrator ([`WriteError::Forbidden`]); a domain
    /// that does not exist ([`WriteError::NotFound`]); a template
    /// [`check_archive_template`] refuses, or `after` outside 1 to [`MAX_AFTER`]
    /// ([`WriteError::Store`] naming the problem). Nothing is changed then.
    pub async fn set_archive(
        &self,
        actor: &Actor,
        prefix: &Name,
        fallback: Option<&ArchiveFallback>,
    ) -> Result<Domain, WriteError> {
        if !actor.admin {
            return Err(WriteError::Forbidden {
                domain: Some(prefix.clone()),
            });
        }
        if let Some(fallback) = fallback {
            check_archive_template(&fallback.template)
                .map_err(|m| WriteError::Store(StoreError::new(super::StoreProblem::Other, m)))?;
            if !(1..=MAX_AFTER).contains(&fallback.after) {
                return Err(WriteError::Store(StoreError::new(
                    super::StoreProblem::Other,
                    format!(
                        "after {} failed checks: give 1 to {MAX_AFTER}",
                        fallback.after
                    ),
                )));
            }
        }
        let mut tx = self.begin_write().await?;
        let changed = sqlx::query(
            "UPDATE domains SET archive_template = $1, archive_after = $2 WHERE prefix = $3",
        )
        .bind(fallback.map(|f| f.template.clone()))
        .bind(fallback.map(|f| i64::from(f.after)))
        .bind(prefix.as_str())
        .execute(&mut *tx)
        .await?;
        if changed.rows_affected() == 0 {
            return Err(WriteError::NotFound);
        }
        let detail = match fallback {
            Some(f) => serde_json::json!({"template": f.template, "after": f.after}),
            None => serde_json::json!({"template": null}),
        };
        super::owners::insert_owner_change(
            &mut *tx,
            actor,
            "domain-archive",
            prefix.as_str(),
            &detail,
        )
        .await?;
        tx.commit().await?;
        Ok(self.written_domain(prefix).await?)
    }

    /// The records (plain redirects, not tombstones) of domains with an archive fallback
    /// whose target failed the domain's number of checks in a row (every kind
    /// [`crate::checker::OutcomeKind::is_broken`] counts; `ok`, `moved` and `disallowed`
    /// break the row), by name. Empty, after one query, when no domain has a fallback.
    pub async fn archived(&self) -> Result<Vec<Archived>, StoreError> {
        let domains: Vec<(String, Option<String>, Option<i64>)> = sqlx::query_as(
            "SELECT prefix, archive_template, archive_after FROM domains \
             WHERE archive_template IS NOT NULL ORDER BY prefix",
        )
        .fetch_all(&self.pool)
        .await?;
        let mut archived = Vec::new();
        for (prefix, template, after) in domains {
            let Some(fallback) = ArchiveFallback::stored(template, after) else {
                continue;
            };
            let records: Vec<(String, String, i64)> = sqlx::query_as(
                "SELECT name, body, changed_at FROM records \
                 WHERE domain = $1 AND deleted = FALSE ORDER BY name",
            )
            .bind(&prefix)
            .fetch_all(&self.pool)
            .await?;
            for (name, body, changed_at) in records {
                let name = stored_name(&name)?;
                let Ok(record) = stored_body(&body)?.into_record(name.clone()) else {
                    continue;
                };
                let Action::Redirect { target, .. } = &record.action else {
                    continue;
                };
                let after = fallback.after as usize;
                let checks: Vec<TargetCheck> = self.target_checks(&name, target, after).await?;
                if checks.len() < after || !checks.iter().all(|c| c.outcome.kind.is_broken()) {
                    continue;
                }
                // The fallback began with the row's `after`-th failure: the row starts after
                // the last check that was not a failure.
                let (row_start,): (Option<i64>,) = sqlx::query_as(
                    "SELECT MAX(checked_at) FROM target_checks \
                     WHERE name = $1 AND target = $2 AND kind IN ('ok', 'moved', 'disallowed')",
                )
                .bind(name.as_str())
                .bind(target.as_str())
                .fetch_one(&self.pool)
                .await?;
                let began: Option<(i64,)> = sqlx::query_as(
                    "SELECT checked_at FROM target_checks \
                     WHERE name = $1 AND target = $2 AND checked_at > $3 \
                     ORDER BY checked_at LIMIT 1 OFFSET $4",
                )
                .bind(name.as_str())
                .bind(target.as_str())
                .bind(row_start.unwrap_or(i64::MIN))
                .bind(i64::from(fallback.after) - 1)
                .fetch_optional(&self.pool)
                .await?;
                let since =
                    began.map_or_else(|| checks.first().map_or(0, |c| c.checked_at), |b| b.0);
                let (last_ok,): (Option<i64>,) = sqlx::query_as(
                    "SELECT MAX(checked_at) FROM target_checks \
                     WHERE name = $1 AND target = $2 AND kind = 'ok'",
                )
                .bind(name.as_str())
                .bind(target.as_str())
                .fetch_one(&self.pool)
                .await?;
                let snapshot = last_ok.unwrap_or(changed_at);
                archived.push(Archived {
                    location: fill_archive_template(&fallback.template, target, snapshot),
                    target: target.clone(),
                    name,
                    since,
                    snapshot,
                });
            }
        }
        Ok(archived)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_utc_digits() {
        assert_eq!(archive_timestamp(0), "19700101000000");
        // 2000-02-29T23:59:59Z, a leap day.
        assert_eq!(archive_timestamp(951_868_799_000), "20000229235959");
        // 2026-11-26T22:57:07.500Z
        assert_eq!(archive_timestamp(1_795_733_827_500), "20261126225707");
    }

    #[test]
    fn templates_are_checked() {
        assert!(check_archive_template("https://web.archive.org/web/{timestamp}/{url}").is_ok());
        assert!(check_archive_template("https://archive.example/?u={url}").is_ok());
        let no_url = check_archive_template("https://web.archive.org/web/").unwrap_err();
        assert!(no_url.contains("no {url}"), "{no_url}");
        let unknown = check_archive_template("https://a.example/{when}/{url}").unwrap_err();
        assert!(unknown.contains("unknown placeholder"), "{unknown}");
        let relative = check_archive_template("/web/{url}").unwrap_err();
        assert!(relative.contains("absolute URL"), "{relative}");
        let ftp = check_archive_template("ftp://a.example/{url}").unwrap_err();
        assert!(ftp.contains("http or https"), "{ftp}");
        let bad_host = check_archive_template("https://a b/{url}").unwrap_err();
        assert!(bad_host.contains("at byte"), "{bad_host}");
        assert_eq!(
            fill_archive_template("https://w.example/web/{timestamp}/{url}", "http://t/x", 0),
            "https://w.example/web/19700101000000/http://t/x"
        );
    }
}
