//! PURL names: the path a record answers, in one normal form, so that every spelling a
//! browser would send for a name reaches the same record (and no spelling reaches a
//! record of another domain).
//!
//! The normal form is the RFC 3986 §6.2.2 normalization the inspector does, applied to a
//! path: characters outside ASCII written as UTF-8 escapes (an IRI's path becomes its
//! URI's, RFC 3987 §3.1), hex digits of escapes upper case, escapes of unreserved
//! characters decoded (`%7E` → `~`), dot segments removed (`/net/a/../b` → `/net/b`).
//! Escapes of anything else stay escapes: `%2F` is not a `/`, so `/net%2F..%2Forg/x` is
//! one segment under the root, never a way into `/org/`.

use crate::inspect::iri::iri_to_uri;
use crate::inspect::rfc3986::{is_pchar, normalize, remove_dot_segments, NormalizeOptions};
use std::fmt;

/// The longest name, in bytes of its normal form.
pub const MAX_NAME_BYTES: usize = 2048;

/// The prefix the resolver keeps for itself (its page, API and health): no name starts
/// with it.
pub const RESERVED_PREFIX: &str = "/-/";

/// A name in its normal form: starts with `/`, not with [`RESERVED_PREFIX`], ASCII, at
/// most [`MAX_NAME_BYTES`].
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Name(String);

/// Why a text is not a name: where and what.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct NameError {
    /// Byte offset in the text given.
    pub position: usize,
    /// What kind of fault.
    pub kind: NameProblem,
    /// What is wrong, in words.
    pub message: String,
}

/// The kinds of [`NameError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NameProblem {
    /// The name does not start with `/`.
    NotAPath,
    /// The name holds a query (`?`) or fragment (`#`), or a control character or space.
    DisallowedCharacter,
    /// A `%` not followed by two hex digits.
    MalformedEscape,
    /// The name starts with [`RESERVED_PREFIX`].
    Reserved,
    /// The name is longer than [`MAX_NAME_BYTES`].
    TooLong,
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: {}", self.position, self.message)
    }
}

impl std::error::Error for NameError {}

fn error(position: usize, kind: NameProblem, message: impl Into<String>) -> NameError {
    NameError {
        position,
        kind,
        message: message.into(),
    }
}

impl Name {
    /// The name `text` spells (an IRI path or a URI path), in its normal form.
    ///
    /// Bad input: a text that does not start with `/`, holds `?`, `#`, a space or a
    /// control character, a `%` without two hex digits after it, starts with
    /// [`RESERVED_PREFIX`] once normalized, or is longer than [`MAX_NAME_BYTES`] is an
    /// error with the byte at fault in `text`.
    pub fn parse(text: &str) -> Result<Name, NameError> {
        if is_plain_normal(text) {
            return Ok(Name(text.to_owned()));
        }
        if !text.starts_with('/') {
            return Err(error(
                0,
                NameProblem::NotAPath,
                "a name is a path: it starts with \"/\"",
            ));
        }
        if let Some((at, c)) = text
            .char_indices()
            .find(|&(_, c)| matches!(c, '?' | '#' | ' ') || c.is_control())
        {
            return Err(error(
                at,
                NameProblem::DisallowedCharacter,
                format!("{c:?} cannot be part of a name (a query or fragment is not part of the name; escape a space as %20)"),
            ));
        }
        let bytes = text.as_bytes();
        if let Some(at) = (0..bytes.len()).find(|&i| {
            bytes[i] == b'%'
                && !(bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                    && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
        }) {
            return Err(error(
                at,
                NameProblem::MalformedEscape,
                "\"%\" is not followed by two hex digits",
            ));
        }
        Self::normal(&iri_to_uri(text), text.len())
    }

    /// The normal form of a path already free of `?`, `#` and bad escapes (a request's
    /// path), `given` its length for the error's position.
    fn normal(path: &str, given: usize) -> Result<Name, NameError> {
        let normal = remove_dot_segments(&normalize(path, &NormalizeOptions::default()));
        // A path of dot segments alone (`/..`) is the root.
        let normal = if normal.is_empty() {
            "/".to_string()
        } else {
            normal
        };
        // `//x` would read as an authority, not a path: no name starts so.
        if normal.starts_with("//") {
            return Err(error(
                0,
                NameProblem::DisallowedCharacter,
                "a name cannot start with two slashes (it would read as a host)",
            ));
        }
        if normal.starts_with(RESERVED_PREFIX) || normal == "/-" {
            return Err(error(
                0,
                NameProblem::Reserved,
                format!("names under {RESERVED_PREFIX} are the resolver's own"),
            ));
        }
        if normal.len() > MAX_NAME_BYTES {
            return Err(error(
                given.min(MAX_NAME_BYTES),
                NameProblem::TooLong,
                format!(
                    "a name is at most {MAX_NAME_BYTES} bytes, this one {}",
                    normal.len()
                ),
            ));
        }
        Ok(Name(normal))
    }

    /// The name as text (ASCII).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether this name lies under `prefix` (a domain such as `/net/`): equal to it, or
    /// starting with it where it ends in `/`, or followed by `/` where it does not. Both
    /// are compared in normal form, so no spelling of a path escapes its domain.
    pub fn is_under(&self, prefix: &Name) -> bool {
        let (name, prefix) = (self.as_str(), prefix.as_str());
        name == prefix
            || (name.starts_with(prefix)
                && (prefix.ends_with('/') || name.as_bytes()[prefix.len()] == b'/'))
    }
}

/// Whether `text` is a name in normal form that [`Name::parse`] would give back as it is,
/// judged without allocating: it starts with one `/`, holds only unreserved characters,
/// sub-delimiters, `:`, `@` and `/` (no escape, nothing outside ASCII), no `.` or `..`
/// segment, is not reserved and not too long. `false` says nothing: the text may still be a
/// name, after normalization, or no name at all.
pub(crate) fn is_plain_normal(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.first() != Some(&b'/')
        || bytes.get(1) == Some(&b'/')
        || bytes.len() > MAX_NAME_BYTES
        || text.starts_with(RESERVED_PREFIX)
        || text == "/-"
    {
        return false;
    }
    bytes.iter().all(|&b| PLAIN_NAME_BYTE[usize::from(b)])
        && (memchr::memmem::find(bytes, b"/.").is_none()
            || !text[1..]
                .split('/')
                .any(|segment| segment == "." || segment == ".."))
}

/// The bytes a name in normal form holds as they are: `pchar` but its escapes, and `/`.
static PLAIN_NAME_BYTE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < table.len() {
        table[b] = is_pchar(b as u8) || b == b'/' as usize;
        b += 1;
    }
    table
};

#[cfg(feature = "serde")]
impl serde::Serialize for Name {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

/// A name read from text goes through [`Name::parse`]: a text that is not a name is an
/// error naming its byte.
#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Name {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <String as serde::Deserialize>::deserialize(deserializer)?;
        Name::parse(&text).map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_in_normal_form_reads_as_itself_and_never_starts_with_two_slashes() {
        for text in [
            "/.//neta]=b",
            "//host/x",
            "/a/..//b",
            "/net/a/../b",
            "/%7Enet/%41",
        ] {
            match Name::parse(text) {
                Ok(name) => {
                    assert!(!name.as_str().starts_with("//"), "{text} → {name}");
                    assert_eq!(Name::parse(name.as_str()).as_ref(), Ok(&name), "{text}");
                }
                Err(e) => assert_eq!(e.kind, NameProblem::DisallowedCharacter, "{text}: {e}"),
            }
        }
        assert!(Name::parse("/.//neta]=b").is_err());
    }

    fn normal(text: &str) -> String {
        Name::parse(text).unwrap().to_string()
    }

    #[test]
    fn spellings_a_browser_would_send_reach_one_name() {
        assert_eq!(normal("/net/a/../b"), "/net/b");
        assert_eq!(normal("/net/./b"), "/net/b");
        assert_eq!(normal("/net/%7euser"), "/net/~user");
        assert_eq!(normal("/net/%c3%a9"), "/net/%C3%A9");
        assert_eq!(normal("/net/é"), "/net/%C3%A9");
        assert_eq!(normal("/../net"), "/net");
        assert_eq!(normal("/.."), "/");
    }

    #[test]
    fn escaped_slashes_and_dots_stay_inside_their_segment() {
        let org = Name::parse("/org/").unwrap();
        // Each is judged by where it leads, so a maintainer of /net/ cannot write the
        // second or third.
        for (trick, leads_under_org) in [
            ("/net%2F..%2Forg/x", false),
            ("/net/%2E%2E/%2E%2E/org/x", true),
            ("/NET/../org/x", true),
        ] {
            let name = Name::parse(trick).unwrap();
            assert_eq!(name.is_under(&org), leads_under_org, "{trick} → {name}");
        }
        // `%2E` is unreserved: decoded, then removed as a dot segment, as a browser does.
        assert_eq!(normal("/net/%2E%2E/org/x"), "/org/x");
        assert_eq!(normal("/net%2F..%2Forg/x"), "/net%2F..%2Forg/x");
    }

    #[test]
    fn domains_hold_the_names_under_them_and_no_neighbour() {
        let net = Name::parse("/net").unwrap();
        let net_slash = Name::parse("/net/").unwrap();
        for (name, under) in [
            ("/net", true),
            ("/net/a", true),
            ("/network", false),
            ("/ne", false),
        ] {
            let name = Name::parse(name).unwrap();
            assert_eq!(name.is_under(&net), under, "{name} under /net");
            assert_eq!(
                name.is_under(&net_slash),
                under && name.as_str() != "/net",
                "{name} under /net/"
            );
        }
    }

    proptest::proptest! {
        /// The shortcut for names already in normal form gives what normalizing gives.
        #[test]
        fn plain_normal_names_are_their_own_normal_form(
            text in "/[a-zA-Z0-9./_~!$&'()*+,;=:@%-]{0,12}(/[-.a-z%2E]{0,4}){0,3}"
        ) {
            if is_plain_normal(&text) {
                let mut full = String::from(&text);
                full.push('\u{e9}'); // not plain: normalized the long way, then cut back
                let long = Name::parse(&full).unwrap();
                proptest::prop_assert_eq!(
                    long.as_str().strip_suffix("%C3%A9"),
                    Some(text.as_str()),
                    "{}", text
                );
            }
        }
    }

    #[test]
    fn plain_normal_names_need_no_normalization() {
        for plain in [
            "/",
            "/net/a",
            "/r/12",
            "/p/1/x.y",
            "/a:b@c/~d_e-f!$&'()*+,;=",
            "/-x",
            "/..a/.b",
        ] {
            assert!(is_plain_normal(plain), "{plain}");
            assert_eq!(Name::parse(plain).unwrap().as_str(), plain);
        }
        for not in [
            "", "a", "//x", "/-", "/-/x", "/a/./b", "/a/..", "/.", "/%41", "/a b", "/é", "/a?b",
            "/a[b",
        ] {
            assert!(!is_plain_normal(not), "{not}");
        }
        assert!(!is_plain_normal(&format!(
            "/{}",
            "a".repeat(MAX_NAME_BYTES)
        )));
    }

    #[test]
    fn bad_names_say_what_and_where() {
        for (text, kind, at) in [
            ("net/a", NameProblem::NotAPath, 0),
            ("/a?b", NameProblem::DisallowedCharacter, 2),
            ("/a#b", NameProblem::DisallowedCharacter, 2),
            ("/a b", NameProblem::DisallowedCharacter, 2),
            ("/a\nb", NameProblem::DisallowedCharacter, 2),
            ("/a%zz", NameProblem::MalformedEscape, 2),
            ("/a%4", NameProblem::MalformedEscape, 2),
            ("/-/api", NameProblem::Reserved, 0),
            ("/x/../-/api", NameProblem::Reserved, 0),
        ] {
            let e = Name::parse(text).unwrap_err();
            assert_eq!((e.kind, e.position), (kind, at), "{text:?}: {e}");
        }
        let long = format!("/{}", "a".repeat(MAX_NAME_BYTES));
        assert_eq!(Name::parse(&long).unwrap_err().kind, NameProblem::TooLong);
    }
}
