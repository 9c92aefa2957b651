//! Evidence about one candidate decoding beyond the language model: how common its
//! double-byte characters are by the charset's own layout, and the oddities that a wrong
//! charset tends to produce.

use encoding_rs::Encoding;

use super::model::{letter_case, CASE_TABLE};

/// Penalty for a lower-case letter followed by an upper-case one next to non-ASCII.
const CASE_PENALTY: f64 = 5.0;
/// Penalty for a change of script inside a word.
const SCRIPT_PENALTY: f64 = 6.0;

/// How common the double-byte characters are by the charset's own layout: each
/// standard puts its everyday characters in a known block (JIS level-1 kanji, GB2312
/// level-1 hanzi, Big5 frequent hanzi, KS X 1001 Hangul) and the rest elsewhere.
/// Returns a log weight summed over characters; 0 for single-byte charsets and for
/// ASCII. Malformed sequences are scored as rare characters, never a panic.
pub(super) fn layout_score(encoding: &'static Encoding, bytes: &[u8]) -> f64 {
    const COMMON: f64 = 0.0;
    const LESS: f64 = -1.5;
    const RARE: f64 = -4.0;
    if encoding.is_single_byte() {
        return 0.0;
    }
    let mut score = 0.0;
    let mut i = 0;
    while i < bytes.len() {
        let lead = bytes[i];
        if lead < 0x80 {
            i += 1;
            continue;
        }
        let trail = bytes.get(i + 1).copied().unwrap_or(0);
        let (weight, len) = if encoding == encoding_rs::SHIFT_JIS {
            match lead {
                0x81..=0x83 => (COMMON, 2),
                0x88..=0x98 => (COMMON, 2),
                0x99..=0x9F | 0xE0..=0xEA => (LESS, 2),
                // Half-width katakana, one byte each (older systems and phones).
                0xA1..=0xDF => (LESS, 1),
                _ => (RARE, 2),
            }
        } else if encoding == encoding_rs::EUC_JP {
            match lead {
                0xA1 | 0xA4 | 0xA5 | 0xB0..=0xCF => (COMMON, 2),
                // Level-2 kanji, full-width Latin letters and digits, and the
                // half-width katakana (8E and the byte Shift_JIS writes alone).
                0xA3 | 0xD0..=0xF4 | 0x8E => (LESS, 2),
                0x8F => (RARE, 3),
                _ => (RARE, 2),
            }
        } else if encoding == encoding_rs::GBK {
            match (lead, trail) {
                (0xA1 | 0xA3 | 0xB0..=0xD7, 0xA1..=0xFE) => (COMMON, 2),
                (0xD8..=0xF7, 0xA1..=0xFE) => (LESS, 2),
                (_, 0x30..=0x39) => (RARE, 4),
                _ => (RARE, 2),
            }
        } else if encoding == encoding_rs::BIG5 {
            match (lead, trail) {
                (0xA1..=0xA3, _) | (0xA4..=0xC5, _) => (COMMON, 2),
                (0xC6, 0x40..=0x7E) => (COMMON, 2),
                (0xC9..=0xF9, _) => (LESS, 2),
                _ => (RARE, 2),
            }
        } else if encoding == encoding_rs::EUC_KR {
            match (lead, trail) {
                // A syllable outside KS X 1001's 2,350, written in eight bytes: the filler
                // and three jamo (see `compose::compose_jamo`).
                (0xA4, 0xD4) if is_eight_byte_syllable(&bytes[i..]) => (LESS, 8),
                (0xA1 | 0xA3 | 0xB0..=0xC8, 0xA1..=0xFE) => (COMMON, 2),
                (0xCA..=0xFD, 0xA1..=0xFE) => (LESS, 2),
                _ => (RARE, 2),
            }
        } else {
            return 0.0;
        };
        score += weight;
        i += len;
    }
    score
}

/// Whether `bytes` start with a Hangul syllable as EUC-KR writes one outside KS X 1001:
/// the filler `A4 D4`, then three jamo of row `A4` (the last may be the filler again).
fn is_eight_byte_syllable(bytes: &[u8]) -> bool {
    matches!(
        bytes,
        [
            0xA4,
            0xD4,
            0xA4,
            0xA1..=0xBE,
            0xA4,
            0xBF..=0xD3,
            0xA4,
            0xA1..=0xBE | 0xD4,
            ..
        ]
    )
}

/// Penalty for oddities that any charset decoded wrongly tends to produce and real text
/// rarely has, where at least one of the two neighbours is non-ASCII: an upper-case
/// letter right after a lower-case one, a change of script inside a word, and a Thai
/// letter standing alone (Thai runs its words together). 0 for empty or ASCII text.
pub(super) fn oddities(text: &[char]) -> f64 {
    let mut penalty = 0.0;
    let mut prev = ' ';
    // The script of `prev`, once worked out (ASCII after ASCII never needs it).
    let mut prev_script = None;
    let mut thai_run = 0;
    for &c in text {
        if c.is_ascii() && prev.is_ascii() {
            // Nothing odd between two ASCII characters; an ASCII one ends a Thai run.
            if thai_run == 1 {
                penalty += SCRIPT_PENALTY;
            }
            thai_run = 0;
            prev = c;
            prev_script = None;
            continue;
        }
        let c_script = script(c);
        if c_script == Some(Script::Thai) {
            thai_run += 1;
        } else {
            if thai_run == 1 {
                penalty += SCRIPT_PENALTY;
            }
            thai_run = 0;
        }
        // One of the two is not ASCII here.
        if letter_case(prev).lowercase && letter_case(c).upper {
            penalty += CASE_PENALTY;
        }
        let before = prev_script.unwrap_or_else(|| script(prev));
        match (before, c_script) {
            (Some(a), Some(b)) if a != b => {
                penalty += if a == Script::Cjk || b == Script::Cjk {
                    SCRIPT_PENALTY / 3.0
                } else {
                    SCRIPT_PENALTY
                };
            }
            _ => {}
        }
        prev = c;
        prev_script = Some(c_script);
    }
    if thai_run == 1 {
        penalty += SCRIPT_PENALTY;
    }
    penalty
}

/// Penalty per word of ASCII letters when the candidate's language is not written in
/// Latin letters (see [`latin_words_in_other_script`]).
const LATIN_WORD_PENALTY: f64 = 1.0;

/// Whether `encoding` is for a language written in Latin letters.
pub(super) fn is_latin(encoding: &'static Encoding) -> bool {
    use encoding_rs::*;
    [
        WINDOWS_1252,
        WINDOWS_1250,
        ISO_8859_2,
        WINDOWS_1254,
        WINDOWS_1257,
        WINDOWS_1258,
    ]
    .contains(&encoding)
}

/// Penalty for a reading in a non-Latin script of text that is mostly words in ASCII
/// letters: such text is far likelier a Latin-script language with a few accented
/// letters (Italian `è` read as Cyrillic `и`). Counts words of two or more ASCII
/// letters, at most two for every word with non-ASCII letters, so that the ASCII
/// names around a query value in a URL weigh little. `ascii_words_beside` more such
/// words stand in text left out of `text` (see [`ascii_words`]). 0 for text without
/// ASCII words.
pub(super) fn latin_words_in_other_script(text: &[char], ascii_words_beside: usize) -> f64 {
    let (ascii_words, other_words) = words(text.iter().copied());
    LATIN_WORD_PENALTY * (ascii_words + ascii_words_beside).min(2 * other_words) as f64
}

/// The words of two or more ASCII letters in ASCII `bytes` (a word at either end
/// counts whole): what [`latin_words_in_other_script`] counts of them.
pub(super) fn ascii_words(bytes: &[u8]) -> usize {
    words(bytes.iter().map(|&b| char::from(b))).0
}

/// The words of two or more ASCII letters and the words with a non-ASCII letter in
/// `chars`.
fn words(chars: impl Iterator<Item = char>) -> (usize, usize) {
    let (mut ascii_words, mut other_words) = (0usize, 0usize);
    let (mut letters, mut non_ascii) = (0usize, false);
    for c in chars.chain([' ']) {
        if is_letter(c) {
            letters += 1;
            non_ascii |= !c.is_ascii();
        } else {
            if non_ascii {
                other_words += 1;
            } else if letters >= 2 {
                ascii_words += 1;
            }
            (letters, non_ascii) = (0, false);
        }
    }
    (ascii_words, other_words)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Script {
    Latin,
    Greek,
    Cyrillic,
    Hebrew,
    Arabic,
    Thai,
    Cjk,
}

/// Script of a letter (combining marks count with the script of their block): from
/// [`CLASSES`] below U+2200.
fn script(c: char) -> Option<Script> {
    match CLASSES.get(c as usize) {
        Some(class) => class.script,
        None => script_of(u32::from(c)),
    }
}

/// [`script`] of the character whose scalar value is `n`, worked out from the blocks.
const fn script_of(n: u32) -> Option<Script> {
    let script = match n {
        0x41..=0x5A | 0x61..=0x7A | 0xC0..=0x24F | 0x1E00..=0x1EFF => Script::Latin,
        0x370..=0x3FF | 0x1F00..=0x1FFF => Script::Greek,
        0x400..=0x52F => Script::Cyrillic,
        0x591..=0x5FF => Script::Hebrew,
        0x600..=0x6FF | 0x750..=0x77F | 0xFB50..=0xFEFF => Script::Arabic,
        0xE01..=0xE5B => Script::Thai,
        0x3040..=0x30FF | 0x3400..=0x9FFF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFF66..=0xFF9D => {
            Script::Cjk
        }
        _ => return None,
    };
    Some(script)
}

/// Whether `c` can be part of a word: an ASCII letter, or a non-ASCII character outside
/// the blocks of signs, punctuation and controls. Cheaper than `char::is_alphabetic`
/// (which looks up tables for every ideograph) and close enough for scoring; from
/// [`CLASSES`] below U+2200.
pub(super) fn is_letter(c: char) -> bool {
    match CLASSES.get(c as usize) {
        Some(class) => class.letter,
        None => is_letter_of(u32::from(c)),
    }
}

/// [`is_letter`] of the character whose scalar value is `n`, worked out from the blocks.
const fn is_letter_of(n: u32) -> bool {
    if n < 0x80 {
        return (n as u8).is_ascii_alphabetic();
    }
    !matches!(
        n,
        0x80..=0xA9 | 0xAB..=0xB4 | 0xB6..=0xB9 | 0xBB..=0xBF | 0xD7 | 0xF7
            | 0x2000..=0x2BFF | 0x3000..=0x3003 | 0x3008..=0x303F | 0xFF00..=0xFF0F
            | 0xFF1A..=0xFF20 | 0xFF3B..=0xFF40 | 0xFF5B..=0xFF65 | 0xFFFD
    )
}

/// What [`script`] and [`is_letter`] say of a character.
#[derive(Clone, Copy)]
struct Class {
    script: Option<Script>,
    letter: bool,
}

/// [`Class`] of every character below U+2200 (the alphabets of the legacy single-byte
/// charsets and the signs their upper halves decode to), by scalar value, worked out
/// when the library is built.
static CLASSES: [Class; CASE_TABLE as usize] = {
    let mut classes = [Class {
        script: None,
        letter: false,
    }; CASE_TABLE as usize];
    let mut n = 0;
    while n < classes.len() {
        classes[n] = Class {
            script: script_of(n as u32),
            letter: is_letter_of(n as u32),
        };
        n += 1;
    }
    classes
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_and_scripts_read_alike_from_the_table_and_beyond_it() {
        for (c, expected) in [
            ('a', Some(Script::Latin)),
            ('é', Some(Script::Latin)),
            ('ж', Some(Script::Cyrillic)),
            ('λ', Some(Script::Greek)),
            ('ש', Some(Script::Hebrew)),
            ('ق', Some(Script::Arabic)),
            ('ก', Some(Script::Thai)),
            ('中', Some(Script::Cjk)),
            ('ﻻ', Some(Script::Arabic)),
            ('1', None),
            ('€', None),
        ] {
            assert!(script(c) == expected, "{c}");
        }
        for c in ['a', 'Z', 'é', 'ж', 'ก', '中', 'ア', '한'] {
            assert!(is_letter(c), "{c}");
        }
        for c in [' ', '1', '«', '×', '€', '\u{2013}', '、', '！', '\u{FFFD}'] {
            assert!(!is_letter(c), "{c}");
        }
    }
}
