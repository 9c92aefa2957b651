//! URL inspection: take a URL or URI reference apart, resolve, relativize, normalize and
//! compare references, convert host names (IDNA) and IRIs, and Base58.
//!
//! Two views are offered. [`parse`] follows the WHATWG URL Standard (what browsers do), through
//! the `url` crate; [`rfc3986`] splits any URI reference by the generic syntax of RFC 3986 §3
//! without scheme-specific rewriting. Nothing here does I/O.

pub mod base58;
pub mod idn;
pub mod iri;
pub mod normalize;
pub mod parse;
pub mod resolve;
pub mod rfc3986;
pub mod template;
pub mod whatwg;

/// The `url` crate's URL type and component positions, which this module's API uses.
pub use url::{Position, Url};

/// The value of one ASCII hex digit, or `None`.
#[inline]
pub(crate) fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Appends the percent-decoded bytes of `input` to `out` (URL Standard §1.3 "percent-decode"):
/// a `%` not followed by two hex digits is copied as it is; `+` becomes a space when
/// `plus_as_space` is set.
pub(crate) fn percent_decode_into(input: &[u8], plus_as_space: bool, out: &mut Vec<u8>) {
    let mut i = 0;
    while i < input.len() {
        let b = input[i];
        if b == b'%' {
            if let (Some(h), Some(l)) = (
                input.get(i + 1).copied().and_then(hex_value),
                input.get(i + 2).copied().and_then(hex_value),
            ) {
                out.push(h << 4 | l);
                i += 3;
                continue;
            }
        }
        out.push(if b == b'+' && plus_as_space { b' ' } else { b });
        i += 1;
    }
}

/// Percent-decodes `input` and reads the bytes as UTF-8, replacing invalid sequences with
/// U+FFFD (Encoding Standard "UTF-8 decode without BOM").
pub(crate) fn percent_decode_lossy(input: &str, plus_as_space: bool) -> String {
    if !(input.contains('%') || plus_as_space && input.contains('+')) {
        return input.to_owned();
    }
    let mut out = Vec::with_capacity(input.len());
    percent_decode_into(input.as_bytes(), plus_as_space, &mut out);
    match String::from_utf8(out) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}
