//! The WHATWG URL Standard view of a URL (what browsers do), through the `url` crate:
//! every attribute of the URL API, decoded path segments, query pairs and fragment, and
//! warnings about what the parser silently repaired.

use super::parts::{default_port, is_special, percent_decode_lossy, query_pairs};
use super::rfc3986::split;
use super::{idn, parts};

mod parser;

use crate::diagnostics::{Code, Diagnostic};
pub use parser::{parse, parse_reporting};
use std::cell::RefCell;
use std::fmt;
use url::{quirks, Host, ParseError, SyntaxViolation, Url};

/// URLs longer than this many characters draw a `url-too-long` warning: the limit that old
/// browsers and many servers and CDNs still enforce.
pub const MAX_URL_LENGTH: usize = 2048;

/// Why a URL failed to parse under the URL Standard: what and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseFailure {
    /// Byte offset into the input of the part that failed (the host, the port, …).
    pub position: usize,
    /// What failed.
    pub message: String,
}

impl fmt::Display for ParseFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: {}", self.position, self.message)
    }
}

impl std::error::Error for ParseFailure {}

/// A URL taken apart. Field names follow the URL API (`href` … `hash`) and then the extra
/// views of this crate.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UrlReport {
    /// The input as given.
    pub input: String,
    /// The serialized URL (URL Standard §4.5).
    pub href: String,
    /// The ASCII serialization of the origin, `null` for opaque origins.
    pub origin: String,
    /// The scheme followed by `:`.
    pub protocol: String,
    /// The username, percent-encoded.
    pub username: String,
    /// The password, percent-encoded.
    pub password: String,
    /// Host and, if not the default, `:port`.
    pub host: String,
    /// The host.
    pub hostname: String,
    /// The port, empty when it is the scheme's default or absent.
    pub port: String,
    /// The path (URL API `pathname`).
    pub pathname: String,
    /// `?` and the query, or empty.
    pub search: String,
    /// `#` and the fragment, or empty.
    pub hash: String,
    /// The scheme, without `:`.
    pub scheme: String,
    /// `domain`, `ipv4`, `ipv6`, `opaque` (hosts of non-special schemes) or `none`.
    pub host_type: &'static str,
    /// A domain host in Unicode (UTS #46 ToUnicode); `null` for other hosts.
    pub host_unicode: Option<String>,
    /// The scheme's default port (URL Standard §4.1 "special scheme"), if it has one.
    pub default_port: Option<u16>,
    /// The path's segments, percent-decoded as UTF-8 (invalid bytes become U+FFFD);
    /// `null` for an opaque path (`mailto:…`).
    pub path_segments: Option<Vec<String>>,
    /// The query split at `&` and `;` into `[name, value]` pairs, `+` read as space and
    /// percent-decoded; duplicates and blanks (empty segments as `["", ""]`) kept.
    pub query_pairs: Vec<(String, String)>,
    /// The fragment, percent-decoded; `null` when there is none.
    pub fragment: Option<String>,
    /// What the parser repaired or what looks risky.
    pub warnings: Vec<Diagnostic>,
}

/// Parses `input` (against `base` if given) by the URL Standard's basic URL parser and
/// collects warnings: password in the URL (RFC 3986 §3.2.1), longer than
/// [`MAX_URL_LENGTH`], explicit default port, whitespace or controls stripped, backslashes
/// taken as slashes, IPv4 in a non-canonical form, mixed-script or confusable host names,
/// and other validation errors (URL Standard §4.4).
///
/// Bad input: a URL the standard rejects (no scheme and no base, invalid host or port, …)
/// is a [`ParseFailure`] naming the problem and the byte offset of the part at fault.
pub fn parse_with_warnings(
    input: &str,
    base: Option<&Url>,
) -> Result<(Url, Vec<Diagnostic>), ParseFailure> {
    let violations = RefCell::new(Vec::<SyntaxViolation>::new());
    let record = |v: SyntaxViolation| {
        let mut list = violations.borrow_mut();
        if !list.contains(&v) {
            list.push(v);
        }
    };
    let url = parse_reporting(input, base, Some(&record)).map_err(|e| failure(input, e))?;
    let mut warnings = Vec::new();
    let shape = InputShape::of(input);
    if let Some((offset, _)) = input.char_indices().nth(MAX_URL_LENGTH) {
        warnings.push(Diagnostic::new(
            Code::UrlTooLong,
            offset as u64,
            format!(
                "URL is {} characters long; many servers and browsers reject more than {MAX_URL_LENGTH}",
                input.chars().count()
            ),
        ));
    }
    for v in violations.into_inner() {
        let (code, offset, message) = match v {
            SyntaxViolation::Backslash => (
                Code::BackslashAsSlash,
                input.find('\\').unwrap_or(0),
                "\"\\\" was taken as \"/\" (URL Standard §4.4, special schemes)".to_owned(),
            ),
            SyntaxViolation::C0SpaceIgnored => (
                Code::WhitespaceStripped,
                if input.starts_with(|c: char| c <= ' ') {
                    0
                } else {
                    input.trim_end_matches(|c: char| c <= ' ').len()
                },
                "leading or trailing spaces or controls were stripped (URL Standard §4.4)"
                    .to_owned(),
            ),
            SyntaxViolation::TabOrNewlineIgnored => (
                Code::WhitespaceStripped,
                input.find(['\t', '\n', '\r']).unwrap_or(0),
                "tabs and newlines inside the URL were removed (URL Standard §4.4)".to_owned(),
            ),
            SyntaxViolation::EmbeddedCredentials => continue,
            SyntaxViolation::PercentDecode => (
                Code::ValidationError,
                malformed_escape_position(input),
                "\"%\" not followed by two hex digits, kept as it is".to_owned(),
            ),
            other => (Code::ValidationError, 0, other.description().to_owned()),
        };
        warnings.push(Diagnostic::new(code, offset as u64, message));
    }
    if url.password().is_some() {
        warnings.push(Diagnostic::new(
            Code::PasswordInUrl,
            shape.password.unwrap_or(0) as u64,
            "the URL carries a password; RFC 3986 §3.2.1 deprecates \"user:password\" in URLs",
        ));
    }
    if let (None, Some((port_at, port_end)), Some(_)) =
        (url.port(), shape.port, url.port_or_known_default())
    {
        let port_text = &input[port_at..port_end];
        if !port_text.is_empty() {
            warnings.push(Diagnostic::new(
                Code::ExplicitDefaultPort,
                port_at as u64,
                format!(
                    "port {port_text} is the default for {}: and is dropped",
                    url.scheme()
                ),
            ));
        }
    }
    if let Some(Host::Ipv4(addr)) = url.host() {
        if let Some((at, end)) = shape.host {
            let text = &input[at..end];
            if !text.eq_ignore_ascii_case(&addr.to_string()) {
                warnings.push(Diagnostic::new(
                    Code::NonCanonicalIpv4,
                    at as u64,
                    format!("IPv4 address written as {text:?} means {addr}"),
                ));
            }
        }
    }
    if let Some(Host::Domain(domain)) = url.host() {
        if is_special(url.scheme()) && domain.contains("xn--") {
            let unicode = idn::to_unicode_lossy(domain);
            let at = shape.host.map_or(0, |(at, _)| at);
            for mut d in idn::host_warnings(&unicode, 0) {
                d.offset = at as u64;
                warnings.push(d);
            }
        }
    }
    Ok((url, warnings))
}

/// [`parse_with_warnings`], then every component of the URL as a [`UrlReport`].
///
/// Bad input: see [`parse_with_warnings`].
pub fn report(input: &str, base: Option<&Url>) -> Result<UrlReport, ParseFailure> {
    let (url, warnings) = parse_with_warnings(input, base)?;
    Ok(report_parsed(input, &url, warnings))
}

/// The report of a URL already parsed from `input`, with the warnings found while parsing.
/// Never fails.
pub fn report_parsed(input: &str, url: &Url, warnings: Vec<Diagnostic>) -> UrlReport {
    let special = is_special(url.scheme());
    let (host_type, host_unicode) = match url.host() {
        Some(Host::Domain(d)) if special => ("domain", Some(idn::to_unicode_lossy(d))),
        Some(Host::Domain("")) => ("none", None),
        Some(Host::Domain(_)) => ("opaque", None),
        Some(Host::Ipv4(_)) => ("ipv4", None),
        Some(Host::Ipv6(_)) => ("ipv6", None),
        None => ("none", None),
    };
    UrlReport {
        input: input.to_owned(),
        href: quirks::href(url).to_owned(),
        origin: quirks::origin(url),
        protocol: quirks::protocol(url).to_owned(),
        username: quirks::username(url).to_owned(),
        password: quirks::password(url).to_owned(),
        host: quirks::host(url).to_owned(),
        hostname: quirks::hostname(url).to_owned(),
        port: quirks::port(url).to_owned(),
        pathname: quirks::pathname(url).to_owned(),
        search: quirks::search(url).to_owned(),
        hash: quirks::hash(url).to_owned(),
        scheme: url.scheme().to_owned(),
        host_type,
        host_unicode,
        default_port: if special {
            default_port(url.scheme())
        } else {
            None
        },
        path_segments: url
            .path_segments()
            .map(|segments| segments.map(|s| percent_decode_lossy(s, false)).collect()),
        query_pairs: url.query().map(query_pairs).unwrap_or_default(),
        fragment: url.fragment().map(|f| percent_decode_lossy(f, false)),
        warnings,
    }
}

/// Where the host, port and password sit in the input, by the generic syntax, as byte
/// ranges into the input.
struct InputShape {
    host: Option<(usize, usize)>,
    port: Option<(usize, usize)>,
    password: Option<usize>,
}

impl InputShape {
    fn of(input: &str) -> Self {
        // Special schemes read `\` as `/`; the replacement keeps every offset.
        let slashed = input.replace('\\', "/");
        let trimmed = slashed.trim_matches(|c: char| c <= ' ');
        let lead = slashed.len() - slashed.trim_start_matches(|c: char| c <= ' ').len();
        let r = split(trimmed);
        let base = trimmed.as_ptr() as usize;
        let at = |s: &str| s.as_ptr() as usize - base + lead;
        let range = |s: &str| (at(s), at(s) + s.len());
        let Some(a) = r.authority_parts() else {
            return InputShape {
                host: None,
                port: None,
                password: None,
            };
        };
        InputShape {
            host: Some(range(a.host)),
            port: a.port.map(range),
            password: a.userinfo.and_then(|u| u.find(':').map(|i| at(u) + i + 1)),
        }
    }
}

fn malformed_escape_position(input: &str) -> usize {
    let b = input.as_bytes();
    (0..b.len())
        .find(|&i| {
            b[i] == b'%'
                && !(b.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                    && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
        })
        .unwrap_or(0)
}

fn failure(input: &str, e: ParseError) -> ParseFailure {
    let shape = InputShape::of(input);
    let host_at = shape.host.map_or(0, |(at, _)| at);
    let (position, message) = match e {
        ParseError::RelativeUrlWithoutBase => (
            0,
            "relative URL without a base: give a scheme (\"https://…\") or a base URL".to_owned(),
        ),
        ParseError::InvalidPort => (
            shape.port.map_or(host_at, |(at, _)| at),
            "invalid port: it must be a number from 0 to 65535".to_owned(),
        ),
        ParseError::InvalidDomainCharacter | ParseError::IdnaError => {
            let (at, end) = shape.host.unwrap_or((0, input.len()));
            let host = &input[at..end];
            match host.char_indices().find(|&(_, c)| idn::is_forbidden_domain_char(c)) {
                Some((i, c)) => (
                    at + i,
                    format!("the host contains {c:?}, which no domain may contain (URL Standard §3.3)"),
                ),
                None => (
                    at,
                    "the host fails IDNA processing (UTS #46: disallowed character, bad Punycode, or bidi/joiner rules)".to_owned(),
                ),
            }
        }
        ParseError::EmptyHost => (host_at, "the host is empty".to_owned()),
        ParseError::InvalidIpv4Address => (host_at, "invalid IPv4 address".to_owned()),
        ParseError::InvalidIpv6Address => (host_at, "invalid IPv6 address".to_owned()),
        other => (0, other.to_string()),
    };
    ParseFailure { position, message }
}

/// A drawing of the URL's serialization with each component bracketed and named below it,
/// like the one on the URL's Wikipedia page. Never fails; components that are absent are
/// left out.
pub fn diagram(url: &Url) -> String {
    let href = url.as_str();
    // The serialization is scheme ":" ["//" [userinfo "@"] host [":" port]] path ["?" query]
    // ["#" fragment], so the spans follow from the components' lengths, counted from the end.
    let frag_len = url.fragment().map_or(0, |f| f.len() + 1);
    let query_len = url.query().map_or(0, |q| q.len() + 1);
    let path_end = href.len() - frag_len - query_len;
    let path_start = path_end - url.path().len();
    let port_len = url.port().map_or(0, |p| p.to_string().len() + 1);
    let host_len = url.host_str().map_or(0, str::len);
    let host_start = path_start - port_len - host_len;
    let mut spans: Vec<(usize, usize, &str)> = Vec::new();
    let mut add = |s: usize, e: usize, name: &'static str| {
        if e > s {
            spans.push((s, e, name));
        }
    };
    add(0, url.scheme().len(), "scheme");
    if !url.username().is_empty() || url.password().is_some() {
        add(url.scheme().len() + 3, host_start - 1, "userinfo");
    }
    add(host_start, host_start + host_len, "host");
    add(path_start - port_len + 1, path_start, "port");
    add(path_start, path_end, "path");
    add(path_end + 1, path_end + query_len, "query");
    add(href.len() - frag_len + 1, href.len(), "fragment");
    parts::draw(href, &spans)
}
