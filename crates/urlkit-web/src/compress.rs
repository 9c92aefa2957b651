//! The page's assets (stylesheet, scripts, the WebAssembly module) and the third-party
//! notices (`/licenses`) sent gzip-compressed to clients that accept it.
//!
//! Each asset is compressed once, at the best level, on its first request, and kept: the
//! assets are fixed for the life of the process, so compressing per request would spend
//! the processor on the same work again and again. Other answers are sent as they are.

use crate::error::ApiError;
use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use std::io::Write;
use std::sync::{Mutex, OnceLock};

/// The largest asset compressed (the WebAssembly module is well below it).
const LARGEST: usize = 16 << 20;

/// Compressed assets by path; `None` when compressing does not make one smaller.
type Cache = Mutex<HashMap<String, Option<Bytes>>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(Cache::default)
}

/// Middleware: a successful `GET /assets/…` or `GET /licenses` goes out gzip-compressed
/// when the request accepts gzip, with `Vary: Accept-Encoding` either way.
pub async fn gzip_assets(request: Request, next: Next) -> Response {
    let path = request.uri().path();
    if !path.starts_with("/assets/") && path != "/licenses" {
        return next.run(request).await;
    }
    let path = path.to_owned();
    let gzip = accepts_gzip(request.headers());
    let mut response = next.run(request).await;
    if response.status() != StatusCode::OK {
        return response;
    }
    response
        .headers_mut()
        .insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    if !gzip {
        return response;
    }
    let cached = cache()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&path)
        .cloned();
    let (mut parts, body) = response.into_parts();
    let compressed = match cached {
        Some(Some(compressed)) => compressed,
        Some(None) => return Response::from_parts(parts, body),
        None => {
            let Ok(plain) = axum::body::to_bytes(body, LARGEST).await else {
                return ApiError::internal("cannot read an asset", &path).into_response();
            };
            let to_compress = plain.clone();
            let compressed = tokio::task::spawn_blocking(move || gzip_best(&to_compress))
                .await
                .ok()
                .flatten()
                .filter(|c| c.len() < plain.len());
            cache()
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(path, compressed.clone());
            match compressed {
                Some(compressed) => compressed,
                None => return Response::from_parts(parts, Body::from(plain)),
            }
        }
    };
    parts
        .headers
        .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    parts
        .headers
        .insert(header::CONTENT_LENGTH, HeaderValue::from(compressed.len()));
    Response::from_parts(parts, Body::from(compressed))
}

fn gzip_best(bytes: &[u8]) -> Option<Bytes> {
    let mut encoder = flate2::write::GzEncoder::new(
        Vec::with_capacity(bytes.len() / 2),
        flate2::Compression::best(),
    );
    encoder.write_all(bytes).ok()?;
    encoder.finish().ok().map(Bytes::from)
}

/// Whether `Accept-Encoding` lists `gzip` (or `*`) with a quality above zero.
pub fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|coding| {
            let mut parts = coding.split(';');
            let name = parts.next().unwrap_or("").trim();
            let quality = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .filter_map(|q| q.trim().parse::<f32>().ok())
                .next()
                .unwrap_or(1.0);
            (name.eq_ignore_ascii_case("gzip") || name == "*") && quality > 0.0
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT_ENCODING, value.parse().unwrap());
        headers
    }

    #[test]
    fn gzip_is_accepted_unless_its_quality_is_zero() {
        assert!(accepts_gzip(&headers("gzip, deflate, br")));
        assert!(accepts_gzip(&headers("br;q=1.0, GZIP;q=0.5")));
        assert!(accepts_gzip(&headers("*")));
        assert!(!accepts_gzip(&headers("gzip;q=0, br")));
        assert!(!accepts_gzip(&headers("identity")));
        assert!(!accepts_gzip(&HeaderMap::new()));
    }
}
