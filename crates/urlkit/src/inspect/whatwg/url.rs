//! The parsed URL: ada's URL record (`url_aggregator`: the serialization and the offsets of
//! its components) behind an API in the URL Standard's terms.

use super::ParseFailure;
use std::fmt;
use std::ops::Range;

/// A URL parsed by the URL Standard's basic URL parser (URL Standard §4.4), as browsers
/// parse it. Made by [`parse`](super::parse) or [`Url::parse`]; always valid, and always
/// its own serialization ([`as_str`](Url::as_str), URL Standard §4.5).
#[derive(Clone, PartialEq, Eq)]
pub struct Url(ada_url::Url);

/// The kind of a URL's host (URL Standard §3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostKind {
    /// A domain of a special scheme (`example.com`, after IDNA).
    Domain,
    /// An IPv4 address (special schemes only), serialized as four decimal numbers.
    Ipv4,
    /// An IPv6 address, serialized in brackets.
    Ipv6,
    /// An opaque host: the host of a non-special scheme (`sc://h/`), kept as written.
    Opaque,
    /// The empty host (`file:///p`, `sc:///p`).
    Empty,
}

impl HostKind {
    /// `domain`, `ipv4`, `ipv6`, `opaque` or `empty`.
    pub fn as_str(self) -> &'static str {
        match self {
            HostKind::Domain => "domain",
            HostKind::Ipv4 => "ipv4",
            HostKind::Ipv6 => "ipv6",
            HostKind::Opaque => "opaque",
            HostKind::Empty => "empty",
        }
    }
}

/// Where each component sits in the serialization: byte ranges into [`Url::as_str`],
/// without delimiters. Absent components are `None`; an empty user is `None` too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The scheme, without `:`.
    pub scheme: Range<usize>,
    /// The username, when not empty.
    pub user: Option<Range<usize>>,
    /// The password, when not empty.
    pub password: Option<Range<usize>>,
    /// The host, when the URL has one (it may be empty: `file:///`).
    pub host: Option<Range<usize>>,
    /// The port, when the URL has one other than the scheme's default.
    pub port: Option<Range<usize>>,
    /// The path (after the `/.` that keeps a host-less path starting with `//` a path).
    pub path: Range<usize>,
    /// The query, without `?`, when there is one (it may be empty).
    pub query: Option<Range<usize>>,
    /// The fragment, without `#`, when there is one (it may be empty).
    pub fragment: Option<Range<usize>>,
}

/// The attributes of the URL API (URL Standard §6.1), as `new URL()` in a browser gives
/// them: strings, empty when the component is absent, with their delimiters (`https:`,
/// `?q`, `#f`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UrlApi {
    /// `href`: the serialization.
    pub href: String,
    /// `origin`: `null` for an opaque origin.
    pub origin: String,
    /// `protocol`: the scheme and `:`.
    pub protocol: String,
    /// `username`.
    pub username: String,
    /// `password`.
    pub password: String,
    /// `host`: the host, and `:port` when there is a port.
    pub host: String,
    /// `hostname`: the host.
    pub hostname: String,
    /// `port`: empty when there is none or it is the scheme's default.
    pub port: String,
    /// `pathname`.
    pub pathname: String,
    /// `search`: `?` and the query, empty when the query is absent or empty.
    pub search: String,
    /// `hash`: `#` and the fragment, empty when the fragment is absent or empty.
    pub hash: String,
}

impl Url {
    /// The URL API's attributes, from the parser's own getters.
    pub fn url_api(&self) -> UrlApi {
        let a = &self.0;
        UrlApi {
            href: a.href().to_owned(),
            origin: a.origin(),
            protocol: a.protocol().to_owned(),
            username: a.username().to_owned(),
            password: a.password().to_owned(),
            host: a.host().to_owned(),
            hostname: a.hostname().to_owned(),
            port: a.port().to_owned(),
            pathname: a.pathname().to_owned(),
            search: a.search().to_owned(),
            hash: a.hash().to_owned(),
        }
    }

    /// [`parse`](super::parse) without a base.
    ///
    /// Bad input: a URL the standard rejects is a [`ParseFailure`] naming the problem and
    /// its byte offset.
    pub fn parse(input: &str) -> Result<Url, ParseFailure> {
        super::parse(input, None)
    }

    /// The URL Standard's basic URL parser, without explaining failures: `None` for a URL
    /// it rejects. The fast way, for batches.
    pub fn parse_quiet(input: &str, base: Option<&Url>) -> Option<Url> {
        ada_url::Url::parse(input, base.map(Url::as_str))
            .ok()
            .map(Url)
    }

    pub(super) fn ada_mut(&mut self) -> &mut ada_url::Url {
        &mut self.0
    }

    /// The serialization (URL Standard §4.5), the `href` of the URL API.
    pub fn as_str(&self) -> &str {
        self.0.href()
    }

    /// Where each component sits in [`as_str`](Url::as_str).
    pub fn layout(&self) -> Layout {
        let c = self.0.components();
        let href = self.as_str();
        let at = |i: u32| i as usize;
        let end = href.len();
        let search = c.search_start.map(at);
        let hash = c.hash_start.map(at);
        let path_start = c.pathname_start.map_or(end, at);
        let path_end = search.or(hash).unwrap_or(end);
        let protocol_end = at(c.protocol_end);
        let username_end = at(c.username_end);
        let host_start = at(c.host_start);
        let host_end = at(c.host_end);
        let has_authority = href.as_bytes().get(protocol_end..protocol_end + 2) == Some(b"//");
        let credentials = has_authority && href.as_bytes().get(host_start) == Some(&b'@');
        let user = protocol_end + 2..username_end;
        let password = username_end + 1..host_start;
        Layout {
            scheme: 0..protocol_end - 1,
            user: (credentials && !user.is_empty()).then_some(user),
            password: (credentials && href.as_bytes().get(username_end) == Some(&b':'))
                .then_some(password),
            host: self
                .0
                .has_hostname()
                .then(|| host_start + usize::from(credentials)..host_end),
            port: c.port.map(|_| host_end + 1..path_start),
            path: path_start..path_end,
            query: search.map(|s| s + 1..hash.unwrap_or(end)),
            fragment: hash.map(|h| h + 1..end),
        }
    }

    /// The scheme, lower-cased, without `:`.
    pub fn scheme(&self) -> &str {
        let protocol = self.0.protocol();
        &protocol[..protocol.len() - 1]
    }

    /// Whether the scheme is special (`http`, `https`, `ws`, `wss`, `ftp`, `file`; URL
    /// Standard §4.1).
    pub fn is_special(&self) -> bool {
        !matches!(self.0.scheme_type(), ada_url::SchemeType::NotSpecial)
    }

    /// The username, percent-encoded; empty when there is none.
    pub fn username(&self) -> &str {
        self.0.username()
    }

    /// The password, percent-encoded; `None` when there is none (or it is empty).
    pub fn password(&self) -> Option<&str> {
        Some(self.0.password()).filter(|p| !p.is_empty())
    }

    /// The host as serialized (an IPv6 address in brackets); `None` when the URL has none
    /// (`mailto:x`), `Some("")` for the empty host (`file:///p`).
    pub fn host_str(&self) -> Option<&str> {
        self.0.has_hostname().then(|| self.0.hostname())
    }

    /// The kind of host; `None` when the URL has none.
    pub fn host_kind(&self) -> Option<HostKind> {
        if !self.0.has_hostname() {
            return None;
        }
        Some(match self.0.host_type() {
            _ if self.0.has_empty_hostname() => HostKind::Empty,
            ada_url::HostType::IPV4 => HostKind::Ipv4,
            ada_url::HostType::IPV6 => HostKind::Ipv6,
            ada_url::HostType::Domain if self.is_special() => HostKind::Domain,
            ada_url::HostType::Domain => HostKind::Opaque,
        })
    }

    /// The port, when there is one other than the scheme's default (which the parser
    /// drops).
    pub fn port(&self) -> Option<u16> {
        self.0.port().parse().ok()
    }

    /// [`port`](Url::port), else the default port of a special scheme (`ws` 80, `ftp` 21,
    /// …; `file` has none).
    pub fn port_or_known_default(&self) -> Option<u16> {
        self.port().or(match self.scheme() {
            "http" | "ws" => Some(80),
            "https" | "wss" => Some(443),
            "ftp" => Some(21),
            _ => None,
        })
    }

    /// The path, percent-encoded (the URL API's `pathname`).
    pub fn path(&self) -> &str {
        self.0.pathname()
    }

    /// Whether the path is opaque (`mailto:x@y`, `javascript:…`): a string rather than
    /// segments, which no setter of the path, host or port may change.
    pub fn has_opaque_path(&self) -> bool {
        !self.0.has_hostname() && !self.path().starts_with('/')
    }

    /// The path's segments (percent-encoded); `None` for an opaque path.
    pub fn path_segments(&self) -> Option<std::str::Split<'_, char>> {
        if self.has_opaque_path() {
            return None;
        }
        let path = self.path();
        Some(path.strip_prefix('/').unwrap_or(path).split('/'))
    }

    /// The query without `?`; `None` when there is none, `Some("")` for a bare `?`.
    pub fn query(&self) -> Option<&str> {
        let c = self.0.components();
        let href = self.as_str();
        let start = c.search_start? as usize + 1;
        let end = c.hash_start.map_or(href.len(), |h| h as usize);
        Some(&href[start..end])
    }

    /// The fragment without `#`; `None` when there is none, `Some("")` for a bare `#`.
    pub fn fragment(&self) -> Option<&str> {
        let hash = self.0.components().hash_start? as usize;
        Some(&self.as_str()[hash + 1..])
    }

    /// The ASCII serialization of the origin (URL Standard §4.6); `null` for an opaque
    /// origin.
    pub fn origin(&self) -> String {
        self.0.origin()
    }
}

impl fmt::Display for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Url").field(&self.as_str()).finish()
    }
}

impl From<Url> for String {
    fn from(url: Url) -> String {
        url.as_str().to_owned()
    }
}

impl AsRef<str> for Url {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}
