//! Owners in the JSON API: users, groups and domains (administrators only), and tokens (a
//! user's own; an administrator's, anyone's). Every change is checked against the actor
//! behind the request and recorded among the store's owner changes.

use super::api::{actor, bad_json, unauthorized, unavailable, write_error, Answer, Refusal};
use super::PurlState;
use crate::model::{Actor, Grant};
use crate::store::{check_account_name, WriteError};
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::time::Duration;
use urlkit::purl::Name;
use urlkit_web::error::ApiError;

fn forbidden(state: &PurlState, message: impl Into<String>) -> Refusal {
    state.metrics.refusals.inc();
    ApiError::new(StatusCode::FORBIDDEN, "forbidden", message).into()
}

/// `422` naming the field at fault.
fn unprocessable(code: &str, field: &str, message: impl Into<String>) -> Refusal {
    let mut error = ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, code, message);
    error.field = Some(field.into());
    error.into()
}

/// The actor behind the request, who must be an administrator (`403` otherwise).
async fn administrator(state: &PurlState, headers: &HeaderMap) -> Result<Actor, Refusal> {
    let actor = actor(state, headers).await?;
    if !actor.admin {
        return Err(forbidden(
            state,
            format!(
                "only an administrator may do this ({} is not one, or the token is limited to domains)",
                actor.user
            ),
        ));
    }
    Ok(actor)
}

/// Records an owner change; a failure to record after the change was made is logged (the
/// change itself stands).
async fn record(
    state: &PurlState,
    actor: &Actor,
    kind: &str,
    subject: &str,
    detail: serde_json::Value,
) {
    let store = state.registry.store();
    if let Err(error) = store
        .record_owner_change(actor, kind, subject, &detail)
        .await
    {
        tracing::warn!("the owner change {kind} {subject} was made but not recorded: {error}");
    }
}

/// `GET /-/api/users`: every user (without secrets), for administrators.
pub async fn users(State(state): State<PurlState>, headers: HeaderMap) -> Answer {
    administrator(&state, &headers).await?;
    Ok(match state.registry.store().users().await {
        Ok(users) => Json(users).into_response(),
        Err(e) => unavailable(&e),
    })
}

/// `GET /-/api/owner-changes`: every change of users, groups, domains and tokens, oldest
/// first, with who made it (administrators only).
pub async fn changes(State(state): State<PurlState>, headers: HeaderMap) -> Answer {
    administrator(&state, &headers).await?;
    Ok(match state.registry.store().owner_changes().await {
        Ok(changes) => Json(changes).into_response(),
        Err(e) => unavailable(&e),
    })
}

/// The body of `POST /-/api/users`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UserRequest {
    /// 1 to 64 letters, digits, `.`, `_`, `-`.
    pub name: String,
    /// The password (stored as an Argon2id hash); without one, the user acts through
    /// tokens only.
    pub password: Option<String>,
    /// An administrator.
    #[serde(default)]
    pub admin: bool,
}

/// `POST /-/api/users`: adds a user (administrators only). `201` with the user; `422` for
/// a bad name or an empty password, `409` for a name taken.
pub async fn add_user(State(state): State<PurlState>, headers: HeaderMap, bytes: Bytes) -> Answer {
    let actor = administrator(&state, &headers).await?;
    let request: UserRequest = serde_json::from_slice(&bytes).map_err(|e| bad_json(&state, e))?;
    check_account_name(&request.name).map_err(|e| unprocessable("bad-name", "name", e))?;
    if request.password.as_deref() == Some("") {
        return Err(unprocessable(
            "bad-password",
            "password",
            "the password is empty; leave it out for a user who acts through tokens only",
        ));
    }
    let store = state.registry.store();
    match store.has_user(&request.name).await {
        Ok(false) => {}
        Ok(true) => {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "exists",
                format!("the user {:?} exists already", request.name),
            )
            .into())
        }
        Err(e) => return Err(unavailable(&e).into()),
    }
    let user = store
        .add_user(&request.name, request.password.as_deref(), request.admin)
        .await
        .map_err(|e| Refusal::from(unavailable(&e)))?;
    let detail = json!({"admin": user.admin, "password": request.password.is_some()});
    record(&state, &actor, "user-add", &user.name, detail).await;
    Ok((StatusCode::CREATED, Json(user)).into_response())
}

/// The body of `POST /-/api/groups`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupRequest {
    /// The group's name (a maintainer as `@name`).
    pub name: String,
    /// Users added to it.
    #[serde(default)]
    pub members: Vec<String>,
}

/// `POST /-/api/groups`: adds a group, or members to it (administrators only). `201`;
/// `422` for a bad name or a member who is no user (nothing is added then).
pub async fn add_group(State(state): State<PurlState>, headers: HeaderMap, bytes: Bytes) -> Answer {
    let actor = administrator(&state, &headers).await?;
    let request: GroupRequest = serde_json::from_slice(&bytes).map_err(|e| bad_json(&state, e))?;
    check_account_name(&request.name).map_err(|e| unprocessable("bad-name", "name", e))?;
    let added = state
        .registry
        .store()
        .add_group(&actor, &request.name, &request.members)
        .await;
    match added {
        Ok(()) => {}
        Err(WriteError::NotFound) => {
            return Err(unprocessable(
                "unknown-member",
                "members",
                format!("a member is no user: {}", request.members.join(", ")),
            ))
        }
        Err(WriteError::Store(e)) => return Err(unavailable(&e).into()),
        Err(other) => return Err(forbidden(&state, other.to_string())),
    }
    let detail = json!({"members": request.members});
    record(&state, &actor, "group-add", &request.name, detail).await;
    Ok((
        StatusCode::CREATED,
        Json(json!({"name": request.name, "members": request.members})),
    )
        .into_response())
}

/// The body of `POST /-/api/domains`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DomainRequest {
    /// The path prefix (`/net/`).
    pub prefix: Name,
    /// Users, or groups as `@name`, who maintain it.
    #[serde(default)]
    pub maintainers: Vec<String>,
}

/// The body of `POST /-/api/domains/archive`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArchiveRequest {
    /// The domain's prefix (`/net/`).
    pub prefix: Name,
    /// The archived copy's URL template (`{url}`, perhaps `{timestamp}`); none (or null):
    /// the fallback is turned off.
    #[serde(default)]
    pub template: Option<String>,
    /// After how many failed checks in a row (needed with a template).
    #[serde(default)]
    pub after: Option<u32>,
}

/// `POST /-/api/domains/archive`: sets or (without a template) turns off a domain's archive
/// fallback (administrators only), applied at once from the stored checks. `200` with the
/// domain; `422` naming the field for a bad template or count; `404` for no such domain.
pub async fn set_archive(
    State(state): State<PurlState>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer {
    let actor = administrator(&state, &headers).await?;
    let request: ArchiveRequest =
        serde_json::from_slice(&bytes).map_err(|e| bad_json(&state, e))?;
    let fallback = match (request.template, request.after) {
        (Some(template), Some(after)) => Some(crate::store::ArchiveFallback { template, after }),
        (Some(_), None) => {
            return Err(unprocessable(
                "bad-archive",
                "after",
                "a template needs \"after\": how many failed checks in a row",
            ))
        }
        (None, _) => None,
    };
    if let Some(f) = &fallback {
        if let Err(message) = crate::store::check_archive_template(&f.template) {
            return Err(unprocessable("bad-archive", "template", message));
        }
        if !(1..=crate::store::MAX_ARCHIVE_AFTER).contains(&f.after) {
            return Err(unprocessable(
                "bad-archive",
                "after",
                format!(
                    "after {} failed checks: give 1 to {}",
                    f.after,
                    crate::store::MAX_ARCHIVE_AFTER
                ),
            ));
        }
    }
    let domain = match state
        .registry
        .store()
        .set_archive(&actor, &request.prefix, fallback.as_ref())
        .await
    {
        Ok(domain) => domain,
        Err(WriteError::NotFound) => {
            return Err(
                ApiError::not_found(format!("no domain {}", request.prefix.as_str())).into(),
            )
        }
        Err(WriteError::Store(e)) => return Err(unavailable(&e).into()),
        Err(other) => return Err(forbidden(&state, other.to_string())),
    };
    super::checks::refresh_archive(&state).await;
    Ok((StatusCode::OK, Json(domain)).into_response())
}

/// `POST /-/api/domains`: adds a domain, or maintainers to it (administrators only).
/// `201` with the domain; `422` for a maintainer who is no user or group (nothing is
/// added then).
pub async fn add_domain(
    State(state): State<PurlState>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer {
    let actor = administrator(&state, &headers).await?;
    let request: DomainRequest = serde_json::from_slice(&bytes).map_err(|e| bad_json(&state, e))?;
    let added = state
        .registry
        .store()
        .add_domain(&actor, &request.prefix, &request.maintainers)
        .await;
    let domain = match added {
        Ok(domain) => domain,
        Err(WriteError::NotFound) => {
            return Err(unprocessable(
                "unknown-maintainer",
                "maintainers",
                format!(
                    "a maintainer is no user or group (@name): {}",
                    request.maintainers.join(", ")
                ),
            ))
        }
        Err(WriteError::Store(e)) => return Err(unavailable(&e).into()),
        Err(other) => return Err(forbidden(&state, other.to_string())),
    };
    let detail = json!({"maintainers": request.maintainers});
    record(&state, &actor, "domain-add", domain.prefix.as_str(), detail).await;
    Ok((StatusCode::CREATED, Json(domain)).into_response())
}

/// The query of `GET /-/api/tokens`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenQuery {
    /// Another user's tokens (administrators only).
    pub user: Option<String>,
}

/// `GET /-/api/tokens`: the caller's tokens (an administrator may ask for `?user=NAME`),
/// newest first, without secrets.
pub async fn tokens(
    State(state): State<PurlState>,
    headers: HeaderMap,
    query: Result<Query<TokenQuery>, axum::extract::rejection::QueryRejection>,
) -> Answer {
    let Ok(Query(query)) = query else {
        return Err(ApiError::bad_request("bad-query", "tokens takes user only").into());
    };
    let actor = actor(&state, &headers).await?;
    let user = query.user.unwrap_or_else(|| actor.user.clone());
    if user != actor.user && !actor.admin {
        return Err(forbidden(
            &state,
            "only an administrator may list another user's tokens",
        ));
    }
    Ok(match state.registry.store().tokens(Some(&user)).await {
        Ok(tokens) => Json(tokens).into_response(),
        Err(e) => unavailable(&e),
    })
}

/// `DELETE /-/api/tokens/{id}`: revokes a token of the caller's (an administrator's:
/// anyone's); its secret stops working at once. `200` with the token; `404` for a token
/// that is not the caller's, unknown or already revoked.
pub async fn revoke_token(
    State(state): State<PurlState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Answer {
    let actor = actor(&state, &headers).await?;
    let store = state.registry.store();
    let owner = if actor.admin {
        None
    } else {
        Some(actor.user.as_str())
    };
    let mine = match store.tokens(owner).await {
        Ok(tokens) => tokens.into_iter().find(|t| t.id == id),
        Err(e) => return Err(unavailable(&e).into()),
    };
    let not_found = || {
        Refusal::from(ApiError::not_found(format!(
            "no token {id:?} of yours that is not revoked"
        )))
    };
    let Some(mut token) = mine.filter(|t| t.revoked_at.is_none()) else {
        return Err(not_found());
    };
    match store.revoke_token(&id).await {
        Ok(true) => {}
        Ok(false) => return Err(not_found()),
        Err(e) => return Err(unavailable(&e).into()),
    }
    record(
        &state,
        &actor,
        "token-revoke",
        &id,
        json!({"user": token.user}),
    )
    .await;
    token.revoked_at = Some(crate::model::now());
    Ok(Json(token).into_response())
}

/// The user whose `Authorization: Basic` credentials these are: `Ok(None)` when the
/// header is not Basic; `401` for a wrong password or a malformed header (a few
/// password checks run at once, each an Argon2id hash).
pub(super) async fn basic_login(
    state: &PurlState,
    headers: &HeaderMap,
) -> Result<Option<Actor>, Refusal> {
    let Some(encoded) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Basic "))
    else {
        return Ok(None);
    };
    let refuse = |message: &str| unauthorized(state, "Basic realm=\"urlkit purl\"", message);
    let decoded = base64_decode(encoded.trim())
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .ok_or_else(|| refuse("the Basic credentials are not base64 of user:password"))?;
    let Some((user, password)) = decoded.split_once(':') else {
        return Err(refuse("the Basic credentials are not user:password"));
    };
    let Ok(_slot) = tokio::time::timeout(Duration::from_secs(5), state.logins.acquire()).await
    else {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy",
            "too many logins at once; try again",
        )
        .retry_after(5)
        .into());
    };
    match state.registry.store().login(user, password).await {
        Ok(Some(actor)) => Ok(Some(actor)),
        Ok(None) => Err(refuse("wrong user or password")),
        Err(e) => Err(unavailable(&e).into()),
    }
}

/// Standard base64 with padding (RFC 4648 §4), or `None` for anything else.
fn base64_decode(text: &str) -> Option<Vec<u8>> {
    fn value(c: u8) -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    }
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    for (i, chunk) in bytes.chunks(4).enumerate() {
        let last = i + 1 == bytes.len() / 4;
        let pad = chunk.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 || (pad > 0 && !last) {
            return None;
        }
        let mut n = 0u32;
        for &c in &chunk[..4 - pad] {
            n = (n << 6) | value(c)?;
        }
        n <<= 6 * pad as u32;
        let three = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&three[..3 - pad]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::base64_decode;

    #[test]
    fn base64_as_rfc_4648_says() {
        // RFC 4648 §10's test vectors.
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(
                base64_decode(encoded).unwrap(),
                plain.as_bytes(),
                "{encoded}"
            );
        }
        for bad in ["Zg", "Zg=a", "Z===", "Zg==Zg==", "Zm9*"] {
            assert_eq!(base64_decode(bad), None, "{bad}");
        }
    }
}

/// The body of `POST /-/api/tokens`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenRequest {
    /// The rights of the new token (within the caller's own).
    pub grants: Vec<Grant>,
    /// What it is for.
    pub label: Option<String>,
}

/// The answer of `POST /-/api/tokens`: the token, and its secret, shown this once.
#[derive(Debug, Serialize)]
pub struct TokenCreated {
    /// The token, without its secret.
    pub token: crate::store::TokenInfo,
    /// The secret, to send as `Authorization: Bearer …`; it is not stored and cannot be
    /// shown again.
    pub secret: String,
}

/// `POST /-/api/tokens`: a token for the caller with rights within its own. The caller is
/// a Bearer token's, or a user's own with `Authorization: Basic` (user and password: how a
/// user gets a first token without the database file).
pub async fn create_token(
    State(state): State<PurlState>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer {
    let actor = match basic_login(&state, &headers).await? {
        Some(actor) => actor,
        None => actor(&state, &headers).await?,
    };
    let request: TokenRequest = serde_json::from_slice(&bytes).map_err(|e| bad_json(&state, e))?;
    let within = request.grants.iter().all(|g| {
        actor.admin
            || actor
                .grants
                .iter()
                .any(|mine| mine.domain == g.domain && mine.right >= g.right)
    });
    if !within {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            "a token can only be given rights its creator has",
        )
        .into());
    }
    let created = state
        .registry
        .store()
        .create_token(&actor.user, &request.grants, request.label.as_deref())
        .await;
    Ok(match created {
        Ok((token, secret)) => {
            let detail = serde_json::json!({"user": token.user, "grants": token.grants});
            if let Err(error) = state
                .registry
                .store()
                .record_owner_change(&actor, "token-create", &token.id, &detail)
                .await
            {
                tracing::warn!("the token {} was made but not recorded: {error}", token.id);
            }
            (StatusCode::CREATED, Json(TokenCreated { token, secret })).into_response()
        }
        Err(e) => write_error(&state, "token", e),
    })
}
