//! Who may change what: users (passwords as Argon2id PHC strings), groups, domains and
//! their maintainers; and the resolution counts.

use super::{
    now, stored_name, ArchiveFallback, Backend, Domain, Flag, OwnerChange, Store, StoreError,
    StoreProblem, User, WriteError,
};
use crate::model::{Actor, Grant, Right};
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use std::sync::OnceLock;
use urlkit::purl::Name;

/// Argon2id with the crate's default cost (19 MiB, 2 passes, 1 lane: OWASP's minimum).
fn hasher() -> Argon2<'static> {
    Argon2::default()
}

/// The PHC string of `password` with a fresh random salt.
fn hash_password(password: &str) -> Result<String, StoreError> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|error| {
        StoreError::new(
            StoreProblem::Other,
            format!("no randomness for a salt: {error}"),
        )
    })?;
    let salt = SaltString::encode_b64(&salt)
        .map_err(|error| StoreError::new(StoreProblem::Other, format!("a salt: {error}")))?;
    hasher()
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|error| StoreError::new(StoreProblem::Other, format!("hashing: {error}")))
}

/// A hash no password matches, checked when the user does not exist so that a login
/// takes as long either way.
fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| {
        let mut secret = [0u8; 32];
        let _ = getrandom::fill(&mut secret);
        let secret: String = secret.iter().map(|b| format!("{b:02x}")).collect();
        hash_password(&secret).unwrap_or_else(|_| {
            // Without randomness a fixed salt still costs the same time.
            let salt = SaltString::encode_b64(b"urlkit-purl-none").expect("a valid salt");
            hasher()
                .hash_password(secret.as_bytes(), &salt)
                .expect("hashing with a valid salt")
                .to_string()
        })
    })
}

/// Whether `password` matches the PHC string `phc` (false for a malformed one).
fn verify(password: &str, phc: &str) -> bool {
    PasswordHash::new(phc)
        .map(|hash| hasher().verify_password(password.as_bytes(), &hash).is_ok())
        .unwrap_or(false)
}

/// A user or group name: 1 to 64 of letters, digits, `.`, `_`, `-` (a group's spelled
/// `@name` among maintainers).
pub fn check_account_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.len() > 64 {
        return Err(format!("{name:?}: a name has 1 to 64 characters"));
    }
    if let Some((at, c)) = name
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')))
    {
        return Err(format!(
            "{name:?}: {c:?} at byte {at}; a name has letters, digits, \".\", \"_\" and \"-\""
        ));
    }
    Ok(())
}

fn invalid_name(message: String) -> StoreError {
    StoreError::new(StoreProblem::Other, message)
}

impl Store {
    /// Every domain, by prefix.
    pub async fn domains(&self) -> Result<Vec<Domain>, StoreError> {
        let prefixes: Vec<(String, Option<String>, Option<i64>)> = sqlx::query_as(
            "SELECT prefix, archive_template, archive_after FROM domains ORDER BY prefix",
        )
        .fetch_all(&self.pool)
        .await?;
        let maintainers: Vec<(String, String)> = sqlx::query_as(
            "SELECT prefix, maintainer FROM domain_maintainers ORDER BY prefix, maintainer",
        )
        .fetch_all(&self.pool)
        .await?;
        prefixes
            .into_iter()
            .map(|(prefix, template, after)| {
                Ok(Domain {
                    archive: ArchiveFallback::stored(template, after),
                    maintainers: maintainers
                        .iter()
                        .filter(|(p, _)| *p == prefix)
                        .map(|(_, m)| m.clone())
                        .collect(),
                    prefix: stored_name(&prefix)?,
                })
            })
            .collect()
    }

    /// Adds a domain (administrators only) or, if it exists, its maintainers.
    ///
    /// Refused: an actor who is not an administrator ([`WriteError::Forbidden`]); a
    /// maintainer that is no user, or no group (`@name`), is [`WriteError::NotFound`]
    /// and nothing is added.
    pub async fn add_domain(
        &self,
        actor: &Actor,
        prefix: &Name,
        maintainers: &[String],
    ) -> Result<Domain, WriteError> {
        if !actor.admin {
            return Err(WriteError::Forbidden {
                domain: Some(prefix.clone()),
            });
        }
        let mut tx = self.begin_write().await?;
        for maintainer in maintainers {
            let (sql, key) = match maintainer.strip_prefix('@') {
                Some(group) => ("SELECT name FROM groups WHERE name = $1", group),
                None => (
                    "SELECT name FROM users WHERE name = $1",
                    maintainer.as_str(),
                ),
            };
            let found: Option<(String,)> = sqlx::query_as(sql)
                .bind(key)
                .fetch_optional(&mut *tx)
                .await?;
            if found.is_none() {
                return Err(WriteError::NotFound);
            }
        }
        sqlx::query(
            "INSERT INTO domains (prefix, created_at) VALUES ($1, $2) \
             ON CONFLICT (prefix) DO NOTHING",
        )
        .bind(prefix.as_str())
        .bind(now())
        .execute(&mut *tx)
        .await?;
        for maintainer in maintainers {
            sqlx::query(
                "INSERT INTO domain_maintainers (prefix, maintainer) VALUES ($1, $2) \
                 ON CONFLICT (prefix, maintainer) DO NOTHING",
            )
            .bind(prefix.as_str())
            .bind(maintainer)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(self.written_domain(prefix).await?)
    }

    /// The domain of `prefix` as stored, after a write of it.
    pub(super) async fn written_domain(&self, prefix: &Name) -> Result<Domain, StoreError> {
        let domains = self.domains().await?;
        Ok(domains
            .into_iter()
            .find(|d| d.prefix == *prefix)
            .expect("the domain just written"))
    }

    /// Adds a user with an optional password (hashed with Argon2id).
    ///
    /// Bad input: a name that is not 1 to 64 letters, digits, `.`, `_` or `-`, or a user
    /// that exists already, is an error naming it.
    pub async fn add_user(
        &self,
        name: &str,
        password: Option<&str>,
        admin: bool,
    ) -> Result<User, StoreError> {
        check_account_name(name).map_err(invalid_name)?;
        let hash = match password {
            Some(password) => {
                let password = password.to_string();
                Some(
                    tokio::task::spawn_blocking(move || hash_password(&password))
                        .await
                        .map_err(|error| {
                            StoreError::new(StoreProblem::Other, format!("hashing: {error}"))
                        })??,
                )
            }
            None => None,
        };
        let _turn = self.writer_turn().await?;
        let inserted = sqlx::query(
            "INSERT INTO users (name, password_hash, admin, created_at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (name) DO NOTHING",
        )
        .bind(name)
        .bind(hash)
        .bind(admin)
        .bind(now())
        .execute(&self.pool)
        .await?;
        if inserted.rows_affected() == 0 {
            return Err(invalid_name(format!("the user {name:?} exists already")));
        }
        Ok(User {
            name: name.to_string(),
            admin,
            groups: Vec::new(),
        })
    }

    /// Every user, by name, without secrets.
    pub async fn users(&self) -> Result<Vec<User>, StoreError> {
        let users: Vec<(String, Flag)> =
            sqlx::query_as("SELECT name, admin = TRUE FROM users ORDER BY name")
                .fetch_all(&self.pool)
                .await?;
        let members: Vec<(String, String)> =
            sqlx::query_as("SELECT user_name, group_name FROM group_members ORDER BY group_name")
                .fetch_all(&self.pool)
                .await?;
        Ok(users
            .into_iter()
            .map(|(name, Flag(admin))| User {
                groups: members
                    .iter()
                    .filter(|(user, _)| *user == name)
                    .map(|(_, group)| group.clone())
                    .collect(),
                name,
                admin,
            })
            .collect())
    }

    /// Adds a group (administrators only) or, if it exists, its members.
    ///
    /// Refused: an actor who is not an administrator ([`WriteError::Forbidden`]); a
    /// member that is no user is [`WriteError::NotFound`] and nothing is added; a bad
    /// group name is [`WriteError::Store`] naming it.
    pub async fn add_group(
        &self,
        actor: &Actor,
        name: &str,
        members: &[String],
    ) -> Result<(), WriteError> {
        if !actor.admin {
            return Err(WriteError::Forbidden { domain: None });
        }
        check_account_name(name).map_err(invalid_name)?;
        let mut tx = self.begin_write().await?;
        for member in members {
            let found: Option<(String,)> = sqlx::query_as("SELECT name FROM users WHERE name = $1")
                .bind(member)
                .fetch_optional(&mut *tx)
                .await?;
            if found.is_none() {
                return Err(WriteError::NotFound);
            }
        }
        sqlx::query(
            "INSERT INTO groups (name, created_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
        )
        .bind(name)
        .bind(now())
        .execute(&mut *tx)
        .await?;
        for member in members {
            sqlx::query(
                "INSERT INTO group_members (group_name, user_name) VALUES ($1, $2) \
                 ON CONFLICT (group_name, user_name) DO NOTHING",
            )
            .bind(name)
            .bind(member)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The user `name` acting on its own (no token), with the grants of its domains.
    pub async fn actor(&self, name: &str) -> Result<Option<Actor>, StoreError> {
        let user: Option<(Flag,)> =
            sqlx::query_as("SELECT admin = TRUE FROM users WHERE name = $1")
                .bind(name)
                .fetch_optional(&self.pool)
                .await?;
        let Some((Flag(admin),)) = user else {
            return Ok(None);
        };
        let prefixes: Vec<(String,)> = sqlx::query_as(
            "SELECT DISTINCT prefix FROM domain_maintainers WHERE maintainer = $1 \
             OR maintainer IN (SELECT '@' || group_name FROM group_members WHERE user_name = $1) \
             ORDER BY prefix",
        )
        .bind(name)
        .fetch_all(&self.pool)
        .await?;
        let grants = prefixes
            .into_iter()
            .map(|(prefix,)| {
                Ok(Grant {
                    domain: stored_name(&prefix)?,
                    right: Right::Write,
                })
            })
            .collect::<Result<_, StoreError>>()?;
        Ok(Some(Actor {
            user: name.to_string(),
            token: None,
            admin,
            grants,
        }))
    }

    /// The user whose password this is, or `None` (the same time whether the user exists
    /// or not: an unknown user, or one without a password, is checked against a dummy
    /// hash).
    pub async fn login(&self, name: &str, password: &str) -> Result<Option<Actor>, StoreError> {
        let row: Option<(Option<String>,)> =
            sqlx::query_as("SELECT password_hash FROM users WHERE name = $1")
                .bind(name)
                .fetch_optional(&self.pool)
                .await?;
        let stored = row.and_then(|(hash,)| hash);
        let known = stored.is_some();
        let password = password.to_string();
        let matches = tokio::task::spawn_blocking(move || {
            // Made on the first login, known user or not, so that it costs both alike.
            let dummy = dummy_hash();
            match stored {
                Some(phc) => verify(&password, &phc),
                None => verify(&password, dummy),
            }
        })
        .await
        .unwrap_or(false);
        if known && matches {
            self.actor(name).await
        } else {
            Ok(None)
        }
    }

    /// Records a change of owners made by `actor` (append-only).
    pub async fn record_owner_change(
        &self,
        actor: &Actor,
        kind: &str,
        subject: &str,
        detail: &serde_json::Value,
    ) -> Result<(), StoreError> {
        insert_owner_change(&self.pool, actor, kind, subject, detail).await?;
        Ok(())
    }

    /// Every change of owners, oldest first.
    pub async fn owner_changes(&self) -> Result<Vec<OwnerChange>, StoreError> {
        type Row = (i64, String, Option<String>, String, String, String);
        let rows: Vec<Row> = sqlx::query_as(
            "SELECT at, user_name, token, kind, subject, detail FROM owner_changes \
             ORDER BY at, rowid",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|(at, user, token, kind, subject, detail)| {
                let detail = serde_json::from_str(&detail).map_err(|error| {
                    StoreError::new(
                        StoreProblem::Other,
                        format!("the database holds a bad owner change {detail:?}: {error}"),
                    )
                })?;
                Ok(OwnerChange {
                    at,
                    user,
                    token,
                    kind,
                    subject,
                    detail,
                })
            })
            .collect()
    }

    /// Whether a user of this name exists.
    pub async fn has_user(&self, name: &str) -> Result<bool, StoreError> {
        let found: Option<(String,)> = sqlx::query_as("SELECT name FROM users WHERE name = $1")
            .bind(name)
            .fetch_optional(&self.pool)
            .await?;
        Ok(found.is_some())
    }

    /// Adds resolution counts (batched by the server, never in a redirect's path).
    pub async fn add_counts(&self, counts: &[(Name, u64)]) -> Result<(), StoreError> {
        let added = self.add_counts_in(counts).await;
        if matches!(&added, Err(error) if error.kind == StoreProblem::Full) {
            // A full disk is noted for the readiness check (a write of nothing proves no
            // room, so a success does not clear it).
            return self.note(&added);
        }
        added
    }

    async fn add_counts_in(&self, counts: &[(Name, u64)]) -> Result<(), StoreError> {
        // Each name once (the counts come from a map, but a retry may add a name twice),
        // in one transaction that takes the write lock at once rather than upgrading to
        // it. The rows of a statement travel as one JSON parameter: a statement with a
        // parameter per value costs the driver a lookup of every parameter's name for
        // each value bound, which grows with the square of the rows.
        const ROWS: usize = 4_000;
        let mut summed: std::collections::BTreeMap<&str, u64> = Default::default();
        for (name, hits) in counts {
            let sum = summed.entry(name.as_str()).or_insert(0);
            *sum = sum.saturating_add(*hits);
        }
        let counts: Vec<(&str, i64)> = summed
            .into_iter()
            .map(|(name, hits)| (name, i64::try_from(hits).unwrap_or(i64::MAX)))
            .collect();
        let sql = match self.backend {
            Backend::Sqlite => {
                "INSERT INTO counts (name, hits) \
                 SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') \
                 FROM json_each($1) WHERE true \
                 ON CONFLICT (name) DO UPDATE SET hits = counts.hits + excluded.hits"
            }
            Backend::Postgres => {
                "INSERT INTO counts (name, hits) \
                 SELECT value->>0, (value->>1)::BIGINT FROM jsonb_array_elements($1::jsonb) \
                 ON CONFLICT (name) DO UPDATE SET hits = counts.hits + excluded.hits"
            }
        };
        let mut tx = self.begin_write().await?;
        for rows in counts.chunks(ROWS) {
            let rows = serde_json::to_string(rows).map_err(|e| StoreError {
                kind: StoreProblem::Other,
                message: format!("cannot write resolution counts: {e}"),
            })?;
            sqlx::query(sql).bind(rows).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// How often `name` was resolved.
    pub async fn count(&self, name: &Name) -> Result<u64, StoreError> {
        let row: Option<(i64,)> = sqlx::query_as("SELECT hits FROM counts WHERE name = $1")
            .bind(name.as_str())
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map_or(0, |(hits,)| u64::try_from(hits).unwrap_or(0)))
    }
}

/// Appends a change of owners made by `actor` through `executor`: the pool, or the
/// transaction of the change itself.
pub(super) async fn insert_owner_change<'e>(
    executor: impl sqlx::Executor<'e, Database = sqlx::Any>,
    actor: &Actor,
    kind: &str,
    subject: &str,
    detail: &serde_json::Value,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO owner_changes (at, user_name, token, kind, subject, detail) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(now())
    .bind(&actor.user)
    .bind(actor.token.as_deref())
    .bind(kind)
    .bind(subject)
    .bind(detail.to_string())
    .execute(executor)
    .await?;
    Ok(())
}
