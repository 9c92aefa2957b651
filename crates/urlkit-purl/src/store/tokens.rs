//! API tokens: a secret `upt_<id>_<64 hex digits>` shown once; the database keeps the
//! public id, the SHA-256 of the secret (right for a secret of 256 random bits), the
//! grants and the user.

use super::{now, Store, StoreError, StoreProblem, TokenInfo, WriteError};
use crate::model::{Actor, Grant};
use sha2::{Digest, Sha256};

/// How every token's secret begins (so that scanners can recognise a leaked one).
pub const TOKEN_PREFIX: &str = "upt_";

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn random_hex(n: usize) -> Result<String, StoreError> {
    let mut bytes = vec![0u8; n];
    getrandom::fill(&mut bytes).map_err(|error| {
        StoreError::new(
            StoreProblem::Other,
            format!("no randomness for a token: {error}"),
        )
    })?;
    Ok(hex(&bytes))
}

/// The SHA-256 of a secret, in hex.
fn secret_hash(secret: &str) -> String {
    hex(&Sha256::digest(secret.as_bytes()))
}

/// Whether `a` and `b` are equal, in a time that depends on their length only.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The public id of a secret spelled `upt_<id>_<random>`.
fn id_of(secret: &str) -> Option<&str> {
    let rest = secret.strip_prefix(TOKEN_PREFIX)?;
    let (id, random) = rest.split_once('_')?;
    (!id.is_empty() && !random.is_empty()).then_some(id)
}

type TokenRow = (String, String, String, Option<String>, i64, Option<i64>);

fn info_of(row: TokenRow) -> Result<TokenInfo, StoreError> {
    let (id, user, grants, label, created_at, revoked_at) = row;
    let grants = serde_json::from_str(&grants).map_err(|error| {
        StoreError::new(
            StoreProblem::Other,
            format!("the database holds bad grants for token {id}: {error}"),
        )
    })?;
    Ok(TokenInfo {
        id,
        user,
        grants,
        label,
        created_at,
        revoked_at,
    })
}

impl Store {
    /// Creates a token for `user` with `grants` (each within the user's own rights), and
    /// returns it with its secret, which is not stored and cannot be shown again.
    ///
    /// Refused: an unknown user ([`WriteError::NotFound`]); a grant on a domain the user
    /// does not maintain ([`WriteError::Forbidden`] naming it), unless the user is an
    /// administrator, who may grant anything.
    pub async fn create_token(
        &self,
        user: &str,
        grants: &[Grant],
        label: Option<&str>,
    ) -> Result<(TokenInfo, String), WriteError> {
        let Some(actor) = self.actor(user).await? else {
            return Err(WriteError::NotFound);
        };
        if !actor.admin {
            if let Some(outside) = grants
                .iter()
                .find(|grant| !actor.grants.iter().any(|own| own.domain == grant.domain))
            {
                return Err(WriteError::Forbidden {
                    domain: Some(outside.domain.clone()),
                });
            }
        }
        let id = random_hex(8)?;
        let secret = format!("{TOKEN_PREFIX}{id}_{}", random_hex(32)?);
        let created_at = now();
        let grants_json = serde_json::to_string(grants).expect("grants are always JSON");
        let _turn = self.writer_turn().await?;
        sqlx::query(
            "INSERT INTO tokens (id, user_name, secret_hash, grants, label, created_at, revoked_at) \
             VALUES ($1, $2, $3, $4, $5, $6, NULL)",
        )
        .bind(&id)
        .bind(user)
        .bind(secret_hash(&secret))
        .bind(&grants_json)
        .bind(label)
        .bind(created_at)
        .execute(&self.pool)
        .await?;
        Ok((
            TokenInfo {
                id,
                user: user.to_string(),
                grants: grants.to_vec(),
                label: label.map(str::to_string),
                created_at,
                revoked_at: None,
            },
            secret,
        ))
    }

    /// The actor a token's secret stands for, or `None` for an unknown or revoked token
    /// (or a text that is no token). Its grants are the token's within its user's
    /// current rights. A token an administrator made without grants acts as that
    /// administrator (while the user is one); one made with grants keeps to them.
    pub async fn authenticate(&self, secret: &str) -> Result<Option<Actor>, StoreError> {
        let Some(id) = id_of(secret) else {
            return Ok(None);
        };
        let row: Option<(String, String, String)> = sqlx::query_as(
            "SELECT user_name, secret_hash, grants FROM tokens WHERE id = $1 AND revoked_at IS NULL",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        let Some((user, hash, grants)) = row else {
            return Ok(None);
        };
        if !same(secret_hash(secret).as_bytes(), hash.as_bytes()) {
            return Ok(None);
        }
        let Some(owner) = self.actor(&user).await? else {
            return Ok(None);
        };
        let grants: Vec<Grant> = serde_json::from_str(&grants).map_err(|error| {
            StoreError::new(
                StoreProblem::Other,
                format!("the database holds bad grants for token {id}: {error}"),
            )
        })?;
        let admin = owner.admin && grants.is_empty();
        let grants = grants
            .into_iter()
            .filter(|grant| {
                owner.admin || owner.grants.iter().any(|own| own.domain == grant.domain)
            })
            .collect();
        Ok(Some(Actor {
            user,
            token: Some(id.to_string()),
            admin,
            grants,
        }))
    }

    /// Revokes the token `id`: its secret stops working. Whether there was such a token
    /// not yet revoked.
    pub async fn revoke_token(&self, id: &str) -> Result<bool, StoreError> {
        let _turn = self.writer_turn().await?;
        let done =
            sqlx::query("UPDATE tokens SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL")
                .bind(id)
                .bind(now())
                .execute(&self.pool)
                .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The tokens of `user` (of everyone with `None`), newest first, without secrets.
    pub async fn tokens(&self, user: Option<&str>) -> Result<Vec<TokenInfo>, StoreError> {
        let rows: Vec<TokenRow> = sqlx::query_as(
            "SELECT id, user_name, grants, label, created_at, revoked_at FROM tokens \
             WHERE $1 IS NULL OR user_name = $1 ORDER BY created_at DESC, id",
        )
        .bind(user)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter().map(info_of).collect()
    }
}
