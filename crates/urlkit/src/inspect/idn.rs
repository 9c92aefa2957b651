//! Internationalized domain names: UTS #46 processing (through the `idna` crate) as the URL
//! Standard's "domain to ASCII" and "domain to Unicode" use it (URL Standard §3.3), plus
//! warnings about host names that mix scripts or imitate Latin ones (UTS #39 §5).

use crate::diagnostics::{Code, Diagnostic};
use idna::AsciiDenyList;
use std::fmt;

/// Why a domain name failed UTS #46 processing: the first failing label and its byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct IdnError {
    /// Byte offset of the failing label in the input (0 when the failure is not local to one
    /// label).
    pub position: usize,
    /// What kind of failure, for a caller that words it itself.
    pub kind: IdnProblem,
    /// What failed, in words.
    pub message: String,
}

/// The kinds of [`IdnError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum IdnProblem {
    /// A forbidden domain code point (space, `%`, `/`, …; URL Standard §3.1).
    ForbiddenCodePoint,
    /// Nothing is left of the name after UTS #46 mapping.
    Empty,
    /// One label fails UTS #46 processing (a disallowed code point, invalid Punycode, a
    /// bidi or joiner rule).
    Label,
    /// The labels pass one by one but the name fails as a whole (the bidi rule across
    /// labels).
    WholeName,
}

impl fmt::Display for IdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: {}", self.position, self.message)
    }
}

impl std::error::Error for IdnError {}

/// The URL Standard's "domain to ASCII" with `beStrict` false (URL Standard §3.3, as
/// revised by whatwg/url#914): a domain that is already ASCII is only lower-cased, whatever
/// its `xn--` labels decode to; any other domain goes through UTS #46 ToASCII with
/// CheckHyphens, UseSTD3ASCIIRules, Transitional_Processing and VerifyDnsLength off and
/// CheckBidi, CheckJoiners on. Then the forbidden-domain-code-point check.
/// `例子.卷筒纸` → `xn--fsqu00a.xn--3lr804guic`.
///
/// Bad input: a name UTS #46 rejects (disallowed code points, invalid Punycode, bidi or
/// joiner rule violations), a forbidden domain code point (space, `%`, `/`, …) or an empty
/// result is an error naming the first failing label or character and its offset.
///
/// The `url` crate's own host parser (2.5.8) predates whatwg/url#914 and still rejects ASCII
/// names with invalid `xn--` labels (`xn--a`); this function follows the current standard.
pub fn to_ascii(domain: &str) -> Result<String, IdnError> {
    if domain.is_ascii() {
        if let Some(i) = domain.find(is_forbidden_domain_char) {
            return Err(IdnError {
                position: i,
                kind: IdnProblem::ForbiddenCodePoint,
                message: format!(
                    "{:?} is a forbidden domain code point (URL Standard §3.1)",
                    char::from(domain.as_bytes()[i])
                ),
            });
        }
        if domain.is_empty() {
            return Err(empty());
        }
        return Ok(domain.to_ascii_lowercase());
    }
    match idna::domain_to_ascii_cow(domain.as_bytes(), AsciiDenyList::URL) {
        Ok(ascii) if ascii.is_empty() => Err(empty()),
        Ok(ascii) => Ok(ascii.into_owned()),
        Err(_) => Err(locate_failure(domain, |label| {
            idna::domain_to_ascii_cow(label.as_bytes(), AsciiDenyList::URL).is_ok()
        })),
    }
}

fn empty() -> IdnError {
    IdnError {
        position: 0,
        kind: IdnProblem::Empty,
        message: "the domain name is empty after UTS #46 mapping".into(),
    }
}

/// Forbidden domain code points (URL Standard §3.1).
pub(crate) fn is_forbidden_domain_char(c: char) -> bool {
    matches!(
        c,
        '\0'..=' '
            | '#'
            | '/'
            | ':'
            | '<'
            | '>'
            | '?'
            | '@'
            | '['
            | '\\'
            | ']'
            | '^'
            | '|'
            | '%'
            | '\x7F'
    )
}

/// The URL Standard's "domain to Unicode" (UTS #46 ToUnicode with the flags of [`to_ascii`]):
/// `xn--fsqu00a.xn--3lr804guic` → `例子.卷筒纸`.
///
/// Bad input: a label that fails (for example invalid Punycode) is an error naming it and its
/// offset; use [`to_unicode_lossy`] to get the best-effort result anyway.
pub fn to_unicode(domain: &str) -> Result<String, IdnError> {
    let (unicode, result) = idna::domain_to_unicode(domain);
    match result {
        Ok(()) => Ok(unicode),
        Err(_) => Err(locate_failure(domain, |label| {
            idna::domain_to_unicode(label).1.is_ok()
        })),
    }
}

/// [`to_unicode`] without the error: labels that fail are shown with U+FFFD where UTS #46
/// puts it. Never fails.
pub fn to_unicode_lossy(domain: &str) -> String {
    idna::domain_to_unicode(domain).0
}

fn locate_failure(domain: &str, label_ok: impl Fn(&str) -> bool) -> IdnError {
    let mut offset = 0;
    for label in domain.split(['.', '。', '．', '｡']) {
        if !label.is_empty() && !label_ok(label) {
            return IdnError {
                position: offset,
                kind: IdnProblem::Label,
                message: format!("label {} fails UTS #46 processing (disallowed code point, invalid Punycode, or a bidi/joiner rule)", super::parts::excerpt(label)),
            };
        }
        offset += label.len()
            + domain[offset + label.len()..]
                .chars()
                .next()
                .map_or(0, char::len_utf8);
    }
    IdnError {
        position: 0,
        kind: IdnProblem::WholeName,
        message: format!(
            "{} fails UTS #46 processing as a whole (bidi rule across labels)",
            super::parts::excerpt(domain)
        ),
    }
}

/// The Unicode script of a letter, coarsely (enough for UTS #39 mixed-script checks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Script {
    Latin,
    Greek,
    Cyrillic,
    Armenian,
    Hebrew,
    Arabic,
    Indic,
    Thai,
    Georgian,
    Hangul,
    Hiragana,
    Katakana,
    Bopomofo,
    Han,
    Other,
}

impl Script {
    fn name(self) -> &'static str {
        match self {
            Script::Latin => "Latin",
            Script::Greek => "Greek",
            Script::Cyrillic => "Cyrillic",
            Script::Armenian => "Armenian",
            Script::Hebrew => "Hebrew",
            Script::Arabic => "Arabic",
            Script::Indic => "Indic",
            Script::Thai => "Thai",
            Script::Georgian => "Georgian",
            Script::Hangul => "Hangul",
            Script::Hiragana => "Hiragana",
            Script::Katakana => "Katakana",
            Script::Bopomofo => "Bopomofo",
            Script::Han => "Han",
            Script::Other => "other",
        }
    }
}

/// `None` for characters common to all scripts (digits, hyphen, combining marks).
fn script_of(c: char) -> Option<Script> {
    let u = u32::from(c);
    Some(match u {
        0x41..=0x5A
        | 0x61..=0x7A
        | 0xC0..=0x24F
        | 0x1E00..=0x1EFF
        | 0x2C60..=0x2C7F
        | 0xA720..=0xA7FF
        | 0xAB30..=0xAB6F
        | 0xFF21..=0xFF3A
        | 0xFF41..=0xFF5A => {
            if u == 0xD7 || u == 0xF7 {
                return None;
            }
            Script::Latin
        }
        0x370..=0x3FF | 0x1F00..=0x1FFF => Script::Greek,
        0x400..=0x52F | 0x1C80..=0x1C8F | 0x2DE0..=0x2DFF | 0xA640..=0xA69F => Script::Cyrillic,
        0x530..=0x58F => Script::Armenian,
        0x591..=0x5FF => Script::Hebrew,
        0x600..=0x6FF | 0x750..=0x77F | 0x8A0..=0x8FF | 0xFB50..=0xFDFF | 0xFE70..=0xFEFF => {
            Script::Arabic
        }
        0x900..=0xDFF => Script::Indic,
        0xE00..=0xE7F => Script::Thai,
        0x10A0..=0x10FF => Script::Georgian,
        0x1100..=0x11FF | 0x3130..=0x318F | 0xAC00..=0xD7AF => Script::Hangul,
        0x3040..=0x309F => Script::Hiragana,
        0x30A0..=0x30FF | 0x31F0..=0x31FF | 0xFF66..=0xFF9F => Script::Katakana,
        0x3100..=0x312F | 0x31A0..=0x31BF => Script::Bopomofo,
        0x3005..=0x3007
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xF900..=0xFAFF
        | 0x20000..=0x3FFFF => Script::Han,
        0x30..=0x39 | 0x2D | 0x5F | 0x300..=0x36F => return None,
        _ if c.is_alphabetic() => Script::Other,
        _ => return None,
    })
}

/// Latin look-alikes of Cyrillic and Greek letters (UTS #39 confusables, the common subset).
fn latin_lookalike(c: char) -> Option<char> {
    Some(match c {
        'а' => 'a',
        'в' => 'b',
        'е' => 'e',
        'о' => 'o',
        'р' => 'p',
        'с' => 'c',
        'у' => 'y',
        'х' => 'x',
        'і' => 'i',
        'ј' => 'j',
        'ѕ' => 's',
        'һ' => 'h',
        'ԁ' => 'd',
        'ԛ' => 'q',
        'ԝ' => 'w',
        'ӏ' => 'l',
        'к' => 'k',
        'м' => 'm',
        'н' => 'h',
        'т' => 't',
        'ո' => 'n',
        'ս' => 'u',
        'օ' => 'o',
        'ο' => 'o',
        'α' => 'a',
        'ν' => 'v',
        'ι' => 'i',
        'κ' => 'k',
        'ρ' => 'p',
        'τ' => 't',
        'υ' => 'u',
        'χ' => 'x',
        'ε' => 'e',
        _ => return None,
    })
}

/// Warnings about a (Unicode) host name, per label (UTS #39 §5.1, §5.2):
/// * `mixed-script`: a label mixes scripts other than the combinations UTS #39's "Highly
///   Restrictive" level allows (Latin with Han and Hiragana/Katakana, Bopomofo or Hangul);
/// * `confusable-host`: a label written entirely in letters that look like Latin ones
///   (`раураl` in Cyrillic), or mixing them into Latin.
///
/// `offset` is added to every reported offset (the host's position in a URL). Bad input:
/// none; any string is examined.
pub fn host_warnings(host: &str, offset: usize) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut at = 0;
    for label in host.split('.') {
        let mut scripts: Vec<Script> = label.chars().filter_map(script_of).collect();
        scripts.sort();
        scripts.dedup();
        let cjk_ok = |s: &Script| {
            matches!(
                s,
                Script::Latin | Script::Han | Script::Hiragana | Script::Katakana
            )
        };
        let allowed = scripts.len() <= 1
            || scripts.iter().all(cjk_ok)
            || scripts
                .iter()
                .all(|s| matches!(s, Script::Latin | Script::Han | Script::Bopomofo))
            || scripts
                .iter()
                .all(|s| matches!(s, Script::Latin | Script::Han | Script::Hangul));
        let position = (offset + at) as u64;
        if !allowed {
            let names: Vec<&str> = scripts.iter().map(|s| s.name()).collect();
            out.push(Diagnostic::new(
                Code::MixedScript,
                position,
                format!(
                    "host label {} mixes scripts: {}",
                    super::parts::excerpt(label),
                    names.join(", ")
                ),
            ));
        }
        let foreign = label.chars().any(|c| {
            matches!(
                script_of(c),
                Some(Script::Cyrillic | Script::Greek | Script::Armenian)
            )
        });
        let all_lookalike = label.chars().all(|c| {
            script_of(c).is_none_or(|s| s == Script::Latin) || latin_lookalike(c).is_some()
        });
        if foreign && all_lookalike {
            let skeleton: String = label
                .chars()
                .map(|c| latin_lookalike(c).unwrap_or(c))
                .collect();
            out.push(Diagnostic::new(
                Code::ConfusableHost,
                position,
                format!(
                    "host label {} looks like the Latin {}",
                    super::parts::excerpt(label),
                    super::parts::excerpt(&skeleton)
                ),
            ));
        }
        at += label.len() + 1;
    }
    out
}
