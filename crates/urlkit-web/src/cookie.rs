//! Cookies as requests send them.

use axum::http::{header, HeaderMap};

/// The value of the cookie `name` in the request's `Cookie` headers (the first, when it is
/// sent twice); a header that is not text is passed over.
pub fn value<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn cookies_are_found_by_name_among_several_headers() {
        let mut headers = HeaderMap::new();
        headers.append(header::COOKIE, HeaderValue::from_static("a=1; b=2"));
        headers.append(header::COOKIE, HeaderValue::from_static("c=3"));
        assert_eq!(value(&headers, "b"), Some("2"));
        assert_eq!(value(&headers, "c"), Some("3"));
        assert_eq!(value(&headers, "d"), None);
        assert_eq!(value(&headers, "b=2"), None);
    }
}
