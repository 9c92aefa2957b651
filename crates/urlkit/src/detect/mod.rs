//! Charset detection for percent-decoded bytes (PRODUCT §1, "Decoding", `auto`).
//!
//! The order is fixed: a byte order mark wins; then ISO-2022-JP escape sequences and
//! BOM-less UTF-16 (NUL bytes in every other position); then pure ASCII and valid UTF-8
//! (both reported as UTF-8), and UTF-8 with a few damaged sequences (reported as UTF-8
//! when its multi-byte characters outweigh the damage); then a statistical guess among
//! legacy charsets.
//!
//! The statistical guess decodes the bytes in every candidate charset with
//! [`encoding_rs`] and asks, for each, how likely the resulting text is in a language
//! written in that charset: a character model (letters and letter pairs, trained on text
//! in each language; see `tools/detect-eval/make_model.py`) of the non-ASCII letters and
//! their neighbours, the same model's reading of the ASCII words around them (which
//! language the text is in, whatever the charset), plus, for the East Asian
//! double-byte charsets, how common the characters are by the charset's own layout
//! (level-1 kanji and hanzi, common Hangul syllables). Hebrew is also read backwards, as
//! text stored in visual order. The [`chardetng`] crate's guess, with the top-level-domain
//! hint, is one more vote, for every candidate that reads the bytes as its choice does.
//! Scores are log-likelihoods, so the reported confidence is the posterior over the
//! candidates, and the runners-up are the next candidates by the same measure.
//!
//! | module | concept |
//! |---|---|
//! | `sniff` | byte order marks, ISO-2022-JP escapes, UTF-16 without a mark |
//! | `hint` | the top-level domain of a URL and the charsets native to it |
//! | `model` | the packed character model and its reader |
//! | `compose` | Vietnamese tone marks composed, as the model counts letters |
//! | `score` | evidence beyond the model: double-byte layout, oddities of wrong decodings |
//! | `rank` | the candidates, their scores and posterior confidences |

mod compose;
mod hint;
mod model;
mod rank;
mod score;
mod sniff;

use crate::charset::Charset;
use crate::codec::utf8;

pub use hint::tld_of_url;

/// One candidate charset and how likely it is.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Candidate {
    /// The charset; serialised as its WHATWG name ([`Charset::name`]).
    #[cfg_attr(feature = "serde", serde(serialize_with = "charset_name"))]
    #[cfg_attr(feature = "openapi", schema(value_type = String, example = "windows-1252"))]
    pub charset: Charset,
    /// Probability that decoding in this charset gives the right text, `0.0..=1.0`.
    pub confidence: f32,
}

/// The result of [`detect`]: the charset chosen, how sure, why, and the other
/// candidates. Serialises as `{charset, confidence, reason, bom_length, runners_up}`
/// with charsets as their WHATWG names, the shape of `urlkit detect --json` (with the
/// `serde` feature).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Detection {
    /// The charset chosen: UTF-8, UTF-16LE/BE, UTF-32LE/BE or a legacy WHATWG encoding
    /// (never a DOS code page, never the replacement encoding).
    #[cfg_attr(feature = "serde", serde(serialize_with = "charset_name"))]
    #[cfg_attr(feature = "openapi", schema(value_type = String, example = "Shift_JIS"))]
    pub charset: Charset,
    /// How sure the detector is, `0.0..=1.0`: for a statistical guess, the probability
    /// that decoding in `charset` gives the right text (candidates that decode these
    /// bytes to the same text count with it).
    pub confidence: f32,
    /// Why this charset: `"empty input"`, `"byte order mark"`, `"ISO-2022-JP escapes"`,
    /// `"NUL bytes alternate"`, `"ASCII only"`, `"valid UTF-8"`, `"mostly valid UTF-8"`
    /// ([`DAMAGED_UTF8`]: a few sequences are not UTF-8, and decoding makes each U+FFFD)
    /// or `"statistical guess"`.
    pub reason: &'static str,
    /// Bytes of byte order mark to skip when decoding (0 if none).
    pub bom_length: usize,
    /// Other candidates, best first, excluding `charset`; at most [`MAX_RUNNERS_UP`].
    pub runners_up: Vec<Candidate>,
}

#[cfg(feature = "serde")]
fn charset_name<S: serde::Serializer>(charset: &Charset, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(charset.name())
}

/// Bytes of input the statistical guess looks at; more rarely changes the answer.
pub const SAMPLE_LIMIT: usize = 64 * 1024;

/// Most runners-up a [`Detection`] lists.
pub const MAX_RUNNERS_UP: usize = 4;

/// Guesses the charset of `bytes` (already percent-decoded), with runners-up.
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
const RUNNERS_UP_SAMPLE: usize = 1024;

/// [`detect`] on the start of an input: with `complete` false more bytes follow, so a
/// character cut at the end of `bytes` is no evidence against a charset (UTF-8 included).
/// Bad input is handled as by [`detect`].
pub fn detect_start(bytes: &[u8], tld_hint: Option<&str>, complete: bool) -> Detection {
    detect_entry(bytes, tld_hint, complete, Ranking::RunnersUp)
}

/// How much of a [`Detection`] to work out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ranking {
    /// The charset, its confidence and reason, without runners-up. Input settled without
    /// the statistical model (a byte order mark, ASCII, valid UTF-8) costs about a pass
    /// over its bytes; a statistical guess asks for chardetng's vote only when it could
    /// change the answer (a clear winner already as sure as a guess gets is not). What
    /// per-entry decoding does unless someone shows the runners-up.
    #[default]
    Charset,
    /// Everything [`detect`] gives: valid UTF-8 also lists the legacy charsets that
    /// would read it otherwise, each ranked by the statistical model on the first
    /// kilobyte.
    RunnersUp,
}

/// [`detect_start`] working out as much as `ranking` asks: with [`Ranking::Charset`] the
/// charset, confidence, reason and byte order mark are those [`detect_start`] gives, and
/// the runners-up are left out (empty). Bad input is handled as by [`detect`].
pub fn detect_entry(
    bytes: &[u8],
    tld_hint: Option<&str>,
    complete: bool,
    ranking: Ranking,
) -> Detection {
    detect_hinted(bytes, || tld_hint, complete, ranking)
}

/// [`detect_entry`] with the top-level domain of a URL in `bytes` as the hint (see
/// [`tld_of_url`]), looked for only when the statistical model runs: what decoding a URL
/// with `auto` does. Bad input is handled as by [`detect`].
pub fn detect_url_entry(bytes: &[u8], complete: bool, ranking: Ranking) -> Detection {
    detect_hinted(bytes, || tld_of_url(bytes), complete, ranking)
}

/// [`detect_entry`] with the hint worked out by `tld_hint` when the model needs one.
fn detect_hinted<'a>(
    bytes: &[u8],
    tld_hint: impl FnOnce() -> Option<&'a str>,
    complete: bool,
    ranking: Ranking,
) -> Detection {
    if bytes.is_empty() {
        return fixed(Charset::UTF_8, 0.1, "empty input", 0);
    }
    if let Some((charset, bom_length)) = sniff::byte_order_mark(bytes) {
        return fixed(charset, 1.0, "byte order mark", bom_length);
    }
    if sniff::is_iso_2022_jp(bytes) {
        let charset = Charset::Whatwg(encoding_rs::ISO_2022_JP);
        return fixed(charset, 0.95, "ISO-2022-JP escapes", 0);
    }
    if let Some(charset) = sniff::utf16_without_bom(bytes) {
        return fixed(charset, 0.9, "NUL bytes alternate", 0);
    }
    if bytes.is_ascii() {
        return fixed(Charset::UTF_8, 1.0, "ASCII only", 0);
    }
    // Valid UTF-8 (with `complete` false, up to a character cut at the end), or the
    // first sequence that is not.
    let valid = match utf8::validate(bytes) {
        Ok(()) => Ok(bytes),
        Err((valid, None)) if !complete => Ok(&bytes[..valid]),
        Err(error) => Err(error),
    };
    let utf8 = match valid {
        Ok(text) => {
            let (multi, long) = multi_byte_characters(text);
            Some((utf8_doubt(multi, long), "valid UTF-8"))
        }
        Err(error) => damaged_utf8(bytes, error, complete).map(|doubt| (doubt, DAMAGED_UTF8)),
    };
    if let Some((doubt, reason)) = utf8 {
        let runners_up = match ranking {
            Ranking::Charset => Vec::new(),
            Ranking::RunnersUp => {
                let tld = hint::normalise_tld(tld_hint());
                let sample = &bytes[..bytes.len().min(RUNNERS_UP_SAMPLE)];
                rank::rank_legacy(
                    sample,
                    tld.as_deref(),
                    complete && sample.len() == bytes.len(),
                    Ranking::RunnersUp,
                )
                .into_iter()
                .take(MAX_RUNNERS_UP)
                .map(|c| Candidate {
                    charset: c.charset,
                    confidence: c.confidence * doubt,
                })
                .collect()
            }
        };
        return Detection {
            charset: Charset::UTF_8,
            confidence: 1.0 - doubt,
            reason,
            bom_length: 0,
            runners_up,
        };
    }
    let tld = hint::normalise_tld(tld_hint());
    let mut ranked = rank::rank_legacy(bytes, tld.as_deref(), complete, ranking).into_iter();
    let best = ranked.next().unwrap_or(Candidate {
        charset: Charset::Whatwg(encoding_rs::WINDOWS_1252),
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

/// How likely legacy text is to be valid UTF-8 with `multi` non-ASCII characters, `long`
/// of them of three or four bytes: it gets rarer with every multi-byte sequence, and one
/// two-byte sequence alone is weak evidence.
fn utf8_doubt(multi: i32, long: i32) -> f32 {
    0.25f32.powi(multi.saturating_add(long))
}

/// The reason of UTF-8 text with a few sequences that are not UTF-8, when its multi-byte
/// characters outweigh them: an invalid sequence inside as much as four characters of three
/// bytes, a character cut at the very end as two. Each such sequence decodes to U+FFFD.
pub const DAMAGED_UTF8: &str = "mostly valid UTF-8";

/// The doubt (as [`utf8_doubt`]) that `bytes`, which are not UTF-8, are UTF-8 text with a
/// few damaged sequences (a URL cut inside a character, a byte lost or changed), or `None`
/// when the valid multi-byte characters do not outweigh the damage and the statistical
/// model decides. Each multi-byte character counts as in [`utf8_doubt`], each invalid
/// sequence (a maximal subpart, one U+FFFD when decoded) against them [`DAMAGE_WEIGHT`]
/// times, a character cut at the very end [`CUT_WEIGHT`] times, and the characters must
/// come out ahead by [`DAMAGE_MARGIN`]. With `complete` false a character cut at the very
/// end is no damage. `first_error` is where the bytes first stop being UTF-8, as
/// [`utf8::validate`] says.
fn damaged_utf8(bytes: &[u8], first_error: (usize, Option<usize>), complete: bool) -> Option<f32> {
    let (mut points, mut damage) = (0i64, 0i64);
    let mut rest = bytes;
    let mut error = Some(first_error);
    while let Some((valid, length)) = error {
        let (multi, long) = multi_byte_characters(&rest[..valid]);
        points += i64::from(multi) + i64::from(long);
        let Some(length) = length else {
            damage += if complete { CUT_WEIGHT } else { 0 };
            rest = &[];
            break;
        };
        damage += DAMAGE_WEIGHT;
        rest = &rest[valid + length..];
        // The rest makes at most a step a byte: past that, legacy text (read no further,
        // however long).
        if damage - points >= rest.len() as i64 + DAMAGE_MARGIN {
            return None;
        }
        error = utf8::validate(rest).err();
    }
    let (multi, long) = multi_byte_characters(rest);
    points += i64::from(multi) + i64::from(long);
    let lead = points - damage;
    (damage > 0 && lead >= DAMAGE_MARGIN)
        .then(|| utf8_doubt(lead.min(i64::from(i32::MAX)) as i32, 0).max(LEAST_DAMAGED_DOUBT))
}

/// The least doubt of damaged UTF-8: like a statistical guess, never certain.
const LEAST_DAMAGED_DOUBT: f32 = 0.005;

/// What one invalid sequence weighs against the multi-byte characters of damaged UTF-8
/// (see [`damaged_utf8`]), in [`utf8_doubt`]'s steps: four characters of three bytes.
/// Short legacy text makes valid sequences by chance far more often than the doubt of
/// valid UTF-8 says (Thai in windows-874: a vowel and the consonant after it; Russian in
/// IBM866: `спе` in `успешно`), but seldom four for each one that fails: of every prefix
/// of the gettext catalogs of this machine in their legacy charsets that is not UTF-8
/// (44.8 million, `tools/detect-eval/damaged_utf8_risk.py`), 4 settle as damaged UTF-8
/// (Russian in IBM866).
const DAMAGE_WEIGHT: i64 = 8;

/// What a character cut at the very end weighs (see [`damaged_utf8`]): half an invalid
/// sequence inside, as an entry cut at a length limit is the commonest damage, and legacy
/// text seldom ends in a UTF-8 lead byte after valid sequences only (of the same prefixes,
/// 14 settle, Thai in windows-874 and Russian in IBM866; 405 at a weight of 2).
const CUT_WEIGHT: i64 = 4;

/// How far the multi-byte characters of damaged UTF-8 must outweigh its invalid sequences
/// (see [`damaged_utf8`]): one step (doubt 0.25, as one two-byte character in valid
/// UTF-8).
const DAMAGE_MARGIN: i64 = 1;

/// What [`detect_entry`] answers, with [`Ranking::Charset`] and the whole entry given, for
/// `text` known to be valid UTF-8, when that answer is UTF-8 without a byte order mark
/// (`"empty input"`, `"ASCII only"` or `"valid UTF-8"`), in one pass over its bytes;
/// `None` when detection may answer anything else (a byte order mark, ISO-2022-JP
/// escapes, UTF-16 without a mark), which [`detect_entry`] then works out. Bytes that are
/// not UTF-8 are a caller's mistake: the answer is then meaningless, never a panic.
pub(crate) fn settled_utf8(text: &[u8]) -> Option<Detection> {
    if text.is_empty() {
        return Some(fixed(Charset::UTF_8, 0.1, "empty input", 0));
    }
    if text.starts_with(UTF8_BOM) || first_unsettling_byte(text).is_some() {
        return None;
    }
    let (multi, long) = multi_byte_characters(text);
    if multi == 0 {
        // Valid UTF-8 without a lead byte is ASCII.
        return Some(fixed(Charset::UTF_8, 1.0, "ASCII only", 0));
    }
    let doubt = utf8_doubt(multi, long);
    Some(fixed(Charset::UTF_8, 1.0 - doubt, "valid UTF-8", 0))
}

/// UTF-8's byte order mark.
pub(crate) const UTF8_BOM: &[u8] = &[0xEF, 0xBB, 0xBF];

/// Where the first byte of `text` (valid UTF-8) stands that may make detection answer
/// other than UTF-8: ISO-2022-JP's escape byte, or a NUL (UTF-16 without a mark). Text
/// that holds neither and does not start with [`UTF8_BOM`] is text [`settled_utf8`]
/// settles as UTF-8 without a byte order mark.
pub(crate) fn first_unsettling_byte(text: &[u8]) -> Option<usize> {
    let [escape, nul] = UNSETTLING_BYTES;
    memchr::memchr2(escape, nul, text)
}

/// The bytes [`first_unsettling_byte`] looks for: ISO-2022-JP's escape byte and NUL.
pub(crate) const UNSETTLING_BYTES: [u8; 2] = [0x1B, 0];

/// The non-ASCII characters of valid UTF-8 `bytes`, and of them those of three or four
/// bytes: a character's lead byte says its length (`0xC0..=0xDF` two, higher more).
/// Saturates rather than overflows (past a few dozen the doubt they make is zero anyway).
fn multi_byte_characters(bytes: &[u8]) -> (i32, i32) {
    let (mut multi, mut long) = (0usize, 0usize);
    // Counted a byte wide in blocks short enough not to overflow, which the compiler
    // turns into vector compares and adds (a count a `usize` wide goes byte by byte).
    for block in bytes.chunks(255) {
        let (mut block_multi, mut block_long) = (0u8, 0u8);
        for &b in block {
            block_multi += u8::from(b >= 0xC0);
            block_long += u8::from(b >= 0xE0);
        }
        multi += usize::from(block_multi);
        long += usize::from(block_long);
    }
    let clamp = |n: usize| n.min(i32::MAX as usize) as i32;
    (clamp(multi), clamp(long))
}

fn fixed(charset: Charset, confidence: f32, reason: &'static str, bom: usize) -> Detection {
    Detection {
        charset,
        confidence,
        reason,
        bom_length: bom,
        runners_up: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(d: &Detection) -> &'static str {
        d.charset.name()
    }

    #[test]
    fn multi_byte_characters_are_counted_across_blocks() {
        // Past 255 of either kind, where one block's byte-wide count ends.
        let text = "é".repeat(300) + &"€".repeat(300) + &"😀".repeat(7) + "ascii";
        assert_eq!(multi_byte_characters(text.as_bytes()), (607, 307));
        assert_eq!(multi_byte_characters(b""), (0, 0));
    }

    #[test]
    fn empty_input_is_utf8_with_low_confidence() {
        let d = detect(b"", None);
        assert_eq!(name(&d), "UTF-8");
        assert_eq!(d.reason, "empty input");
        assert!(d.confidence < 0.5);
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
                (name(&d), d.bom_length, d.reason),
                (charset, bom, "byte order mark")
            );
        }
    }

    #[test]
    fn ascii_is_reported_as_utf8() {
        let d = detect(b"hello world", None);
        assert_eq!((name(&d), d.reason), ("UTF-8", "ASCII only"));
    }

    #[test]
    fn valid_utf8_is_utf8() {
        let d = detect("引き割り".as_bytes(), Some("jp"));
        assert_eq!((name(&d), d.reason), ("UTF-8", "valid UTF-8"));
        assert!(d.confidence > 0.9);
    }

    #[test]
    fn utf16_without_bom_is_found_by_its_nul_bytes() {
        let le: Vec<u8> = "hello".encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = "hello".encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(name(&detect(&le, None)), "UTF-16LE");
        assert_eq!(name(&detect(&be, None)), "UTF-16BE");
    }

    #[test]
    fn iso_2022_jp_escapes_are_recognised() {
        let (bytes, _, _) = encoding_rs::ISO_2022_JP.encode("東京");
        assert_eq!(name(&detect(&bytes, None)), "ISO-2022-JP");
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
            assert_eq!(name(&detect(&bytes, None)), encoding.name(), "{text}");
        }
    }

    #[test]
    fn chardetngs_choice_counts_for_every_charset_that_reads_the_bytes_alike() {
        // chardetng answers windows-1254 for Portuguese `Balinês`; windows-1252 reads the
        // bytes the same way, and must not lose to Polish `Balinęs` in windows-1250.
        assert_all_read_back(&[("Balinês", encoding_rs::WINDOWS_1252)]);
    }

    #[test]
    fn hebrew_in_visual_order_is_hebrew() {
        // `נגמר הזכרון` stored backwards, as legacy systems without right-to-left layout
        // kept it: final letters start the words.
        let (bytes, _, _) = encoding_rs::WINDOWS_1255.encode("ןורכזה רמגנ");
        assert_eq!(name(&detect(&bytes, None)), "windows-1255");
    }

    /// Asserts that the charset detected for each text in its encoding reads it back
    /// (another charset that decodes these bytes alike is as right).
    fn assert_all_read_back(cases: &[(&str, &'static encoding_rs::Encoding)]) {
        for &(text, encoding) in cases {
            let (bytes, _, unmappable) = encoding.encode(text);
            assert!(!unmappable, "{} cannot encode {text:?}", encoding.name());
            let d = detect(&bytes, None);
            let Charset::Whatwg(detected) = d.charset else {
                panic!("{text}: {d:?}")
            };
            assert_eq!(
                detected.decode_without_bom_handling(&bytes).0,
                text,
                "{d:?}"
            );
        }
    }

    #[test]
    fn the_words_around_an_accented_letter_tell_its_language() {
        let cases = [
            (
                "il menù principale della finestra",
                encoding_rs::WINDOWS_1252,
            ),
            (
                "È necessario riavviare il computer",
                encoding_rs::WINDOWS_1252,
            ),
            ("Welkom in Piëmont en omgeving", encoding_rs::WINDOWS_1252),
            ("Tõrge faili kirjutamisel", encoding_rs::WINDOWS_1257),
        ];
        assert_all_read_back(&cases);
    }

    #[test]
    fn punctuation_is_told_from_letters_by_where_it_stands() {
        let cases = [
            // An apostrophe after a letter, not a Shift_JIS or windows-1253 letter.
            ("Forma d’ús del programa", encoding_rs::WINDOWS_1252),
            ("η επιλογή εκ’ νέου και ξανά", encoding_rs::ISO_8859_7),
            // `¿` never follows a letter: this is Polish `ż`.
            ("pokaż wszystkie pliki", encoding_rs::WINDOWS_1250),
            ("kartridż atramentowy", encoding_rs::WINDOWS_1250),
            // Quotation marks alone are a reading a person could have meant.
            ("v „ “:", encoding_rs::WINDOWS_1250),
        ];
        assert_all_read_back(&cases);
    }

    #[test]
    fn half_width_katakana_is_read_in_the_japanese_charsets() {
        // Shift_JIS writes each in one byte (A1 to DF, Cyrillic letters in ISO-8859-5),
        // EUC-JP in two (8E and that byte).
        let cases = [
            ("ｶﾞｲﾄﾞ", encoding_rs::SHIFT_JIS),
            ("ﾃﾞｰﾀﾍﾞｰｽ", encoding_rs::SHIFT_JIS),
            ("ﾒﾆｭｰをﾄﾞﾛｯﾌﾟ･ﾀﾞｳﾝ表示する際の遅延時間", encoding_rs::SHIFT_JIS),
            ("ﾃﾞｰﾀﾍﾞｰｽ", encoding_rs::EUC_JP),
            ("ｷｰﾜｰﾄﾞがありません", encoding_rs::EUC_JP),
        ];
        assert_all_read_back(&cases);
    }

    #[test]
    fn full_width_latin_letters_and_digits_are_read_in_the_east_asian_charsets() {
        // Read in a single-byte charset, their lead bytes are punctuation or letters and
        // their trail bytes ASCII letters (`‚t‚q‚k` for `ＵＲＬ` in windows-1256).
        let cases = [
            ("ＵＲＬ", encoding_rs::SHIFT_JIS),
            ("Ｗｉｎｄｏｗｓ", encoding_rs::SHIFT_JIS),
            ("ＡＢＣ", encoding_rs::GBK),
            ("ＰＤＦ", encoding_rs::BIG5),
            ("ＵＳＢ", encoding_rs::EUC_KR),
        ];
        assert_all_read_back(&cases);
    }

    #[test]
    fn chinese_and_japanese_punctuation_is_no_evidence_against_their_charsets() {
        let cases = [
            ("GNU find。", encoding_rs::BIG5),
            ("GNU grep：", encoding_rs::BIG5),
            (
                "作者 、 、 、 、 、 および 。 作者 、 、 、 、 、 、 、 および 。",
                encoding_rs::EUC_JP,
            ),
        ];
        assert_all_read_back(&cases);
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
        assert_eq!(name(&detect(&bytes, None)), "Shift_JIS");
    }

    #[test]
    fn the_start_of_utf8_text_cut_inside_a_character_is_utf8() {
        let text = "東京都の天気。".repeat(20);
        let bytes = &text.as_bytes()[..text.len() - 1];
        assert_eq!(name(&detect_start(bytes, None, false)), "UTF-8");
        assert_eq!(detect_start(bytes, None, false).reason, "valid UTF-8");
        // The whole input, cut short: a malformed end, and still UTF-8 by far.
        let whole = detect(bytes, None);
        assert_eq!((name(&whole), whole.reason), ("UTF-8", DAMAGED_UTF8));
    }

    #[test]
    fn utf8_with_a_few_damaged_sequences_is_utf8_and_short_legacy_text_is_not() {
        let text = "東京都の天気は晴れ、気温は二十度です。".repeat(3);
        // A byte lost inside a character, a byte changed, a cut character at the end.
        let mut lost = text.as_bytes().to_vec();
        lost.remove(4);
        let mut changed = text.as_bytes().to_vec();
        changed[20] = 0xFF;
        let cut = &text.as_bytes()[..text.len() - 2];
        for bytes in [&lost[..], &changed[..], cut] {
            let d = detect(bytes, None);
            assert_eq!((name(&d), d.reason), ("UTF-8", DAMAGED_UTF8), "{bytes:?}");
            assert!(d.confidence > 0.9 && d.confidence < 1.0, "{}", d.confidence);
            assert!(!d.runners_up.is_empty());
            let quick = detect_entry(bytes, None, true, Ranking::Charset);
            assert_eq!((quick.reason, quick.confidence), (d.reason, d.confidence));
            assert!(quick.runners_up.is_empty());
        }
        // Damage that the characters do not outweigh: the model decides. Three characters
        // of three bytes outweigh a character cut at the end, not one cut inside.
        let few = ["é東".as_bytes(), &[0xE5, 0xBC], b"x"].concat();
        assert_eq!(detect(&few, None).reason, "statistical guess");
        let cut_at_the_end = ["東京都".as_bytes(), &[0xE5, 0xBC]].concat();
        let d = detect(&cut_at_the_end, None);
        assert_eq!((name(&d), d.reason), ("UTF-8", DAMAGED_UTF8));
        assert_eq!(d.confidence, 1.0 - 0.25 * 0.25);
        let cut_inside = ["東京都".as_bytes(), &[0xE5, 0xBC], b"x"].concat();
        assert_eq!(detect(&cut_inside, None).reason, "statistical guess");
        // Legacy text whose bytes happen to make UTF-8 sequences, four for one that fails
        // here, is left to the model (and read right).
        let (thai, _, _) = encoding_rs::WINDOWS_874.encode("คาซัคสถาน");
        let (russian, _, _) = encoding_rs::IBM866.encode("успешно");
        for (bytes, charset) in [(thai, "windows-874"), (russian, "IBM866")] {
            assert!(std::str::from_utf8(&bytes).is_err());
            let d = detect(&bytes, None);
            assert_eq!((name(&d), d.reason), (charset, "statistical guess"));
        }
    }

    #[test]
    fn odd_tld_hints_do_not_panic() {
        for hint in ["JP", ".jp", "a.b", "日本", "", "x y"] {
            detect(&[0x82, 0xA0, 0x82, 0xA2], Some(hint));
        }
    }

    /// What [`Ranking::Charset`] must give: everything [`detect_start`] gives but the
    /// runners-up.
    fn without_runners_up(mut full: Detection) -> Detection {
        full.runners_up.clear();
        full
    }

    /// Byte order marks, then anything after them.
    fn with_a_mark() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
        use proptest::prelude::*;
        let marks: Vec<&'static [u8]> = vec![
            &[0xEF, 0xBB, 0xBF],
            &[0xFF, 0xFE],
            &[0xFE, 0xFF],
            &[0xFF, 0xFE, 0, 0],
            &[0, 0, 0xFE, 0xFF],
        ];
        (
            proptest::sample::select(marks),
            proptest::collection::vec(any::<u8>(), 0..40),
        )
            .prop_map(|(mark, rest)| [mark, &rest[..]].concat())
    }

    proptest::proptest! {
        /// What per-line `auto` settles without the full detection is the full
        /// detection's answer, and it settles every UTF-8 text without an escape byte, a
        /// NUL or a byte order mark.
        #[test]
        fn settled_utf8_is_the_full_answer(
            text in "(\\PC|\u{FEFF}|\x00|\x1B\\$B|\x1B)*",
        ) {
            let bytes = text.as_bytes();
            let full = detect_entry(bytes, None, true, Ranking::Charset);
            match settled_utf8(bytes) {
                Some(settled) => proptest::prop_assert_eq!(settled, full),
                None => proptest::prop_assert!(
                    bytes.starts_with(&[0xEF, 0xBB, 0xBF]) || bytes.contains(&0) || bytes.contains(&0x1B)
                ),
            }
        }

        #[test]
        fn the_charset_alone_is_the_full_answer_for_utf8_text(
            text in "\\PC{0,60}",
            complete: bool,
            hint in proptest::option::of("jp|ru|cn|kr|de|com"),
        ) {
            let bytes = text.as_bytes();
            let full = detect_start(bytes, hint.as_deref(), complete);
            let quick = detect_entry(bytes, hint.as_deref(), complete, Ranking::Charset);
            proptest::prop_assert_eq!(quick, without_runners_up(full));
        }

        #[test]
        fn the_charset_alone_is_the_full_answer_for_ascii_and_marks(
            ascii in "[ -~\\t\\n\\x00\\x1B]{0,60}",
            marked in with_a_mark(),
            complete: bool,
        ) {
            for bytes in [ascii.as_bytes(), &marked[..]] {
                let full = detect_start(bytes, None, complete);
                let quick = detect_entry(bytes, None, complete, Ranking::Charset);
                proptest::prop_assert_eq!(quick, without_runners_up(full));
            }
        }

        #[test]
        fn the_charset_alone_is_the_full_answer_for_any_bytes(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..48),
            complete: bool,
        ) {
            let full = detect_start(&bytes, None, complete);
            let quick = detect_entry(&bytes, None, complete, Ranking::Charset);
            proptest::prop_assert_eq!(quick, without_runners_up(full));
        }
    }

    #[test]
    fn valid_utf8_lists_runners_up_only_when_asked() {
        let bytes = "引き割り".as_bytes();
        let full = detect_entry(bytes, None, true, Ranking::RunnersUp);
        let quick = detect_entry(bytes, None, true, Ranking::Charset);
        assert!(!full.runners_up.is_empty());
        assert!(quick.runners_up.is_empty());
        assert_eq!(
            (quick.charset, quick.confidence, quick.reason),
            (full.charset, full.confidence, full.reason)
        );
    }

    #[test]
    fn a_detection_serialises_with_whatwg_names() {
        let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode("東京都の天気");
        let json = serde_json::to_value(detect(&bytes, None)).unwrap();
        assert_eq!(json["charset"], "Shift_JIS");
        assert_eq!(json["reason"], "statistical guess");
        assert_eq!(json["bom_length"], 0);
        assert!(json["runners_up"][0]["charset"].is_string());
        assert!(json["runners_up"][0]["confidence"].is_number());
    }
}
