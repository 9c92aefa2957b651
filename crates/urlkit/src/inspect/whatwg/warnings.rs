//! What the parser silently repaired in a URL it accepted, or what looks risky: each a
//! [`Diagnostic`] pointing at the input's own bytes.

use super::read::{authority, split_authority, Read};
use super::{HostKind, Url, MAX_URL_LENGTH};
use crate::diagnostics::{Code, Diagnostic};
use crate::inspect::idn;

/// The warnings about `input`, which parsed (against `base`) into `url`, in the order of
/// the input.
pub(super) fn warnings(input: &str, url: &Url, base: Option<&Url>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut warn = |code: Code, offset: usize, message: String| {
        out.push(Diagnostic::new(code, offset as u64, message));
    };
    let read = Read::of(input);
    let at = |i: usize| read.input_offset(i);
    let text = read.text.as_str();

    if read.stripped_ends {
        let leading = input.starts_with(|c: char| c <= ' ');
        let offset = if leading {
            0
        } else {
            input.trim_end_matches(|c: char| c <= ' ').len()
        };
        warn(
            Code::WhitespaceStripped,
            offset,
            "leading or trailing spaces or controls were stripped (URL Standard §4.4)".into(),
        );
    }
    if let Some(offset) = read.first_tab_or_newline {
        warn(
            Code::WhitespaceStripped,
            offset,
            "tabs and newlines inside the URL were removed (URL Standard §4.4)".into(),
        );
    }

    let (scheme, after_scheme, relative) = match read.scheme() {
        Some((scheme, colon)) => (scheme, colon + 1, false),
        None => (
            base.map_or_else(String::new, |b| b.scheme().to_owned()),
            0,
            true,
        ),
    };
    let special = url.is_special();
    if special && !relative && scheme != "file" {
        let slashes = text.as_bytes()[after_scheme..]
            .iter()
            .take_while(|&&c| c == b'/' || c == b'\\')
            .count();
        if slashes != 2 {
            warn(
                Code::ValidationError,
                at(after_scheme),
                format!("a {scheme}: URL should be followed by \"//\"; found {slashes} slashes (URL Standard §4.4 special-scheme-missing-following-solidus)"),
            );
        }
    }
    if special {
        let before_query = text.find(['?', '#']).unwrap_or(text.len());
        if let Some(i) = text[..before_query].find('\\') {
            warn(
                Code::BackslashAsSlash,
                at(i),
                "\"\\\" was taken as \"/\" (URL Standard §4.4, special schemes)".into(),
            );
        }
    }

    let authority = url
        .host_str()
        .and_then(|_| authority(text, &scheme, after_scheme, relative));
    let parts = authority.clone().map(|range| split_authority(text, range));
    if url.password().is_some() {
        let password_at = parts
            .as_ref()
            .and_then(|p| p.userinfo.clone())
            .and_then(|u| text[u.clone()].find(':').map(|i| at(u.start + i + 1)))
            .unwrap_or(0);
        warn(
            Code::PasswordInUrl,
            password_at,
            "the URL carries a password; RFC 3986 §3.2.1 deprecates \"user:password\" in URLs"
                .into(),
        );
    }
    if let Some(p) = &parts {
        if let Some(port) = p.port.clone().filter(|r| !r.is_empty()) {
            if url.port().is_none() && url.port_or_known_default().is_some() {
                warn(
                    Code::ExplicitDefaultPort,
                    at(port.start),
                    format!(
                        "port {} is the default for {}: and is dropped",
                        &text[port],
                        url.scheme()
                    ),
                );
            }
        }
        let written = &text[p.host.clone()];
        match (url.host_kind(), url.host_str()) {
            (Some(HostKind::Ipv4), Some(host)) if !written.eq_ignore_ascii_case(host) => warn(
                Code::NonCanonicalIpv4,
                at(p.host.start),
                format!("IPv4 address written as {written:?} means {host}"),
            ),
            (Some(HostKind::Domain), Some(host)) if host.contains("xn--") => {
                let unicode = idn::to_unicode_lossy(host);
                for d in idn::host_warnings(&unicode, 0) {
                    warn(d.code, at(p.host.start), d.message);
                }
            }
            _ => {}
        }
    }

    // Path, query and fragment: what the parser percent-encoded or kept though the
    // standard does not allow it.
    let rest_start = authority.map_or(if relative { 0 } else { after_scheme }, |a| a.end);
    let rest = &text[rest_start..];
    if let Some(i) = malformed_escape(rest) {
        warn(
            Code::ValidationError,
            at(rest_start + i),
            "\"%\" not followed by two hex digits, kept as it is (URL Standard §4.4 invalid-URL-unit)"
                .into(),
        );
    }
    let fragment_at = rest.find('#');
    if let Some((i, c)) = rest.char_indices().find(|&(i, c)| {
        !(is_url_code_point(c)
            || c == '%'
            || Some(i) == fragment_at
            || special && c == '\\' && fragment_at.is_none_or(|f| i < f))
    }) {
        warn(
            Code::ValidationError,
            at(rest_start + i),
            format!("{c:?} is not a URL code point: the parser percent-encoded it or kept it as it is (URL Standard §4.4 invalid-URL-unit)"),
        );
    }

    if let Some((offset, _)) = input.char_indices().nth(MAX_URL_LENGTH) {
        warn(
            Code::UrlTooLong,
            offset,
            format!(
                "URL is {} characters long; many servers and browsers reject more than {MAX_URL_LENGTH}",
                input.chars().count()
            ),
        );
    }
    out.sort_by_key(|d| d.offset);
    out
}

/// The first `%` not followed by two hex digits.
fn malformed_escape(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    (0..b.len()).find(|&i| {
        b[i] == b'%'
            && !(b.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
    })
}

/// URL code points (URL Standard §4.1): ASCII alphanumerics, `!$&'()*+,-./:;=?@_~`, and
/// every code point from U+00A0 on but noncharacters (surrogates cannot occur in `str`).
fn is_url_code_point(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || "!$&'()*+,-./:;=?@_~".contains(c);
    }
    let n = c as u32;
    n >= 0xA0 && !((0xFDD0..=0xFDEF).contains(&n) || n & 0xFFFE == 0xFFFE)
}
