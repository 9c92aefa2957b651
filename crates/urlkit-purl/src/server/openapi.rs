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
    ("/-/api/domains", "get", "Domains and their maintainers"),
    (
        "/-/api/tokens",
        "post",
        "A token with rights within the caller's; its secret is shown once",
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
    if matches!(method, "put" | "delete" | "post") && path != "/-/api/tokens" {
        let responses = &mut op["responses"];
        responses["401"] = json!({"description": "No or an unknown token"});
        responses["403"] = json!({"description": "Outside the token's domains"});
        responses["412"] =
            json!({"description": "Stale If-Match: the current record is in the body"});
        responses["428"] = json!({"description": "No If-Match or If-None-Match"});
        responses["503"] =
            json!({"description": "The database cannot take writes now; see Retry-After"});
    }
    if matches!(method, "put" | "delete" | "post") {
        op["security"] = json!([{ "bearer": [] }]);
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
        "components": { "securitySchemes": { "bearer": { "type": "http", "scheme": "bearer" } } },
        "paths": paths,
    })
}

/// `GET /-/api/openapi.json`.
pub async fn document() -> Json<Value> {
    Json(describe())
}
