//! The WHATWG URL Standard view of a URL (what browsers do), through ada, the URL parser
//! of Node.js: the components in the order a URL reads, decoded path segments and query
//! pairs, a drawing of the URL with its parts marked, warnings about what the parser
//! silently repaired, and the standard's setters ([`Url::set`]).
//!
//! The parser follows the current URL Standard and passes all of web-platform-tests'
//! `urltestdata.json` and `setters_tests.json`. It reports only that a URL fails; this
//! module reads the input again to say what failed and where ([`ParseFailure`]).
//!
//! ```
//! use urlkit::inspect::edit::Component;
//! use urlkit::inspect::whatwg;
//!
//! let mut url = whatwg::parse("http://例子.卷筒纸:8080/a?b=1", None).unwrap();
//! assert_eq!(url.host_str(), Some("xn--fsqu00a.xn--3lr804guic"));
//! url.set(Component::Port, "").unwrap(); // as `url.port = ""` in a browser
//! assert_eq!(url.as_str(), "http://xn--fsqu00a.xn--3lr804guic/a?b=1");
//!
//! let refused = url.set(Component::Port, "99999").unwrap_err();
//! assert_eq!(refused.to_string(), "port: byte 0 of the value: port 99999 is above 65535");
//! let failure = whatwg::parse("https://exa mple.com/", None).unwrap_err();
//! assert_eq!((failure.component, failure.position), ("host", 11));
//! ```

pub use super::parts::LISTED_ENTRIES;
use super::parts::{capped, default_port, draw, pairs, percent_decode_lossy};
use crate::diagnostics::Diagnostic;
use std::fmt;

mod failure;
mod read;
mod setters;
pub(crate) mod simple;
mod url;
mod warnings;

pub use url::{HostKind, Layout, Url, UrlApi};

/// URLs longer than this many characters draw a `url-too-long` warning: the limit that old
/// browsers and many servers and CDNs still enforce.
pub const MAX_URL_LENGTH: usize = 2048;

/// A report lists at most this many warnings, and counts the rest.
pub const LISTED_WARNINGS: usize = 100;

/// A report draws the URL ([`UrlReport::diagram`]) when it is at most this many bytes
/// long; longer drawings help nobody.
pub const DRAWN_URL_LENGTH: usize = MAX_URL_LENGTH;

/// Why a URL failed to parse under the URL Standard: what, where, and which component.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseFailure {
    /// Byte offset into the input of the part that failed (the host, the port, …).
    pub position: usize,
    /// The component at fault: `scheme`, `host`, `port`, or `url` when the failure is not
    /// one component's.
    pub component: &'static str,
    /// What kind of failure, for a caller that words it itself.
    pub kind: ParseProblem,
    /// What failed, in words.
    pub message: String,
}

/// The kinds of [`ParseFailure`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseProblem {
    /// A relative reference and no base URL to resolve it against.
    RelativeWithoutBase,
    /// The base URL has an opaque path: only a fragment resolves against it.
    OpaqueBase,
    /// The host is empty where the scheme needs one.
    EmptyHost,
    /// The port is not a number from 0 to 65535.
    InvalidPort,
    /// The host holds a forbidden host or domain code point (URL Standard §3.1).
    ForbiddenCodePoint,
    /// The host fails IDNA processing (UTS #46).
    Idna,
    /// A bracketed host that is not an IPv6 address.
    InvalidIpv6,
    /// A host ending in a number that is not an IPv4 address.
    InvalidIpv4,
    /// Another host the host parser rejects.
    InvalidHost,
    /// Rejected for a reason not singled out.
    Rejected,
}

impl ParseFailure {
    pub(crate) fn new(
        position: usize,
        component: &'static str,
        kind: ParseProblem,
        message: impl Into<String>,
    ) -> Self {
        ParseFailure {
            position,
            component,
            kind,
            message: message.into(),
        }
    }
}

impl fmt::Display for ParseFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: {}", self.position, self.message)
    }
}

impl std::error::Error for ParseFailure {}

/// A component's place in a URL's serialization: a byte range of
/// [`UrlReport::href`], delimiters excluded.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Span {
    /// `scheme`, `user`, `password`, `host`, `port`, `path`, `query` or `fragment`.
    pub component: &'static str,
    /// The first byte.
    pub start: usize,
    /// The byte after the last.
    pub end: usize,
}

/// A URL taken apart, its components in the order a URL reads, each as it appears in the
/// serialization (percent-encoded), with decoded views beside them. Lists are capped
/// ([`LISTED_ENTRIES`] query pairs and path segments, [`LISTED_WARNINGS`] warnings) and say how
/// many entries they left out, so a report's size is bounded by a small multiple of the
/// URL's.
///
/// The URL API's attributes follow from the fields: `protocol` is `scheme` and `:`,
/// `username` is `user`, `hostname` is `host` (empty when `null`), `host` adds `:port`,
/// `pathname` is `path`, `search` and `hash` are `?query` and `#fragment` when not empty.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UrlReport {
    /// The input as given.
    pub input: String,
    /// The serialized URL (URL Standard §4.5).
    pub href: String,
    /// The scheme, lower-cased, without `:`.
    pub scheme: String,
    /// The username, percent-encoded; empty when there is none.
    pub user: String,
    /// The password, percent-encoded; empty when there is none.
    pub password: String,
    /// The host as serialized (Punycode, IPv6 in brackets); `null` when the URL has none
    /// (`mailto:…`), empty for the empty host (`file:///…`).
    pub host: Option<String>,
    /// `domain`, `ipv4`, `ipv6`, `opaque` (hosts of non-special schemes), `empty` or
    /// `none`.
    pub host_type: &'static str,
    /// A domain in Unicode (UTS #46 ToUnicode); `null` for other hosts.
    pub host_unicode: Option<String>,
    /// The port; `null` when there is none or it is the scheme's default.
    pub port: Option<u16>,
    /// The default port of the scheme (URL Standard §4.1 "special scheme"), if it has one.
    pub default_port: Option<u16>,
    /// The path (URL API `pathname`).
    pub path: String,
    /// The path's segments, percent-decoded as UTF-8 (invalid bytes become U+FFFD);
    /// `null` for an opaque path (`mailto:…`). At most [`LISTED_ENTRIES`].
    pub path_segments: Option<Vec<String>>,
    /// Segments beyond those listed.
    pub path_segments_not_listed: usize,
    /// The query, without `?`; `null` when there is none.
    pub query: Option<String>,
    /// The query split at `&` and `;` into `[name, value]` pairs, `+` read as space and
    /// percent-decoded; duplicates kept, empty pieces (`&&`, a trailing `&`) skipped as the
    /// URL Standard's urlencoded parser skips them. At most [`LISTED_ENTRIES`].
    pub query_pairs: Vec<(String, String)>,
    /// Pairs beyond those listed.
    pub query_pairs_not_listed: usize,
    /// The fragment, without `#`; `null` when there is none.
    pub fragment: Option<String>,
    /// The fragment, percent-decoded.
    pub fragment_decoded: Option<String>,
    /// The ASCII serialization of the origin, `null` for opaque origins.
    pub origin: String,
    /// Where each component sits in `href`.
    pub spans: Vec<Span>,
    /// `href` with each component bracketed and named beneath it (several lines); `null`
    /// when `href` is longer than [`DRAWN_URL_LENGTH`] bytes.
    pub diagram: Option<String>,
    /// What the parser repaired or what looks risky. At most [`LISTED_WARNINGS`].
    pub warnings: Vec<Diagnostic>,
    /// Warnings beyond those listed.
    pub warnings_not_listed: usize,
}

impl UrlReport {
    /// The URL API's attributes of the URL reported (`protocol`, `hostname`, `search`, …),
    /// made from the report's components as the URL API makes them (URL Standard §6.1).
    pub fn url_api(&self) -> UrlApi {
        let hostname = self.host.clone().unwrap_or_default();
        let port = self.port.map(|p| p.to_string()).unwrap_or_default();
        let prefixed = |prefix: char, component: &Option<String>| match component.as_deref() {
            Some(c) if !c.is_empty() => format!("{prefix}{c}"),
            _ => String::new(),
        };
        UrlApi {
            href: self.href.clone(),
            origin: self.origin.clone(),
            protocol: format!("{}:", self.scheme),
            username: self.user.clone(),
            password: self.password.clone(),
            host: if port.is_empty() {
                hostname.clone()
            } else {
                format!("{hostname}:{port}")
            },
            hostname,
            port,
            pathname: self.path.clone(),
            search: prefixed('?', &self.query),
            hash: prefixed('#', &self.fragment),
        }
    }
}

/// Parses `input` (against `base` if given) by the URL Standard's basic URL parser (§4.4).
///
/// Bad input: a URL the standard rejects (no scheme and no base, invalid host or port, …)
/// is a [`ParseFailure`] naming the problem, the component and the byte offset of the
/// part at fault.
pub fn parse(input: &str, base: Option<&Url>) -> Result<Url, ParseFailure> {
    Url::parse_quiet(input, base).ok_or_else(|| failure::diagnose(input, base))
}

/// [`parse`], and warnings: password in the URL (RFC 3986 §3.2.1), longer than
/// [`MAX_URL_LENGTH`], explicit default port, whitespace or controls stripped, backslashes
/// taken as slashes, missing slashes after a special scheme, IPv4 in a non-canonical form,
/// mixed-script or confusable host names, malformed escapes and characters that are not
/// URL code points (validation errors of URL Standard §4.4).
///
/// Bad input: see [`parse`].
pub fn parse_with_warnings(
    input: &str,
    base: Option<&Url>,
) -> Result<(Url, Vec<Diagnostic>), ParseFailure> {
    let url = parse(input, base)?;
    let warnings = warnings::warnings(input, &url, base);
    Ok((url, warnings))
}

/// [`parse_with_warnings`], then every component of the URL as a [`UrlReport`].
///
/// Bad input: see [`parse`].
pub fn report(input: &str, base: Option<&Url>) -> Result<UrlReport, ParseFailure> {
    let (url, warnings) = parse_with_warnings(input, base)?;
    Ok(report_parsed(input, &url, warnings))
}

/// The report of a URL already parsed from `input` (or edited since), with the warnings
/// found while parsing. Never fails.
pub fn report_parsed(input: &str, url: &Url, mut warnings: Vec<Diagnostic>) -> UrlReport {
    let host_kind = url.host_kind();
    let host_unicode = match (host_kind, url.host_str()) {
        (Some(HostKind::Domain), Some(d)) => Some(super::idn::to_unicode_lossy(d)),
        _ => None,
    };
    let (path_segments, path_segments_not_listed) = match url.path_segments() {
        Some(segments) => {
            let (listed, rest) = capped(segments);
            (
                Some(
                    listed
                        .into_iter()
                        .map(|s| percent_decode_lossy(s, false))
                        .collect(),
                ),
                rest,
            )
        }
        None => (None, 0),
    };
    let (query_pairs, query_pairs_not_listed) = capped(url.query().into_iter().flat_map(pairs));
    let warnings_not_listed = warnings.len().saturating_sub(LISTED_WARNINGS);
    warnings.truncate(LISTED_WARNINGS);
    let href = url.as_str();
    UrlReport {
        input: input.to_owned(),
        href: href.to_owned(),
        scheme: url.scheme().to_owned(),
        user: url.username().to_owned(),
        password: url.password().unwrap_or("").to_owned(),
        host: url.host_str().map(str::to_owned),
        host_type: host_kind.map_or("none", HostKind::as_str),
        host_unicode,
        port: url.port(),
        default_port: if url.is_special() {
            default_port(url.scheme())
        } else {
            None
        },
        path: url.path().to_owned(),
        path_segments,
        path_segments_not_listed,
        query: url.query().map(str::to_owned),
        query_pairs,
        query_pairs_not_listed,
        fragment: url.fragment().map(str::to_owned),
        fragment_decoded: url.fragment().map(|f| percent_decode_lossy(f, false)),
        origin: url.origin(),
        spans: spans(url),
        diagram: (href.len() <= DRAWN_URL_LENGTH).then(|| diagram(url)),
        warnings,
        warnings_not_listed,
    }
}

/// Where each component that is not empty sits in the URL's serialization, in order.
pub fn spans(url: &Url) -> Vec<Span> {
    let l = url.layout();
    [
        ("scheme", Some(l.scheme)),
        ("user", l.user),
        ("password", l.password),
        ("host", l.host),
        ("port", l.port),
        ("path", Some(l.path)),
        ("query", l.query),
        ("fragment", l.fragment),
    ]
    .into_iter()
    .filter_map(|(component, range)| {
        range.filter(|r| !r.is_empty()).map(|r| Span {
            component,
            start: r.start,
            end: r.end,
        })
    })
    .collect()
}

/// A drawing of the URL's serialization with each component bracketed and named below it,
/// like the one on the URL's Wikipedia page. Never fails; components that are absent or
/// empty are left out.
pub fn diagram(url: &Url) -> String {
    let marks: Vec<(usize, usize, &str)> = spans(url)
        .iter()
        .map(|s| (s.start, s.end, s.component))
        .collect();
    draw(url.as_str(), &marks)
}
