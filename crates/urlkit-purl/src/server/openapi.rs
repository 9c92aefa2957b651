//! The API's description, `GET /-/api/openapi.json` (OpenAPI 3.1).

use axum::Json;
use serde_json::{json, Value};

/// The routes of the API, each with its methods and what they do; the document is built
/// from this list, and a test holds it equal to the router's.
pub const ROUTES: &[(&str, &str, &str)] = &[
    (
        "/-/api/purls",
        "get",
        "Search records by name prefix, target text or domain",
    ),
    ("/-/api/purls/{name}", "get", "A record with its ETag"),
    (
        "/-/api/purls/{name}",
        "put",
        "Create (If-None-Match: *) or change (If-Match) a record",
    ),
    (
        "/-/api/purls/{name}",
        "delete",
        "Delete a record: it becomes a tombstone answering 410",
    ),
    (
        "/-/api/history/{name}",
        "get",
        "Every change of a record, oldest first",
    ),
    (
        "/-/api/restore/{name}",
        "post",
        "Bring back a version of a record, as a new version",
    ),
    (
        "/-/api/clone/{name}",
        "post",
        "A new record answering as another does now ({\"from\": NAME})",
    ),
    (
        "/-/api/purls/{name}/accept-suggestion",
        "post",
        "Replace a moved target by where it moved to (If-Match; {\"target\": URL} when several moved), recorded as \"target moved: accepted suggestion\"",
    ),
    (
        "/-/api/checks",
        "get",
        "The link checker's last check of each target, newest first (?domain=PREFIX&status=broken|moved|all)",
    ),
    ("/-/api/domains", "get", "Domains and their maintainers"),
    (
        "/-/api/domains",
        "post",
        "Add a domain or maintainers to it (administrators)",
    ),
    (
        "/-/api/domains/archive",
        "post",
        "Set ({\"prefix\", \"template\", \"after\"}) or turn off ({\"prefix\"}) a domain's archive fallback (administrators)",
    ),
    ("/-/api/users", "get", "Users, without secrets (administrators)"),
    (
        "/-/api/users",
        "post",
        "Add a user, its password hashed with Argon2id (administrators)",
    ),
    (
        "/-/api/groups",
        "post",
        "Add a group or members to it (administrators)",
    ),
    (
        "/-/api/owner-changes",
        "get",
        "Every change of users, groups, domains and tokens, by whom (administrators)",
    ),
    (
        "/-/api/tokens",
        "get",
        "The caller's tokens without secrets (administrators: ?user=NAME)",
    ),
    (
        "/-/api/tokens",
        "post",
        "A token with rights within the caller's (Bearer, or Basic user:password); its secret is shown once",
    ),
    (
        "/-/api/tokens/{id}",
        "delete",
        "Revoke a token of the caller's (administrators: anyone's)",
    ),
    (
        "/-/info/{name}",
        "get",
        "A record shown instead of followed, as HTML or JSON",
    ),
    ("/-/healthz", "get", "The process answers"),
    (
        "/-/readyz",
        "get",
        "The database answers and can be written",
    ),
    ("/-/metrics", "get", "Prometheus metrics"),
];

fn operation(method: &str, summary: &str, path: &str) -> Value {
    let mut op = json!({ "summary": summary, "responses": { "200": { "description": "OK" } } });
    if path.contains("{name}") {
        op["parameters"] = json!([{
            "name": "name", "in": "path", "required": true,
            "description": "The record's name without its leading slash, as in the PURL's path",
            "schema": { "type": "string" }
        }]);
    }
    if path.contains("{id}") {
        op["parameters"] = json!([{
            "name": "id", "in": "path", "required": true,
            "description": "The token's public id (the part of its secret after upt_)",
            "schema": { "type": "string" }
        }]);
    }
    let write = matches!(method, "put" | "delete" | "post");
    // Owners' routes need a token to read too: users and tokens are not public.
    let owners = [
        "/-/api/users",
        "/-/api/groups",
        "/-/api/tokens",
        "/-/api/owner-changes",
    ]
    .iter()
    .any(|p| path.starts_with(p))
        || (path == "/-/api/domains" && write);
    if write || owners {
        let responses = &mut op["responses"];
        responses["401"] = json!({"description": "No or an unknown token"});
        responses["403"] =
            json!({"description": "Outside the token's domains, or not an administrator"});
        responses["503"] =
            json!({"description": "The database cannot take writes now; see Retry-After"});
        op["security"] = json!([{ "bearer": [] }]);
    }
    if write && path.contains("{name}") {
        let responses = &mut op["responses"];
        responses["412"] =
            json!({"description": "Stale If-Match: the current record is in the body"});
        responses["428"] = json!({"description": "No If-Match or If-None-Match"});
    }
    if path == "/-/api/tokens" && method == "post" {
        op["security"] = json!([{ "bearer": [] }, { "basic": [] }]);
    }
    op
}

/// The document.
pub fn describe() -> Value {
    let mut paths = serde_json::Map::new();
    for (path, method, summary) in ROUTES {
        let entry = paths.entry(path.to_string()).or_insert_with(|| json!({}));
        entry[*method] = operation(method, summary, path);
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "urlkit persistent URLs",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Records of persistent URLs: every path outside /-/ resolves through them."
        },
        "components": { "securitySchemes": {
            "bearer": { "type": "http", "scheme": "bearer" },
            "basic": { "type": "http", "scheme": "basic" }
        } },
        "paths": paths,
    })
}

/// `GET /-/api/openapi.json`.
pub async fn document() -> Json<Value> {
    Json(describe())
}
