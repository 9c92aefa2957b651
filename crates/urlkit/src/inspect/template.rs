//! Output templates for `urlkit parse --get`, in the style of trurl: `{host}`,
//! `{query:KEY}` and friends, filled in from a parsed URL without allocating: a URL of the
//! URL Standard (`whatwg::Url`, with the `whatwg` feature) or an RFC 3986 reference
//! ([`Reference`]), through [`Source`].
//!
//! | placeholder | value |
//! |---|---|
//! | `{url}` | the whole URL, serialized |
//! | `{scheme}` | the scheme |
//! | `{user}`, `{password}` | username, password |
//! | `{host}` | the host (IPv6 in brackets), as serialized (Punycode) |
//! | `{host:unicode}` | a domain host in Unicode (UTS #46 ToUnicode; allocates) |
//! | `{port}` | the port, or the scheme's default when none is given |
//! | `{hostport}` | the host and, when there is one, `:port` (the URL API's `host`) |
//! | `{path}`, `{query}`, `{fragment}` | path, query (without `?`), fragment (without `#`) |
//! | `{query:KEY}` | the value of the first query parameter named KEY |
//! | `{query-all:KEY}` | the values of every parameter named KEY, separated by spaces |
//!
//! Values are percent-decoded (and `+` is a space in query parameters); a leading colon
//! (`{:path}`, `{:query:KEY}`), or a `:raw` suffix on the plain names (`{path:raw}`), gives
//! the encoded form as it appears in the URL, and `{:port}` only an explicit port. Escapes of
//! control characters stay encoded even in decoded values, so that each URL's output stays on
//! one line. `{{` and `}}` are literal braces; `\n` and `\t` are newline and tab.

use super::parts::escape_at;
use super::rfc3986::{split, UriRef};
use std::borrow::Cow;
use std::fmt;

/// What a template reads from a URL. Every value is as it appears in the URL
/// (percent-encoded); absent components are `None` or empty.
pub trait Source {
    /// The whole URL.
    fn href(&self) -> &str;
    /// The scheme, without `:`.
    fn scheme(&self) -> &str;
    /// The username.
    fn user(&self) -> &str;
    /// The password.
    fn password(&self) -> &str;
    /// The host (IPv6 in brackets).
    fn host(&self) -> &str;
    /// The host in Unicode where it is an internationalized domain name.
    fn host_unicode(&self) -> Cow<'_, str> {
        let host = self.host();
        if host.contains("xn--") && !host.starts_with('[') {
            super::idn::to_unicode_lossy(host).into()
        } else {
            host.into()
        }
    }
    /// The port written in the URL (the URL Standard drops a default one).
    fn port(&self) -> Option<u16>;
    /// The port the scheme uses when none is written.
    fn default_port(&self) -> Option<u16>;
    /// The path.
    fn path(&self) -> &str;
    /// The query, without `?`.
    fn query(&self) -> Option<&str>;
    /// The fragment, without `#`.
    fn fragment(&self) -> Option<&str>;
}

/// A URI reference split by the generic syntax of RFC 3986 ([`split`]), for templates: the
/// port is read as a number (a port that is not one reads as none), and the default port
/// is the one IANA registers for the scheme.
#[derive(Clone, Copy, Debug)]
pub struct Reference<'a> {
    text: &'a str,
    parts: UriRef<'a>,
}

impl<'a> Reference<'a> {
    /// `text` split into its components. Never fails (see [`split`]).
    pub fn new(text: &'a str) -> Self {
        Reference {
            text,
            parts: split(text),
        }
    }
}

impl Source for Reference<'_> {
    fn href(&self) -> &str {
        self.text
    }
    fn scheme(&self) -> &str {
        self.parts.scheme.unwrap_or("")
    }
    fn user(&self) -> &str {
        let userinfo = self
            .parts
            .authority_parts()
            .and_then(|a| a.userinfo)
            .unwrap_or("");
        userinfo.split_once(':').map_or(userinfo, |(u, _)| u)
    }
    fn password(&self) -> &str {
        let userinfo = self
            .parts
            .authority_parts()
            .and_then(|a| a.userinfo)
            .unwrap_or("");
        userinfo.split_once(':').map_or("", |(_, p)| p)
    }
    fn host(&self) -> &str {
        self.parts.authority_parts().map_or("", |a| a.host)
    }
    fn port(&self) -> Option<u16> {
        self.parts.authority_parts()?.port?.parse().ok()
    }
    fn default_port(&self) -> Option<u16> {
        super::default_port(self.parts.scheme?)
    }
    fn path(&self) -> &str {
        self.parts.path
    }
    fn query(&self) -> Option<&str> {
        self.parts.query
    }
    fn fragment(&self) -> Option<&str> {
        self.parts.fragment
    }
}

/// A parsed `--get` template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    parts: Vec<Part>,
    /// Whether every placeholder is the scheme, the host or the port.
    reads_only_scheme_host_port: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    Literal(Vec<u8>),
    Field { field: Field, raw: bool },
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Field {
    Url,
    Scheme,
    User,
    Password,
    Host,
    HostUnicode,
    HostPort,
    Port,
    Path,
    Query,
    Fragment,
    QueryKey(Vec<u8>),
    QueryAll(Vec<u8>),
}

/// A template that cannot be used: what is wrong and at which byte of the template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateError {
    /// Byte offset in the template.
    pub position: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "template byte {}: {}", self.position, self.message)
    }
}

impl std::error::Error for TemplateError {}

impl Template {
    /// Parses a template (see the module documentation for the placeholders).
    ///
    /// Bad input: an unknown placeholder name, an unclosed `{`, a lone `}` or an empty
    /// `{query:}` key is an error naming its byte offset in the template.
    pub fn parse(template: &str) -> Result<Template, TemplateError> {
        let b = template.as_bytes();
        let mut parts = Vec::new();
        let mut lit = Vec::new();
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'{' if b.get(i + 1) == Some(&b'{') => {
                    lit.push(b'{');
                    i += 2;
                }
                b'}' if b.get(i + 1) == Some(&b'}') => {
                    lit.push(b'}');
                    i += 2;
                }
                b'\\' if matches!(b.get(i + 1), Some(b'n' | b't' | b'\\')) => {
                    lit.push(match b[i + 1] {
                        b'n' => b'\n',
                        b't' => b'\t',
                        _ => b'\\',
                    });
                    i += 2;
                }
                b'}' => {
                    return Err(TemplateError {
                        position: i,
                        message: "\"}\" without \"{\" (write \"}}\" for a literal brace)".into(),
                    })
                }
                b'{' => {
                    let Some(len) = template[i + 1..].find('}') else {
                        return Err(TemplateError {
                            position: i,
                            message: "\"{\" is never closed (write \"{{\" for a literal brace)"
                                .into(),
                        });
                    };
                    if !lit.is_empty() {
                        parts.push(Part::Literal(std::mem::take(&mut lit)));
                    }
                    parts.push(parse_field(&template[i + 1..i + 1 + len], i)?);
                    i += len + 2;
                }
                c => {
                    lit.push(c);
                    i += 1;
                }
            }
        }
        if !lit.is_empty() {
            parts.push(Part::Literal(lit));
        }
        let reads_only_scheme_host_port = parts.iter().all(|p| {
            matches!(
                p,
                Part::Literal(_)
                    | Part::Field {
                        field: Field::Scheme
                            | Field::Host
                            | Field::HostUnicode
                            | Field::HostPort
                            | Field::Port,
                        ..
                    }
            )
        });
        Ok(Template {
            parts,
            reads_only_scheme_host_port,
        })
    }

    /// Appends the template filled in from `url` to `out`. Absent components are empty.
    /// Never fails; decoded bytes that are not UTF-8 are written as they are.
    pub fn render(&self, url: &impl Source, out: &mut Vec<u8>) {
        for part in &self.parts {
            match part {
                Part::Literal(l) => out.extend_from_slice(l),
                Part::Field { field, raw } => render_field(field, *raw, url, out),
            }
        }
    }
}

fn parse_field(spec: &str, at: usize) -> Result<Part, TemplateError> {
    let (raw, spec) = match spec.strip_prefix(':') {
        Some(rest) => (true, rest),
        None => (false, spec),
    };
    let (name, arg) = match spec.split_once(':') {
        Some((n, a)) => (n, Some(a)),
        None => (spec, None),
    };
    let bad = |message: String| TemplateError {
        position: at,
        message,
    };
    let field = match (name, arg) {
        ("query", Some(key)) | ("query-all", Some(key)) => {
            if key.is_empty() {
                return Err(bad(format!("{{{name}:}} needs a parameter name")));
            }
            let key = key.as_bytes().to_vec();
            let field = if name == "query" {
                Field::QueryKey(key)
            } else {
                Field::QueryAll(key)
            };
            return Ok(Part::Field { field, raw });
        }
        ("host", Some("unicode")) => {
            return Ok(Part::Field {
                field: Field::HostUnicode,
                raw,
            })
        }
        (n, None | Some("raw")) => {
            let raw = raw || arg.is_some();
            let field = match n {
                "url" => Field::Url,
                "scheme" => Field::Scheme,
                "user" => Field::User,
                "password" => Field::Password,
                "host" => Field::Host,
                "hostport" => Field::HostPort,
                "port" => Field::Port,
                "path" => Field::Path,
                "query" => Field::Query,
                "fragment" => Field::Fragment,
                "query-all" => return Err(bad("{query-all:KEY} needs a parameter name".into())),
                other => {
                    return Err(bad(format!(
                        "unknown placeholder {{{other}}}; known: url, scheme, user, password, host, host:unicode, hostport, port, path, query, fragment, query:KEY, query-all:KEY"
                    )))
                }
            };
            return Ok(Part::Field { field, raw });
        }
        (n, Some(a)) => format!("{n}:{a}"),
    };
    Err(bad(format!("unknown placeholder {{{field}}}")))
}

fn render_field(field: &Field, raw: bool, url: &impl Source, out: &mut Vec<u8>) {
    let put = |s: &str, out: &mut Vec<u8>, plus: bool| {
        if raw {
            out.extend_from_slice(s.as_bytes());
        } else {
            decode_into(s.as_bytes(), plus, out);
        }
    };
    match field {
        Field::Url => out.extend_from_slice(url.href().as_bytes()),
        Field::Scheme => out.extend_from_slice(url.scheme().as_bytes()),
        Field::User => put(url.user(), out, false),
        Field::Password => put(url.password(), out, false),
        Field::Host => put(url.host(), out, false),
        Field::HostUnicode => put(&url.host_unicode(), out, false),
        Field::HostPort => {
            put(url.host(), out, false);
            if let Some(p) = url.port() {
                out.push(b':');
                put_port(p, out);
            }
        }
        Field::Port => {
            let port = if raw {
                url.port()
            } else {
                url.port().or_else(|| url.default_port())
            };
            if let Some(p) = port {
                put_port(p, out);
            }
        }
        Field::Path => put(url.path(), out, false),
        Field::Query => put(url.query().unwrap_or(""), out, false),
        Field::Fragment => put(url.fragment().unwrap_or(""), out, false),
        Field::QueryKey(key) | Field::QueryAll(key) => {
            let all = matches!(field, Field::QueryAll(_));
            let mut first = true;
            for pair in url.query().unwrap_or("").split(['&', ';']) {
                let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                if pair.is_empty() || !decoded_equals(k.as_bytes(), key) {
                    continue;
                }
                if !first {
                    out.push(b' ');
                }
                first = false;
                put(v, out, true);
                if !all {
                    break;
                }
            }
        }
    }
}

fn put_port(port: u16, out: &mut Vec<u8>) {
    let mut buf = [0u8; 5];
    out.extend_from_slice(format_u16(port, &mut buf));
}

fn format_u16(mut n: u16, buf: &mut [u8; 5]) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &buf[i..];
        }
    }
}

/// Percent-decodes into `out`, leaving escapes of controls (and malformed escapes) as they
/// are; `+` becomes a space when `plus` is set.
fn decode_into(b: &[u8], plus: bool, out: &mut Vec<u8>) {
    if !plus && memchr::memchr(b'%', b).is_none() {
        out.extend_from_slice(b);
        return;
    }
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'%' {
            if let Some(v) = escape_at(b, i).filter(|&v| v >= 0x20 && v != 0x7F) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(if plus && c == b'+' { b' ' } else { c });
        i += 1;
    }
}

/// Whether the form-decoded `raw` equals `want`, without allocating.
fn decoded_equals(raw: &[u8], want: &[u8]) -> bool {
    let mut i = 0;
    let mut j = 0;
    while i < raw.len() {
        let (byte, step) = match raw[i] {
            b'%' => escape_at(raw, i).map_or((b'%', 1), |v| (v, 3)),
            b'+' => (b' ', 1),
            c => (c, 1),
        };
        if want.get(j) != Some(&byte) {
            return false;
        }
        i += step;
        j += 1;
    }
    j == want.len()
}

#[cfg(feature = "whatwg")]
mod whatwg_source {
    use super::{put_port, Field, Part, Source, Template};
    use crate::inspect::whatwg::simple::{simple, Simple};
    use crate::inspect::whatwg::{self, HostKind, ParseFailure, Url};
    use std::borrow::Cow;

    /// A URL of the URL Standard, as serialized.
    impl Source for Url {
        fn href(&self) -> &str {
            self.as_str()
        }
        fn scheme(&self) -> &str {
            Url::scheme(self)
        }
        fn user(&self) -> &str {
            self.username()
        }
        fn password(&self) -> &str {
            Url::password(self).unwrap_or("")
        }
        fn host(&self) -> &str {
            self.host_str().unwrap_or("")
        }
        fn host_unicode(&self) -> Cow<'_, str> {
            match (self.host_kind(), self.host_str()) {
                (Some(HostKind::Domain), Some(d)) if d.contains("xn--") => {
                    crate::inspect::idn::to_unicode_lossy(d).into()
                }
                _ => self.host().into(),
            }
        }
        fn port(&self) -> Option<u16> {
            Url::port(self)
        }
        fn default_port(&self) -> Option<u16> {
            self.port_or_known_default()
                .filter(|_| Url::port(self).is_none())
        }
        fn path(&self) -> &str {
            Url::path(self)
        }
        fn query(&self) -> Option<&str> {
            Url::query(self)
        }
        fn fragment(&self) -> Option<&str> {
            Url::fragment(self)
        }
    }

    impl Template {
        /// Parses one input line by the URL Standard (against `base`) and appends the
        /// template filled in from it to `out`: the same bytes as [`whatwg::parse`] and
        /// [`render`](Template::render). A template that reads only the scheme, host and
        /// port of a plain URL (`https://example.com/…`) is filled in without a full
        /// parse. Bytes that are not UTF-8 are read as U+FFFD, as a browser reads them.
        ///
        /// Bad input: a line the standard rejects is the [`ParseFailure`] of
        /// [`whatwg::parse`], and nothing is appended.
        pub fn render_input(
            &self,
            line: &[u8],
            base: Option<&Url>,
            out: &mut Vec<u8>,
        ) -> Result<(), ParseFailure> {
            if self.reads_only_scheme_host_port && base.is_none() {
                if let Some(plain) = simple(line) {
                    let before = out.len();
                    if self.render_simple(&plain, out) {
                        return Ok(());
                    }
                    out.truncate(before);
                }
            }
            let text = String::from_utf8_lossy(line);
            match Url::parse_quiet(&text, base) {
                Some(url) => {
                    self.render(&url, out);
                    Ok(())
                }
                None => whatwg::parse(&text, base).map(|_| ()),
            }
        }

        /// Fills in the template from a plain URL; `false` if it reads more than the scheme,
        /// host and port.
        fn render_simple(&self, url: &Simple<'_>, out: &mut Vec<u8>) -> bool {
            for part in &self.parts {
                match part {
                    Part::Literal(l) => out.extend_from_slice(l),
                    Part::Field { field, raw } => match field {
                        Field::Scheme => out.extend_from_slice(url.scheme),
                        Field::Host | Field::HostUnicode | Field::HostPort => {
                            let at = out.len();
                            out.extend_from_slice(url.host.unwrap_or_default());
                            out[at..].make_ascii_lowercase();
                            if let (Field::HostPort, Some(p)) = (field, url.port) {
                                out.push(b':');
                                put_port(p, out);
                            }
                        }
                        Field::Port => {
                            let default = if *raw { None } else { url.default_port };
                            if let Some(p) = url.port.or(default) {
                                put_port(p, out);
                            }
                        }
                        _ => return false,
                    },
                }
            }
            true
        }
    }
}
