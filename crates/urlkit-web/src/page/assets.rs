//! The page's stylesheet, scripts and WebAssembly module, embedded in the binary and served
//! under URLs that carry a hash of their content, so they can be cached for a year.

use axum::extract::Path;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use std::sync::OnceLock;
use urlkit_wasm_assets::{URLKIT_MJS, URLKIT_WASM};

const STYLE: &str = include_str!("assets/style.css");
pub(super) const SCRIPT: &str = include_str!("assets/app.js");
pub(super) const WORKER: &str = include_str!("assets/worker.js");

/// A stylesheet, script or WebAssembly module embedded in the binary.
struct Asset {
    body: &'static [u8],
    content_type: &'static str,
    /// A hash of the content, put in the URL so a long cache lifetime is safe.
    version: String,
}

fn assets() -> &'static HashMap<&'static str, Asset> {
    static ASSETS: OnceLock<HashMap<&'static str, Asset>> = OnceLock::new();
    ASSETS.get_or_init(|| {
        let asset = |body: &'static [u8], content_type| Asset {
            body,
            content_type,
            version: format!("{:016x}", fnv1a(body)),
        };
        let script = "text/javascript; charset=utf-8";
        HashMap::from([
            (
                "style.css",
                asset(STYLE.as_bytes(), "text/css; charset=utf-8"),
            ),
            ("app.js", asset(SCRIPT.as_bytes(), script)),
            ("worker.js", asset(WORKER.as_bytes(), script)),
            ("urlkit.mjs", asset(URLKIT_MJS.as_bytes(), script)),
            ("urlkit.wasm", asset(URLKIT_WASM, "application/wasm")),
        ])
    })
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

pub(super) fn asset_url(name: &str) -> String {
    let version = assets().get(name).map(|a| a.version.as_str()).unwrap_or("");
    format!("/assets/{name}?v={version}")
}

/// `GET /assets/{name}`: the stylesheet, the script, live mode's worker and WebAssembly
/// module with its loader, cached for a year (their URLs carry a content hash). Unknown
/// names are a 404.
pub async fn asset(
    name: Result<Path<String>, axum::extract::rejection::PathRejection>,
) -> Response {
    // A name that is not even text (`%ff`) names no asset either.
    let name = name.map(|Path(name)| name).unwrap_or_default();
    match assets().get(name.as_str()) {
        Some(a) => (
            [
                (
                    header::CONTENT_TYPE,
                    HeaderValue::from_static(a.content_type),
                ),
                (
                    header::CACHE_CONTROL,
                    HeaderValue::from_static("public, max-age=31536000, immutable"),
                ),
            ],
            a.body,
        )
            .into_response(),
        None => crate::api::not_found().await.into_response(),
    }
}
