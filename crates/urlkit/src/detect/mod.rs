//! Charset detection for percent-decoded bytes (PRODUCT §1, "Decoding", `auto`).
//!
//! The order is fixed: a byte order mark wins; then ISO-2022-JP escape sequences and
//! BOM-less UTF-16 (NUL bytes in every other position); then pure ASCII and valid UTF-8
//! (both reported as UTF-8); then a statistical guess among legacy charsets.
//!
//! The statistical guess decodes the bytes in every candidate charset with
//! [`encoding_rs`] and asks, for each, how likely the resulting text is in a language
//! written in that charset: a character model (letters and letter pairs, trained on text
//! in each language; see `detect-eval/make_model.py`) plus, for the East Asian
//! double-byte charsets, how common the characters are by the charset's own layout
//! (level-1 kanji and hanzi, common Hangul syllables). The [`chardetng`] crate's guess,
//! with the top-level-domain hint, is one more vote. Scores are log-likelihoods, so the
//! reported confidence is the posterior over the candidates, and the runners-up are the
//! next candidates by the same measure.

use std::collections::HashMap;
use std::sync::OnceLock;

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::Encoding;

/// One candidate charset and its score.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// WHATWG canonical name, as [`Detection::charset`].
    pub charset: &'static str,
    /// Posterior probability of this candidate, `0.0..=1.0`.
    pub confidence: f32,
}

/// The result of [`detect`].
#[derive(Clone, Debug, PartialEq)]
pub struct Detection {
    /// WHATWG canonical name as `encoding_rs` spells it (`"UTF-8"`, `"Shift_JIS"`,
    /// `"windows-1251"`, `"UTF-16LE"`, …), or `"UTF-32LE"` / `"UTF-32BE"`.
    pub charset: &'static str,
    /// How sure the detector is, `0.0..=1.0`: for a statistical guess, the posterior
    /// probability that decoding in `charset` gives the right text (candidates that decode
    /// these bytes to the same text count with it).
    pub confidence: f32,
    /// Why this charset: `"empty input"`, `"byte order mark"`, `"ISO-2022-JP escapes"`,
    /// `"NUL bytes alternate"`, `"ASCII only"`, `"valid UTF-8"` or `"statistical guess"`.
    pub reason: &'static str,
    /// Bytes of byte order mark to skip when decoding (0 if none).
    pub bom_length: usize,
    /// Other candidates, best first, excluding `charset`; at most [`MAX_RUNNERS_UP`].
    pub runners_up: Vec<Candidate>,
}

/// Bytes of input the statistical guess looks at; more rarely changes the answer.
pub const SAMPLE_LIMIT: usize = 64 * 1024;

/// Most runners-up a [`Detection`] lists.
pub const MAX_RUNNERS_UP: usize = 4;

/// Guesses the charset of `bytes` (already percent-decoded).
///
/// `tld_hint` is a top-level domain such as `"jp"` (any case; see [`tld_of_url`]); a
/// hint that is not a plausible DNS label is ignored. Never panics: empty input is
/// reported as UTF-8 with reason `"empty input"` and low confidence, and bytes that are
/// malformed in every candidate charset still get the least damaged candidate. The
/// statistical guess reads at most the first [`SAMPLE_LIMIT`] bytes; the BOM, ASCII and
/// UTF-8 checks read everything.
pub fn detect(bytes: &[u8], tld_hint: Option<&str>) -> Detection {
    detect_start(bytes, tld_hint, true)
}

/// Bytes of valid UTF-8 the runners-up are ranked on.
const RUNNERS_UP_SAMPLE: usize = 4 * 1024;

/// [`detect`] on the start of an input: with `complete` false more bytes follow, so a
/// character cut at the end of `bytes` is no evidence against a charset (UTF-8 included).
pub fn detect_start(bytes: &[u8], tld_hint: Option<&str>, complete: bool) -> Detection {
    if bytes.is_empty() {
        return fixed("UTF-8", 0.1, "empty input", 0);
    }
    if let Some((charset, bom_length)) = sniff_bom(bytes) {
        return fixed(charset, 1.0, "byte order mark", bom_length);
    }
    if bytes.contains(&0x1B) && looks_like_iso_2022_jp(bytes) {
        return fixed("ISO-2022-JP", 0.95, "ISO-2022-JP escapes", 0);
    }
    if let Some(charset) = sniff_utf16_without_bom(bytes) {
        return fixed(charset, 0.9, "NUL bytes alternate", 0);
    }
    if bytes.is_ascii() {
        return fixed("UTF-8", 1.0, "ASCII only", 0);
    }
    let tld = normalise_tld(tld_hint);
    let utf8 = match std::str::from_utf8(bytes) {
        Ok(text) => Some(text),
        Err(e) if !complete && e.error_len().is_none() => {
            std::str::from_utf8(&bytes[..e.valid_up_to()]).ok()
        }
        Err(_) => None,
    };
    if let Some(text) = utf8 {
        // Legacy text that happens to be valid UTF-8 gets rarer with every multi-byte
        // sequence; one two-byte sequence alone is weak evidence.
        let multi = text.chars().filter(|c| !c.is_ascii()).count() as i32;
        let long_seqs = text.chars().filter(|c| c.len_utf8() > 2).count() as i32;
        let doubt = 0.25f32.powi(multi + long_seqs);
        let sample = &bytes[..bytes.len().min(RUNNERS_UP_SAMPLE)];
        let ranked = rank_legacy(
            sample,
            tld.as_deref(),
            complete && sample.len() == bytes.len(),
        );
        let runners_up = ranked
            .into_iter()
            .take(MAX_RUNNERS_UP)
            .map(|c| Candidate {
                charset: c.charset,
                confidence: c.confidence * doubt,
            })
            .collect();
        return Detection {
            charset: "UTF-8",
            confidence: 1.0 - doubt,
            reason: "valid UTF-8",
            bom_length: 0,
            runners_up,
        };
    }
    let ranked = rank_legacy(bytes, tld.as_deref(), complete);
    let mut ranked = ranked.into_iter();
    let best = ranked.next().unwrap_or(Candidate {
        charset: "windows-1252",
        confidence: 0.0,
    });
    Detection {
        charset: best.charset,
        confidence: best.confidence,
        reason: "statistical guess",
        bom_length: 0,
        runners_up: ranked.take(MAX_RUNNERS_UP).collect(),
    }
}

/// Top-level domain of the host of the URL that `text` holds, if it looks like a URL
/// with an authority (`scheme://host…` or `//host…`): `"http://example.jp/x"` gives
/// `Some("jp")`, returned as written (not lower-cased).
///
/// Returns `None` for text without `//`, for hosts without a dot, for IP literals and
/// numeric last labels, and for labels that are not ASCII letters, digits and `-`
/// (Unicode labels must be in Punycode, as DNS carries them).
pub fn tld_of_url(text: &[u8]) -> Option<&str> {
    let start = find(text, b"//")? + 2;
    let scheme = &text[..start - 2];
    let scheme = scheme.strip_suffix(b":").unwrap_or(scheme);
    if !scheme
        .iter()
        .all(|&b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
    {
        return None;
    }
    let rest = &text[start..];
    let end = rest
        .iter()
        .position(|b| b"/?#\\".contains(b) || b.is_ascii_whitespace())
        .unwrap_or(rest.len());
    let authority = &rest[..end];
    let host = match authority.iter().rposition(|&b| b == b'@') {
        Some(at) => &authority[at + 1..],
        None => authority,
    };
    if host.first() == Some(&b'[') {
        return None;
    }
    let host = match host.iter().position(|&b| b == b':') {
        Some(colon) => &host[..colon],
        None => host,
    };
    let host = host.strip_suffix(b".").unwrap_or(host);
    let dot = host.iter().rposition(|&b| b == b'.')?;
    let label = &host[dot + 1..];
    if label.is_empty()
        || label.iter().all(u8::is_ascii_digit)
        || !label
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b == b'-')
    {
        return None;
    }
    std::str::from_utf8(label).ok()
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn fixed(charset: &'static str, confidence: f32, reason: &'static str, bom: usize) -> Detection {
    Detection {
        charset,
        confidence,
        reason,
        bom_length: bom,
        runners_up: Vec::new(),
    }
}

/// Byte order marks, longest first so that the UTF-32LE mark `FF FE 00 00` wins over
/// the UTF-16LE mark `FF FE` it starts with.
fn sniff_bom(bytes: &[u8]) -> Option<(&'static str, usize)> {
    const MARKS: [(&[u8], &str); 5] = [
        (&[0xFF, 0xFE, 0x00, 0x00], "UTF-32LE"),
        (&[0x00, 0x00, 0xFE, 0xFF], "UTF-32BE"),
        (&[0xEF, 0xBB, 0xBF], "UTF-8"),
        (&[0xFF, 0xFE], "UTF-16LE"),
        (&[0xFE, 0xFF], "UTF-16BE"),
    ];
    MARKS
        .iter()
        .find(|(mark, _)| bytes.starts_with(mark))
        .map(|(mark, name)| (*name, mark.len()))
}

fn looks_like_iso_2022_jp(bytes: &[u8]) -> bool {
    let has_shift = bytes
        .windows(3)
        .any(|w| matches!(w, [0x1B, b'$', b'@' | b'B'] | [0x1B, b'(', b'I' | b'J']));
    has_shift
        && encoding_rs::ISO_2022_JP
            .decode_without_bom_handling_and_without_replacement(bytes)
            .is_some()
}

/// UTF-16 without a byte order mark: text with Latin letters, digits or spaces has a NUL
/// in every code unit's high byte, and nowhere else.
fn sniff_utf16_without_bom(bytes: &[u8]) -> Option<&'static str> {
    if bytes.len() < 4 || !bytes.len().is_multiple_of(2) {
        return None;
    }
    let units = bytes.len() / 2;
    let even_nul = bytes.iter().step_by(2).filter(|&&b| b == 0).count();
    let odd_nul = bytes.iter().skip(1).step_by(2).filter(|&&b| b == 0).count();
    let (charset, high, low) = if odd_nul > even_nul {
        ("UTF-16LE", odd_nul, even_nul)
    } else {
        ("UTF-16BE", even_nul, odd_nul)
    };
    let enough = high * 4 >= units && low * 8 <= high;
    let encoding = Encoding::for_label(charset.as_bytes())?;
    (enough
        && encoding
            .decode_without_bom_handling_and_without_replacement(bytes)
            .is_some())
    .then_some(charset)
}

/// A TLD hint as chardetng wants it (lower-case ASCII, no dot), or `None` when the hint
/// cannot be a DNS label.
fn normalise_tld(hint: Option<&str>) -> Option<String> {
    let hint = hint?.trim_start_matches('.');
    (!hint.is_empty()
        && hint.len() <= 63
        && hint.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
    .then(|| hint.to_ascii_lowercase())
}

/// Legacy charsets the statistical guess chooses among, with a prior (natural log) that
/// reflects how often each is met in the wild relative to the others of its script.
const LEGACY: [(&str, f64); 21] = [
    ("windows-1252", 0.0),
    ("windows-1250", -0.5),
    ("ISO-8859-2", -1.5),
    ("windows-1254", -0.5),
    ("windows-1251", 0.0),
    ("KOI8-R", -1.0),
    ("KOI8-U", -3.0),
    ("ISO-8859-5", -2.0),
    ("IBM866", -2.0),
    ("windows-1253", 0.0),
    ("ISO-8859-7", -1.0),
    ("windows-1255", 0.0),
    ("windows-1256", 0.0),
    ("windows-874", 0.0),
    ("windows-1258", -1.0),
    ("Shift_JIS", 0.0),
    ("EUC-JP", -0.5),
    ("ISO-2022-JP", -0.5),
    ("GBK", 0.0),
    ("Big5", 0.0),
    ("EUC-KR", 0.0),
];

/// Charsets native to a country-code TLD, which get a boost when the hint names it.
fn native_to_tld(tld: &str, charset: &str) -> bool {
    let natives: &[&str] = match tld {
        "jp" => &["Shift_JIS", "EUC-JP", "ISO-2022-JP"],
        "cn" => &["GBK"],
        "tw" | "hk" | "mo" => &["Big5"],
        "kr" => &["EUC-KR"],
        "ru" | "su" | "by" | "kz" | "bg" | "mk" | "rs" | "xn--p1ai" => {
            &["windows-1251", "KOI8-R", "ISO-8859-5", "IBM866"]
        }
        "ua" => &["windows-1251", "KOI8-U"],
        "gr" | "cy" => &["windows-1253", "ISO-8859-7"],
        "il" => &["windows-1255"],
        "sa" | "ae" | "eg" | "ir" | "iq" | "jo" | "sy" | "lb" | "kw" | "qa" | "om" | "ye"
        | "dz" | "ma" | "tn" | "ly" | "sd" | "bh" | "ps" | "af" | "pk" => &["windows-1256"],
        "th" => &["windows-874"],
        "tr" | "az" => &["windows-1254"],
        "cz" | "sk" | "pl" | "hu" | "si" | "hr" | "ro" | "ba" => &["windows-1250", "ISO-8859-2"],
        "vn" => &["windows-1258"],
        _ => &[],
    };
    natives.contains(&charset)
}

/// Log-score bonus for chardetng's choice: strong on long inputs, where its byte-pair
/// statistics are reliable, modest on short ones.
fn chardetng_bonus(non_ascii: usize) -> f64 {
    1.0 + (non_ascii as f64 * 0.15).min(6.0)
}

const TLD_BONUS: f64 = 2.5;
const MALFORMED_PENALTY: f64 = 25.0;
const CASE_PENALTY: f64 = 5.0;
/// A statistical guess is never certain: on the evaluation samples about 1 in 300 of
/// the guesses the model was surest of were wrong.
const MAX_GUESS_CONFIDENCE: f32 = 0.995;
const SCRIPT_PENALTY: f64 = 6.0;

/// Ranks the legacy candidates for `bytes`, best first, with posterior confidences.
fn rank_legacy(bytes: &[u8], tld: Option<&str>, complete: bool) -> Vec<Candidate> {
    let complete = complete && bytes.len() <= SAMPLE_LIMIT;
    let bytes = &bytes[..bytes.len().min(SAMPLE_LIMIT)];
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Allow);
    detector.feed(bytes, complete);
    let chardetng_guess = detector
        .guess(tld.map(str::as_bytes), Utf8Detection::Deny)
        .name();
    let non_ascii = bytes.iter().filter(|&&b| b >= 0x80).count();
    let model = model();
    let mut scored: Vec<(&'static str, f64, String)> = Vec::with_capacity(LEGACY.len());
    for &(charset, prior) in &LEGACY {
        let Some(encoding) = Encoding::for_label(charset.as_bytes()) else {
            continue;
        };
        let text = decode_prefix(encoding, bytes, complete);
        let malformed = text.chars().filter(|&c| c == '\u{FFFD}').count();
        let languages = model.languages_for(charset);
        let fit = languages
            .iter()
            .map(|lang| lang.log_likelihood(&text))
            .fold(f64::NEG_INFINITY, f64::max);
        if !fit.is_finite() {
            continue;
        }
        let mut score = fit + prior + layout_score(charset, bytes);
        score -= MALFORMED_PENALTY * malformed as f64;
        score -= oddities(&text);
        if tld.is_some_and(|t| native_to_tld(t, charset)) {
            score += TLD_BONUS;
        }
        if charset == chardetng_guess {
            score += chardetng_bonus(non_ascii);
        }
        scored.push((encoding.name(), score, text));
    }
    scored.sort_by(|a, b| b.1.total_cmp(&a.1));
    let top = scored.first().map_or(0.0, |s| s.1);
    let total: f64 = scored.iter().map(|s| (s.1 - top).exp()).sum();
    let posterior = |score: f64| ((score - top).exp() / total) as f32;
    // The winner's confidence is that its text is right: candidates that decode these
    // bytes to the very same text (windows-1250 and ISO-8859-2 on most Czech words) add
    // to it. Runners-up keep their own share.
    let winner_text = scored.first().map(|s| s.2.clone()).unwrap_or_default();
    let agreeing: f32 = scored
        .iter()
        .filter(|s| s.2 == winner_text)
        .map(|s| posterior(s.1))
        .sum();
    scored
        .into_iter()
        .enumerate()
        .map(|(i, (charset, score, _))| Candidate {
            charset,
            confidence: if i == 0 {
                agreeing.min(MAX_GUESS_CONFIDENCE)
            } else {
                posterior(score)
            },
        })
        .collect()
}

/// Decodes `bytes` with U+FFFD for malformed sequences; when the input goes on past
/// `bytes` (`complete` false), a character cut at the end is left out, not reported.
fn decode_prefix(encoding: &'static Encoding, bytes: &[u8], complete: bool) -> String {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let capacity = decoder
        .max_utf8_buffer_length(bytes.len())
        .unwrap_or(bytes.len().saturating_mul(3).saturating_add(16));
    let mut text = String::with_capacity(capacity);
    let _ = decoder.decode_to_string(bytes, &mut text, complete);
    text
}

/// How common the double-byte characters are by the charset's own layout: each
/// standard puts its everyday characters in a known block (JIS level-1 kanji, GB2312
/// level-1 hanzi, Big5 frequent hanzi, KS X 1001 Hangul) and the rest elsewhere.
/// Returns a log weight summed over characters; 0 for single-byte charsets.
fn layout_score(charset: &str, bytes: &[u8]) -> f64 {
    const COMMON: f64 = 0.0;
    const LESS: f64 = -1.5;
    const RARE: f64 = -4.0;
    let mut score = 0.0;
    let mut i = 0;
    while i < bytes.len() {
        let lead = bytes[i];
        if lead < 0x80 {
            i += 1;
            continue;
        }
        let trail = bytes.get(i + 1).copied().unwrap_or(0);
        let (weight, len) = match charset {
            "Shift_JIS" => match lead {
                0x81..=0x83 => (COMMON, 2),
                0x88..=0x98 => (COMMON, 2),
                0x99..=0x9F | 0xE0..=0xEA => (LESS, 2),
                0xA1..=0xDF => (LESS, 1),
                _ => (RARE, 2),
            },
            "EUC-JP" => match lead {
                0xA1 | 0xA4 | 0xA5 | 0xB0..=0xCF => (COMMON, 2),
                0xA3 | 0xD0..=0xF4 => (LESS, 2),
                0x8F => (RARE, 3),
                _ => (RARE, 2),
            },
            "GBK" => match (lead, trail) {
                (0xA1 | 0xA3 | 0xB0..=0xD7, 0xA1..=0xFE) => (COMMON, 2),
                (0xD8..=0xF7, 0xA1..=0xFE) => (LESS, 2),
                (_, 0x30..=0x39) => (RARE, 4),
                _ => (RARE, 2),
            },
            "Big5" => match (lead, trail) {
                (0xA1..=0xA3, _) | (0xA4..=0xC5, _) => (COMMON, 2),
                (0xC6, 0x40..=0x7E) => (COMMON, 2),
                (0xC9..=0xF9, _) => (LESS, 2),
                _ => (RARE, 2),
            },
            "EUC-KR" => match (lead, trail) {
                (0xA1 | 0xA3 | 0xB0..=0xC8, 0xA1..=0xFE) => (COMMON, 2),
                (0xCA..=0xFD, 0xA1..=0xFE) => (LESS, 2),
                _ => (RARE, 2),
            },
            _ => return 0.0,
        };
        score += weight;
        i += len;
    }
    score
}

/// Character model of one language, trained by `detect-eval/make_model.py`.
struct Language {
    charsets: Vec<&'static str>,
    unigrams: HashMap<char, u32>,
    bigrams: HashMap<(char, char), u32>,
    total: f64,
    /// Weight of the unigram inside pair probabilities.
    backoff: f64,
    /// Share of the training text in each [`Block`], smoothed.
    blocks: [f64; BLOCKS],
}

/// Pseudo-count (models are scaled to a million characters) of the class-based
/// fallback for characters the training text never showed.
const UNIGRAM_PRIOR: f64 = 2000.0;
/// Weight of the unigram fallback inside pair probabilities, relative to the context's
/// count. Alphabetic languages list every pair seen twice, so an unseen pair is telling;
/// the ideographic ones list only the most frequent, so it is not.
const BIGRAM_BACKOFF: f64 = 0.01;
const BIGRAM_BACKOFF_CUT: f64 = 0.3;
/// A language whose pair list is this long had it cut (see `make_model.py`).
const PAIRS_CUT: usize = 3000;

impl Language {
    /// Natural-log likelihood of the non-ASCII part of `text` (normalised as in
    /// training): every non-ASCII character given the one before it, and every ASCII
    /// character that follows a non-ASCII one by how much that context changes its
    /// odds. ASCII after ASCII is the same in every candidate charset and not scored.
    fn log_likelihood(&self, text: &str) -> f64 {
        let mut sum = 0.0;
        let mut prev = ' ';
        for c in text.chars().map(normalise_char).chain([' ']) {
            if c == ' ' && prev == ' ' {
                continue;
            }
            if !c.is_ascii() {
                sum += self.conditional(prev, c).ln();
            } else if !prev.is_ascii() {
                sum += (self.conditional(prev, c) / self.unigram(c)).ln();
            }
            prev = c;
        }
        sum
    }

    /// Probability of `c` after `prev`: pair counts interpolated with the unigram.
    fn conditional(&self, prev: char, c: char) -> f64 {
        let p_uni = self.unigram(c);
        let ctx = self.unigrams.get(&prev).copied().unwrap_or(0) as f64;
        let pair = self.bigrams.get(&(prev, c)).copied().unwrap_or(0) as f64;
        let k = ctx * self.backoff + 1.0;
        (pair + k * p_uni) / (ctx + k)
    }

    fn unigram(&self, c: char) -> f64 {
        let (block, size) = block_of(c);
        let base = self.blocks[block] / size;
        let seen = self.unigrams.get(&c).copied().unwrap_or(0) as f64;
        (seen + UNIGRAM_PRIOR * base) / (self.total + UNIGRAM_PRIOR)
    }
}

fn normalise_char(c: char) -> char {
    if c.is_ascii() && !c.is_ascii_alphabetic() {
        ' '
    } else {
        c.to_lowercase().next().unwrap_or(c)
    }
}

/// Penalty for oddities that any charset decoded wrongly tends to produce and real text
/// rarely has, where at least one of the two neighbours is non-ASCII: an upper-case
/// letter right after a lower-case one, and a change of script inside a word.
fn oddities(text: &str) -> f64 {
    let mut penalty = 0.0;
    let mut prev = ' ';
    for c in text.chars() {
        if !(prev.is_ascii() && c.is_ascii()) {
            if prev.is_lowercase() && c.is_uppercase() {
                penalty += CASE_PENALTY;
            }
            match (script(prev), script(c)) {
                (Some(a), Some(b)) if a != b => {
                    penalty += if a == Script::Cjk || b == Script::Cjk {
                        SCRIPT_PENALTY / 3.0
                    } else {
                        SCRIPT_PENALTY
                    };
                }
                _ => {}
            }
        }
        prev = c;
    }
    penalty
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

/// Script of a letter (combining marks count with the script of their block).
fn script(c: char) -> Option<Script> {
    let script = match c as u32 {
        0x41..=0x5A | 0x61..=0x7A | 0xC0..=0x24F | 0x1E00..=0x1EFF => Script::Latin,
        0x370..=0x3FF | 0x1F00..=0x1FFF => Script::Greek,
        0x400..=0x52F => Script::Cyrillic,
        0x591..=0x5FF => Script::Hebrew,
        0x600..=0x6FF | 0x750..=0x77F | 0xFB50..=0xFEFF => Script::Arabic,
        0xE01..=0xE5B => Script::Thai,
        0x3040..=0x30FF | 0x3400..=0x9FFF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF => Script::Cjk,
        _ => return None,
    };
    (c.is_alphabetic() || !c.is_ascii()).then_some(script)
}

const BLOCKS: usize = 22;

/// Coarse character classes and their sizes, the fallback for characters the training
/// text never showed.
fn block_of(c: char) -> (usize, f64) {
    match c as u32 {
        0x20 => (0, 1.0),
        0x41..=0x5A | 0x61..=0x7A => (1, 52.0),
        0x00..=0x7F => (0, 1.0),
        0x80..=0x9F => (2, 32.0),
        0xA0..=0xBF | 0xD7 | 0xF7 => (3, 34.0),
        0xC0..=0xFF => (4, 62.0),
        0x100..=0x24F => (5, 336.0),
        0x300..=0x36F => (6, 112.0),
        0x370..=0x3FF => (7, 144.0),
        0x400..=0x4FF => (8, 256.0),
        0x590..=0x5FF => (9, 112.0),
        0x600..=0x6FF => (10, 256.0),
        0xE00..=0xE7F => (11, 128.0),
        0x2000..=0x206F | 0x20A0..=0x20CF | 0x2100..=0x214F => (12, 240.0),
        0x2500..=0x259F => (13, 160.0),
        0x3000..=0x303F | 0xFF00..=0xFF5F => (14, 160.0),
        0x3040..=0x309F => (15, 96.0),
        0x30A0..=0x30FF | 0xFF60..=0xFF9F => (16, 160.0),
        0x4E00..=0x9FFF => (17, 20992.0),
        0xAC00..=0xD7A3 => (18, 11172.0),
        0x1100..=0x11FF | 0x3130..=0x318F => (19, 352.0),
        0xE000..=0xF8FF => (20, 6400.0),
        _ => (21, 60000.0),
    }
}

/// All trained languages.
struct Model {
    languages: Vec<Language>,
}

impl Model {
    fn languages_for(&self, charset: &str) -> Vec<&Language> {
        self.languages
            .iter()
            .filter(|l| l.charsets.contains(&charset))
            .collect()
    }
}

/// The model of `detect_model.txt`, packed by `build.rs`.
static MODEL_PACKED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/detect_model.bin"));

fn model() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(|| unpack_model(MODEL_PACKED))
}

/// Reads the packed model (the format is described in `build.rs`, which writes it).
fn unpack_model(packed: &'static [u8]) -> Model {
    let mut reader = Packed { bytes: packed };
    let mut languages: Vec<Language> = Vec::new();
    while !reader.bytes.is_empty() {
        let _code = reader.text();
        let mut lang = Language {
            charsets: reader.text().split(',').collect(),
            unigrams: HashMap::new(),
            bigrams: HashMap::new(),
            total: 0.0,
            backoff: BIGRAM_BACKOFF,
            blocks: [0.0; BLOCKS],
        };
        let mut c = 0u32;
        for _ in 0..reader.number() {
            c += reader.number();
            let count = reader.number();
            let Some(c) = char::from_u32(c) else { continue };
            lang.unigrams.insert(c, count);
            lang.total += f64::from(count);
            lang.blocks[block_of(c).0] += f64::from(count);
        }
        let (mut a, mut b) = (0u32, 0u32);
        for k in 0..reader.number() {
            let step = reader.number();
            if k == 0 {
                (a, b) = (step.wrapping_sub(1), reader.number());
            } else if step == 0 {
                b += reader.number();
            } else {
                (a, b) = (a + step, reader.number());
            }
            let count = reader.number();
            if let (Some(first), Some(second)) = (char::from_u32(a), char::from_u32(b)) {
                lang.bigrams.insert((first, second), count);
            }
        }
        languages.push(lang);
    }
    for lang in &mut languages {
        // Every class keeps a little mass, so no decoding is impossible.
        let smoothing = 0.5;
        let total = lang.total + smoothing * BLOCKS as f64;
        for share in &mut lang.blocks {
            *share = (*share + smoothing) / total;
        }
        lang.blocks[2] *= 0.01;
        if lang.bigrams.len() >= PAIRS_CUT {
            lang.backoff = BIGRAM_BACKOFF_CUT;
        }
    }
    Model { languages }
}

/// A cursor over the packed model, which the build wrote: reading past its end is a build
/// fault, and gives zeros rather than a panic.
struct Packed {
    bytes: &'static [u8],
}

impl Packed {
    /// One LEB128 number.
    fn number(&mut self) -> u32 {
        let mut value = 0u32;
        let mut shift = 0;
        while let Some((&byte, rest)) = self.bytes.split_first() {
            self.bytes = rest;
            value |= u32::from(byte & 0x7F).checked_shl(shift).unwrap_or(0);
            shift += 7;
            if byte & 0x80 == 0 {
                break;
            }
        }
        value
    }

    /// A length-prefixed UTF-8 string.
    fn text(&mut self) -> &'static str {
        let length = (self.number() as usize).min(self.bytes.len());
        let (text, rest) = self.bytes.split_at(length);
        self.bytes = rest;
        std::str::from_utf8(text).unwrap_or("")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_input_is_utf8_with_low_confidence() {
        let d = detect(b"", None);
        assert_eq!(d.charset, "UTF-8");
        assert_eq!(d.reason, "empty input");
        assert!(d.confidence < 0.5);
    }

    #[test]
    fn utf32le_bom_wins_over_utf16le_bom() {
        let d = detect(&[0xFF, 0xFE, 0x00, 0x00, 0x41, 0, 0, 0], None);
        assert_eq!((d.charset, d.bom_length), ("UTF-32LE", 4));
    }

    #[test]
    fn every_bom_is_recognised() {
        let cases: [(&[u8], &str, usize); 5] = [
            (&[0xEF, 0xBB, 0xBF, b'a'], "UTF-8", 3),
            (&[0xFF, 0xFE, b'a', 0], "UTF-16LE", 2),
            (&[0xFE, 0xFF, 0, b'a'], "UTF-16BE", 2),
            (&[0, 0, 0xFE, 0xFF], "UTF-32BE", 4),
            (&[0xFF, 0xFE, 0, 0], "UTF-32LE", 4),
        ];
        for (bytes, charset, bom) in cases {
            let d = detect(bytes, None);
            assert_eq!(
                (d.charset, d.bom_length, d.reason),
                (charset, bom, "byte order mark")
            );
        }
    }

    #[test]
    fn ascii_is_reported_as_utf8() {
        let d = detect(b"hello world", None);
        assert_eq!((d.charset, d.reason), ("UTF-8", "ASCII only"));
    }

    #[test]
    fn valid_utf8_is_utf8() {
        let d = detect("引き割り".as_bytes(), Some("jp"));
        assert_eq!((d.charset, d.reason), ("UTF-8", "valid UTF-8"));
        assert!(d.confidence > 0.9);
    }

    #[test]
    fn utf16_without_bom_is_found_by_its_nul_bytes() {
        let le: Vec<u8> = "hello".encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = "hello".encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(detect(&le, None).charset, "UTF-16LE");
        assert_eq!(detect(&be, None).charset, "UTF-16BE");
    }

    #[test]
    fn iso_2022_jp_escapes_are_recognised() {
        let (bytes, _, _) = encoding_rs::ISO_2022_JP.encode("東京");
        assert_eq!(detect(&bytes, None).charset, "ISO-2022-JP");
    }

    #[test]
    fn short_legacy_words_are_recognised() {
        let cases = [
            ("Москва", encoding_rs::WINDOWS_1251),
            ("Москва", encoding_rs::KOI8_R),
            ("東京都", encoding_rs::SHIFT_JIS),
            ("Größe", encoding_rs::WINDOWS_1252),
            ("서울", encoding_rs::EUC_KR),
        ];
        for (text, encoding) in cases {
            let (bytes, _, _) = encoding.encode(text);
            assert_eq!(detect(&bytes, None).charset, encoding.name(), "{text}");
        }
    }

    #[test]
    fn confidences_are_probabilities_and_runners_up_exclude_the_winner() {
        let (bytes, _, _) = encoding_rs::WINDOWS_1251.encode("Привет");
        let d = detect(&bytes, None);
        assert!((0.0..=1.0).contains(&d.confidence));
        let shares: Vec<f32> = d.runners_up.iter().map(|c| c.confidence).collect();
        assert!(shares.iter().all(|&c| (0.0..=d.confidence).contains(&c)));
        assert!(shares.windows(2).all(|w| w[0] >= w[1]), "best first");
        assert!(d.runners_up.len() <= MAX_RUNNERS_UP);
        assert!(d.runners_up.iter().all(|c| c.charset != d.charset));
    }

    #[test]
    fn long_input_is_judged_on_its_prefix_without_penalising_a_cut_character() {
        let text = "東京都の天気。".repeat(SAMPLE_LIMIT / 10);
        let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode(&text);
        let mut bytes = bytes.into_owned();
        bytes.truncate(SAMPLE_LIMIT + 1);
        assert_eq!(detect(&bytes, None).charset, "Shift_JIS");
    }

    #[test]
    fn the_start_of_utf8_text_cut_inside_a_character_is_utf8() {
        let text = "東京都の天気。".repeat(20);
        let bytes = &text.as_bytes()[..text.len() - 1];
        assert_eq!(detect_start(bytes, None, false).charset, "UTF-8");
        assert_eq!(detect_start(bytes, None, false).reason, "valid UTF-8");
        // The whole input, cut short: a malformed end.
        assert_ne!(detect(bytes, None).reason, "valid UTF-8");
    }

    /// The packed model holds every record of the text it was packed from, and no other.
    #[test]
    fn the_packed_model_is_the_text_model() {
        let text = include_str!("detect_model.txt");
        let model = unpack_model(MODEL_PACKED);
        let mut index = None;
        let (mut unigrams, mut bigrams) = (0, 0);
        for line in text.lines() {
            let fields: Vec<&str> = line.split('\t').collect();
            let [kind, key, value] = fields[..] else {
                panic!("{line:?}")
            };
            if kind == "L" {
                index = Some(index.map_or(0, |i| i + 1));
                let lang = &model.languages[index.unwrap()];
                assert_eq!(lang.charsets.join(","), value);
                continue;
            }
            let lang = &model.languages[index.unwrap()];
            let count: u32 = value.parse().unwrap();
            let chars: Vec<char> = key.chars().collect();
            match kind {
                "U" => {
                    unigrams += 1;
                    assert_eq!(lang.unigrams.get(&chars[0]), Some(&count), "{line:?}");
                }
                _ => {
                    bigrams += 1;
                    assert_eq!(
                        lang.bigrams.get(&(chars[0], chars[1])),
                        Some(&count),
                        "{line:?}"
                    );
                }
            }
        }
        assert_eq!(model.languages.len(), index.unwrap() + 1);
        let held = |f: fn(&Language) -> usize| model.languages.iter().map(f).sum::<usize>();
        assert_eq!(held(|l| l.unigrams.len()), unigrams);
        assert_eq!(held(|l| l.bigrams.len()), bigrams);
    }

    #[test]
    fn odd_tld_hints_do_not_panic() {
        for hint in ["JP", ".jp", "a.b", "日本", "", "x y"] {
            detect(&[0x82, 0xA0, 0x82, 0xA2], Some(hint));
        }
    }

    #[test]
    fn tld_of_url_finds_the_hosts_last_label() {
        assert_eq!(tld_of_url(b"http://example.jp/path"), Some("jp"));
        assert_eq!(
            tld_of_url(b"https://user:pw@www.Example.RU:8080/?q=1"),
            Some("RU")
        );
        assert_eq!(tld_of_url(b"//cdn.example.com.#x"), Some("com"));
        assert_eq!(
            tld_of_url(b"http://xn--fsqu00a.xn--3lr804guic/"),
            Some("xn--3lr804guic")
        );
        assert_eq!(tld_of_url(b"http://localhost/"), None);
        assert_eq!(tld_of_url(b"http://127.0.0.1/"), None);
        assert_eq!(tld_of_url(b"http://[::1]/"), None);
        assert_eq!(tld_of_url(b"q=%E6%9D%B1"), None);
        assert_eq!(tld_of_url(b""), None);
        assert_eq!(tld_of_url("http://例子.卷筒纸/".as_bytes()), None);
    }
}
