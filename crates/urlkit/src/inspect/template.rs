//! Output templates for `urlkit parse --get`, in the style of trurl: `{host}`,
//! `{query:KEY}` and friends, filled in from a parsed URL without allocating.
//!
//! | placeholder | value |
//! |---|---|
//! | `{url}` | the whole URL, serialized |
//! | `{scheme}` | the scheme |
//! | `{user}`, `{password}` | username, password |
//! | `{host}` | the host (IPv6 in brackets), as serialized (Punycode) |
//! | `{host:unicode}` | a domain host in Unicode (UTS #46 ToUnicode; allocates) |
//! | `{port}` | the port, or the scheme's default when none is given |
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
use std::fmt;
use url::Url;

/// A parsed `--get` template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    parts: Vec<Part>,
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
        Ok(Template { parts })
    }

    /// Appends the template filled in from `url` to `out`. Absent components are empty.
    /// Never fails; decoded bytes that are not UTF-8 are written as they are.
    pub fn render(&self, url: &Url, out: &mut Vec<u8>) {
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
                "port" => Field::Port,
                "path" => Field::Path,
                "query" => Field::Query,
                "fragment" => Field::Fragment,
                "query-all" => return Err(bad("{query-all:KEY} needs a parameter name".into())),
                other => {
                    return Err(bad(format!(
                        "unknown placeholder {{{other}}}; known: url, scheme, user, password, host, host:unicode, port, path, query, fragment, query:KEY, query-all:KEY"
                    )))
                }
            };
            return Ok(Part::Field { field, raw });
        }
        (n, Some(a)) => format!("{n}:{a}"),
    };
    Err(bad(format!("unknown placeholder {{{field}}}")))
}

fn render_field(field: &Field, raw: bool, url: &Url, out: &mut Vec<u8>) {
    let put = |s: &str, out: &mut Vec<u8>, plus: bool| {
        if raw {
            out.extend_from_slice(s.as_bytes());
        } else {
            decode_into(s.as_bytes(), plus, out);
        }
    };
    match field {
        Field::Url => out.extend_from_slice(url.as_str().as_bytes()),
        Field::Scheme => out.extend_from_slice(url.scheme().as_bytes()),
        Field::User => put(url.username(), out, false),
        Field::Password => put(url.password().unwrap_or(""), out, false),
        Field::Host => put(url.host_str().unwrap_or(""), out, false),
        Field::HostUnicode => match url.host() {
            Some(url::Host::Domain(d)) if d.contains("xn--") => {
                out.extend_from_slice(super::idn::to_unicode_lossy(d).as_bytes())
            }
            _ => put(url.host_str().unwrap_or(""), out, false),
        },
        Field::Port => {
            let port = if raw {
                url.port()
            } else {
                url.port_or_known_default()
            };
            if let Some(p) = port {
                let mut buf = [0u8; 5];
                out.extend_from_slice(format_u16(p, &mut buf));
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
