//! Normalization and comparison of URIs by RFC 3986 §6.2.2 (syntax-based) and §6.2.3
//! (scheme-based).

use super::resolve::remove_dot_segments;
use super::{is_unreserved, recompose_into, split, split_authority};
use crate::codec::kernel::hex_value;
use crate::inspect::default_port;

/// Options for [`normalize`] and [`compare`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NormalizeOptions {
    /// Sort the query's `&`-separated parameters by name, keeping the order of parameters with
    /// the same name. Not an RFC 3986 equivalence: servers may care about the order.
    pub sort_query: bool,
}

/// Normalizes a URI reference:
/// * §6.2.2.1 case: scheme and host to lower case, hex digits of escapes to upper case;
/// * §6.2.2.2 percent-encoding: escapes of unreserved characters decoded (`%7E` → `~`);
/// * §6.2.2.3 dot segments removed from the path of a reference with a scheme (a path
///   left starting with `//` without an authority keeps a leading `/.`, so it is not
///   read back as an authority);
/// * §6.2.3 scheme-based: an empty or default port dropped (`http://a:80/` → `http://a/`),
///   and an empty path with an authority becomes `/`;
/// * optionally the query parameters sorted ([`NormalizeOptions::sort_query`]).
///
/// Bad input: never fails. The reference is split by RFC 3986 Appendix B; characters that
/// RFC 3986 does not allow are kept as they are, and a `%` without two hex digits is kept.
pub fn normalize(input: &str, options: &NormalizeOptions) -> String {
    let r = split(input);
    let scheme = r.scheme.map(str::to_ascii_lowercase);
    let authority = r.authority.map(|a| {
        let a = split_authority(a);
        let mut out = String::new();
        if let Some(u) = a.userinfo {
            out.push_str(&normalize_escapes(u, false));
            out.push('@');
        }
        out.push_str(&normalize_escapes(a.host, true));
        if let Some(port) = a.port {
            let trimmed = port.trim_start_matches('0');
            let is_default = scheme
                .as_deref()
                .and_then(default_port)
                .is_some_and(|d| trimmed.parse::<u32>().ok() == Some(u32::from(d)));
            if !port.is_empty() && !is_default {
                out.push(':');
                out.push_str(port);
            }
        }
        out
    });
    let mut path = normalize_escapes(r.path, false);
    if scheme.is_some() {
        path = remove_dot_segments(&path);
        // Without an authority, a path that now starts with `//` would read back as one
        // (`file:/.//p` would become `file://p`, host `p`); `/.` keeps it a path, as the
        // WHATWG URL serializer does, and normalizing again gives the same string.
        if authority.is_none() && path.starts_with("//") {
            path.insert_str(0, "/.");
        }
    }
    if authority.is_some() && path.is_empty() {
        path.push('/');
    }
    let query = r.query.map(|q| {
        let q = normalize_escapes(q, false);
        if options.sort_query {
            let mut params: Vec<&str> = q.split('&').collect();
            params.sort_by_key(|p| p.split('=').next().unwrap_or(""));
            params.join("&")
        } else {
            q
        }
    });
    let fragment = r.fragment.map(|f| normalize_escapes(f, false));
    let mut out = String::with_capacity(input.len());
    recompose_into(
        &mut out,
        scheme.as_deref(),
        authority.as_deref(),
        &path,
        query.as_deref(),
        fragment.as_deref(),
    );
    out
}

/// Decodes escapes of unreserved characters, upper-cases the hex of the others, and
/// lower-cases the literal characters when `lower` is set (hosts).
fn normalize_escapes(s: &str, lower: bool) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            if let (Some(h), Some(l)) = (
                b.get(i + 1).copied().and_then(hex_value),
                b.get(i + 2).copied().and_then(hex_value),
            ) {
                let byte = h << 4 | l;
                if is_unreserved(byte) {
                    let c = if lower {
                        byte.to_ascii_lowercase()
                    } else {
                        byte
                    };
                    out.push(char::from(c));
                } else {
                    out.push('%');
                    out.push(char::from(b[i + 1].to_ascii_uppercase()));
                    out.push(char::from(b[i + 2].to_ascii_uppercase()));
                }
                i += 3;
                continue;
            }
        }
        let len = utf8_len(b[i]);
        let piece = &s[i..(i + len).min(s.len())];
        if lower {
            out.push_str(&piece.to_ascii_lowercase());
        } else {
            out.push_str(piece);
        }
        i += len;
    }
    out
}

fn utf8_len(lead: u8) -> usize {
    match lead {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

/// One component in which two URIs differ after normalization.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Difference {
    /// `scheme`, `userinfo`, `host`, `port`, `path`, `query` or `fragment`.
    pub component: &'static str,
    /// The left URI's normalized component (`None`: absent).
    pub left: Option<String>,
    /// The right URI's normalized component.
    pub right: Option<String>,
}

/// The outcome of [`compare`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Comparison {
    /// Whether the two normalize to the same string (RFC 3986 §6.2.1).
    pub equivalent: bool,
    /// The left URI normalized.
    pub left: String,
    /// The right URI normalized.
    pub right: String,
    /// The components that differ, in URI order; empty when equivalent.
    pub differences: Vec<Difference>,
}

/// Normalizes both references with [`normalize`] and compares them component by component
/// (RFC 3986 §6.1, §6.2.1 on the normalized strings).
///
/// Bad input: never fails; see [`normalize`].
pub fn compare(left: &str, right: &str, options: &NormalizeOptions) -> Comparison {
    let l = normalize(left, options);
    let r = normalize(right, options);
    let parts = |s: &str| -> [Option<String>; 7] {
        let u = split(s);
        let a = u.authority.map(split_authority);
        [
            u.scheme.map(str::to_owned),
            a.and_then(|a| a.userinfo).map(str::to_owned),
            a.map(|a| a.host.to_owned()),
            a.and_then(|a| a.port).map(str::to_owned),
            Some(u.path.to_owned()),
            u.query.map(str::to_owned),
            u.fragment.map(str::to_owned),
        ]
    };
    const NAMES: [&str; 7] = [
        "scheme", "userinfo", "host", "port", "path", "query", "fragment",
    ];
    let differences = parts(&l)
        .into_iter()
        .zip(parts(&r))
        .zip(NAMES)
        .filter(|((a, b), _)| a != b)
        .map(|((left, right), component)| Difference {
            component,
            left,
            right,
        })
        .collect::<Vec<_>>();
    Comparison {
        equivalent: l == r,
        left: l,
        right: r,
        differences,
    }
}
