//! The generic URI syntax of RFC 3986: split any URI reference into its five components
//! (§3, Appendix B) without scheme-specific rewriting, validate it against the §3 and §4.1
//! ABNF, and recompose it (§5.3).
//!
//! Unlike the WHATWG parser, nothing is lower-cased, percent-encoded or resolved here:
//! `mailto:John.Doe@example.com` keeps its path `John.Doe@example.com`, and
//! `ldap://[2001:db8::7]/c=GB?objectClass?one` keeps its query `objectClass?one`.

use super::parts::capped;
use std::fmt;
use std::net::Ipv6Addr;

mod normalize;
mod resolve;

pub use normalize::{compare, normalize, Comparison, Difference, NormalizeOptions};
pub use resolve::{relativize, remove_dot_segments, resolve, ResolveError, ResolveProblem};

/// A URI reference split into the components of RFC 3986 §3.
///
/// `None` means the component's delimiter is absent; `Some("")` means it is present with
/// nothing after it (RFC 3986 §5.2.1 and §5.3 keep the two apart: `http://a/?` differs from
/// `http://a/`). Each slice borrows from the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UriRef<'a> {
    /// The scheme, without its `:` (§3.1).
    pub scheme: Option<&'a str>,
    /// The authority, without its leading `//` (§3.2).
    pub authority: Option<&'a str>,
    /// The path, possibly empty (§3.3).
    pub path: &'a str,
    /// The query, without its `?` (§3.4).
    pub query: Option<&'a str>,
    /// The fragment, without its `#` (§3.5).
    pub fragment: Option<&'a str>,
}

/// An authority split into userinfo, host and port (RFC 3986 §3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Authority<'a> {
    /// The userinfo, without its `@` (§3.2.1).
    pub userinfo: Option<&'a str>,
    /// The host, with the brackets of an IP literal (§3.2.2).
    pub host: &'a str,
    /// The port digits, without the `:` (§3.2.3). `Some("")` for a bare `:`.
    pub port: Option<&'a str>,
}

/// Which production of RFC 3986 §3.2.2 a host matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(rename_all = "kebab-case"))]
pub enum HostKind {
    /// `IP-literal` holding an `IPv6address`.
    Ipv6,
    /// `IP-literal` holding an `IPvFuture`.
    IpvFuture,
    /// `IPv4address`: four decimal octets without leading zeros.
    Ipv4,
    /// `reg-name`: anything else, including the empty host.
    RegName,
}

/// Why a string is not a URI reference under RFC 3986 §4.1: the byte offset into the input
/// and what was wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SyntaxError {
    /// Byte offset of the offending character in the input.
    pub position: usize,
    /// What kind of fault, for a caller that words it itself.
    pub kind: SyntaxProblem,
    /// What is wrong there, in words.
    pub message: String,
}

/// The kinds of [`SyntaxError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SyntaxProblem {
    /// The scheme does not start with a letter or holds a character a scheme may not
    /// (§3.1).
    Scheme,
    /// A character the component may not hold (§3); percent-encoding it would do.
    DisallowedCharacter,
    /// A `%` not followed by two hex digits (§2.1).
    MalformedEscape,
    /// An IP literal without its closing `]`, or neither IPv6 nor IPvFuture (§3.2.2).
    IpLiteral,
    /// A port with a character other than a digit (§3.2.3).
    Port,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: {}", self.position, self.message)
    }
}

impl std::error::Error for SyntaxError {}

/// Splits a URI reference into its components with the regular expression of RFC 3986
/// Appendix B. This never fails: every string splits, valid or not (use [`parse`] to
/// validate). A leading run of characters other than `:/?#` followed by `:` is the scheme.
pub fn split(input: &str) -> UriRef<'_> {
    let bytes = input.as_bytes();
    let mut rest = input;
    let mut scheme = None;
    if let Some(i) = bytes
        .iter()
        .position(|&b| matches!(b, b':' | b'/' | b'?' | b'#'))
    {
        if bytes[i] == b':' && i > 0 {
            scheme = Some(&input[..i]);
            rest = &input[i + 1..];
        }
    }
    let (before_fragment, fragment) = match rest.find('#') {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let (hier, query) = match before_fragment.find('?') {
        Some(i) => (&before_fragment[..i], Some(&before_fragment[i + 1..])),
        None => (before_fragment, None),
    };
    let (authority, path) = match hier.strip_prefix("//") {
        Some(after) => {
            let end = after.find('/').unwrap_or(after.len());
            (Some(&after[..end]), &after[end..])
        }
        None => (None, hier),
    };
    UriRef {
        scheme,
        authority,
        path,
        query,
        fragment,
    }
}

/// Splits an authority into userinfo, host and port (RFC 3986 §3.2). Never fails: the
/// userinfo ends at the last `@`, an IP literal ends at its `]`, and the port starts at the
/// first `:` after the host.
pub fn split_authority(authority: &str) -> Authority<'_> {
    let (userinfo, host_port) = match authority.rfind('@') {
        Some(i) => (Some(&authority[..i]), &authority[i + 1..]),
        None => (None, authority),
    };
    let port_colon = if host_port.starts_with('[') {
        host_port
            .find(']')
            .and_then(|end| host_port[end..].find(':').map(|c| end + c))
    } else {
        // A reg-name or IPv4 address cannot contain ":", so the first one starts the port.
        host_port.find(':')
    };
    let (host, port) = match port_colon {
        Some(i) => (&host_port[..i], Some(&host_port[i + 1..])),
        None => (host_port, None),
    };
    Authority {
        userinfo,
        host,
        port,
    }
}

/// Splits and validates a URI reference against RFC 3986 §4.1 (`URI-reference`).
///
/// Bad input: returns the first violation with its byte offset — an invalid scheme character
/// (§3.1), a character not allowed in its component (§3.2–§3.5), a `%` not followed by two
/// hex digits (§2.1), an invalid IP literal (§3.2.2) or a non-digit port (§3.2.3).
pub fn parse(input: &str) -> Result<UriRef<'_>, SyntaxError> {
    let r = split(input);
    let base = input.as_ptr() as usize;
    let at = |s: &str| s.as_ptr() as usize - base;
    let err = |position: usize, kind: SyntaxProblem, message: String| {
        Err(SyntaxError {
            position,
            kind,
            message,
        })
    };
    if let Some(scheme) = r.scheme {
        let b = scheme.as_bytes();
        if !b[0].is_ascii_alphabetic() {
            return err(
                0,
                SyntaxProblem::Scheme,
                format!(
                    "scheme must start with a letter, found {:?}",
                    char_at(scheme, 0)
                ),
            );
        }
        if let Some(i) = b
            .iter()
            .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')))
        {
            return err(
                i,
                SyntaxProblem::Scheme,
                format!(
                    "character {:?} is not allowed in a scheme (RFC 3986 §3.1)",
                    char_at(scheme, i)
                ),
            );
        }
    }
    if let Some(authority) = r.authority {
        let a = split_authority(authority);
        if let Some(userinfo) = a.userinfo {
            check_chars(userinfo, at(userinfo), "userinfo", |c| {
                is_unreserved(c) || is_sub_delim(c) || c == b':'
            })?;
        }
        let host_at = at(a.host);
        if let Some(inner) = a.host.strip_prefix('[') {
            let Some(inner) = inner.strip_suffix(']') else {
                return err(
                    host_at,
                    SyntaxProblem::IpLiteral,
                    "IP literal is missing its closing \"]\" (RFC 3986 §3.2.2)".into(),
                );
            };
            if host_kind(a.host) == HostKind::RegName {
                return err(
                    host_at + 1,
                    SyntaxProblem::IpLiteral,
                    format!(
                        "{} is neither an IPv6 address nor an IPvFuture literal (RFC 3986 §3.2.2)",
                        super::parts::excerpt(inner)
                    ),
                );
            }
        } else {
            check_chars(a.host, host_at, "host", |c| {
                is_unreserved(c) || is_sub_delim(c)
            })?;
        }
        if let Some(port) = a.port {
            if let Some(i) = port.bytes().position(|c| !c.is_ascii_digit()) {
                return err(
                    at(port) + i,
                    SyntaxProblem::Port,
                    format!(
                        "character {:?} is not allowed in a port (RFC 3986 §3.2.3)",
                        char_at(port, i)
                    ),
                );
            }
        }
    }
    check_chars(r.path, at(r.path), "path", |c| is_pchar(c) || c == b'/')?;
    if let Some(q) = r.query {
        check_chars(q, at(q), "query", |c| is_pchar(c) || c == b'/' || c == b'?')?;
    }
    if let Some(f) = r.fragment {
        check_chars(f, at(f), "fragment", |c| {
            is_pchar(c) || c == b'/' || c == b'?'
        })?;
    }
    Ok(r)
}

fn char_at(s: &str, i: usize) -> char {
    s[i..].chars().next().unwrap_or('\u{FFFD}')
}

fn check_chars(
    s: &str,
    offset: usize,
    what: &str,
    allowed: impl Fn(u8) -> bool,
) -> Result<(), SyntaxError> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'%' {
            let ok = b.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit);
            if !ok {
                return Err(SyntaxError {
                    position: offset + i,
                    kind: SyntaxProblem::MalformedEscape,
                    message: format!(
                        "\"%\" in the {what} is not followed by two hex digits (RFC 3986 §2.1)"
                    ),
                });
            }
            i += 3;
            continue;
        }
        if !allowed(c) {
            return Err(SyntaxError {
                position: offset + i,
                kind: SyntaxProblem::DisallowedCharacter,
                message: format!(
                    "character {:?} is not allowed in the {what} (RFC 3986 §3); percent-encode it",
                    char_at(s, i)
                ),
            });
        }
        i += 1;
    }
    Ok(())
}

/// `unreserved` of RFC 3986 §2.3.
pub(crate) const fn is_unreserved(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_' | b'~')
}

/// `sub-delims` of RFC 3986 §2.2.
pub(crate) const fn is_sub_delim(c: u8) -> bool {
    matches!(
        c,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
    )
}

/// A byte that stands for itself in a path segment: `pchar` of RFC 3986 §3.3 but its
/// escapes (`unreserved`, `sub-delims`, `:` and `@`). `%`, `/`, `?`, `#` and every other
/// byte are not.
pub const fn is_pchar(c: u8) -> bool {
    is_unreserved(c) || is_sub_delim(c) || c == b':' || c == b'@'
}

/// Classifies a host (as split by [`split_authority`], brackets included) by the productions
/// of RFC 3986 §3.2.2. A bracketed host that is neither IPv6 nor IPvFuture, and any other
/// string, is reported as [`HostKind::RegName`].
pub fn host_kind(host: &str) -> HostKind {
    if let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        if inner.parse::<Ipv6Addr>().is_ok() {
            return HostKind::Ipv6;
        }
        let b = inner.as_bytes();
        if b.first().is_some_and(|&c| c == b'v' || c == b'V') {
            if let Some(dot) = inner.find('.') {
                let ver = &b[1..dot];
                let rest = &b[dot + 1..];
                if !ver.is_empty()
                    && ver.iter().all(u8::is_ascii_hexdigit)
                    && !rest.is_empty()
                    && rest
                        .iter()
                        .all(|&c| is_unreserved(c) || is_sub_delim(c) || c == b':')
                {
                    return HostKind::IpvFuture;
                }
            }
        }
        return HostKind::RegName;
    }
    let mut octets = 0;
    for part in host.split('.') {
        octets += 1;
        let ok = !part.is_empty()
            && part.len() <= 3
            && part.bytes().all(|c| c.is_ascii_digit())
            && !(part.len() > 1 && part.starts_with('0'))
            && part.parse::<u16>().is_ok_and(|n| n <= 255);
        if !ok {
            return HostKind::RegName;
        }
    }
    if octets == 4 {
        HostKind::Ipv4
    } else {
        HostKind::RegName
    }
}

impl<'a> UriRef<'a> {
    /// Recomposes the components as RFC 3986 §5.3 prescribes. Splitting and recomposing
    /// gives back the input unchanged.
    pub fn recompose(&self) -> String {
        let mut out = String::new();
        recompose_into(
            &mut out,
            self.scheme,
            self.authority,
            self.path,
            self.query,
            self.fragment,
        );
        out
    }

    /// The authority split into userinfo, host and port, if there is an authority.
    pub fn authority_parts(&self) -> Option<Authority<'a>> {
        self.authority.map(split_authority)
    }
}

/// Appends the recomposition of RFC 3986 §5.3 to `out`.
pub(crate) fn recompose_into(
    out: &mut String,
    scheme: Option<&str>,
    authority: Option<&str>,
    path: &str,
    query: Option<&str>,
    fragment: Option<&str>,
) {
    if let Some(s) = scheme {
        out.push_str(s);
        out.push(':');
    }
    if let Some(a) = authority {
        out.push_str("//");
        out.push_str(a);
    }
    out.push_str(path);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    if let Some(f) = fragment {
        out.push('#');
        out.push_str(f);
    }
}

/// A drawing of a URI reference with each component (scheme, userinfo, host, port, path,
/// query, fragment) bracketed and named beneath it.
///
/// Bad input: a string that is not a URI reference is the [`SyntaxError`] of [`parse`]; a
/// valid one is ASCII, so columns line up.
pub fn diagram(input: &str) -> Result<String, SyntaxError> {
    let r = parse(input)?;
    let base = input.as_ptr() as usize;
    let span = |s: &str, name: &'static str| {
        let start = s.as_ptr() as usize - base;
        (start, start + s.len(), name)
    };
    let mut spans = Vec::new();
    if let Some(s) = r.scheme {
        spans.push(span(s, "scheme"));
    }
    if let Some(a) = r.authority_parts() {
        if let Some(u) = a.userinfo {
            spans.push(span(u, "userinfo"));
        }
        spans.push(span(a.host, "host"));
        if let Some(p) = a.port {
            spans.push(span(p, "port"));
        }
    }
    spans.push(span(r.path, "path"));
    if let Some(q) = r.query {
        spans.push(span(q, "query"));
    }
    if let Some(f) = r.fragment {
        spans.push(span(f, "fragment"));
    }
    spans.retain(|&(s, e, _)| e > s);
    Ok(super::parts::draw(input, &spans))
}

/// An owned, serialisable report of a URI reference under the generic syntax, for display
/// and JSON output. Components absent from the reference are `None` (JSON `null`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Components {
    /// The input as given.
    pub input: String,
    /// `uri` when there is a scheme (RFC 3986 §3), `relative-ref` otherwise (§4.2).
    pub kind: &'static str,
    /// The scheme (§3.1).
    pub scheme: Option<String>,
    /// The authority (§3.2).
    pub authority: Option<String>,
    /// The userinfo (§3.2.1).
    pub userinfo: Option<String>,
    /// The host (§3.2.2), IP literals with their brackets.
    pub host: Option<String>,
    /// Which host production matched.
    pub host_type: Option<HostKind>,
    /// The port (§3.2.3).
    pub port: Option<String>,
    /// The path (§3.3).
    pub path: String,
    /// The path's segments, percent-decoded (§3.3); for a path starting with `/` the empty
    /// segment before it is left out. At most [`LISTED_ENTRIES`](super::LISTED_ENTRIES).
    pub path_segments: Vec<String>,
    /// Segments beyond those listed.
    pub path_segments_not_listed: usize,
    /// The query (§3.4).
    pub query: Option<String>,
    /// The query split at `&` and `;` into decoded `[name, value]` pairs, as
    /// [`query_pairs`](super::query_pairs) does; empty when there is no query. At most
    /// [`LISTED_ENTRIES`](super::LISTED_ENTRIES).
    pub query_pairs: Vec<(String, String)>,
    /// Pairs beyond those listed.
    pub query_pairs_not_listed: usize,
    /// The fragment (§3.5).
    pub fragment: Option<String>,
}

impl Components {
    /// Validates `input` with [`parse`] and reports its components.
    ///
    /// Bad input: the [`SyntaxError`] of [`parse`], naming the byte offset.
    pub fn of(input: &str) -> Result<Components, SyntaxError> {
        let r = parse(input)?;
        let a = r.authority_parts();
        let segments = r.path.strip_prefix('/').unwrap_or(r.path);
        let (path_segments, path_segments_not_listed) = if r.path.is_empty() {
            (Vec::new(), 0)
        } else {
            capped(
                segments
                    .split('/')
                    .map(|s| super::parts::percent_decode_lossy(s, false)),
            )
        };
        let (query_pairs, query_pairs_not_listed) =
            capped(r.query.into_iter().flat_map(super::parts::pairs));
        Ok(Components {
            input: input.to_owned(),
            kind: if r.scheme.is_some() {
                "uri"
            } else {
                "relative-ref"
            },
            scheme: r.scheme.map(str::to_owned),
            authority: r.authority.map(str::to_owned),
            userinfo: a.and_then(|a| a.userinfo).map(str::to_owned),
            host: a.map(|a| a.host.to_owned()),
            host_type: a.map(|a| host_kind(a.host)),
            port: a.and_then(|a| a.port).map(str::to_owned),
            path: r.path.to_owned(),
            path_segments,
            path_segments_not_listed,
            query: r.query.map(str::to_owned),
            query_pairs,
            query_pairs_not_listed,
            fragment: r.fragment.map(str::to_owned),
        })
    }
}
