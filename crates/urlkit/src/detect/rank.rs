//! The statistical guess: every legacy candidate decodes the bytes, and is scored by how
//! likely the resulting text is in a language written in that charset.

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::Encoding;

use super::hint::native_to_tld;
use super::model::model;
use super::score::{layout_score, oddities};
use super::{Candidate, SAMPLE_LIMIT};
use crate::charset::Charset;

/// Legacy charsets the statistical guess chooses among, with a prior (natural log) that
/// reflects how often each is met in the wild relative to the others of its script.
const LEGACY: [(&Encoding, f64); 21] = {
    use encoding_rs::*;
    [
        (WINDOWS_1252, 0.0),
        (WINDOWS_1250, -0.5),
        (ISO_8859_2, -1.5),
        (WINDOWS_1254, -0.5),
        (WINDOWS_1251, 0.0),
        (KOI8_R, -1.0),
        (KOI8_U, -3.0),
        (ISO_8859_5, -2.0),
        (IBM866, -2.0),
        (WINDOWS_1253, 0.0),
        (ISO_8859_7, -1.0),
        (WINDOWS_1255, 0.0),
        (WINDOWS_1256, 0.0),
        (WINDOWS_874, 0.0),
        (WINDOWS_1258, -1.0),
        (SHIFT_JIS, 0.0),
        (EUC_JP, -0.5),
        (ISO_2022_JP, -0.5),
        (GBK, 0.0),
        (BIG5, 0.0),
        (EUC_KR, 0.0),
    ]
};

/// Log-score bonus for chardetng's choice: strong on long inputs, where its byte-pair
/// statistics are reliable, modest on short ones.
fn chardetng_bonus(non_ascii: usize) -> f64 {
    1.0 + (non_ascii as f64 * 0.15).min(6.0)
}

const TLD_BONUS: f64 = 2.5;
const MALFORMED_PENALTY: f64 = 25.0;
/// A statistical guess is never certain: on the evaluation samples about 1 in 300 of
/// the guesses the model was surest of were wrong.
const MAX_GUESS_CONFIDENCE: f32 = 0.995;

/// Ranks the legacy candidates for `bytes`, best first, with posterior confidences.
/// Reads at most [`SAMPLE_LIMIT`] bytes; with `complete` false a character cut at the
/// end is no evidence against a charset. Empty input ranks every candidate alike.
pub(super) fn rank_legacy(bytes: &[u8], tld: Option<&str>, complete: bool) -> Vec<Candidate> {
    let complete = complete && bytes.len() <= SAMPLE_LIMIT;
    let bytes = &bytes[..bytes.len().min(SAMPLE_LIMIT)];
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Allow);
    detector.feed(bytes, complete);
    let chardetng_guess = detector.guess(tld.map(str::as_bytes), Utf8Detection::Deny);
    let non_ascii = bytes.iter().filter(|&&b| b >= 0x80).count();
    let model = model();
    let mut scored: Vec<(&'static Encoding, f64, String)> = Vec::with_capacity(LEGACY.len());
    for &(encoding, prior) in &LEGACY {
        let text = decode_prefix(encoding, bytes, complete);
        let malformed = text.chars().filter(|&c| c == '\u{FFFD}').count();
        let fit = model
            .languages_for(encoding)
            .map(|lang| lang.log_likelihood(text.chars()))
            .fold(f64::NEG_INFINITY, f64::max);
        if !fit.is_finite() {
            continue;
        }
        let mut score = fit + prior + layout_score(encoding, bytes);
        score -= MALFORMED_PENALTY * malformed as f64;
        score -= oddities(&text);
        if tld.is_some_and(|t| native_to_tld(t, encoding)) {
            score += TLD_BONUS;
        }
        if encoding == chardetng_guess {
            score += chardetng_bonus(non_ascii);
        }
        scored.push((encoding, score, text));
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
        .map(|(i, (encoding, score, _))| Candidate {
            charset: Charset::Whatwg(encoding),
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
