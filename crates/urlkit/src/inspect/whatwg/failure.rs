//! Why the URL Standard rejects a URL, and where: the parser says only "failure", so the
//! input is read again the way the parser reads it, up to the step that fails.

use super::read::{authority, split_authority, Read};
use super::simple::ends_in_a_number;
use super::{ParseFailure, ParseProblem as Problem, Url};
use crate::inspect::idn;
use crate::inspect::parts::{excerpt, is_special, percent_decode_lossy};

/// The failure of `input` (against `base`), which the parser has rejected.
pub(super) fn diagnose(input: &str, base: Option<&Url>) -> ParseFailure {
    let read = Read::of(input);
    let at = |i: usize| read.input_offset(i);
    let (scheme, after_scheme, relative) = match read.scheme() {
        Some((scheme, colon)) => (scheme, colon + 1, false),
        None => match base {
            None => {
                return ParseFailure::new(
                    0,
                    "scheme", Problem::RelativeWithoutBase,
                    "relative URL without a base: give a scheme (\"https://…\") or a base URL",
                )
            }
            Some(b) if b.has_opaque_path() && !read.text.starts_with('#') => {
                return ParseFailure::new(
                    0,
                    "scheme", Problem::OpaqueBase,
                    format!(
                        "the base URL {} has an opaque path, so only a fragment (\"#…\") can be resolved against it",
                        excerpt(b.as_str())
                    ),
                )
            }
            Some(b) => (b.scheme().to_owned(), 0, true),
        },
    };
    let text = read.text.as_str();
    let Some(range) = authority(text, &scheme, after_scheme, relative) else {
        return unexplained();
    };
    let file = scheme == "file";
    let parts = split_authority(text, range.clone());
    let host_range = if file {
        range.clone()
    } else {
        parts.host.clone()
    };
    let host = &text[host_range.clone()];
    if file && is_windows_drive_letter(host) {
        return unexplained();
    }
    if let (false, Some(u)) = (file, &parts.userinfo) {
        if host.is_empty() && parts.port.is_none() {
            return ParseFailure::new(
                at(u.end),
                "host",
                Problem::EmptyHost,
                "the host is empty: nothing follows the \"@\" of the user name",
            );
        }
    }
    if let (false, true, Some(port)) = (file, host.is_empty(), &parts.port) {
        return ParseFailure::new(
            at(port.start - 1),
            "host",
            Problem::EmptyHost,
            "the host is empty: nothing comes before the \":\" of the port",
        );
    }
    if let Some(failure) = host_failure(host, &scheme, host_range.start, &at) {
        return failure;
    }
    if let (false, Some(port)) = (file, parts.port) {
        let digits = &text[port.clone()];
        if let Some(i) = digits.bytes().position(|c| !c.is_ascii_digit()) {
            return ParseFailure::new(
                at(port.start + i),
                "port",
                Problem::InvalidPort,
                format!(
                    "invalid port: {:?} is not a digit (a port is a number from 0 to 65535)",
                    digits[i..].chars().next().unwrap_or('?')
                ),
            );
        }
        if digits.parse::<u16>().is_err() && !digits.is_empty() {
            return ParseFailure::new(
                at(port.start),
                "port",
                Problem::InvalidPort,
                format!("invalid port {digits}: a port is a number from 0 to 65535"),
            );
        }
    }
    unexplained()
}

fn unexplained() -> ParseFailure {
    ParseFailure::new(
        0,
        "url",
        Problem::Rejected,
        "the URL Standard rejects this URL",
    )
}

/// Why the host parser rejects `host` (URL Standard §3.5) for `scheme`, if it does;
/// `start` is where the host sits in the text read, `at` maps that to the input.
pub(super) fn host_failure(
    host: &str,
    scheme: &str,
    start: usize,
    at: &dyn Fn(usize) -> usize,
) -> Option<ParseFailure> {
    let special = is_special(scheme);
    if host.is_empty() {
        return (special && scheme != "file").then(|| {
            ParseFailure::new(
                at(start),
                "host",
                Problem::EmptyHost,
                format!("the host is empty: a {scheme}: URL needs one"),
            )
        });
    }
    if let Some(inner) = host.strip_prefix('[') {
        let valid = inner
            .strip_suffix(']')
            .is_some_and(|a| a.parse::<std::net::Ipv6Addr>().is_ok());
        return (!valid).then(|| {
            ParseFailure::new(
                at(start),
                "host",
                Problem::InvalidIpv6,
                format!("invalid IPv6 address {} (URL Standard §3.5)", excerpt(host)),
            )
        });
    }
    if !special {
        // An opaque host: only the forbidden host code points fail (URL Standard §3.5).
        let (i, c) = host
            .char_indices()
            .find(|&(_, c)| is_forbidden_host_char(c))?;
        return Some(forbidden(c, at(start + i)));
    }
    let decoded = percent_decode_lossy(host, false);
    let decoded_offset = |i: usize| {
        if decoded.len() == host.len() {
            at(start + i)
        } else {
            at(start)
        }
    };
    if let Err(e) = idn::to_ascii(&decoded) {
        let c = decoded[e.position..].chars().next();
        return Some(match c {
            Some(c) if idn::is_forbidden_domain_char(c) => forbidden(c, decoded_offset(e.position)),
            _ => ParseFailure::new(
                decoded_offset(e.position),
                "host",
                Problem::Idna,
                format!("the host fails IDNA processing (UTS #46): {}", e.message),
            ),
        });
    }
    if ends_in_a_number(decoded.as_bytes()) && !host_parses(host) {
        return Some(ParseFailure::new(
            at(start),
            "host", Problem::InvalidIpv4,
            format!("invalid IPv4 address {}: its last label is a number, so it must be an IPv4 address (URL Standard §3.5)", excerpt(host)),
        ));
    }
    (!host_parses(host)).then(|| {
        ParseFailure::new(
            at(start),
            "host",
            Problem::InvalidHost,
            format!(
                "invalid host {}: the URL Standard's host parser rejects it (§3.5)",
                excerpt(host)
            ),
        )
    })
}

/// Whether the host parser of a special scheme takes `host`, asked of the parser itself.
fn host_parses(host: &str) -> bool {
    ada_url::Url::can_parse(&format!("http://{host}/"), None)
}

/// Forbidden host code points (URL Standard §3.1), after tabs and newlines are removed.
fn is_forbidden_host_char(c: char) -> bool {
    matches!(
        c,
        '\0' | ' ' | '#' | '/' | ':' | '<' | '>' | '?' | '@' | '[' | '\\' | ']' | '^' | '|'
    )
}

fn forbidden(c: char, at: usize) -> ParseFailure {
    ParseFailure::new(
        at,
        "host",
        Problem::ForbiddenCodePoint,
        format!("the host contains {c:?}, which no host may contain (URL Standard §3.1)"),
    )
}

fn is_windows_drive_letter(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 2 && b[0].is_ascii_alphabetic() && matches!(b[1], b':' | b'|')
}
