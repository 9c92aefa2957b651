//! The statistical guess: every legacy candidate decodes the bytes, and is scored by how
//! likely the resulting text is in a language written in that charset.

use std::cell::RefCell;
use std::hash::Hasher;
use std::ops::Range;
use std::sync::OnceLock;

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::Encoding;

use super::compose::{compose_jamo, compose_tone_marks, has_half_width_kana, widen_kana};
use super::hint::natives_of_tld;
use super::model::{
    is_punctuation, model, prepare_into, steps, steps_into, AsciiPairs, Counts, KeyHasher,
    Language, Model, Step,
};
use super::score::{
    ascii_words, is_latin, is_letter, latin_words_in_other_script, layout_score, oddities,
};
use super::{Candidate, Ranking, SAMPLE_LIMIT};
use crate::charset::Charset;

/// Legacy charsets the statistical guess chooses among, with a prior (natural log) that
/// reflects how often each is met in the wild relative to the others of its script.
const LEGACY: [(&Encoding, f64); 22] = {
    use encoding_rs::*;
    [
        (WINDOWS_1252, 0.0),
        (WINDOWS_1250, -0.5),
        (ISO_8859_2, -1.0),
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
        (WINDOWS_1257, -0.5),
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
    1.5 + (non_ascii as f64 * 0.15).min(6.0)
}

const TLD_BONUS: f64 = 2.5;
const MALFORMED_PENALTY: f64 = 25.0;
/// Log-probability of a punctuation mark between words (see `model::prepare`), alike
/// in every language.
const PUNCTUATION_LOG_P: f64 = -4.0;
/// Weight of the evidence of the ASCII words (see [`ascii_evidence`]) against the
/// non-ASCII letters: ASCII pairs are many and, in names and identifiers, not all in the
/// text's language.
const ASCII_WEIGHT: f64 = 0.5;
/// Most log-likelihood the ASCII words can take from a language behind the best one,
/// before [`ASCII_WEIGHT`]: past a sentence the language is clear, and the non-ASCII
/// letters should decide between the charsets it is written in.
const ASCII_GAP_CAP: f64 = 15.0;
/// Log-odds of an upper-case non-ASCII letter against its lower case: capitals are a
/// few in a hundred letters in real text, and what wrong charsets decode to often.
const UPPER_CASE_LOG_P: f64 = -1.5;

/// How the margin between the winning text and the others becomes a confidence: a
/// logistic curve in the margin (natural-log odds the scores give) and in the amount of
/// evidence (non-ASCII bytes), fitted on the tune half of the catalog evaluation
/// (`tools/detect-eval`) so that a confidence of 0.9 is right about nine times in ten.
/// Longer inputs have larger margins for the same odds of being right (the model's
/// errors add up over characters that are not independent), hence the negative weight
/// of the evidence. Refit with `tools/detect-eval/fit_calibration.py` whenever the
/// scoring changes.
const CALIBRATION: Calibration = Calibration {
    margin: 0.530,
    evidence: -0.878,
    bias: 1.804,
};
/// A statistical guess is never certain.
const MAX_GUESS_CONFIDENCE: f64 = 0.995;

struct Calibration {
    margin: f64,
    evidence: f64,
    bias: f64,
}

impl Calibration {
    fn confidence(&self, margin: f64, non_ascii: usize) -> f64 {
        let z = self.margin * margin.min(30.0)
            + self.evidence * (1.0 + non_ascii as f64).ln()
            + self.bias;
        guess_confidence(z)
    }
}

/// The probability that log-odds `z` stand for, capped at [`MAX_GUESS_CONFIDENCE`].
fn guess_confidence(z: f64) -> f64 {
    (1.0 / (1.0 + (-z).exp())).min(MAX_GUESS_CONFIDENCE)
}

/// Inputs with fewer letters than this (ASCII letters and non-ASCII bytes) are too
/// short for the model to tell languages apart: `%E4%F6%FC` is `äöü` in windows-1252
/// and `дць` in windows-1251, and neither is a word.
const MIN_LETTERS: usize = 4;

/// One candidate's decoding and score.
struct Scored {
    encoding: &'static Encoding,
    score: f64,
    /// The candidate's prior (with the TLD bonus), its score when the text is too short.
    prior: f64,
    /// Orders candidates of equal score.
    tie_break: f64,
    /// Whether the decoding is all letters where it is not ASCII, without malformed
    /// sequences or oddities: a reading a person could have meant. Worked out only for
    /// input too short for the model (false otherwise), the only input that asks.
    clean: bool,
    /// Which text the candidate decodes to: the same number for the same text.
    text: usize,
}

/// Ranks the legacy candidates for `bytes`, best first, with calibrated confidences:
/// the winner's is the probability that its text is right; candidates that decode the
/// bytes to the same text as a better one are left out, and the others share the rest.
/// With [`Ranking::Charset`] only the winner is given (its charset and confidence the
/// same as with [`Ranking::RunnersUp`]), and chardetng's vote is asked for only when it
/// could change them. Reads at most [`SAMPLE_LIMIT`] bytes, and no further than
/// [`SAMPLE_NON_ASCII`] non-ASCII bytes; with `complete` false (or a sample that stops
/// short of the end) a character cut at the end is no evidence against a charset. Empty
/// input ranks every candidate alike.
pub(super) fn rank_legacy(
    bytes: &[u8],
    tld: Option<&str>,
    complete: bool,
    ranking: Ranking,
) -> Vec<Candidate> {
    rank_legacy_in(bytes, tld, complete, ranking, false)
}

/// [`rank_legacy`] with the candidates decoding the stretch of the sample [`Span::of`]
/// gives, or with `whole` (in tests, which prove them equal) the whole sample.
fn rank_legacy_in(
    bytes: &[u8],
    tld: Option<&str>,
    complete: bool,
    ranking: Ranking,
    whole: bool,
) -> Vec<Candidate> {
    let end = sample_end(bytes);
    let complete = complete && end == bytes.len();
    let bytes = &bytes[..end];
    let non_ascii = bytes.iter().filter(|&&b| b >= 0x80).count();
    let letters = non_ascii + bytes.iter().filter(|b| b.is_ascii_alphabetic()).count();
    let too_short = letters < MIN_LETTERS;
    let stretch = Span::of(bytes, complete);
    let span = if whole {
        Span::whole(bytes, complete)
    } else {
        stretch
    };
    let mut scored = WORKSPACE.with_borrow_mut(|workspace| {
        let mut scored = score_all(workspace, bytes, &span, tld, too_short);
        // chardetng chooses a reading of the bytes more than a charset: every candidate
        // that reads them as its choice does (windows-1252 and windows-1254 alike for
        // `Balinês`) gets its bonus. Its guess costs about as much as the model's scores
        // of a short text, so it is asked for only when the bonus could change what the
        // caller reads. It reads the stretch the model scores with its context, not the
        // whole sample: the same guess (see `Span::context`), and a URL's stretch is a
        // fraction of its bytes.
        let bonus = chardetng_bonus(non_ascii);
        let vote_counts = match ranking {
            Ranking::RunnersUp => true,
            // Short text is ranked by its priors, the scores breaking ties.
            Ranking::Charset => too_short || vote_can_change_the_winner(&scored, bonus, non_ascii),
        };
        if vote_counts {
            let guess = chardetng_guess(stretch.context, stretch.complete, tld);
            workspace.add_vote(guess, &span, bonus, &mut scored);
        }
        workspace.trim();
        scored
    });
    if too_short {
        // Too little text to tell one language from another: every clean reading is
        // as good as its charset is common, and the model only breaks ties.
        for s in scored.iter_mut().filter(|s| s.clean) {
            s.tie_break = s.score;
            s.score = s.prior;
        }
    }
    scored.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(b.tie_break.total_cmp(&a.tie_break))
    });
    // Group candidates by the text they give, under the best member's score (summing
    // would favour texts that many charsets happen to give), each group named by its
    // most common member (the text is the same).
    let mut groups: Vec<(&'static Encoding, f64, usize, f64)> = Vec::with_capacity(scored.len());
    for s in &scored {
        match groups.iter_mut().find(|g| g.2 == s.text) {
            Some(group) => {
                if s.prior > group.3 {
                    (group.0, group.3) = (s.encoding, s.prior);
                }
            }
            None => groups.push((s.encoding, s.score, s.text, s.prior)),
        }
    }
    let Some(&(winner, top, _, _)) = groups.first() else {
        return Vec::new();
    };
    let rest = groups[1..]
        .iter()
        .fold(f64::NEG_INFINITY, |sum, g| log_add(sum, g.1));
    let margin = top - rest;
    let confidence = if too_short {
        // The scores are priors, not evidence: the winner's share of them.
        guess_confidence(margin)
    } else if rest.is_finite() {
        CALIBRATION.confidence(margin, non_ascii)
    } else {
        MAX_GUESS_CONFIDENCE
    };
    let mut ranked = vec![Candidate {
        charset: Charset::Whatwg(winner),
        confidence: confidence as f32,
    }];
    if ranking == Ranking::Charset {
        return ranked;
    }
    ranked.extend(
        groups[1..]
            .iter()
            .map(|&(encoding, score, _, _)| Candidate {
                charset: Charset::Whatwg(encoding),
                confidence: ((1.0 - confidence) * (score - rest).exp()) as f32,
            }),
    );
    ranked
}

/// Non-ASCII bytes the statistical guess reads: its cost grows with them (ASCII costs
/// next to nothing), and past a few hundred its answer hardly changes.
const SAMPLE_NON_ASCII: usize = 1024;

/// Where the sample of `bytes` ends: after [`SAMPLE_NON_ASCII`] non-ASCII bytes or
/// [`SAMPLE_LIMIT`] bytes, whichever comes first.
fn sample_end(bytes: &[u8]) -> usize {
    let limit = bytes.len().min(SAMPLE_LIMIT);
    bytes[..limit]
        .iter()
        .enumerate()
        .filter(|(_, &b)| b >= 0x80)
        .nth(SAMPLE_NON_ASCII)
        .map_or(limit, |(i, _)| i)
}

/// `ln(e^a + e^b)` without overflow.
fn log_add(a: f64, b: f64) -> f64 {
    let (high, low) = if a > b { (a, b) } else { (b, a) };
    if low == f64::NEG_INFINITY {
        high
    } else {
        high + (low - high).exp().ln_1p()
    }
}

/// The stretch of a sample that every candidate decodes and the model scores: the
/// sample, or for a short one without ISO-2022-JP's shift bytes only its non-ASCII part
/// with the ASCII word on either side. Every candidate reads the ASCII before the first
/// non-ASCII byte, and after the byte that follows the last one (a trail byte), as
/// ASCII alike; the model scores ASCII only next to non-ASCII, and the oddities and
/// punctuation rules look one character aside, so the scores are those of the whole
/// sample (the ASCII words left out are counted in `ascii_words`). Long samples are
/// decoded whole, as the language trial reads their first characters.
#[derive(Clone, Copy)]
struct Span<'a> {
    bytes: &'a [u8],
    /// Whether `bytes` end where the input does (see [`rank_legacy`]).
    complete: bool,
    /// Words of ASCII letters in the sample outside `bytes` ([`ascii_words`]).
    ascii_words: usize,
    /// `bytes` with the two bytes before them: what chardetng reads. It skips the ASCII
    /// before the first non-ASCII byte but for two bytes of context (`n.º`), and scores
    /// ASCII after it only beside non-ASCII letters, so its guess for these is its
    /// guess for the whole sample.
    context: &'a [u8],
}

impl<'a> Span<'a> {
    /// The whole sample.
    fn whole(bytes: &'a [u8], complete: bool) -> Self {
        Span {
            bytes,
            complete,
            ascii_words: 0,
            context: bytes,
        }
    }

    /// The shortest stretch of `bytes` that scores as the whole sample does.
    fn of(bytes: &'a [u8], complete: bool) -> Self {
        let whole = Span::whole(bytes, complete);
        if bytes.len() > 2 * LANGUAGE_TRIAL || bytes.iter().any(|b| ISO_2022_JP_SHIFTS.contains(b))
        {
            return whole;
        }
        let Some(first) = bytes.iter().position(|&b| b >= 0x80) else {
            return whole;
        };
        let last = bytes.iter().rposition(|&b| b >= 0x80).unwrap_or(first);
        let after = (last + 2).min(bytes.len());
        // The ASCII word next to the non-ASCII part, from the byte before it that is not
        // a letter on.
        let start = bytes[..first]
            .iter()
            .rposition(|b| !b.is_ascii_alphabetic())
            .unwrap_or(0);
        let end = bytes[after..]
            .iter()
            .position(|b| !b.is_ascii_alphabetic())
            .map_or(bytes.len(), |i| after + i + 1);
        Span {
            bytes: &bytes[start..end],
            complete: complete || end < bytes.len(),
            ascii_words: ascii_words(&bytes[..start]) + ascii_words(&bytes[end..]),
            context: &bytes[start.saturating_sub(2)..end],
        }
    }
}

/// chardetng's guess for `bytes` (`complete` when the input ends with them), with
/// `tld` as its hint.
fn chardetng_guess(bytes: &[u8], complete: bool, tld: Option<&str>) -> &'static Encoding {
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Allow);
    detector.feed(bytes, complete);
    detector.guess(tld.map(str::as_bytes), Utf8Detection::Deny)
}

/// Every candidate's decoding of `span` and its score (a log-probability up to a
/// constant shared by all) before chardetng's vote ([`Workspace::add_vote`]); the layout
/// of double-byte characters and the ASCII words read the whole sample, `bytes` (which
/// is `too_short` for the model, see [`Scored::clean`]). Worked out in the buffers of
/// `workspace`, emptied first.
fn score_all(
    workspace: &mut Workspace,
    bytes: &[u8],
    span: &Span<'_>,
    tld: Option<&str>,
    too_short: bool,
) -> Vec<Scored> {
    let Workspace {
        readings,
        texts,
        all_text,
        scratch,
        ..
    } = workspace;
    let model = model();
    let ascii = ascii_evidence(model, bytes);
    let natives = tld.map_or(&[][..], natives_of_tld);
    // The layout of double-byte characters scores only bytes past 0x7F and their trail
    // bytes: the ASCII before the first is skipped once, not once a charset.
    let past_ascii = &bytes[bytes.iter().position(|&b| b >= 0x80).unwrap_or(bytes.len())..];
    let mut scored = Vec::with_capacity(LEGACY.len());
    // Charsets that decode the bytes alike give one text, scored once per language.
    readings.reset(model.languages().len());
    // What the text alone decides, worked out once for every charset that gives it,
    // and the texts themselves, back to back.
    texts.clear();
    all_text.clear();
    for &(encoding, prior) in &LEGACY {
        decode_chars_into(
            encoding,
            span.bytes,
            span.complete,
            &mut scratch.text,
            &mut scratch.plain,
        );
        let composition = Composition::of(encoding);
        let hash = hash_of(&scratch.plain);
        let known = texts.iter().position(|t| {
            t.composition == composition
                && t.hash == hash
                && all_text[t.text.clone()] == scratch.plain[..]
        });
        let evidence = match known {
            Some(known) => &mut texts[known],
            None => {
                let evidence = TextEvidence::new(
                    (texts, all_text),
                    (composition, hash),
                    scratch,
                    readings,
                    too_short,
                );
                texts.push(evidence);
                texts.last_mut().expect("just pushed")
            }
        };
        if !is_latin(encoding) && evidence.latin_words.is_none() {
            let plain = &all_text[evidence.text.clone()];
            evidence.latin_words = Some(latin_words_in_other_script(plain, span.ascii_words));
        }
        let evidence = &*evidence;
        let reading = evidence.reading;
        let mut fit = best_fit(model, encoding, readings, reading, &ascii, scratch);
        if encoding == encoding_rs::WINDOWS_1255 {
            fit = fit.max(visual_order_fit(model, readings, reading, &ascii, scratch));
        }
        if !fit.is_finite() {
            continue;
        }
        let mut score = fit + prior + layout_score(encoding, past_ascii);
        score += PUNCTUATION_LOG_P * evidence.counts.punctuation as f64;
        score += UPPER_CASE_LOG_P * evidence.counts.upper_case as f64;
        score -= MALFORMED_PENALTY * evidence.malformed as f64;
        score -= evidence.oddities;
        if !is_latin(encoding) {
            score -= evidence.latin_words.unwrap_or(0.0);
        }
        let tld_bonus = if natives.contains(&encoding) {
            TLD_BONUS
        } else {
            0.0
        };
        score += tld_bonus;
        scored.push(Scored {
            encoding,
            score,
            prior: prior + tld_bonus,
            tie_break: 0.0,
            clean: evidence.clean,
            text: evidence.same_text_as,
        });
    }
    scored
}

/// Whether chardetng's vote (`bonus` for the candidates of one text, or for none) could
/// change the winner of `scored`, or its confidence for `non_ascii` bytes of evidence.
/// Not when the best text leads every other by more than the bonus and its confidence
/// is the highest a guess gets even with the bonus on the runner-up, the worst case
/// (the rest's share grows with the score the bonus is added to).
fn vote_can_change_the_winner(scored: &[Scored], bonus: f64, non_ascii: usize) -> bool {
    // Each text's best score, as the ranking groups them.
    let mut groups = [(0usize, f64::NEG_INFINITY); LEGACY.len()];
    let mut count = 0;
    for s in scored {
        match groups[..count].iter_mut().find(|g| g.0 == s.text) {
            Some(group) => group.1 = group.1.max(s.score),
            None => {
                groups[count] = (s.text, s.score);
                count += 1;
            }
        }
    }
    let groups = &groups[..count];
    // The best text and the runner-up, by position.
    let (mut top, mut runner_up) = (None::<usize>, None::<usize>);
    for (i, g) in groups.iter().enumerate() {
        if top.is_none_or(|t| g.1 > groups[t].1) {
            (top, runner_up) = (Some(i), top);
        } else if runner_up.is_none_or(|r| g.1 > groups[r].1) {
            runner_up = Some(i);
        }
    }
    let (Some(top_at), Some(runner_up_at)) = (top, runner_up) else {
        // No text, or one: every candidate reads the bytes alike.
        return false;
    };
    let (top, runner_up) = (groups[top_at].1, groups[runner_up_at].1);
    // The rest is at least the runner-up's share with the bonus on it: when even that
    // leaves the winner less sure than a guess gets at most, the vote counts.
    if top - runner_up <= bonus
        || CALIBRATION.confidence(top - runner_up - bonus, non_ascii) < MAX_GUESS_CONFIDENCE
    {
        return true;
    }
    // The rest is at most the runner-up's share (with the bonus) times the number of
    // other texts: when that leaves the winner as sure as a guess gets, no need to sum.
    let others = (count - 1) as f64;
    let most = runner_up + bonus + others.ln();
    if CALIBRATION.confidence(top - most - 1e-9, non_ascii) >= MAX_GUESS_CONFIDENCE {
        return false;
    }
    let rest = groups
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != top_at)
        .fold(f64::NEG_INFINITY, |sum, (i, g)| {
            log_add(sum, if i == runner_up_at { g.1 + bonus } else { g.1 })
        });
    // A hair below the margin, so that rounding in another order of the sum cannot tell
    // otherwise.
    CALIBRATION.confidence(top - rest - 1e-9, non_ascii) < MAX_GUESS_CONFIDENCE
}

/// How a charset's decoding is put together before the model reads it (see
/// [`super::compose`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Composition {
    None,
    ToneMarks,
    Jamo,
    WideKana,
}

impl Composition {
    fn of(encoding: &'static Encoding) -> Self {
        if encoding == encoding_rs::WINDOWS_1258 {
            Composition::ToneMarks
        } else if encoding == encoding_rs::EUC_KR {
            Composition::Jamo
        } else if encoding == encoding_rs::SHIFT_JIS || encoding == encoding_rs::EUC_JP {
            Composition::WideKana
        } else {
            Composition::None
        }
    }
}

/// The buffers a ranking works in ([`score_all`]), kept between the rankings of a thread
/// so that one allocates little more than what it returns.
#[derive(Default)]
struct Workspace {
    /// chardetng's reading of the bytes.
    chardetng_reading: Vec<char>,
    readings: Readings,
    /// The evidence of each text the charsets give.
    texts: Vec<TextEvidence>,
    /// Those texts, back to back.
    all_text: Vec<char>,
    scratch: Scratch,
}

/// The bytes of text a [`Workspace`] keeps between rankings at most: one that grew past
/// it (a long sample) is let go.
const KEPT_WORKSPACE_BYTES: usize = 1 << 20;

impl Workspace {
    /// Adds chardetng's vote to `scored` (worked out in this workspace from `span`): the
    /// `bonus` for every candidate whose text is the bytes read in `guess`.
    fn add_vote(
        &mut self,
        guess: &'static Encoding,
        span: &Span<'_>,
        bonus: f64,
        scored: &mut [Scored],
    ) {
        decode_chars_into(
            guess,
            span.bytes,
            span.complete,
            &mut self.scratch.text,
            &mut self.chardetng_reading,
        );
        for s in scored {
            if self.all_text[self.texts[s.text].text.clone()] == self.chardetng_reading[..] {
                s.score += bonus;
            }
        }
    }

    /// Lets go of the buffers when a long sample made them large.
    fn trim(&mut self) {
        let chars = self.readings.chars.capacity()
            + self.all_text.capacity()
            + self.chardetng_reading.capacity()
            + self.scratch.plain.capacity()
            + self.scratch.raw.capacity()
            + self.scratch.chars.capacity();
        let kept = self.scratch.text.capacity()
            + chars * std::mem::size_of::<char>()
            + self.readings.steps.capacity() * std::mem::size_of::<Step>();
        if kept > KEPT_WORKSPACE_BYTES {
            *self = Workspace::default();
        }
    }
}

thread_local! {
    static WORKSPACE: RefCell<Workspace> = RefCell::default();
}

/// Buffers that one input's decodings are made in, one after another.
#[derive(Default)]
struct Scratch {
    /// The decoding.
    text: String,
    /// Its characters; put together ([`Composition`]) where the charset writes some in
    /// pieces; and as the model reads them ([`prepare_into`]).
    plain: Vec<char>,
    raw: Vec<char>,
    chars: Vec<char>,
    /// The languages a reading is scored in, in the order they are tried.
    languages: Vec<usize>,
}

/// The evidence a decoding gives whatever the charset that gave it: every charset that
/// decodes the bytes to the same text (and puts it together alike) shares it.
struct TextEvidence {
    /// Where the text stands among the input's texts, back to back.
    text: Range<usize>,
    /// The text's hash ([`hash_of`]).
    hash: u64,
    composition: Composition,
    /// Position of the first evidence of the same text (itself, or one put together
    /// otherwise): candidates that give the same text are grouped by it.
    same_text_as: usize,
    /// Number of the text's reading in [`Readings`] (texts the model reads alike share
    /// one).
    reading: usize,
    counts: Counts,
    /// U+FFFD characters: malformed sequences.
    malformed: usize,
    /// [`oddities`].
    oddities: f64,
    /// [`latin_words_in_other_script`], for charsets not written in Latin letters: worked
    /// out when the first of them gives the text.
    latin_words: Option<f64>,
    /// Whether the text is all letters where it is not ASCII, without malformed
    /// sequences or oddities (see [`Scored::clean`]).
    clean: bool,
}

impl TextEvidence {
    /// The evidence of the decoding in `scratch.plain` (whose hash is `hash`),
    /// which none of the `known` evidence (of the texts in `all_text`) has with
    /// `composition`; the text is added to `all_text`. Whether it is clean is worked out
    /// only for input `too_short` for the model.
    fn new(
        (known, all_text): (&[TextEvidence], &mut Vec<char>),
        (composition, hash): (Composition, u64),
        scratch: &mut Scratch,
        readings: &mut Readings,
        too_short: bool,
    ) -> Self {
        let plain = &scratch.plain;
        let malformed = plain.iter().filter(|&&c| c == '\u{FFFD}').count();
        let (raw, chars) = (&mut scratch.raw, &mut scratch.chars);
        let counts = match composition {
            Composition::ToneMarks => {
                raw.clear();
                raw.extend(compose_tone_marks(plain));
                prepare_into(raw, chars)
            }
            Composition::Jamo => {
                raw.clear();
                raw.extend(compose_jamo(plain));
                prepare_into(raw, chars)
            }
            Composition::WideKana if has_half_width_kana(plain) => {
                raw.clear();
                raw.extend(widen_kana(plain));
                prepare_into(raw, chars)
            }
            Composition::WideKana => prepare_into(plain, chars),
            Composition::None => prepare_into(plain, chars),
        };
        let reading = readings.find_or_add(chars);
        let oddities = oddities(plain);
        let clean = too_short
            && malformed == 0
            && oddities == 0.0
            && plain
                .iter()
                .all(|&c| c.is_ascii() || is_letter(c) || is_punctuation(c));
        let same_text_as = known
            .iter()
            .position(|t| t.hash == hash && all_text[t.text.clone()] == plain[..])
            .unwrap_or(known.len());
        let start = all_text.len();
        all_text.extend_from_slice(plain);
        TextEvidence {
            text: start..all_text.len(),
            hash,
            same_text_as,
            latin_words: None,
            composition,
            reading,
            counts,
            malformed,
            oddities,
            clean,
        }
    }
}

/// Log-odds of Hebrew stored in visual order (the line reversed, as legacy systems that
/// could not lay out right-to-left text kept it: `ןורכזה` for `הזכרון`) against logical order.
const VISUAL_ORDER_LOG_P: f64 = -1.0;

/// The fit of `reading` (read in windows-1255) as Hebrew in visual order: read backwards,
/// with [`VISUAL_ORDER_LOG_P`]. The model learnt logical order, where final letters end
/// words.
fn visual_order_fit(
    model: &Model,
    readings: &mut Readings,
    reading: usize,
    ascii: &[f64],
    scratch: &mut Scratch,
) -> f64 {
    scratch.chars.clear();
    scratch
        .chars
        .extend(readings.chars(reading).iter().rev().copied());
    let reversed = readings.find_or_add(&scratch.chars);
    best_fit(
        model,
        encoding_rs::WINDOWS_1255,
        readings,
        reversed,
        ascii,
        scratch,
    ) + VISUAL_ORDER_LOG_P
}

/// The decodings of one input as the model reads them, each once, numbered from 0 as
/// they come, with their log-likelihoods in each language of the model once worked out.
/// Kept back to back, so that a reading costs no allocation of its own.
#[derive(Default)]
struct Readings {
    /// Languages of the model.
    languages: usize,
    /// Every reading's characters.
    chars: Vec<char>,
    /// Each reading's hash ([`hash_of`]), so that two are told apart before their
    /// characters are compared.
    hashes: Vec<u64>,
    /// Every reading's [`steps`].
    steps: Vec<Step>,
    /// Where each reading's characters and steps stand.
    ranges: Vec<(Range<usize>, Range<usize>)>,
    /// Each reading's log-likelihood in each language (by position; NaN until worked
    /// out), reading after reading.
    fits: Vec<f64>,
}

impl Readings {
    /// Emptied, for readings scored in `languages` languages.
    fn reset(&mut self, languages: usize) {
        self.languages = languages;
        self.chars.clear();
        self.hashes.clear();
        self.steps.clear();
        self.ranges.clear();
        self.fits.clear();
    }

    /// The number of the reading of `chars`, added if it is new.
    fn find_or_add(&mut self, chars: &[char]) -> usize {
        let hash = hash_of(chars);
        if let Some(known) = self
            .ranges
            .iter()
            .zip(&self.hashes)
            .position(|((c, _), &h)| h == hash && self.chars[c.clone()] == *chars)
        {
            return known;
        }
        self.hashes.push(hash);
        let char_start = self.chars.len();
        self.chars.extend_from_slice(chars);
        let step_start = self.steps.len();
        steps_into(chars, &mut self.steps);
        self.ranges
            .push((char_start..self.chars.len(), step_start..self.steps.len()));
        self.fits.resize(self.fits.len() + self.languages, f64::NAN);
        self.ranges.len() - 1
    }

    /// The characters of reading `reading`.
    fn chars(&self, reading: usize) -> &[char] {
        &self.chars[self.ranges[reading].0.clone()]
    }

    /// The log-likelihood of reading `reading` in `language`, the language at `index`,
    /// or `None` when it is below `floor` (then it is not worked out to the end).
    fn fit_above(
        &mut self,
        reading: usize,
        index: usize,
        language: &Language,
        floor: f64,
    ) -> Option<f64> {
        let slot = reading * self.languages + index;
        if self.fits[slot].is_nan() {
            let steps = &self.steps[self.ranges[reading].1.clone()];
            let fit = language.steps_log_likelihood_above(steps, floor)?;
            self.fits[slot] = fit;
        }
        Some(self.fits[slot]).filter(|&fit| fit >= floor)
    }
}

/// Characters every language of a charset is scored on before the best two go on to
/// the whole text: far cheaper for charsets written in many languages (windows-1252),
/// and the language is clear long before.
const LANGUAGE_TRIAL: usize = 256;

/// For every language of the model (by position), the evidence of the ASCII words of
/// `bytes`: their log-likelihood in that language less that in the language they fit
/// best, at most [`ASCII_GAP_CAP`] below, weighted by [`ASCII_WEIGHT`]; 0 for the best
/// language and for text without ASCII letters. The model scores only the non-ASCII
/// letters and their neighbours, alike whatever the words around them; these tell that
/// `Lëtzebuergesch` amid Dutch words is Dutch in windows-1252, not Lithuanian `ė` in
/// windows-1257.
fn ascii_evidence(model: &Model, bytes: &[u8]) -> Vec<f64> {
    let pairs = AsciiPairs::of_bytes(bytes);
    let fits = model.ascii_log_likelihoods(&pairs);
    let best = fits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    fits.iter()
        .map(|fit| ASCII_WEIGHT * (fit - best).max(-ASCII_GAP_CAP))
        .collect()
}

/// The best log-likelihood of reading `reading` among the languages written in
/// `encoding` (−∞ when there are none), each with its [`ascii_evidence`] (by position).
fn best_fit(
    model: &Model,
    encoding: &'static Encoding,
    readings: &mut Readings,
    reading: usize,
    ascii: &[f64],
    scratch: &mut Scratch,
) -> f64 {
    let order = &mut scratch.languages;
    order.clear();
    order.extend(model.languages_for(encoding).map(|(i, _)| i));
    let chars = readings.chars(reading);
    if chars.len() > 2 * LANGUAGE_TRIAL && order.len() > 2 {
        // Only the two languages that fit the first characters best go on.
        let trial_steps = steps(&chars[..LANGUAGE_TRIAL]);
        let languages = model.languages();
        let mut trial: Vec<(f64, usize)> = order
            .iter()
            .map(|&i| {
                (
                    languages[i].steps_log_likelihood(&trial_steps) + ascii[i],
                    i,
                )
            })
            .collect();
        trial.sort_by(|a, b| b.0.total_cmp(&a.0));
        order.clear();
        order.extend(trial.into_iter().take(2).map(|(_, i)| i));
    }
    // The language the ASCII words fit best first: the others stop scoring as soon as
    // they fall behind the best so far (a log-likelihood only falls as the text goes
    // on). The best fit is the same in any order, so the rest keep theirs: sorting them
    // all cost more than the few more steps it saved.
    if let Some(leader) = (0..order.len()).reduce(|lead, at| {
        if ascii[order[at]] > ascii[order[lead]] {
            at
        } else {
            lead
        }
    }) {
        order.swap(0, leader);
    }
    let mut best = f64::NEG_INFINITY;
    for &i in order.iter() {
        let language = &model.languages()[i];
        if let Some(fit) = readings.fit_above(reading, i, language, best - ascii[i]) {
            best = best.max(fit + ascii[i]);
        }
    }
    best
}

/// The hash that tells texts and readings apart before their characters are compared:
/// the model's key hasher, one multiply for every two characters.
fn hash_of(chars: &[char]) -> u64 {
    let mut hasher = KeyHasher::default();
    hasher.write_usize(chars.len());
    let mut pairs = chars.chunks_exact(2);
    for pair in &mut pairs {
        hasher.write_u64((u64::from(pair[0]) << 32) | u64::from(pair[1]));
    }
    if let [last] = pairs.remainder() {
        hasher.write_u64(u64::from(*last));
    }
    hasher.finish()
}

/// The characters of `bytes` decoded in `encoding` ([`decode_prefix_into`]) in `chars`
/// (emptied first), through `text`, emptied, for a charset of more than one byte a
/// character: a single-byte charset maps each byte alone ([`single_byte_chars`]).
fn decode_chars_into(
    encoding: &'static Encoding,
    bytes: &[u8],
    complete: bool,
    text: &mut String,
    chars: &mut Vec<char>,
) {
    chars.clear();
    if let Some(upper_half) = single_byte_chars(encoding) {
        chars.extend(bytes.iter().map(|&b| match b.checked_sub(0x80) {
            None => char::from(b),
            Some(high) => upper_half[usize::from(high)],
        }));
    } else if encoding == encoding_rs::ISO_2022_JP
        && !bytes.iter().any(|b| ISO_2022_JP_SHIFTS.contains(b))
    {
        // Without an escape or a shift, ISO-2022-JP stays in ASCII, where a byte past
        // 0x7F is malformed.
        chars.extend(bytes.iter().map(|&b| {
            if b < 0x80 {
                char::from(b)
            } else {
                char::REPLACEMENT_CHARACTER
            }
        }));
    } else {
        decode_prefix_into(encoding, bytes, complete, text);
        chars.extend(text.chars());
    }
}

/// The bytes that move ISO-2022-JP out of ASCII (its escape) or that it refuses there
/// (the shifts of other ISO 2022 charsets).
const ISO_2022_JP_SHIFTS: [u8; 3] = [0x0E, 0x0F, 0x1B];

/// What the bytes `0x80` to `0xFF` decode to in `encoding`, one of the single-byte
/// charsets of [`LEGACY`] (U+FFFD for a byte it leaves unmapped), or `None` for any other
/// charset. Below `0x80` every single-byte charset is ASCII.
fn single_byte_chars(encoding: &'static Encoding) -> Option<&'static [char; 128]> {
    static TABLES: OnceLock<Vec<(&'static Encoding, [char; 128])>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        LEGACY
            .iter()
            .filter(|(encoding, _)| encoding.is_single_byte())
            .map(|&(encoding, _)| {
                let upper_half = std::array::from_fn(|high| {
                    let byte = [0x80 + high as u8];
                    let (text, _) = encoding.decode_without_bom_handling(&byte);
                    let mut chars = text.chars();
                    match (chars.next(), chars.next()) {
                        (Some(c), None) => c,
                        _ => char::REPLACEMENT_CHARACTER,
                    }
                });
                (encoding, upper_half)
            })
            .collect()
    });
    tables
        .iter()
        .find(|(e, _)| *e == encoding)
        .map(|(_, upper_half)| upper_half)
}

/// Decodes `bytes` into `text` (emptied first) with U+FFFD for malformed sequences; when
/// the input goes on past `bytes` (`complete` false), a character cut at the end is left
/// out, not reported.
fn decode_prefix_into(
    encoding: &'static Encoding,
    bytes: &[u8],
    complete: bool,
    text: &mut String,
) {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let capacity = decoder
        .max_utf8_buffer_length(bytes.len())
        .unwrap_or(bytes.len().saturating_mul(3).saturating_add(16));
    text.clear();
    text.reserve(capacity);
    let _ = decoder.decode_to_string(bytes, text, complete);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Bytes as URLs carry them: ASCII words and separators around runs of any non-ASCII
    /// byte, now and then an ASCII byte a double-byte charset takes as a trail byte.
    fn url_like() -> impl Strategy<Value = Vec<u8>> {
        let piece = prop_oneof![
            "[a-zA-Z]{1,8}".prop_map(String::into_bytes),
            "[ &=/?.:0-9_%+-]{1,3}".prop_map(String::into_bytes),
            proptest::collection::vec(0x80u8..=0xFF, 1..8),
            proptest::collection::vec(prop_oneof![0x80u8..=0xFF, 0x30u8..=0x7E], 1..8),
        ];
        proptest::collection::vec(piece, 0..12).prop_map(|p| p.concat())
    }

    /// Real words in the charsets the model ranks, between ASCII words.
    fn legacy_text() -> impl Strategy<Value = Vec<u8>> {
        let words = [
            "東京",
            "ラーメン",
            "北京",
            "搜索",
            "臺北",
            "서울",
            "똠방",
            "Москва",
            "Größe",
            "été",
            "źródło",
            "Αθήνα",
            "ירושלים",
            "القاهرة",
            "กรุงเทพ",
            "İstanbul",
            "Việt",
        ];
        let charsets: Vec<&'static Encoding> = LEGACY.iter().map(|&(e, _)| e).collect();
        (
            "[a-z]{0,8}[ =&/]?",
            proptest::collection::vec(proptest::sample::select(words.to_vec()), 1..4),
            "[ =&/]?[a-z]{0,8}([=&][a-z]{1,6}){0,4}",
            proptest::sample::select(charsets),
        )
            .prop_map(|(before, words, after, encoding)| {
                let text = words.join(" ");
                let (bytes, _, _) = encoding.encode(&text);
                [before.as_bytes(), &bytes, after.as_bytes()].concat()
            })
    }

    /// A sample, whether it is the whole input, and the top-level domain hint.
    fn sample() -> impl Strategy<Value = (Vec<u8>, bool, Option<String>)> {
        (
            prop_oneof![url_like(), legacy_text()],
            any::<bool>(),
            proptest::option::of("jp|ru|cn|kr|tw|pl|com"),
        )
    }

    proptest! {
        #[test]
        fn the_span_scores_as_the_whole_sample((bytes, complete, tld) in sample()) {
            let fast = rank_legacy_in(&bytes, tld.as_deref(), complete, Ranking::RunnersUp, false);
            let full = rank_legacy_in(&bytes, tld.as_deref(), complete, Ranking::RunnersUp, true);
            prop_assert_eq!(fast, full);
        }

        #[test]
        fn chardetng_guesses_the_same_from_the_span_s_context((bytes, complete, tld) in sample()) {
            let span = Span::of(&bytes, complete);
            let tld = tld.as_deref();
            prop_assert_eq!(
                chardetng_guess(span.context, span.complete, tld),
                chardetng_guess(&bytes, complete, tld)
            );
        }

        /// The buffers a thread keeps between rankings carry nothing from one to the next:
        /// a sample ranks the same after another as in a thread of its own.
        #[test]
        fn a_ranking_owes_nothing_to_the_one_before(
            (before, before_complete, _) in sample(),
            (bytes, complete, tld) in sample(),
        ) {
            let fresh = {
                let (bytes, tld) = (bytes.clone(), tld.clone());
                std::thread::spawn(move || {
                    rank_legacy(&bytes, tld.as_deref(), complete, Ranking::RunnersUp)
                })
                .join()
                .expect("the ranking thread")
            };
            rank_legacy(&before, None, before_complete, Ranking::RunnersUp);
            prop_assert_eq!(
                rank_legacy(&bytes, tld.as_deref(), complete, Ranking::RunnersUp),
                fresh
            );
        }

        /// The winner alone, with chardetng's vote asked for only when it could change
        /// it, is the whole ranking's winner with the same confidence.
        #[test]
        fn the_winner_alone_is_the_whole_ranking_s_winner(
            (bytes, complete, tld) in sample(),
        ) {
            let whole = rank_legacy(&bytes, tld.as_deref(), complete, Ranking::RunnersUp);
            let winner = rank_legacy(&bytes, tld.as_deref(), complete, Ranking::Charset);
            prop_assert_eq!(&winner[..], &whole[..whole.len().min(1)]);
        }
    }

    proptest! {
        /// A single-byte charset's table reads any bytes as encoding_rs does, and every
        /// other charset is read by encoding_rs.
        #[test]
        fn characters_are_decoded_as_encoding_rs_decodes(
            bytes in proptest::collection::vec(any::<u8>(), 0..64),
            complete in any::<bool>(),
        ) {
            let (mut text, mut chars, mut expected) = (String::new(), Vec::new(), String::new());
            for &(encoding, _) in &LEGACY {
                decode_chars_into(encoding, &bytes, complete, &mut text, &mut chars);
                decode_prefix_into(encoding, &bytes, complete, &mut expected);
                prop_assert_eq!(
                    chars.iter().collect::<String>(),
                    expected.clone(),
                    "{}",
                    encoding.name()
                );
                prop_assert_eq!(single_byte_chars(encoding).is_some(), encoding.is_single_byte());
            }
        }
    }

    /// Whether chardetng's vote could change the winner of `bytes`.
    fn vote_counts(bytes: &[u8]) -> bool {
        let non_ascii = bytes.iter().filter(|&&b| b >= 0x80).count();
        let span = Span::of(bytes, true);
        let scored =
            WORKSPACE.with_borrow_mut(|workspace| score_all(workspace, bytes, &span, None, false));
        vote_can_change_the_winner(&scored, chardetng_bonus(non_ascii), non_ascii)
    }

    #[test]
    fn the_vote_is_asked_for_only_when_the_winner_is_not_clear() {
        let encoded =
            |text: &str, encoding: &'static Encoding| encoding.encode(text).0.into_owned();
        let clear = "Москва — столица России, город федерального значения";
        assert!(!vote_counts(&encoded(clear, encoding_rs::WINDOWS_1251)));
        assert!(!vote_counts(&encoded(
            "東京都の天気予報と週間天気",
            encoding_rs::SHIFT_JIS
        )));
        // Two bytes between ASCII words (a UTF-8 character cut short) read as a word in
        // many charsets, none clearly.
        assert!(vote_counts(b"q=se?ne:pa:t\"us ne&se se&pr\xE5\xBC?"));
    }

    #[test]
    fn the_span_is_the_non_ascii_part_and_the_words_beside_it() {
        let span = Span::of(b"https://a.example/x?q=ab\xE9cd ef&k=news&t=list", true);
        assert_eq!(span.bytes, b"=ab\xE9cd ");
        // `https`, `example`, `ef`, `news`, `list`; `a`, `x`, `q`, `k` and `t` are one letter.
        assert_eq!(span.ascii_words, 5);
        assert_eq!(Span::of(b"\xE9", false).bytes, b"\xE9");
        // A trail byte after the last non-ASCII byte stays in.
        assert_eq!(Span::of(b"x\x82Ab", true).bytes, b"x\x82Ab");
        let escapes = b"\x1B$B\xE9";
        assert_eq!(Span::of(escapes, true).bytes, escapes);
    }
}
