//! Editing URLs, the job people use trurl for: set or clear components, append path
//! segments and query parameters, remove parameters by name or wildcard, sort the query,
//! follow a redirect, and expand alternatives (`{a,b}`) into several URLs.
//!
//! The edits are described once ([`Edits`]) and applied to a URL of either view: the URL
//! Standard's, through its setters (`whatwg::Url::set`, with the `whatwg` feature), or
//! the generic syntax of RFC 3986 ([`Edits::apply_rfc3986`]) for URIs a browser would
//! rewrite (`ldap:`, `urn:`, …).
//!
//! Edits run in this order, as trurl runs them: the redirect, each set in the order given
//! (then each conditional set), each clear, the path appends, then on the query: trims,
//! replacements, appends, and the sort.

use super::parts::excerpt;
use super::rfc3986::{self, host_kind, is_pchar, HostKind};
use crate::{encode, EncodeOptions, EncodeSet};
use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;

/// A URL component, as edits and `--get` templates name it.
///
/// Names are trurl's (`scheme`, `user`, `password`, `host`, `port`, `path`, `query`,
/// `fragment`); the URL API's (`protocol`, `username`, `hostname`, `pathname`, `search`,
/// `hash`, `href`) are accepted as aliases. `hostport` is the URL API's `host`: a host
/// with an optional `:port`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Component {
    /// The scheme (`https`).
    Scheme,
    /// The username.
    User,
    /// The password.
    Password,
    /// The host name or address, without the port.
    Host,
    /// The host and an optional `:port` (the URL API's `host`).
    HostPort,
    /// The port.
    Port,
    /// The path.
    Path,
    /// The query, without `?`.
    Query,
    /// The fragment, without `#`.
    Fragment,
    /// The whole URL (the URL API's `href`; trurl's `url`).
    Href,
}

/// Every name a component answers to, trurl's first.
const NAMES: &[(&str, Component)] = &[
    ("scheme", Component::Scheme),
    ("user", Component::User),
    ("password", Component::Password),
    ("host", Component::Host),
    ("hostport", Component::HostPort),
    ("port", Component::Port),
    ("path", Component::Path),
    ("query", Component::Query),
    ("fragment", Component::Fragment),
    ("url", Component::Href),
    ("protocol", Component::Scheme),
    ("username", Component::User),
    ("hostname", Component::Host),
    ("pathname", Component::Path),
    ("search", Component::Query),
    ("hash", Component::Fragment),
    ("href", Component::Href),
];

impl Component {
    /// The component a name means (trurl's names, or the URL API's), case-insensitive.
    ///
    /// Bad input: an unknown name is an error listing the known ones.
    pub fn named(name: &str) -> Result<Component, EditError> {
        NAMES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name.trim()))
            .map(|&(_, c)| c)
            .ok_or_else(|| {
                EditError::new(
                    EditProblem::UnknownComponent,
                    "url",
                    None,
                    format!(
                        "unknown component {}; the components are: {}",
                        excerpt(name),
                        NAMES.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
                    ),
                )
            })
    }

    /// The component's own name (trurl's).
    pub fn name(self) -> &'static str {
        NAMES
            .iter()
            .find(|&&(_, c)| c == self)
            .map_or("url", |(n, _)| n)
    }
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An edit the URL refused: what kind of refusal, which component, what is wrong, and
/// where in the value given (when one byte is at fault).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct EditError {
    /// What kind of refusal, for a caller that words it itself.
    pub kind: EditProblem,
    /// The component's name (`port`, `host`, …), or `url` for the URL as a whole.
    pub component: &'static str,
    /// Byte offset in the value given, when one byte is at fault.
    pub position: Option<usize>,
    /// What is wrong, in words.
    pub message: String,
}

/// The kinds of [`EditError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EditProblem {
    /// A component name that is neither trurl's nor the URL API's.
    UnknownComponent,
    /// The URL given (or a whole URL set as `url`/`href`) is not a URL of its view.
    InvalidUrl,
    /// The redirect does not parse or resolve against the URL.
    Redirect,
    /// A scheme with a character a scheme cannot hold, or not starting with a letter.
    InvalidScheme,
    /// A scheme change the URL Standard refuses (special to non-special and back, to or
    /// from `file:` with a user, password, port or empty host).
    SchemeChange,
    /// A host that is not a valid host of the URL (a bad IP literal, a forbidden code
    /// point, a `:` in a host, …).
    InvalidHost,
    /// A port that is not a number from 0 to 65535.
    InvalidPort,
    /// A user, password or port for a URL that has no host to hold them (or is a
    /// `file:` URL).
    NoAuthority,
    /// Emptying a host the URL must keep (a special URL's, or one holding a user,
    /// password or port).
    HostRequired,
    /// A host or path set on (or segments appended to) a URL with an opaque path.
    OpaquePath,
    /// Clearing what a URL always has: its scheme, or the URL itself.
    CannotClear,
    /// The edited URL would not read back as the components set (a path starting with
    /// `//` without an authority, a `:` in a scheme-less first segment).
    Ambiguous,
    /// The edited URL would be longer than 4 GiB.
    TooLong,
}

impl EditError {
    pub(crate) fn new(
        kind: EditProblem,
        component: &'static str,
        position: Option<usize>,
        message: impl Into<String>,
    ) -> Self {
        EditError {
            kind,
            component,
            position,
            message: message.into(),
        }
    }
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.component)?;
        if let Some(p) = self.position {
            write!(f, "byte {p} of the value: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for EditError {}

/// The edits to make to each URL. The default is no edit at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edits {
    /// Resolve this reference against the URL first (trurl's `--redirect`).
    pub redirect: Option<String>,
    /// Components to set, in order (`--set port=8080`). An empty value clears where the
    /// URL Standard's setter does (port, query, fragment, user, password).
    pub set: Vec<(Component, String)>,
    /// Components to set only where the URL has none (trurl's `--set port?=8080`), in order,
    /// after [`set`](Edits::set): an absent or empty user, password, host, port (the URL
    /// Standard leaves a default port out, so it counts as absent), path, query or
    /// fragment. A URL of the URL Standard always has a scheme, so a scheme here is set
    /// only on a relative reference (under RFC 3986).
    pub set_if_empty: Vec<(Component, String)>,
    /// Components to remove: user, password, port, query and fragment go; the path
    /// becomes empty (`/` for special schemes); the host becomes empty where it may.
    pub clear: Vec<Component>,
    /// Path segments to append, each percent-encoded as one segment (`/` included).
    pub append_path: Vec<String>,
    /// Query parameters to append, `name=value` or `name`, each side encoded as
    /// `application/x-www-form-urlencoded` (space as `+`), so the query's pairs then end
    /// with exactly the name and value given.
    pub append_query: Vec<String>,
    /// Remove the query parameters whose decoded name matches one of these patterns:
    /// `*` matches any run of characters, `\*` a star.
    pub trim_query: Vec<String>,
    /// Replace query parameters (trurl's `--replace`): `name=value` (or `name`) takes the
    /// place of the first parameter of that decoded name, and the others of that name go;
    /// with the flag set (`--replace-append`) it is appended when there is none. Encoded
    /// as [`append_query`](Edits::append_query) is.
    pub replace_query: Vec<(String, bool)>,
    /// Sort the query's parameters by decoded name, keeping the order of equal names
    /// (as `URLSearchParams.sort()` orders them).
    pub sort_query: bool,
    /// What separates query parameters for the append, trim and sort edits (`&`).
    pub query_separator: char,
}

impl Default for Edits {
    fn default() -> Self {
        Edits {
            redirect: None,
            set: Vec::new(),
            set_if_empty: Vec::new(),
            clear: Vec::new(),
            append_path: Vec::new(),
            append_query: Vec::new(),
            trim_query: Vec::new(),
            replace_query: Vec::new(),
            sort_query: false,
            query_separator: '&',
        }
    }
}

impl Edits {
    /// Whether there is nothing to do.
    pub fn is_empty(&self) -> bool {
        self.redirect.is_none()
            && self.set.is_empty()
            && self.set_if_empty.is_empty()
            && self.clear.is_empty()
            && !self.edits_query()
            && self.append_path.is_empty()
    }

    /// Whether an append, a trim or the sort touches the query.
    pub(crate) fn edits_query(&self) -> bool {
        !self.append_query.is_empty()
            || !self.trim_query.is_empty()
            || !self.replace_query.is_empty()
            || self.sort_query
    }

    /// The path after the path appends (`path` is not opaque).
    pub(crate) fn appended_path(&self, path: &str) -> String {
        let mut out = path.to_owned();
        for segment in &self.append_path {
            if !out.ends_with('/') {
                out.push('/');
            }
            out.push_str(&encoded(segment, EncodeSet::COMPONENT));
        }
        out
    }

    /// The query after the trims, replacements, appends and sort, in trurl's order (so a
    /// trim never removes a parameter appended): `None` when no parameter is left. Empty
    /// pieces (`a=1&&b=2`, a trailing `&`) are dropped, as the URL Standard's
    /// `application/x-www-form-urlencoded` parser skips them.
    ///
    /// The pairs are slices of `query` (and of one buffer of the added pairs), not copies:
    /// a query of many pairs costs a few times its length, not a string per pair.
    pub fn edited_query(&self, query: Option<&str>) -> Option<String> {
        let separator = self.query_separator;
        let query = query.unwrap_or("");
        // The added pairs, encoded, in one buffer: each replacement, then each append.
        let mut added = String::new();
        let mut ranges = Vec::with_capacity(self.replace_query.len() + self.append_query.len());
        for item in self
            .replace_query
            .iter()
            .map(|(item, _)| item)
            .chain(&self.append_query)
        {
            let start = added.len();
            let (name, value) = match item.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (item.as_str(), None),
            };
            added.push_str(&encoded(name, EncodeSet::FORM));
            if let Some(v) = value {
                added.push('=');
                added.push_str(&encoded(v, EncodeSet::FORM));
            }
            ranges.push(start..added.len());
        }
        let (replacements, appends) = ranges.split_at(self.replace_query.len());
        let mut pairs: Vec<&str> = query.split(separator).filter(|p| !p.is_empty()).collect();
        if !self.trim_query.is_empty() {
            let patterns: Vec<NamePattern> = self
                .trim_query
                .iter()
                .map(|p| NamePattern::new(p))
                .collect();
            pairs.retain(|p| {
                let name = pair_name(p);
                !patterns.iter().any(|pattern| pattern.matches(&name))
            });
        }
        for ((item, append), range) in self.replace_query.iter().zip(replacements) {
            let name = item.split_once('=').map_or(item.as_str(), |(n, _)| n);
            let new = &added[range.clone()];
            let mut replaced = false;
            pairs.retain_mut(|pair| {
                if pair_name(pair) != name {
                    return true;
                }
                if replaced {
                    return false;
                }
                *pair = new;
                replaced = true;
                true
            });
            if !replaced && *append {
                pairs.push(new);
            }
        }
        pairs.extend(appends.iter().map(|r| &added[r.clone()]));
        if self.sort_query {
            sort_by_name(&mut pairs);
        }
        if pairs.is_empty() {
            return None;
        }
        Some(pairs.join(separator.encode_utf8(&mut [0; 4])))
    }

    /// Applies the edits to a URI reference under the generic syntax of RFC 3986, without
    /// the URL Standard's rewriting: values are percent-encoded where the component does
    /// not allow a character (escapes already in them are kept), and the result is checked
    /// against RFC 3986 §4.1. The redirect resolves by RFC 3986 §5.2.
    ///
    /// Bad input: a URI that is not a URI reference, a redirect that does not resolve, a
    /// scheme or port with a character they cannot hold, a user, password or port on a URI
    /// without an authority, or a result that would read differently (a path starting with
    /// `//` without an authority) is an [`EditError`] naming the component.
    pub fn apply_rfc3986(&self, uri: &str) -> Result<String, EditError> {
        let resolved;
        let uri = match &self.redirect {
            Some(reference) => {
                resolved = rfc3986::resolve(uri, reference).map_err(|e| {
                    EditError::new(
                        EditProblem::Redirect,
                        "url",
                        None,
                        format!("redirect: {}", e.message),
                    )
                })?;
                resolved.as_str()
            }
            None => uri,
        };
        let mut parts = GenericParts::of(uri)?;
        for (component, value) in &self.set {
            parts.set(*component, value)?;
        }
        for (component, value) in &self.set_if_empty {
            if parts.lacks(*component) {
                parts.set(*component, value)?;
            }
        }
        for component in &self.clear {
            parts.clear(*component)?;
        }
        if !self.append_path.is_empty() {
            parts.path = self.appended_path(&parts.path);
            if parts.authority.is_some() && !parts.path.starts_with('/') {
                parts.path.insert(0, '/');
            }
        }
        if self.edits_query() {
            parts.query = self.edited_query(parts.query.as_deref());
        }
        parts.recompose()
    }
}

/// The decoded name of a query pair (`+` as space), borrowed when there is nothing to
/// decode.
fn pair_name(pair: &str) -> Cow<'_, str> {
    let name = raw_name(pair);
    if name.contains(['%', '+']) {
        Cow::Owned(super::parts::percent_decode_lossy(name, true))
    } else {
        Cow::Borrowed(name)
    }
}

/// The name of a query pair as written.
fn raw_name(pair: &str) -> &str {
    pair.split_once('=').map_or(pair, |(n, _)| n)
}

/// Orders `a` and `b` as their UTF-16 code units order them (as `URLSearchParams.sort()`
/// compares names), from their UTF-8 bytes, without making the code units.
fn utf16_order(a: &str, b: &str) -> Ordering {
    let (x, y) = (a.as_bytes(), b.as_bytes());
    match x.iter().zip(y).position(|(p, q)| p != q) {
        Some(i) => differing_bytes_order(x[i], y[i]),
        None => x.len().cmp(&y.len()),
    }
}

/// [`utf16_order`] of the names of two query pairs (up to their first `=`), read where
/// they lie.
fn pair_name_order(a: &str, b: &str) -> Ordering {
    let (x, y) = (a.as_bytes(), b.as_bytes());
    let i = x
        .iter()
        .zip(y)
        .position(|(p, q)| p != q || *p == b'=')
        .unwrap_or(x.len().min(y.len()));
    match (
        x.get(i).filter(|&&c| c != b'='),
        y.get(i).filter(|&&c| c != b'='),
    ) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(&p), Some(&q)) => differing_bytes_order(p, q),
    }
}

/// The UTF-16 order of two texts equal up to these differing bytes. UTF-8 bytes order
/// texts by code point, which is UTF-16's order but for one case: a character from U+E000
/// to U+FFFF (lead byte 0xEE or 0xEF) comes after a supplementary one (0xF0 to 0xF4),
/// whose first code unit is a surrogate (0xD800 to 0xDBFF).
fn differing_bytes_order(p: u8, q: u8) -> Ordering {
    let high_bmp = |c: u8| matches!(c, 0xEE | 0xEF);
    match (p, q) {
        (p, q) if high_bmp(p) && q >= 0xF0 => Ordering::Greater,
        (p, q) if p >= 0xF0 && high_bmp(q) => Ordering::Less,
        (p, q) => p.cmp(&q),
    }
}

/// Sorts `pairs` by decoded name in UTF-16 order, keeping the order of equal names (a
/// stable sort), without a copy of any pair. Names that need no decoding are compared
/// where they lie; the others are decoded once, into one buffer.
fn sort_by_name(pairs: &mut [&str]) {
    if !pairs.iter().any(|p| raw_name(p).contains(['%', '+'])) {
        pairs.sort_by(|a, b| pair_name_order(a, b));
        return;
    }
    /// A name as written, or the range of its decoded form in the buffer of decoded names.
    enum Name<'a> {
        Raw(&'a str),
        Decoded(usize, usize),
    }
    let mut decoded = String::new();
    let mut keyed: Vec<(Name<'_>, &str)> = pairs
        .iter()
        .map(|&pair| match pair_name(pair) {
            Cow::Borrowed(name) => (Name::Raw(name), pair),
            Cow::Owned(name) => {
                let start = decoded.len();
                decoded.push_str(&name);
                (Name::Decoded(start, decoded.len()), pair)
            }
        })
        .collect();
    fn text<'s>(name: &Name<'s>, decoded: &'s str) -> &'s str {
        match *name {
            Name::Raw(name) => name,
            Name::Decoded(start, end) => &decoded[start..end],
        }
    }
    keyed.sort_by(|(a, _), (b, _)| utf16_order(text(a, &decoded), text(b, &decoded)));
    for (slot, (_, pair)) in pairs.iter_mut().zip(keyed) {
        *slot = pair;
    }
}

/// `value` with every byte that `set` does not keep escaped (UTF-8).
fn encoded(value: &str, set: EncodeSet) -> String {
    // Letters, digits, `-`, `.` and `_` are kept by every set: most values are only those,
    // and need no encoder.
    if value
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_'))
    {
        return value.to_owned();
    }
    let options = EncodeOptions {
        set,
        ..EncodeOptions::default()
    };
    encode(value.as_bytes(), &options).text()
}

/// Whether `text` matches `pattern`, where `*` matches any run of characters and `\*` (or
/// `\\`) stands for the character itself. Every text and pattern is accepted; to test many
/// texts against one pattern, read it once with [`NamePattern::new`].
pub fn matches_pattern(pattern: &str, text: &str) -> bool {
    NamePattern::new(pattern).matches(text)
}

/// A name pattern read once: the literal pieces between its unescaped stars. Matching a
/// text costs time in line with the text and the pattern, however many stars it has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamePattern {
    /// The pieces, unescaped; one piece means no star (the text must equal it). Empty
    /// pieces between stars are dropped (`a**b` is `a*b`), the first and last kept.
    pieces: Vec<String>,
    /// The sum of the pieces' lengths: a shorter text cannot match.
    least_length: usize,
}

impl NamePattern {
    /// Reads `pattern`: `*` matches any run of characters; a backslash makes the character
    /// after it literal (`\*` a star, `\\` a backslash), and at the end is itself.
    pub fn new(pattern: &str) -> NamePattern {
        let mut pieces: Vec<String> = vec![String::new()];
        let mut chars = pattern.chars();
        while let Some(c) = chars.next() {
            let literal = match c {
                '\\' => chars.next().unwrap_or('\\'),
                '*' => {
                    pieces.push(String::new());
                    continue;
                }
                c => c,
            };
            pieces.last_mut().expect("one piece").push(literal);
        }
        if pieces.len() > 2 {
            let last = pieces.pop().expect("three pieces or more");
            let first = pieces.remove(0);
            pieces.retain(|piece| !piece.is_empty());
            pieces.insert(0, first);
            pieces.push(last);
        }
        let least_length = pieces.iter().map(String::len).sum();
        NamePattern {
            pieces,
            least_length,
        }
    }

    /// Whether `text` matches: it starts with the first piece, ends with the last, and
    /// holds the others in order between them without overlap.
    pub fn matches(&self, text: &str) -> bool {
        if text.len() < self.least_length {
            return false;
        }
        let [first, middle @ .., last] = self.pieces.as_slice() else {
            return text == self.pieces[0];
        };
        let Some(rest) = text.strip_prefix(first.as_str()) else {
            return false;
        };
        let Some(mut rest) = rest.strip_suffix(last.as_str()) else {
            return false;
        };
        for piece in middle {
            match rest.find(piece.as_str()) {
                Some(i) => rest = &rest[i + piece.len()..],
                None => return false,
            }
        }
        true
    }
}

/// Why alternatives could not be expanded: what kind of fault, where and what.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExpandError {
    /// What kind of fault, for a caller that words it itself.
    pub kind: ExpandProblem,
    /// Byte offset of the brace at fault.
    pub position: usize,
    /// What is wrong, in words.
    pub message: String,
}

/// The kinds of [`ExpandError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExpandProblem {
    /// A `{` that is never closed.
    Unclosed,
    /// A `}` without its `{`.
    Unopened,
    /// A `{` inside a group.
    Nested,
    /// More combinations than [`MAX_EXPANSIONS`].
    TooMany,
}

impl fmt::Display for ExpandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: {}", self.position, self.message)
    }
}

impl std::error::Error for ExpandError {}

/// The most texts one text expands into, and the most combinations of values and
/// alternatives the command line's `edit` makes of one URL.
pub const MAX_EXPANSIONS: usize = 10_000;

/// The product of `counts`, or `None` when it does not fit a `usize`: how many
/// combinations several independent choices make, computed without making any.
pub fn combinations(counts: impl IntoIterator<Item = usize>) -> Option<usize> {
    counts
        .into_iter()
        .try_fold(1usize, |product, count| product.checked_mul(count))
}

/// A text with its `{a,b,…}` groups read but not expanded: the literal text before the
/// first group, then each group's alternatives and the literal text after it. It holds
/// the text's own characters once, whatever the number of combinations; [`count`] says
/// how many texts it expands into and [`iter`] makes them one at a time.
///
/// [`count`]: Alternatives::count
/// [`iter`]: Alternatives::iter
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alternatives {
    /// The literal text before the first group.
    prefix: String,
    /// Each group: the byte of its `{`, its alternatives, and the literal text after it.
    groups: Vec<Group>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Group {
    position: usize,
    alternatives: Vec<String>,
    after: String,
}

impl Alternatives {
    /// Reads the groups of `text`, in time and memory in line with its length: `{a,b}`
    /// is a group of two alternatives, `{,www.}` has an empty one, and `\{`, `\}`, `\,`
    /// or `\\` stand for the character itself (a backslash at the end is itself).
    ///
    /// Bad input: an unclosed `{`, a `}` without its `{` or a `{` inside a group is an
    /// error naming its byte. There is no limit on the count here: see [`count`].
    ///
    /// [`count`]: Alternatives::count
    pub fn parse(text: &str) -> Result<Alternatives, ExpandError> {
        let mut prefix = String::new();
        let mut groups: Vec<Group> = Vec::new();
        let mut chars = text.char_indices();
        let literal =
            |prefix: &mut String, groups: &mut Vec<Group>, c: char| match groups.last_mut() {
                Some(g) => g.after.push(c),
                None => prefix.push(c),
            };
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => {
                    let next = chars.next().map_or('\\', |(_, n)| n);
                    literal(&mut prefix, &mut groups, next);
                }
                '{' => {
                    let mut alternatives = vec![String::new()];
                    loop {
                        let last = alternatives.last_mut().expect("one alternative");
                        match chars.next() {
                            None => {
                                return Err(ExpandError {
                                    kind: ExpandProblem::Unclosed,
                                    position: i,
                                    message:
                                        "\"{\" is never closed (write \\{ for a literal brace)"
                                            .into(),
                                })
                            }
                            Some((_, '}')) => break,
                            Some((_, ',')) => alternatives.push(String::new()),
                            Some((_, '\\')) => {
                                last.push(chars.next().map_or('\\', |(_, n)| n));
                            }
                            Some((j, '{')) => {
                                return Err(ExpandError {
                                    kind: ExpandProblem::Nested,
                                    position: j,
                                    message: "alternatives cannot nest".into(),
                                })
                            }
                            Some((_, c)) => last.push(c),
                        }
                    }
                    groups.push(Group {
                        position: i,
                        alternatives,
                        after: String::new(),
                    });
                }
                '}' => {
                    return Err(ExpandError {
                        kind: ExpandProblem::Unopened,
                        position: i,
                        message: "\"}\" without \"{\" (write \\} for a literal brace)".into(),
                    })
                }
                c => literal(&mut prefix, &mut groups, c),
            }
        }
        Ok(Alternatives { prefix, groups })
    }

    /// How many texts this expands into (the product of each group's alternatives; 1
    /// without a group), or `None` when that does not fit a `usize`. Nothing is expanded.
    pub fn count(&self) -> Option<usize> {
        combinations(self.groups.iter().map(|g| g.alternatives.len()))
    }

    /// Whether the text has no group (it expands into itself alone).
    pub fn is_plain(&self) -> bool {
        self.groups.is_empty()
    }

    /// The byte of the `{` that takes the count past `limit`, if it goes past.
    pub fn position_past(&self, limit: usize) -> Option<usize> {
        let mut product = 1usize;
        for g in &self.groups {
            match product.checked_mul(g.alternatives.len()) {
                Some(p) if p <= limit => product = p,
                _ => return Some(g.position),
            }
        }
        None
    }

    /// The texts, one at a time and in order (the last group changing fastest); only the
    /// text being made is held. Check [`count`] first: the iterator makes as many as that.
    ///
    /// [`count`]: Alternatives::count
    pub fn iter(&self) -> Expansions<'_> {
        Expansions {
            alternatives: self,
            indices: vec![0; self.groups.len()],
            done: false,
        }
    }

    /// The expansion numbered `index` in the order of [`iter`] (from 0), or `None` when
    /// there are not that many.
    ///
    /// [`iter`]: Alternatives::iter
    pub fn nth(&self, index: usize) -> Option<String> {
        let mut rest = index;
        let mut indices = vec![0; self.groups.len()];
        for (g, slot) in self.groups.iter().zip(indices.iter_mut()).rev() {
            let n = g.alternatives.len();
            *slot = rest % n;
            rest /= n;
        }
        (rest == 0).then(|| self.text(&indices))
    }

    /// The text made of alternative `indices[k]` of group `k`.
    fn text(&self, indices: &[usize]) -> String {
        let length = self.prefix.len()
            + self
                .groups
                .iter()
                .zip(indices)
                .map(|(g, &i)| g.alternatives[i].len() + g.after.len())
                .sum::<usize>();
        let mut out = String::with_capacity(length);
        out.push_str(&self.prefix);
        for (g, &i) in self.groups.iter().zip(indices) {
            out.push_str(&g.alternatives[i]);
            out.push_str(&g.after);
        }
        out
    }
}

/// The texts an [`Alternatives`] expands into, made one at a time
/// ([`Alternatives::iter`]).
#[derive(Clone, Debug)]
pub struct Expansions<'a> {
    alternatives: &'a Alternatives,
    /// The alternative of each group in the next text.
    indices: Vec<usize>,
    done: bool,
}

impl Iterator for Expansions<'_> {
    type Item = String;

    fn next(&mut self) -> Option<String> {
        if self.done {
            return None;
        }
        let text = self.alternatives.text(&self.indices);
        // The next combination: the last group moves first, carrying into the one before.
        self.done = true;
        for (g, i) in self
            .alternatives
            .groups
            .iter()
            .zip(self.indices.iter_mut())
            .rev()
        {
            *i += 1;
            if *i < g.alternatives.len() {
                self.done = false;
                break;
            }
            *i = 0;
        }
        Some(text)
    }
}

/// Expands every `{a,b,…}` group of `text` into its alternatives, as curl's globbing does:
/// `https://{www,api}.example.com/` gives two texts, and several groups give every
/// combination, in order. `{,www.}` has an empty alternative; a literal brace is written
/// `\{` or `\}` (or percent-encoded, `%7B`, `%7D`). The count is checked before any text
/// is made; to make them one at a time, use [`Alternatives`].
///
/// Bad input: an unclosed `{`, a `}` without its `{`, a `{` inside a group, or more than
/// [`MAX_EXPANSIONS`] texts (naming the count) is an error naming the byte.
pub fn expand_alternatives(text: &str) -> Result<Vec<String>, ExpandError> {
    let alternatives = Alternatives::parse(text)?;
    if let Some(position) = alternatives.position_past(MAX_EXPANSIONS) {
        return Err(ExpandError {
            kind: ExpandProblem::TooMany,
            position,
            message: format!(
                "{} combinations; at most {MAX_EXPANSIONS}",
                count_text(alternatives.count())
            ),
        });
    }
    Ok(alternatives.iter().collect())
}

/// A count of combinations for a message: the number, or "more than" the largest `usize`.
pub fn count_text(count: Option<usize>) -> String {
    match count {
        Some(n) => n.to_string(),
        None => format!("more than {}", usize::MAX),
    }
}

/// A URI reference's components, owned, for editing under RFC 3986.
struct GenericParts {
    scheme: Option<String>,
    /// `Some` when there is an authority, holding its userinfo, host and port.
    authority: Option<(Option<String>, String, Option<String>)>,
    path: String,
    query: Option<String>,
    fragment: Option<String>,
}

impl GenericParts {
    fn of(uri: &str) -> Result<GenericParts, EditError> {
        let r = rfc3986::parse(uri).map_err(|e| {
            EditError::new(
                EditProblem::InvalidUrl,
                "url",
                Some(e.position),
                format!("not an RFC 3986 URI reference: {}", e.message),
            )
        })?;
        Ok(GenericParts {
            scheme: r.scheme.map(str::to_owned),
            authority: r.authority_parts().map(|a| {
                (
                    a.userinfo.map(str::to_owned),
                    a.host.to_owned(),
                    a.port.map(str::to_owned),
                )
            }),
            path: r.path.to_owned(),
            query: r.query.map(str::to_owned),
            fragment: r.fragment.map(str::to_owned),
        })
    }

    fn userinfo_parts(&self) -> (Option<String>, Option<String>) {
        match self.authority.as_ref().and_then(|a| a.0.as_deref()) {
            Some(u) => match u.split_once(':') {
                Some((user, password)) => (Some(user.to_owned()), Some(password.to_owned())),
                None => (Some(u.to_owned()), None),
            },
            None => (None, None),
        }
    }

    fn authority_mut(
        &mut self,
        component: Component,
    ) -> Result<&mut (Option<String>, String, Option<String>), EditError> {
        self.authority.as_mut().ok_or_else(|| {
            EditError::new(
                EditProblem::NoAuthority,
                component.name(),
                None,
                "the URI has no authority (\"//host\"): set the host first",
            )
        })
    }

    fn set_userinfo(&mut self, user: Option<String>, password: Option<String>) {
        if let Some(a) = self.authority.as_mut() {
            a.0 = match (user, password) {
                (None, None) => None,
                (u, None) => u,
                (u, Some(p)) => Some(format!("{}:{p}", u.unwrap_or_default())),
            };
        }
    }

    /// Whether the component is absent or empty (a conditional set may fill it in).
    fn lacks(&self, component: Component) -> bool {
        let authority = self.authority.as_ref();
        match component {
            Component::Scheme => self.scheme.is_none(),
            Component::User => self.userinfo_parts().0.is_none_or(|u| u.is_empty()),
            Component::Password => self.userinfo_parts().1.is_none_or(|p| p.is_empty()),
            Component::Host | Component::HostPort => authority.is_none_or(|a| a.1.is_empty()),
            Component::Port => authority.is_none_or(|a| a.2.as_deref().is_none_or(str::is_empty)),
            Component::Path => self.path.is_empty(),
            Component::Query => self.query.as_deref().is_none_or(str::is_empty),
            Component::Fragment => self.fragment.as_deref().is_none_or(str::is_empty),
            Component::Href => false,
        }
    }

    fn set(&mut self, component: Component, value: &str) -> Result<(), EditError> {
        if value.is_empty() && !matches!(component, Component::Path | Component::Href) {
            return self.clear(component);
        }
        match component {
            Component::Href => *self = GenericParts::of(value)?,
            Component::Scheme => {
                let b = value.as_bytes();
                let bad = if b[0].is_ascii_alphabetic() {
                    b.iter().position(|c| {
                        !(c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'))
                    })
                } else {
                    Some(0)
                };
                if let Some(i) = bad {
                    return Err(EditError::new(EditProblem::InvalidScheme,
                        "scheme",
                        Some(i),
                        "a scheme is a letter, then letters, digits, \"+\", \"-\" or \".\" (RFC 3986 §3.1)",
                    ));
                }
                self.scheme = Some(value.to_owned());
            }
            Component::User => {
                self.authority_mut(component)?;
                let (_, password) = self.userinfo_parts();
                let user = keep_or_escape(value, is_unreserved_or_sub_delim);
                self.set_userinfo(Some(user), password);
            }
            Component::Password => {
                self.authority_mut(component)?;
                let (user, _) = self.userinfo_parts();
                let password =
                    keep_or_escape(value, |c| is_unreserved_or_sub_delim(c) || c == b':');
                self.set_userinfo(user, Some(password));
            }
            Component::Host => {
                let host = if value.starts_with('[') {
                    if host_kind(value) == HostKind::RegName {
                        return Err(EditError::new(EditProblem::InvalidHost,
                            "host",
                            Some(0),
                            format!("{} is neither an IPv6 address nor an IPvFuture literal (RFC 3986 §3.2.2)", excerpt(value)),
                        ));
                    }
                    value.to_owned()
                } else {
                    keep_or_escape(value, is_unreserved_or_sub_delim)
                };
                match self.authority.as_mut() {
                    Some(a) => a.1 = host,
                    None => self.authority = Some((None, host, None)),
                }
            }
            Component::HostPort => {
                let parts = rfc3986::split_authority(value);
                self.set(Component::Host, parts.host)?;
                if let Some(port) = parts.port {
                    self.set(Component::Port, port)?;
                }
            }
            Component::Port => {
                if let Some(i) = value.bytes().position(|c| !c.is_ascii_digit()) {
                    return Err(EditError::new(
                        EditProblem::InvalidPort,
                        "port",
                        Some(i),
                        "a port is made of digits (RFC 3986 §3.2.3)",
                    ));
                }
                self.authority_mut(component)?.2 = Some(value.to_owned());
            }
            Component::Path => {
                let mut path = keep_or_escape(value, |c| is_pchar(c) || c == b'/');
                if self.authority.is_some() && !path.is_empty() && !path.starts_with('/') {
                    path.insert(0, '/');
                }
                self.path = path;
            }
            Component::Query => {
                self.query = Some(keep_or_escape(value, |c| {
                    is_pchar(c) || c == b'/' || c == b'?'
                }))
            }
            Component::Fragment => {
                self.fragment = Some(keep_or_escape(value, |c| {
                    is_pchar(c) || c == b'/' || c == b'?'
                }))
            }
        }
        Ok(())
    }

    fn clear(&mut self, component: Component) -> Result<(), EditError> {
        match component {
            Component::Href => {
                return Err(EditError::new(
                    EditProblem::CannotClear,
                    "url",
                    None,
                    "the URL itself cannot be cleared",
                ))
            }
            Component::Scheme => self.scheme = None,
            Component::User => {
                let (_, password) = self.userinfo_parts();
                self.set_userinfo(password.as_ref().map(|_| String::new()), password);
            }
            Component::Password => {
                let (user, _) = self.userinfo_parts();
                self.set_userinfo(user, None);
            }
            Component::Host | Component::HostPort => match &self.authority {
                Some((None, _, None)) | None => self.authority = None,
                Some(_) if component == Component::HostPort => {
                    if let Some(a) = self.authority.as_mut() {
                        a.1.clear();
                        a.2 = None;
                    }
                }
                Some(_) => {
                    return Err(EditError::new(
                        EditProblem::HostRequired,
                        "host",
                        None,
                        "the URI has a user, password or port: clear them before the host",
                    ))
                }
            },
            Component::Port => {
                if let Some(a) = self.authority.as_mut() {
                    a.2 = None;
                }
            }
            Component::Path => self.path.clear(),
            Component::Query => self.query = None,
            Component::Fragment => self.fragment = None,
        }
        Ok(())
    }

    /// The URI, checked to be a URI reference that reads back as these components.
    fn recompose(&self) -> Result<String, EditError> {
        let authority = self.authority.as_ref().map(|(userinfo, host, port)| {
            let mut a = String::new();
            if let Some(u) = userinfo {
                a.push_str(u);
                a.push('@');
            }
            a.push_str(host);
            if let Some(p) = port {
                a.push(':');
                a.push_str(p);
            }
            a
        });
        let mut out = String::new();
        rfc3986::recompose_into(
            &mut out,
            self.scheme.as_deref(),
            authority.as_deref(),
            &self.path,
            self.query.as_deref(),
            self.fragment.as_deref(),
        );
        let back = rfc3986::parse(&out).map_err(|e| {
            EditError::new(
                EditProblem::Ambiguous,
                "url",
                None,
                format!("the edited URI {} is not valid: {e}", excerpt(&out)),
            )
        })?;
        if back.scheme != self.scheme.as_deref()
            || back.authority != authority.as_deref()
            || back.path != self.path
        {
            let why = if authority.is_none() && self.path.starts_with("//") {
                "a path starting with \"//\" needs an authority (RFC 3986 §3.3)"
            } else if self.scheme.is_none() {
                "without a scheme, the first path segment cannot contain \":\" (RFC 3986 §4.2)"
            } else {
                "its components would read differently"
            };
            return Err(EditError::new(
                EditProblem::Ambiguous,
                "path",
                None,
                format!("the edited URI {} is ambiguous: {why}", excerpt(&out)),
            ));
        }
        Ok(out)
    }
}

fn is_unreserved_or_sub_delim(c: u8) -> bool {
    rfc3986::is_unreserved(c) || rfc3986::is_sub_delim(c)
}

/// `value` with each byte that `allowed` refuses percent-encoded (UTF-8, upper-case hex),
/// escapes already in it (`%` and two hex digits) kept as they are.
fn keep_or_escape(value: &str, allowed: impl Fn(u8) -> bool) -> String {
    let b = value.as_bytes();
    let mut out = String::with_capacity(value.len());
    for (i, &c) in b.iter().enumerate() {
        let escape = c == b'%'
            && b.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
            && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit);
        if escape || allowed(c) {
            out.push(char::from(c));
        } else {
            out.push_str(&format!("%{c:02X}"));
        }
    }
    out
}
