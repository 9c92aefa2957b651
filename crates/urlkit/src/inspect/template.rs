//! Output templates for `urlkit parse --get` and `urlkit edit --get`, trurl's: `{host}`,
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
//! | `{port}` | the port written in the URL (the URL Standard leaves a default port out) |
//! | `{hostport}` | the host and, when there is one, `:port` (the URL API's `host`) |
//! | `{path}`, `{query}`, `{fragment}` | path, query (without `?`), fragment (without `#`) |
//! | `{query:KEY}` | the value of the first query parameter named KEY (KEY may be empty) |
//! | `{query-all:KEY}` | the values of every parameter named KEY, separated by spaces |
//!
//! Qualifiers go before the name, as trurl's, and combine (`{default:puny:url}`):
//! `default:` writes the scheme's default port where the URL has none (`{default:port}`,
//! `{default:url}`); `puny:` and `idn:` give the host (in `{host}`, `{hostport}` and
//! `{url}`) in Punycode or in Unicode (UTS #46 ToUnicode); `must:` makes a missing
//! component (or query parameter) an error; `strict:` makes a value that cannot be shown
//! decoded (an escape of a control character) an error; `url:`, or a leading colon
//! (`{:path}`, `{:query:KEY}`), or a `:raw` suffix (`{path:raw}`) gives the value encoded as
//! it appears in the URL. `{host:unicode}` is `{idn:host}`.
//!
//! Values are percent-decoded (and `+` is a space in query parameters). Escapes of control
//! characters stay encoded even in decoded values, so that each URL's output stays on one
//! line. Placeholders are written `{name}` or, as trurl also allows, `[name]`: the first
//! `{` or `[` of the template chooses which, and the other is plain text. A doubled bracket
//! (`{{`, `[[`) is a literal one, and so is a bracket that is never closed; `}}` is a
//! literal `}`. `\n`, `\t` and `\r` are newline, tab and carriage return, `\\`, `\{` and
//! `\[` the character itself.

use super::parts::escape_at;
use super::rfc3986::{split, UriRef};
use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

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
    /// Where the host lies in [`href`](Source::href), when the URL has one: the place a
    /// port or a converted host is written. `None` (the default) when it has none or the
    /// source cannot say; the URL is then shown as it is.
    fn host_span(&self) -> Option<Range<usize>> {
        None
    }
    /// The port written in the URL (the URL Standard drops a default one).
    fn port(&self) -> Option<u16>;
    /// The port the scheme uses when none is written: the URL Standard's for its special
    /// schemes, IANA's for other well-known ones (`imap` 143, `ssh` 22, …; see
    /// [`default_port`](super::default_port)).
    fn default_port(&self) -> Option<u16> {
        super::default_port(self.scheme())
    }
    /// The path.
    fn path(&self) -> &str;
    /// The query, without `?`.
    fn query(&self) -> Option<&str>;
    /// The fragment, without `#`.
    fn fragment(&self) -> Option<&str>;
}

/// `url`'s serialization with `port` written after the host when the URL has no port of its
/// own (`https://h:443/`, which the URL Standard serializes without it), and the host in
/// Unicode when `idn` is set. A URL without a host (or a [`Source`] that cannot place it)
/// is returned as it is.
pub fn href_with<'a>(
    url: &'a (impl Source + ?Sized),
    port: Option<u16>,
    idn: bool,
) -> Cow<'a, str> {
    let href = url.href();
    if port.is_none() && !idn {
        return Cow::Borrowed(href);
    }
    let Some(span) = url.host_span() else {
        return Cow::Borrowed(href);
    };
    let port = port.filter(|_| url.port().is_none() && !url.host().is_empty());
    let unicode = if idn { Some(url.host_unicode()) } else { None };
    let unicode = unicode.filter(|u| u != &href[span.clone()]);
    if port.is_none() && unicode.is_none() {
        return Cow::Borrowed(href);
    }
    let mut out = String::with_capacity(href.len() + 8);
    out.push_str(&href[..span.start]);
    match &unicode {
        Some(u) => out.push_str(u),
        None => out.push_str(&href[span.clone()]),
    }
    if let Some(p) = port {
        out.push(':');
        out.push_str(&p.to_string());
    }
    out.push_str(&href[span.end..]);
    Cow::Owned(out)
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
    fn host_span(&self) -> Option<Range<usize>> {
        let host = self.parts.authority_parts()?.host;
        // The host is a slice of the text: its place is the distance between them.
        let start = (host.as_ptr() as usize).checked_sub(self.text.as_ptr() as usize)?;
        (start + host.len() <= self.text.len()).then(|| start..start + host.len())
    }
    fn port(&self) -> Option<u16> {
        self.parts.authority_parts()?.port?.parse().ok()
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
    /// Whether every placeholder is the scheme, the host or the port, without a qualifier
    /// that needs more than the fast path reads.
    reads_only_scheme_host_port: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    Literal(Vec<u8>),
    Field(Placeholder),
}

/// One placeholder: the component and its qualifiers.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Placeholder {
    field: Field,
    /// As it appears in the URL (`{:path}`, `url:`, `:raw`).
    raw: bool,
    /// `default:`: the scheme's default port where the URL has none.
    default: bool,
    /// `puny:` (Some(false)) or `idn:` (Some(true)): the host in Punycode or Unicode.
    idn: Option<bool>,
    /// `must:`: a missing component is an error.
    must: bool,
    /// `strict:`: a value that cannot be shown decoded is an error.
    strict: bool,
    /// The byte of its opening bracket in the template.
    position: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Field {
    Url,
    Scheme,
    User,
    Password,
    Host,
    HostPort,
    Port,
    Path,
    Query,
    Fragment,
    QueryKey(Vec<u8>),
    QueryAll(Vec<u8>),
}

impl Field {
    fn name(&self) -> &'static str {
        match self {
            Field::Url => "url",
            Field::Scheme => "scheme",
            Field::User => "user",
            Field::Password => "password",
            Field::Host => "host",
            Field::HostPort => "hostport",
            Field::Port => "port",
            Field::Path => "path",
            Field::Query | Field::QueryKey(_) => "query",
            Field::Fragment => "fragment",
            Field::QueryAll(_) => "query-all",
        }
    }
}

/// A template that cannot be used: what kind of fault, what is wrong and at which byte of
/// the template.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TemplateError {
    /// What kind of fault, for a caller that words it itself.
    pub kind: TemplateProblem,
    /// Byte offset in the template.
    pub position: usize,
    /// What is wrong, in words.
    pub message: String,
}

/// The kinds of [`TemplateError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TemplateProblem {
    /// A placeholder naming no component (`{hots}`).
    UnknownPlaceholder,
    /// A qualifier other than `default:`, `puny:`, `idn:`, `must:`, `strict:` and `url:`.
    UnknownQualifier,
    /// Qualifiers that exclude each other (`puny:` and `idn:`).
    ConflictingQualifiers,
    /// `{query-all}` without the parameter name it needs.
    MissingKey,
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "template byte {}: {}", self.position, self.message)
    }
}

impl std::error::Error for TemplateError {}

/// A URL a template cannot be filled in from: a `must:` component it lacks, or a `strict:`
/// value that does not decode; what kind, which placeholder (its byte in the template) and
/// why.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RenderError {
    /// What kind of fault, for a caller that words it itself.
    pub kind: RenderProblem,
    /// The component the placeholder reads (`query`, `port`, …).
    pub component: &'static str,
    /// Byte offset of the placeholder in the template.
    pub position: usize,
    /// What is wrong.
    pub message: String,
}

/// The kinds of [`RenderError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RenderProblem {
    /// A `must:` placeholder whose component the URL lacks (or has empty).
    Missing,
    /// A `must:query:KEY` (or `must:query-all:KEY`) placeholder whose parameter the URL's
    /// query lacks.
    MissingParameter,
    /// A `strict:` placeholder whose value has an escape of a control character, which
    /// is not shown decoded.
    ControlCharacter,
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "template byte {}: {}", self.position, self.message)
    }
}

impl std::error::Error for RenderError {}

/// How a template shows every URL: trurl's output options, as if each placeholder had the
/// matching qualifier. The default shows URLs as they are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// Every value as it appears in the URL, percent-encoded (trurl's `--urlencode`).
    pub encoded: bool,
    /// Hosts in Unicode, as `idn:` (trurl's `--as-idn`); `puny:` still gives Punycode.
    pub idn: bool,
    /// The scheme's default port wherever the URL has none, as `default:` (trurl's
    /// `--default-port`).
    pub default_port: bool,
    /// A port to show where the URL has none (the explicit default port `--keep-port`
    /// keeps, which the URL Standard leaves out).
    pub port: Option<u16>,
}

impl Template {
    /// Parses a template (see the module documentation for the placeholders).
    ///
    /// Bad input: an unknown placeholder name or qualifier, or both `puny:` and `idn:`, is
    /// an error naming the byte of its bracket in the template. A bracket that is never
    /// closed is text, as in trurl.
    pub fn parse(template: &str) -> Result<Template, TemplateError> {
        let b = template.as_bytes();
        let mut parts = Vec::new();
        let mut lit = Vec::new();
        // The bracket that opens placeholders: the first `{` or `[` of the template.
        let mut open: Option<u8> = None;
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if open.is_none() && matches!(c, b'{' | b'[') {
                open = Some(c);
            }
            let close = if open == Some(b'[') { b']' } else { b'}' };
            if Some(c) == open {
                if b.get(i + 1) == Some(&c) {
                    lit.push(c);
                    i += 2;
                    continue;
                }
                let Some(len) = memchr::memchr(close, &b[i + 1..]) else {
                    lit.push(c);
                    i += 1;
                    continue;
                };
                if !lit.is_empty() {
                    parts.push(Part::Literal(std::mem::take(&mut lit)));
                }
                parts.push(Part::Field(parse_placeholder(
                    &template[i + 1..i + 1 + len],
                    i,
                )?));
                i += len + 2;
                continue;
            }
            match c {
                b'\\' if i + 1 < b.len() => {
                    match b[i + 1] {
                        b'n' => lit.push(b'\n'),
                        b't' => lit.push(b'\t'),
                        b'r' => lit.push(b'\r'),
                        e @ (b'\\' | b'{' | b'[') => lit.push(e),
                        e => lit.extend_from_slice(&[b'\\', e]),
                    }
                    i += 2;
                }
                b'}' if open == Some(b'{') && b.get(i + 1) == Some(&b'}') => {
                    lit.push(b'}');
                    i += 2;
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
        let reads_only_scheme_host_port = parts.iter().all(|p| match p {
            Part::Literal(_) => true,
            Part::Field(f) => {
                !f.must
                    && !f.strict
                    && f.idn.is_none()
                    && matches!(
                        f.field,
                        Field::Scheme | Field::Host | Field::HostPort | Field::Port
                    )
            }
        });
        Ok(Template {
            parts,
            reads_only_scheme_host_port,
        })
    }

    /// Whether a placeholder can fail ([`render_with`](Template::render_with)): a `must:`
    /// or `strict:` one.
    pub fn checks(&self) -> bool {
        self.parts
            .iter()
            .any(|p| matches!(p, Part::Field(f) if f.must || f.strict))
    }

    /// Appends the template filled in from `url` to `out`. Absent components are empty,
    /// and so is a `must:` or `strict:` placeholder the URL cannot fill (see
    /// [`render_with`](Template::render_with) to be told). Never fails; decoded bytes that
    /// are not UTF-8 are written as they are.
    pub fn render(&self, url: &impl Source, out: &mut Vec<u8>) {
        for part in &self.parts {
            match part {
                Part::Literal(l) => out.extend_from_slice(l),
                Part::Field(f) => {
                    let at = out.len();
                    if render_field(f, &Style::default(), url, out).is_err() {
                        out.truncate(at);
                    }
                }
            }
        }
    }

    /// Appends the template filled in from `url`, shown in `style`, to `out`.
    ///
    /// Bad input: a `must:` placeholder whose component (or query parameter) the URL lacks,
    /// or a `strict:` one whose value has an escape of a control character, is a
    /// [`RenderError`] naming the placeholder; `out` may then hold part of the line.
    pub fn render_with(
        &self,
        url: &impl Source,
        style: &Style,
        out: &mut Vec<u8>,
    ) -> Result<(), RenderError> {
        for part in &self.parts {
            match part {
                Part::Literal(l) => out.extend_from_slice(l),
                Part::Field(f) => render_field(f, style, url, out)?,
            }
        }
        Ok(())
    }
}

/// The qualifiers a placeholder may start with.
const QUALIFIERS: &[&str] = &["default", "puny", "idn", "must", "strict", "url"];

/// The component names a placeholder may end with.
const FIELDS: &str = "url, scheme, user, password, host, hostport, port, path, query, fragment, query:KEY, query-all:KEY";

fn parse_placeholder(spec: &str, at: usize) -> Result<Placeholder, TemplateError> {
    let bad = |kind: TemplateProblem, message: String| TemplateError {
        kind,
        position: at,
        message,
    };
    let mut p = Placeholder {
        field: Field::Url,
        raw: false,
        default: false,
        idn: None,
        must: false,
        strict: false,
        position: at,
    };
    let mut rest = match spec.strip_prefix(':') {
        Some(rest) => {
            p.raw = true;
            rest
        }
        None => spec,
    };
    // urlkit's suffixes: {path:raw}, {host:unicode}.
    if let Some((name, suffix)) = rest.split_once(':') {
        if !name.starts_with("query") && field_named(name).is_some() {
            match suffix {
                "raw" => {
                    p.raw = true;
                    rest = name;
                }
                "unicode" if name == "host" => {
                    p.idn = Some(true);
                    rest = name;
                }
                _ => {}
            }
        }
    }
    loop {
        if let Some(key) = rest.strip_prefix("query:") {
            p.field = Field::QueryKey(key.as_bytes().to_vec());
            return Ok(p);
        }
        if let Some(key) = rest.strip_prefix("query-all:") {
            p.field = Field::QueryAll(key.as_bytes().to_vec());
            return Ok(p);
        }
        let Some((word, after)) = rest.split_once(':') else {
            break;
        };
        match word {
            "default" => p.default = true,
            "puny" | "idn" => {
                let idn = word == "idn";
                if p.idn == Some(!idn) {
                    return Err(bad(
                        TemplateProblem::ConflictingQualifiers,
                        format!(
                        "{{{spec}}}: the puny: and idn: qualifiers exclude each other"
                    )));
                }
                p.idn = Some(idn);
            }
            "must" => p.must = true,
            "strict" => p.strict = true,
            "url" => p.raw = true,
            other => {
                return Err(bad(
                    TemplateProblem::UnknownQualifier,
                    format!(
                    "{{{spec}}}: unknown qualifier {other:?}; the qualifiers are {}: before a component ({FIELDS})",
                    QUALIFIERS.join(":, ")
                )))
            }
        }
        rest = after;
    }
    if rest == "query-all" {
        return Err(bad(
            TemplateProblem::MissingKey,
            "{query-all:KEY} needs a parameter name".into(),
        ));
    }
    match field_named(rest) {
        Some(field) => {
            p.field = field;
            Ok(p)
        }
        None => Err(bad(
            TemplateProblem::UnknownPlaceholder,
            format!(
                "unknown placeholder {{{spec}}}; known: {FIELDS}, with the qualifiers {}:",
                QUALIFIERS.join(":, ")
            ),
        )),
    }
}

fn field_named(name: &str) -> Option<Field> {
    Some(match name {
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
        _ => return None,
    })
}

fn render_field(
    p: &Placeholder,
    style: &Style,
    url: &impl Source,
    out: &mut Vec<u8>,
) -> Result<(), RenderError> {
    let raw = p.raw || style.encoded;
    let idn = p.idn.unwrap_or(style.idn);
    let missing = |what: &str| RenderError {
        kind: RenderProblem::Missing,
        component: p.field.name(),
        position: p.position,
        message: format!("must:{}: the URL has no {what}", p.field.name()),
    };
    // The port shown: the URL's, else the one kept, else (default:) the scheme's.
    let port = url
        .port()
        .or(style.port)
        .or_else(|| (p.default || style.default_port).then(|| url.default_port())?);
    let host = || -> Cow<'_, str> {
        if idn {
            url.host_unicode()
        } else {
            Cow::Borrowed(url.host())
        }
    };
    let put = |s: &str, plus: bool, out: &mut Vec<u8>| -> Result<(), RenderError> {
        if raw {
            out.extend_from_slice(s.as_bytes());
            return Ok(());
        }
        if p.strict {
            if let Some(i) = undecodable(s.as_bytes()) {
                return Err(RenderError {
                    kind: RenderProblem::ControlCharacter,
                    component: p.field.name(),
                    position: p.position,
                    message: format!(
                        "strict:{}: {} decodes to a control character, which is not shown decoded",
                        p.field.name(),
                        &s[i..i + 3]
                    ),
                });
            }
        }
        decode_into(s.as_bytes(), plus, out);
        Ok(())
    };
    let present = |s: &str, what: &str| {
        if p.must && s.is_empty() {
            Err(missing(what))
        } else {
            Ok(())
        }
    };
    match &p.field {
        Field::Url => {
            let shown_port = if p.default || style.default_port {
                port
            } else {
                style.port
            };
            out.extend_from_slice(href_with(url, shown_port, idn).as_bytes());
        }
        Field::Scheme => out.extend_from_slice(url.scheme().as_bytes()),
        Field::User => {
            present(url.user(), "user")?;
            put(url.user(), false, out)?;
        }
        Field::Password => {
            present(url.password(), "password")?;
            put(url.password(), false, out)?;
        }
        Field::Host | Field::HostPort => {
            present(url.host(), "host")?;
            put(&host(), false, out)?;
            if let (Field::HostPort, Some(p)) = (&p.field, port) {
                out.push(b':');
                put_port(p, out);
            }
        }
        Field::Port => match port {
            Some(p) => put_port(p, out),
            None if p.must => return Err(missing("port")),
            None => {}
        },
        Field::Path => {
            present(url.path(), "path")?;
            put(url.path(), false, out)?;
        }
        Field::Query => match url.query() {
            Some(q) => put(q, false, out)?,
            None if p.must => return Err(missing("query")),
            None => {}
        },
        Field::Fragment => match url.fragment() {
            Some(f) => put(f, false, out)?,
            None if p.must => return Err(missing("fragment")),
            None => {}
        },
        Field::QueryKey(key) | Field::QueryAll(key) => {
            let all = matches!(p.field, Field::QueryAll(_));
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
                put(v, true, out)?;
                if !all {
                    break;
                }
            }
            if first && p.must {
                return Err(RenderError {
                    kind: RenderProblem::MissingParameter,
                    component: "query",
                    position: p.position,
                    message: format!(
                        "must:{}:{}: the URL has no query parameter of that name",
                        p.field.name(),
                        String::from_utf8_lossy(key)
                    ),
                });
            }
        }
    }
    Ok(())
}

/// The byte of the first escape in `b` that decoded values leave encoded (a control
/// character), if there is one.
fn undecodable(b: &[u8]) -> Option<usize> {
    memchr::memchr_iter(b'%', b).find(|&i| escape_at(b, i).is_some_and(|v| v < 0x20 || v == 0x7F))
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
    use std::ops::Range;

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
        fn host_span(&self) -> Option<Range<usize>> {
            self.layout().host
        }
        fn port(&self) -> Option<u16> {
            Url::port(self)
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
                    Part::Field(f) => match f.field {
                        Field::Scheme => out.extend_from_slice(url.scheme),
                        Field::Host | Field::HostPort => {
                            let at = out.len();
                            out.extend_from_slice(url.host.unwrap_or_default());
                            out[at..].make_ascii_lowercase();
                            let port =
                                url.port
                                    .or(if f.default { scheme_default(url) } else { None });
                            if let (Field::HostPort, Some(p)) = (&f.field, port) {
                                out.push(b':');
                                put_port(p, out);
                            }
                        }
                        Field::Port => {
                            let default = if f.default { scheme_default(url) } else { None };
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

    /// The default port of a plain URL's scheme, as [`Source::default_port`] gives it.
    fn scheme_default(url: &Simple<'_>) -> Option<u16> {
        url.default_port
            .or_else(|| crate::inspect::default_port(std::str::from_utf8(url.scheme).ok()?))
    }
}
