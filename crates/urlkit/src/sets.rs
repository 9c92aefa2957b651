//! Encode sets: which ASCII bytes an encoder keeps literal.
//!
//! Every byte that is not kept becomes `%XX`. Bytes `0x80..=0xFF` are never kept: a URL
//! carries non-ASCII only as escapes (RFC 3986 §2.1, RFC 3987 §3.1).
//!
//! The named sets follow their sources: RFC 3986 §2.3 (`unreserved`), ECMAScript's
//! `encodeURIComponent` / `encodeURI` (`component`, `uri`), the WHATWG URL Standard §1.3
//! percent-encode sets (`c0`, `fragment`, `query`, `special-query`, `path`, `userinfo`) and
//! its `application/x-www-form-urlencoded` serializer (`form`).

use std::fmt;

/// A set of ASCII bytes kept literal by the encoder; every other byte is escaped.
///
/// Internally a 128-bit map, one bit per ASCII byte, so it is `Copy` and cheap to pass to
/// the hot loop, which expands it into a lookup table once per call. A set may also write
/// space as `+` ([`EncodeSet::FORM`] does): that survives [`with_safe`](Self::with_safe)
/// and [`with_unsafe`](Self::with_unsafe) unless they name the space itself.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct EncodeSet {
    keep: u128,
    name: &'static str,
    space_as_plus: bool,
}

const fn bit(byte: u8) -> u128 {
    1u128 << byte
}

const fn range(first: u8, last: u8) -> u128 {
    let mut bits = 0u128;
    let mut b = first;
    while b <= last {
        bits |= bit(b);
        b += 1;
    }
    bits
}

const fn bytes(list: &[u8]) -> u128 {
    let mut bits = 0u128;
    let mut i = 0;
    while i < list.len() {
        bits |= bit(list[i]);
        i += 1;
    }
    bits
}

const ALPHANUMERIC: u128 = range(b'A', b'Z') | range(b'a', b'z') | range(b'0', b'9');
const UNRESERVED: u128 = ALPHANUMERIC | bytes(b"-._~");
const COMPONENT: u128 = UNRESERVED | bytes(b"!'()*");
const URI: u128 = COMPONENT | bytes(b";,/?:@&=+$#");
const FORM: u128 = ALPHANUMERIC | bytes(b"*-._");
/// WHATWG C0 control percent-encode set: escapes C0 controls and everything above `~`.
const C0_KEEP: u128 = range(0x20, 0x7E);
const FRAGMENT_KEEP: u128 = C0_KEEP & !bytes(b" \"<>`");
const QUERY_KEEP: u128 = C0_KEEP & !bytes(b" \"#<>");
const SPECIAL_QUERY_KEEP: u128 = QUERY_KEEP & !bytes(b"'");
const PATH_KEEP: u128 = QUERY_KEEP & !bytes(b"?^`{}");
const USERINFO_KEEP: u128 = PATH_KEEP & !bytes(b"/:;=@[\\]|");
const IRI_KEEP: u128 = range(0x21, 0x7E);

/// The named sets, in the order `urlkit charsets`/help text lists them.
const NAMED: &[(EncodeSet, &str)] = &[
    (
        EncodeSet::UNRESERVED,
        "A-Z a-z 0-9 - . _ ~ (RFC 3986 §2.3; Python quote(s, safe=''); PHP rawurlencode)",
    ),
    (
        EncodeSet::COMPONENT,
        "unreserved plus ! ' ( ) * (JavaScript encodeURIComponent)",
    ),
    (
        EncodeSet::URI,
        "component plus ; , / ? : @ & = + $ # (JavaScript encodeURI)",
    ),
    (
        EncodeSet::FORM,
        "A-Z a-z 0-9 * - . _, space as + (application/x-www-form-urlencoded)",
    ),
    (EncodeSet::PATH, "WHATWG path percent-encode set"),
    (EncodeSet::QUERY, "WHATWG query percent-encode set"),
    (
        EncodeSet::SPECIAL_QUERY,
        "WHATWG special-query percent-encode set",
    ),
    (EncodeSet::FRAGMENT, "WHATWG fragment percent-encode set"),
    (EncodeSet::USERINFO, "WHATWG userinfo percent-encode set"),
    (EncodeSet::C0, "WHATWG C0 control percent-encode set"),
    (
        EncodeSet::IRI,
        "all printable ASCII; escapes only non-ASCII, controls and space (RFC 3987 §3.1)",
    ),
    (EncodeSet::ALL, "nothing: every byte is escaped"),
];

/// Why a set could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetError {
    /// No set has this name.
    UnknownName(String),
    /// `--safe`/`--unsafe` name a character outside ASCII, at this character index.
    NotAscii {
        /// The character.
        character: char,
        /// Its index among the characters given (counting characters, not bytes).
        index: usize,
    },
}

impl fmt::Display for SetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetError::UnknownName(name) => write!(
                f,
                "unknown encode set {name:?}; the sets are: {}",
                EncodeSet::names().collect::<Vec<_>>().join(", ")
            ),
            SetError::NotAscii { character, index } => write!(
                f,
                "character {character:?} at index {index} is not ASCII; only ASCII characters can be kept or escaped by choice"
            ),
        }
    }
}

impl std::error::Error for SetError {}

impl EncodeSet {
    /// `unreserved`, the default: RFC 3986 §2.3 unreserved characters `A–Z a–z 0–9 - . _ ~`,
    /// as Python's `quote(s, safe='')` and PHP's `rawurlencode`.
    pub const UNRESERVED: EncodeSet = EncodeSet::from_bits(UNRESERVED, "unreserved");
    /// `component`: unreserved plus `! ' ( ) *`, as JavaScript's `encodeURIComponent`.
    pub const COMPONENT: EncodeSet = EncodeSet::from_bits(COMPONENT, "component");
    /// `uri`: component plus `; , / ? : @ & = + $ #`, as JavaScript's `encodeURI`.
    pub const URI: EncodeSet = EncodeSet::from_bits(URI, "uri");
    /// `form`: `A–Z a–z 0–9 * - . _` with space written as `+`, the
    /// `application/x-www-form-urlencoded` serializer (WHATWG URL Standard §5.2).
    pub const FORM: EncodeSet = EncodeSet {
        space_as_plus: true,
        ..EncodeSet::from_bits(FORM, "form")
    };
    /// `path`: what the WHATWG path percent-encode set leaves literal (URL Standard §1.3).
    pub const PATH: EncodeSet = EncodeSet::from_bits(PATH_KEEP, "path");
    /// `query`: what the WHATWG query percent-encode set leaves literal (URL Standard §1.3).
    pub const QUERY: EncodeSet = EncodeSet::from_bits(QUERY_KEEP, "query");
    /// `special-query`: the WHATWG special-query percent-encode set, for the query of
    /// `http:`, `https:` and the other special schemes (URL Standard §1.3).
    pub const SPECIAL_QUERY: EncodeSet = EncodeSet::from_bits(SPECIAL_QUERY_KEEP, "special-query");
    /// `fragment`: what the WHATWG fragment percent-encode set leaves literal (URL Standard
    /// §1.3).
    pub const FRAGMENT: EncodeSet = EncodeSet::from_bits(FRAGMENT_KEEP, "fragment");
    /// `userinfo`: what the WHATWG userinfo percent-encode set leaves literal (URL Standard
    /// §1.3).
    pub const USERINFO: EncodeSet = EncodeSet::from_bits(USERINFO_KEEP, "userinfo");
    /// `c0`: the WHATWG C0 control percent-encode set: escapes C0 controls and everything
    /// above `~` (URL Standard §1.3).
    pub const C0: EncodeSet = EncodeSet::from_bits(C0_KEEP, "c0");
    /// `iri`: every printable ASCII character stays; only non-ASCII, controls and space are
    /// escaped (IRI to URI, RFC 3987 §3.1).
    pub const IRI: EncodeSet = EncodeSet::from_bits(IRI_KEEP, "iri");
    /// `all`: nothing stays literal, every byte is escaped.
    pub const ALL: EncodeSet = EncodeSet::from_bits(0, "all");

    const fn from_bits(keep: u128, name: &'static str) -> Self {
        EncodeSet {
            keep,
            name,
            space_as_plus: false,
        }
    }

    /// The set with this name (see [`EncodeSet::names`]), case-insensitive.
    ///
    /// An unknown name is an error listing the known ones.
    pub fn named(name: &str) -> Result<EncodeSet, SetError> {
        NAMED
            .iter()
            .find(|(set, _)| set.name.eq_ignore_ascii_case(name.trim()))
            .map(|&(set, _)| set)
            .ok_or_else(|| SetError::UnknownName(name.to_string()))
    }

    /// The names of the named sets.
    pub fn names() -> impl Iterator<Item = &'static str> {
        NAMED.iter().map(|(set, _)| set.name)
    }

    /// Each named set with a one-line description.
    pub fn described() -> impl Iterator<Item = (&'static str, &'static str)> {
        NAMED
            .iter()
            .map(|(set, description)| (set.name, *description))
    }

    /// The name this set was built from (custom additions do not change it).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// This set, also keeping every character of `chars` literal. A space among them is
    /// kept literal rather than written as `+`.
    ///
    /// Non-ASCII characters are an error naming the character and its index.
    pub fn with_safe(self, chars: &str) -> Result<EncodeSet, SetError> {
        let bits = ascii_bits(chars)?;
        Ok(EncodeSet {
            keep: self.keep | bits,
            space_as_plus: self.space_as_plus && bits & bit(b' ') == 0,
            ..self
        })
    }

    /// This set, also escaping every character of `chars`. A space among them is escaped
    /// as `%20` rather than written as `+`.
    ///
    /// Non-ASCII characters are an error naming the character and its index.
    pub fn with_unsafe(self, chars: &str) -> Result<EncodeSet, SetError> {
        let bits = ascii_bits(chars)?;
        Ok(EncodeSet {
            keep: self.keep & !bits,
            space_as_plus: self.space_as_plus && bits & bit(b' ') == 0,
            ..self
        })
    }

    /// Whether this set writes space as `+` ([`EncodeSet::FORM`] and sets made from it).
    pub fn writes_space_as_plus(&self) -> bool {
        self.space_as_plus
    }

    /// Whether `byte` stays literal.
    #[inline]
    pub fn keeps(&self, byte: u8) -> bool {
        byte < 128 && self.keep & bit(byte) != 0
    }

    /// The kept ASCII bytes as a 128-bit map (bit `n` set: byte `n` kept).
    pub fn bits(&self) -> u128 {
        self.keep
    }

    /// A 256-entry table: `true` where the byte stays literal.
    pub fn table(&self) -> [bool; 256] {
        let mut table = [false; 256];
        for (byte, slot) in table.iter_mut().enumerate().take(128) {
            *slot = self.keep & bit(byte as u8) != 0;
        }
        table
    }
}

fn ascii_bits(chars: &str) -> Result<u128, SetError> {
    let mut bits = 0u128;
    for (index, character) in chars.chars().enumerate() {
        if !character.is_ascii() {
            return Err(SetError::NotAscii { character, index });
        }
        bits |= bit(character as u8);
    }
    Ok(bits)
}

impl Default for EncodeSet {
    fn default() -> Self {
        EncodeSet::UNRESERVED
    }
}

impl fmt::Debug for EncodeSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kept: String = (0u8..128)
            .filter(|&b| self.keeps(b))
            .map(|b| b as char)
            .collect();
        f.debug_struct("EncodeSet")
            .field("name", &self.name)
            .field("keeps", &kept)
            .field("space_as_plus", &self.space_as_plus)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_ascii_bytes_are_never_kept() {
        for name in EncodeSet::names() {
            let set = EncodeSet::named(name).unwrap();
            assert!((128..=255).all(|b| !set.keeps(b)), "{name}");
        }
    }

    #[test]
    fn safe_and_unsafe_adjust_the_set() {
        let set = EncodeSet::UNRESERVED
            .with_safe("/:")
            .unwrap()
            .with_unsafe("~")
            .unwrap();
        assert!(set.keeps(b'/') && set.keeps(b':') && !set.keeps(b'~') && set.keeps(b'a'));
    }

    #[test]
    fn non_ascii_safe_character_is_rejected_with_its_index() {
        assert_eq!(
            EncodeSet::UNRESERVED.with_safe("/é"),
            Err(SetError::NotAscii {
                character: 'é',
                index: 1
            })
        );
    }

    #[test]
    fn every_named_set_is_a_constant_with_its_name() {
        let constants = [
            EncodeSet::UNRESERVED,
            EncodeSet::COMPONENT,
            EncodeSet::URI,
            EncodeSet::FORM,
            EncodeSet::PATH,
            EncodeSet::QUERY,
            EncodeSet::SPECIAL_QUERY,
            EncodeSet::FRAGMENT,
            EncodeSet::USERINFO,
            EncodeSet::C0,
            EncodeSet::IRI,
            EncodeSet::ALL,
        ];
        let names: Vec<&str> = EncodeSet::names().collect();
        assert_eq!(names.len(), constants.len());
        for (constant, name) in constants.iter().zip(names) {
            assert_eq!(EncodeSet::named(name).unwrap(), *constant);
            assert_eq!(constant.name(), name);
        }
    }

    #[test]
    fn space_as_plus_belongs_to_the_form_set_unless_space_is_named() {
        let form = EncodeSet::FORM;
        assert!(form.writes_space_as_plus());
        assert!(form.with_unsafe("*").unwrap().writes_space_as_plus());
        assert!(form.with_safe("/").unwrap().writes_space_as_plus());
        assert!(!form.with_unsafe(" ").unwrap().writes_space_as_plus());
        assert!(!form.with_safe(" ").unwrap().writes_space_as_plus());
        assert!(!EncodeSet::UNRESERVED.writes_space_as_plus());
    }

    #[test]
    fn unknown_set_name_lists_the_known_ones() {
        let message = EncodeSet::named("nope").unwrap_err().to_string();
        assert!(message.contains("unreserved") && message.contains("special-query"));
    }
}
