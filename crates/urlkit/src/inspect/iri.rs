//! Conversion between IRIs (RFC 3987) and URIs (RFC 3986).

use super::parts::escape_at;
use std::fmt::Write;

/// Maps an IRI to a URI by RFC 3987 §3.1: every character outside ASCII is written as the
/// percent-encoded bytes of its UTF-8 form, as are space, the C0 controls and DEL (which no
/// URI may contain). Everything else, including `%` and existing escapes, is kept.
///
/// Bad input: none; any string is accepted.
pub fn iri_to_uri(iri: &str) -> String {
    let mut out = String::with_capacity(iri.len());
    for c in iri.chars() {
        if c.is_ascii_graphic() {
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                let _ = write!(out, "%{b:02X}");
            }
        }
    }
    out
}

/// Converts a URI to an IRI for display by RFC 3987 §3.2: runs of escapes that form a valid
/// UTF-8 sequence of a character RFC 3987 §2.2 allows in an IRI (`ucschar` or `iprivate`) are
/// decoded; every other escape stays as it is, so reserved escapes such as `%2F` and `%3F`,
/// and escapes of ASCII in general, keep their meaning.
///
/// Bad input: escapes that are not valid UTF-8, and characters RFC 3987 §4.1 says must not
/// be shown decoded (bidirectional formatting characters), stay escaped.
pub fn uri_to_iri_display(uri: &str) -> String {
    let b = uri.as_bytes();
    let mut out = String::with_capacity(uri.len());
    let mut i = 0;
    while i < b.len() {
        if let Some(lead) = escape_at(b, i) {
            let len = match lead {
                0xC2..=0xDF => 2,
                0xE0..=0xEF => 3,
                0xF0..=0xF4 => 4,
                _ => 0,
            };
            if len > 0 {
                let mut seq = [0u8; 4];
                let mut ok = true;
                for (k, slot) in seq.iter_mut().enumerate().take(len) {
                    match escape_at(b, i + 3 * k) {
                        Some(v) => *slot = v,
                        None => {
                            ok = false;
                            break;
                        }
                    }
                }
                if ok {
                    if let Ok(s) = std::str::from_utf8(&seq[..len]) {
                        let c = s.chars().next().unwrap_or('\0');
                        if is_iri_char(c) {
                            out.push(c);
                            i += 3 * len;
                            continue;
                        }
                    }
                }
            }
            out.push_str(&uri[i..i + 3]);
            i += 3;
            continue;
        }
        let len = uri[i..].chars().next().map_or(1, char::len_utf8);
        out.push_str(&uri[i..i + len]);
        i += len;
    }
    out
}

/// `ucschar` / `iprivate` of RFC 3987 §2.2, less the bidi formatting characters of §4.1.
fn is_iri_char(c: char) -> bool {
    let u = u32::from(c);
    let bidi = matches!(u, 0x200E | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069 | 0x061C);
    let allowed = matches!(u,
        0xA0..=0xD7FF | 0xE000..=0xF8FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF)
        || (u >= 0x10000 && (u & 0xFFFF) <= 0xFFFD);
    allowed && !bidi
}
