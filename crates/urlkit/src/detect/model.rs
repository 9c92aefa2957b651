//! The character model: for each language, how often each character and each pair of
//! characters occurs in its text, trained by `tools/detect-eval/make_model.py` into
//! `model.txt` and packed by the crate's `build.rs` (the packed format is described
//! there).
//!
//! Training text, all licensed for redistribution: the word frequency lists of the
//! `wordfreq` package (CC BY-SA 4.0; Chinese converted to traditional characters for
//! Big5 with OpenCC, Apache 2.0 data), the Thai National Corpus frequencies shipped
//! with `pythainlp` (Apache 2.0), word lists of the `faker` package (MIT), and for
//! Estonian the words of the Estonian hunspell dictionary (Institute of the Estonian
//! Language's licence, which allows distribution with the licence kept; LGPL-2.1). No
//! evaluation text (the gettext catalogs) is trained on.
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use encoding_rs::Encoding;

/// The model of `model.txt`, packed by `build.rs`.
static MODEL_PACKED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/detect_model.bin"));

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

/// All trained languages, in the order of `model.txt`.
pub(super) struct Model {
    languages: Vec<Language>,
    /// For each charset some language is written in, the positions of those languages.
    by_charset: Vec<(&'static Encoding, Vec<usize>)>,
    /// Every language's [`Language::ascii_pairs`] by pair: the pair's log-probability in
    /// each language (by position), pair after pair.
    ascii_by_pair: Vec<f64>,
}

/// The model, unpacked on first use.
pub(super) fn model() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(|| unpack(MODEL_PACKED))
}

impl Model {
    /// Every language's [`Language::ascii_log_likelihood`] of `pairs`, by position: the
    /// same sums, added up pair after pair for all languages at once.
    pub(super) fn ascii_log_likelihoods(&self, pairs: &AsciiPairs) -> Vec<f64> {
        let mut sums = vec![-0.0f64; self.languages.len()];
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: the processor has the instructions the function is compiled for.
            unsafe { self.add_ascii_log_likelihoods_avx512(pairs, &mut sums) };
            return sums;
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has the instructions the function is compiled for.
            unsafe { self.add_ascii_log_likelihoods_avx2(pairs, &mut sums) };
            return sums;
        }
        self.add_ascii_log_likelihoods(pairs, &mut sums);
        sums
    }

    /// Adds each language's log-likelihood of `pairs` to its sum in `sums`, pair after
    /// pair: the languages side by side in vector lanes, each sum's additions in the same
    /// order (and each product rounded before it is added) on every processor.
    #[inline(always)]
    fn add_ascii_log_likelihoods(&self, pairs: &AsciiPairs, sums: &mut [f64]) {
        let n = sums.len();
        for &(k, count) in &pairs.counts {
            let row = &self.ascii_by_pair[usize::from(k) * n..][..n];
            for (sum, &log_p) in sums.iter_mut().zip(row) {
                *sum += f64::from(count) * log_p;
            }
        }
    }

    /// [`Model::add_ascii_log_likelihoods`] eight languages at a time.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    fn add_ascii_log_likelihoods_avx512(&self, pairs: &AsciiPairs, sums: &mut [f64]) {
        self.add_ascii_log_likelihoods(pairs, sums);
    }

    /// [`Model::add_ascii_log_likelihoods`] four languages at a time.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn add_ascii_log_likelihoods_avx2(&self, pairs: &AsciiPairs, sums: &mut [f64]) {
        self.add_ascii_log_likelihoods(pairs, sums);
    }

    /// Every language, in the order of `model.txt` (the order of [`Model::languages_for`]'s
    /// positions).
    pub(super) fn languages(&self) -> &[Language] {
        &self.languages
    }

    /// The languages written in `encoding` (none for a charset the model does not know),
    /// each with its position in [`Model::languages`].
    pub(super) fn languages_for(
        &self,
        encoding: &'static Encoding,
    ) -> impl Iterator<Item = (usize, &Language)> {
        self.by_charset
            .iter()
            .find(|(e, _)| *e == encoding)
            .map_or(&[][..], |(_, positions)| &positions[..])
            .iter()
            .map(|&i| (i, &self.languages[i]))
    }
}

/// A hasher for the model's small integer keys, and for the characters of the texts a
/// ranking tells apart: one multiply and a fold a number, far cheaper than the default
/// SipHash, which guards against hash flooding neither needs (the model's keys are fixed
/// at build time, and texts with the same hash are compared in full, never stored in a
/// table).
#[derive(Default)]
pub(super) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_u64(&mut self, n: u64) {
        let mixed = (self.0 ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = mixed ^ (mixed >> 29);
    }
}

type KeyMap<K> = HashMap<K, u32, BuildHasherDefault<KeyHasher>>;

/// What the model needs of one character, worked out when the model is unpacked: its
/// probability alone, and as the context of the next.
#[derive(Clone, Copy, Debug)]
struct CharStats {
    /// Whether any listed pair starts with it (otherwise no pair needs looking up).
    has_pairs: bool,
    /// Natural log of the character's probability alone ([`Language::unigram`]).
    ln_uni: f64,
    /// Natural log of the share of the unigram's probability that a character keeps
    /// after this one when their pair is not listed: `ln(k / (ctx + k))`, at most 0,
    /// where `ctx` is its count as a context (as a character, or as the first of listed
    /// pairs if more) and `k = ctx * backoff + 1` the unigram's weight after it.
    ln_unlisted: f64,
}

/// Characters below this have their [`CharStats`] in a table of each language
/// ([`Language::stats`]): Latin, Greek, Cyrillic, Hebrew and Arabic letters.
const DIRECT_STATS: u32 = 0x800;

/// Symbols of the ASCII pair table: `a`–`z`, then the space.
const ASCII_SYMBOLS: usize = 27;

/// Character model of one language.
pub(super) struct Language {
    /// The language's code in `model.txt` (`"de"`, `"zh-Hant"`, …).
    #[cfg_attr(not(test), allow(dead_code))]
    pub(super) code: &'static str,
    /// The legacy charsets the language is written in.
    pub(super) charsets: Vec<&'static Encoding>,
    unigrams: KeyMap<u32>,
    /// Keyed by the two characters' scalar values, first in the high half.
    bigrams: KeyMap<u64>,
    /// The natural log of [`Language::conditional`] of every pair of `bigrams`, by the
    /// same key: scoring a text adds these up and never takes a logarithm.
    pair_log_p: HashMap<u64, f64, BuildHasherDefault<KeyHasher>>,
    /// How often each character is the first of a listed pair: its count as a context,
    /// which for the space exceeds its count as a character (the training text's words
    /// are counted with a space on either side).
    contexts: KeyMap<u32>,
    total: f64,
    /// Weight of the unigram inside pair probabilities.
    backoff: f64,
    /// Share of the training text in each class of [`block_of`], smoothed.
    blocks: [f64; BLOCKS],
    /// [`CharStats`] of a character the training text never showed, by its block
    /// ([`block_of`]).
    block_stats: [CharStats; BLOCKS],
    /// [`CharStats`] of every character below [`DIRECT_STATS`], by scalar value: the
    /// alphabets of the single-byte charsets, read without a hash look-up.
    direct_stats: Vec<CharStats>,
    /// [`CharStats`] of every character from [`DIRECT_STATS`] on that the training text
    /// showed (others are worked out from their block).
    stats: HashMap<u32, CharStats, BuildHasherDefault<KeyHasher>>,
    /// Natural log of the probability of each pair of [`ASCII_SYMBOLS`] (first symbol
    /// times 27 plus second), for [`Language::ascii_log_likelihood`].
    ascii_pairs: Vec<f64>,
}

fn pair(a: char, b: char) -> u64 {
    (u64::from(a) << 32) | u64::from(b)
}

impl Language {
    /// Natural-log likelihood of the non-ASCII part of `text` (prepared by [`prepare`]):
    /// every non-ASCII character given the one before it, and every ASCII character
    /// that follows a non-ASCII one by how much that context lowers its odds. ASCII
    /// after ASCII is the same in every candidate charset and not scored. Empty or
    /// all-ASCII text scores 0; no text gives an infinite or NaN score.
    #[cfg(test)]
    pub(super) fn log_likelihood(&self, text: &[char]) -> f64 {
        self.steps_log_likelihood(&steps(text))
    }

    /// [`Language::log_likelihood`] of the text whose [`steps`] these are.
    pub(super) fn steps_log_likelihood(&self, steps: &[Step]) -> f64 {
        self.steps_log_likelihood_above(steps, f64::NEG_INFINITY)
            .unwrap_or(f64::NEG_INFINITY)
    }

    /// [`Language::steps_log_likelihood`], or `None` as soon as it is certain to be below
    /// `floor`: every step adds a log-probability, at most 0, so the sum only falls.
    pub(super) fn steps_log_likelihood_above(&self, steps: &[Step], floor: f64) -> Option<f64> {
        let mut sum = 0.0;
        // Steps mostly follow on, each one's character the next one's context (the
        // first's is mostly a space).
        let mut last = (' ', self.stats(' '));
        for &(prev, c) in steps {
            let before = if last.0 == prev {
                last.1
            } else {
                self.stats(prev)
            };
            let stats = self.stats(c);
            last = (c, stats);
            let log_p = self.log_conditional_after(prev, &before, c, &stats);
            // An ASCII character counts only as evidence against: the word lists the model
            // learnt from end every word with a space, which real text in some scripts
            // (Thai) does not do. Both terms are worked out and one chosen, without a
            // branch on which kind of character comes.
            let log_ratio = (log_p - stats.ln_uni).min(0.0);
            sum += if c.is_ascii() { log_ratio } else { log_p };
            if sum < floor {
                return None;
            }
        }
        Some(sum)
    }

    /// The [`CharStats`] of `c`: precomputed for ASCII and for characters the training
    /// text showed, from its block for any other.
    #[inline(always)]
    fn stats(&self, c: char) -> CharStats {
        match self.direct_stats.get(c as usize) {
            Some(stats) => *stats,
            None => self.listed_stats(c),
        }
    }

    /// [`Language::stats`] of a character the table of [`DIRECT_STATS`] does not hold:
    /// from the map of the characters the training text showed, or from its block.
    #[inline(always)]
    fn listed_stats(&self, c: char) -> CharStats {
        match self.stats.get(&u32::from(c)) {
            Some(stats) => *stats,
            // Neither counted nor a context: [`Language::stats_of`] without the look-ups,
            // the same for every character of its block.
            None => self.block_stats[block_of(c).0],
        }
    }

    /// The [`CharStats`] of `c` worked out from the counts ([`Language::conditional`]'s
    /// terms).
    fn stats_of(&self, c: char) -> CharStats {
        let context = self.contexts.get(&u32::from(c)).copied().unwrap_or(0);
        let ctx = self.count(c).max(f64::from(context));
        let k = ctx * self.backoff + 1.0;
        CharStats {
            has_pairs: context > 0,
            ln_uni: self.unigram(c).ln(),
            ln_unlisted: (k / (ctx + k)).ln(),
        }
    }

    /// The natural log of [`Language::conditional`] from the two characters'
    /// [`CharStats`]: a listed pair's is looked up, an unlisted pair's is the unigram's
    /// share after `prev`.
    fn log_conditional_after(
        &self,
        prev: char,
        before: &CharStats,
        c: char,
        stats: &CharStats,
    ) -> f64 {
        let listed = if before.has_pairs {
            self.pair_log_p.get(&pair(prev, c)).copied()
        } else {
            None
        };
        listed.unwrap_or(before.ln_unlisted + stats.ln_uni)
    }

    /// Fills the tables of [`CharStats`] and ASCII pairs, once the counts, blocks and
    /// backoff are final.
    fn precompute(&mut self) {
        self.block_stats = std::array::from_fn(|block| {
            let size = BLOCK_SIZES[block];
            let base = self.blocks[block] / size;
            // Neither counted nor a context: `ctx` 0, so the unigram keeps all its share.
            let p_uni = (0.0 + UNIGRAM_PRIOR * base) / (self.total + UNIGRAM_PRIOR);
            CharStats {
                has_pairs: false,
                ln_uni: p_uni.ln(),
                ln_unlisted: 0.0,
            }
        });
        self.direct_stats = (0..128u8).map(|b| self.stats_of(char::from(b))).collect();
        let keys: Vec<u32> = self
            .unigrams
            .keys()
            .chain(self.contexts.keys())
            .copied()
            .collect();
        self.stats.reserve(keys.len());
        for key in keys {
            if let Some(c) = char::from_u32(key).filter(|c| !c.is_ascii()) {
                let stats = self.stats_of(c);
                self.stats.insert(key, stats);
            }
        }
        let direct: Vec<CharStats> = (0x80..DIRECT_STATS)
            .map(|n| self.listed_stats(char::from_u32(n).expect("below the surrogates")))
            .collect();
        self.direct_stats.extend(direct);
        // The table answers for these from now on.
        self.stats.retain(|&n, _| n >= DIRECT_STATS);
        let mut pair_log_p =
            HashMap::with_capacity_and_hasher(self.bigrams.len(), Default::default());
        pair_log_p.extend(self.bigrams.keys().filter_map(|&key| {
            let first = char::from_u32((key >> 32) as u32)?;
            let second = char::from_u32(key as u32)?;
            Some((key, self.conditional(first, second).ln()))
        }));
        self.pair_log_p = pair_log_p;
        let symbol = |i: usize| {
            if i == 26 {
                ' '
            } else {
                char::from(b'a' + i as u8)
            }
        };
        self.ascii_pairs = (0..ASCII_SYMBOLS * ASCII_SYMBOLS)
            .map(|k| {
                self.conditional(symbol(k / ASCII_SYMBOLS), symbol(k % ASCII_SYMBOLS))
                    .ln()
            })
            .collect();
    }

    /// Natural-log likelihood of the pairs of ASCII letters and word boundaries that
    /// [`ascii_pairs`] gives: which language the words around the non-ASCII letters are
    /// in. The same in every candidate charset, so evidence for a language and through it
    /// for the charsets it is written in. No pairs score 0.
    #[cfg(test)]
    pub(super) fn ascii_log_likelihood(&self, pairs: &AsciiPairs) -> f64 {
        pairs.counts.iter().fold(-0.0, |sum, &(k, n)| {
            sum + f64::from(n) * self.ascii_pairs[usize::from(k)]
        })
    }

    /// Probability of `c` after `prev`: pair counts interpolated with the unigram.
    fn conditional(&self, prev: char, c: char) -> f64 {
        let p_uni = self.unigram(c);
        let ctx = self.count(prev).max(f64::from(
            self.contexts.get(&u32::from(prev)).copied().unwrap_or(0),
        ));
        let pair = self.bigrams.get(&pair(prev, c)).copied().unwrap_or(0) as f64;
        let k = ctx * self.backoff + 1.0;
        (pair + k * p_uni) / (ctx + k)
    }

    fn count(&self, c: char) -> f64 {
        f64::from(self.unigrams.get(&u32::from(c)).copied().unwrap_or(0))
    }

    fn unigram(&self, c: char) -> f64 {
        let (block, size) = block_of(c);
        let base = self.blocks[block] / size;
        (self.count(c) + UNIGRAM_PRIOR * base) / (self.total + UNIGRAM_PRIOR)
    }
}

/// A step of a text that the model scores (see [`Language::log_likelihood`]): a
/// non-ASCII character after the one before it, or an ASCII character after a non-ASCII
/// one. ASCII after ASCII is the same in every candidate charset and not scored.
pub(super) type Step = (char, char);

/// The [`Step`]s of `text` (prepared by [`prepare`]), the same for every language: a
/// text is read once, and each language scores only these. A run of spaces counts as
/// one, and the text ends with a space.
pub(super) fn steps(text: &[char]) -> Vec<Step> {
    let mut steps = Vec::with_capacity(text.len() + 1);
    steps_into(text, &mut steps);
    steps
}

/// [`steps`] added to the end of `steps`.
pub(super) fn steps_into(text: &[char], steps: &mut Vec<Step>) {
    steps.reserve(text.len() + 1);
    let mut prev = ' ';
    for &c in text {
        if !c.is_ascii() || !prev.is_ascii() {
            steps.push((prev, c));
        }
        // A run of spaces is one: the first stands for it.
        if c != ' ' || prev != ' ' {
            prev = c;
        }
    }
    if !prev.is_ascii() {
        steps.push((prev, ' '));
    }
}

/// Punctuation that text in any language uses around words: quotation marks, dashes,
/// ellipsis, bullets, no-break space, inverted marks, signs between numbers, and the
/// direction marks of Hebrew and Arabic text. Word lists, the model's training text,
/// have none of it, so the model would take it for a rare letter.
const PUNCTUATION: &[char] = &[
    '\u{A0}', '«', '»', '„', '“', '”', '‘', '’', '‚', '‹', '›', '–', '—', '…', '•', '·', '°', '§',
    '¡', '¿', '€', '×', '\u{200E}', '\u{200F}',
];

/// The pairs of [`AsciiPairs::of_bytes`] counted: each distinct pair of letters and
/// spaces once, with how often it comes (a thousand pairs of text are a few hundred
/// distinct ones), in the order of the table of [`ASCII_SYMBOLS`]. Every pair of ASCII
/// text is one of the table's.
pub(super) struct AsciiPairs {
    counts: Vec<(u16, u32)>,
}

impl AsciiPairs {
    /// `pairs` of lower-case ASCII letters and spaces, as [`ascii_pairs`] gives them,
    /// counted (a test's way to count them; a pair of anything else is a test's mistake,
    /// and panics).
    #[cfg(test)]
    pub(super) fn of(pairs: &[(char, char)]) -> Self {
        let slot = |c: char| match c {
            'a'..='z' => usize::from(c as u8 - b'a'),
            ' ' => usize::from(SPACE_SYMBOL),
            _ => panic!("{c:?} is not in the table of ASCII pairs"),
        };
        let mut tally = PairTally::new();
        for &(a, b) in pairs {
            tally.add(slot(a) * ASCII_SYMBOLS + slot(b));
        }
        AsciiPairs {
            counts: tally.in_table_order(),
        }
    }

    /// The pairs of ASCII letters in `bytes`, before the first [`ASCII_PAIRS`], as the
    /// model counts them: lower case, any other ASCII a word boundary (a space), no pair
    /// of two boundaries and none across a non-ASCII byte (which each charset reads
    /// differently). Every such pair is one of the table's; no input is refused.
    pub(super) fn of_bytes(bytes: &[u8]) -> Self {
        let mut tally = PairTally::new();
        let mut prev = SPACE_SYMBOL;
        for &b in bytes {
            let symbol = ASCII_SYMBOL_OF_BYTE[usize::from(b)];
            // No pair with a byte past 0x7F, nor of two boundaries.
            let ascii = prev != NO_SYMBOL && symbol != NO_SYMBOL;
            if ascii && (prev != SPACE_SYMBOL || symbol != SPACE_SYMBOL) {
                tally.add(usize::from(prev) * ASCII_SYMBOLS + usize::from(symbol));
                if tally.pairs == ASCII_PAIRS {
                    break;
                }
            }
            prev = symbol;
        }
        AsciiPairs {
            counts: tally.in_table_order(),
        }
    }
}

/// The symbol of the space (and of any ASCII that is not a letter) in the table of
/// [`ASCII_SYMBOLS`].
const SPACE_SYMBOL: u8 = 26;

/// What [`ASCII_SYMBOL_OF_BYTE`] gives a byte past 0x7F.
const NO_SYMBOL: u8 = 0xFF;

/// Every byte's symbol in the table of [`ASCII_SYMBOLS`] ([`normalise_char`]'s: a letter
/// in lower case, any other ASCII the space), [`NO_SYMBOL`] past 0x7F.
static ASCII_SYMBOL_OF_BYTE: [u8; 256] = {
    let mut table = [NO_SYMBOL; 256];
    let mut b = 0;
    while b < 0x80 {
        table[b] = match b as u8 {
            c @ b'a'..=b'z' => c - b'a',
            c @ b'A'..=b'Z' => c - b'A',
            _ => SPACE_SYMBOL,
        };
        b += 1;
    }
    table
};

/// Pairs of the table of [`ASCII_SYMBOLS`] counted in place, read back in the table's
/// order through a bitmap of the pairs met, without sorting.
struct PairTally {
    /// How often each pair came (at most [`ASCII_PAIRS`] in all).
    times: [u16; ASCII_SYMBOLS * ASCII_SYMBOLS],
    met: [u64; (ASCII_SYMBOLS * ASCII_SYMBOLS).div_ceil(64)],
    pairs: usize,
}

impl PairTally {
    fn new() -> Self {
        PairTally {
            times: [0; ASCII_SYMBOLS * ASCII_SYMBOLS],
            met: [0; (ASCII_SYMBOLS * ASCII_SYMBOLS).div_ceil(64)],
            pairs: 0,
        }
    }

    fn add(&mut self, key: usize) {
        self.times[key] += 1;
        self.met[key / 64] |= 1 << (key % 64);
        self.pairs += 1;
    }

    /// Each pair met, with how often, in the table's order.
    fn in_table_order(&self) -> Vec<(u16, u32)> {
        let mut counts = Vec::with_capacity(self.pairs);
        for (word_at, &word) in self.met.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let key = word_at * 64 + word.trailing_zeros() as usize;
                counts.push((key as u16, u32::from(self.times[key])));
                word &= word - 1;
            }
        }
        counts
    }
}

/// Pairs of ASCII letters read from `bytes` before the first [`ASCII_PAIRS`], as the model
/// counts them: lower case, with any other ASCII as a word boundary (a space), and no pair
/// across a non-ASCII byte (which each charset reads differently). The pairs one by one,
/// as tests read them; [`AsciiPairs::of_bytes`] counts them straight from the bytes.
#[cfg(test)]
pub(super) fn ascii_pairs(bytes: &[u8]) -> Vec<(char, char)> {
    let mut pairs = Vec::with_capacity(bytes.len().min(ASCII_PAIRS));
    let mut prev = Some(' ');
    for &b in bytes {
        let c = (b < 0x80).then(|| normalise_char(char::from(b)));
        if let (Some(a), Some(c)) = (prev, c) {
            if a != ' ' || c != ' ' {
                pairs.push((a, c));
                if pairs.len() == ASCII_PAIRS {
                    break;
                }
            }
        }
        prev = c;
    }
    pairs
}

/// Pairs [`AsciiPairs::of_bytes`] reads at most: enough to tell the language of a
/// paragraph, and a bound on the cost (every language scores them).
const ASCII_PAIRS: usize = 1000;

/// Whether `c` is punctuation that text in any language uses: one of [`PUNCTUATION`], or
/// a mark of Chinese, Japanese or Korean text ([`is_cjk_punctuation`]).
pub(super) fn is_punctuation(c: char) -> bool {
    PUNCTUATION.contains(&c) || is_cjk_punctuation(c)
}

/// Whether `c` is a punctuation mark of Chinese, Japanese or Korean text (ideographic
/// comma and full stop, brackets, full-width signs). Those languages write it against
/// the characters around it, the model's word lists never show it, and no single-byte
/// charset decodes to it, so it is a word boundary wherever it stands.
fn is_cjk_punctuation(c: char) -> bool {
    // One comparison settles every character before the first of them, among them the
    // letters of every single-byte charset.
    c >= '\u{3001}'
        && matches!(
            c as u32,
            0x3001..=0x3003 | 0x3008..=0x3011 | 0x3014..=0x301F | 0x30FB | 0xFF01..=0xFF0F
                | 0xFF1A..=0xFF20 | 0xFF3B..=0xFF40 | 0xFF5B..=0xFF65
        )
}

/// Marks that open a quotation or a question, and so never follow a letter: after one,
/// they are more likely a letter of another charset (Polish `ż` in windows-1250 is `¿`
/// in windows-1252).
const OPENING: &[char] = &['„', '‚', '¡', '¿'];

/// The apostrophe (right single quotation mark): after a letter it elides or closes a
/// word in any language (`d’ús`, `εκ’`), where the model's word lists have none.
const APOSTROPHE: char = '\u{2019}';

/// `text` as the model counts it: lower case; ASCII that is not a letter is a word
/// boundary (a space), and so is [`PUNCTUATION`] next to a space, an ASCII digit or sign, the
/// ends of the text or other such punctuation and not next to a non-ASCII letter
/// (inside a word, or against an accented letter, it is more likely a letter of
/// another charset) nor, for an [`OPENING`] mark, after a letter; an apostrophe after a
/// letter and the punctuation of Chinese, Japanese and Korean are boundaries wherever
/// they stand. Returns the characters and the counts that every language
/// scores alike: punctuation marks that became boundaries, and upper-case non-ASCII
/// letters (lower-cased for the model, but rarer than lower case in any text).
#[cfg(test)]
pub(super) fn prepare(text: impl Iterator<Item = char>, capacity: usize) -> (Vec<char>, Counts) {
    let mut raw = Vec::with_capacity(capacity);
    raw.extend(text);
    let mut chars = Vec::new();
    let counts = prepare_into(&raw, &mut chars);
    (chars, counts)
}

/// [`prepare`] of the characters `raw` into `chars` (emptied first, so that one buffer
/// serves every decoding of an input).
pub(super) fn prepare_into(raw: &[char], chars: &mut Vec<char>) -> Counts {
    chars.clear();
    chars.reserve(raw.len());
    let mut counts = Counts::default();
    if raw.iter().all(char::is_ascii) {
        // No punctuation mark or upper-case letter to count: ASCII letters in lower
        // case, anything else a boundary.
        chars.extend(raw.iter().map(|&c| normalise_char(c)));
        return counts;
    }
    let edge = |i: Option<usize>| match i.and_then(|i| raw.get(i)) {
        None => true,
        Some(&c) => (c.is_ascii() && !c.is_ascii_alphabetic()) || PUNCTUATION.contains(&c),
    };
    let non_ascii_letter = |i: Option<usize>| {
        i.and_then(|i| raw.get(i))
            .is_some_and(|&c| !c.is_ascii() && c.is_alphabetic())
    };
    chars.extend(raw.iter().enumerate().map(|(i, &c)| {
        if c.is_ascii() {
            // Neither punctuation nor a letter with case that counts.
            return normalise_char(c);
        }
        if is_caseless(c) {
            // Neither punctuation nor upper case: itself.
            return c;
        }
        let folded = fold_full_width_alphanumeric(c);
        if folded.is_ascii() {
            // A full-width letter or digit, read as the ASCII one (none is caseless).
            return normalise_char(folded);
        }
        let letter = letter_case(c);
        if !letter.punctuation && c != APOSTROPHE && !is_cjk_punctuation(c) {
            // A letter (or a sign) that stays what it is, in lower case.
            counts.upper_case += usize::from(letter.upper);
            return letter.lower;
        }
        let (before, after) = (i.checked_sub(1), Some(i + 1));
        let after_letter = || {
            before
                .and_then(|i| raw.get(i))
                .is_some_and(|c| c.is_alphabetic())
        };
        let punctuation = letter.punctuation;
        let between_words = punctuation
            && (edge(before) || edge(after))
            && !non_ascii_letter(before)
            && !non_ascii_letter(after)
            && !(OPENING.contains(&c) && after_letter());
        if between_words || is_cjk_punctuation(c) || (c == APOSTROPHE && after_letter()) {
            counts.punctuation += 1;
            ' '
        } else {
            counts.upper_case += usize::from(letter.upper);
            letter.lower
        }
    }));
    counts
}

/// The ASCII letter or digit that full-width `c` (U+FF10 to U+FF5A, as East Asian text
/// writes Latin letters and digits beside its own) stands for, or `c` itself: the model
/// learnt them as ASCII.
fn fold_full_width_alphanumeric(c: char) -> char {
    if c < '\u{FF10}' {
        // One comparison for the letters of every single-byte charset.
        return c;
    }
    match c {
        '\u{FF10}'..='\u{FF19}' | '\u{FF21}'..='\u{FF3A}' | '\u{FF41}'..='\u{FF5A}' => {
            char::from_u32(c as u32 - 0xFEE0).unwrap_or(c)
        }
        _ => c,
    }
}

/// Whether `c` is in a block of characters without case, none of them punctuation
/// (neither [`PUNCTUATION`] nor [`is_cjk_punctuation`]), which [`prepare`] passes through
/// as they are, spared the Unicode tables: kana, CJK ideographs and Hangul syllables (the
/// bulk of East Asian text), and what legacy double-byte charsets decode the wrong bytes
/// to beyond the case table ([`CASE_TABLE`]): halfwidth katakana and Hangul, Hangul jamo,
/// box drawing, mathematical and technical signs, CJK radicals, enclosed and compatibility
/// characters, the private use area, and U+FFFD (what a malformed sequence decodes to).
fn is_caseless(c: char) -> bool {
    let n = u32::from(c);
    n >= CASE_TABLE && CASELESS.iter().any(|range| range.contains(&n))
}

/// The blocks of [`is_caseless`], the commonest first, all past the case table.
const CASELESS: [std::ops::RangeInclusive<u32>; 14] = [
    0x4E00..=0x9FFF,
    0xAC00..=0xD7A3,
    0x3041..=0x3096,
    0x30A1..=0x30FA,
    0xFF66..=0xFF9F,
    0x2500..=0x25FF,
    0x3400..=0x4DBF,
    0xE000..=0xFAFF,
    0x3131..=0x318E,
    0x2200..=0x23FF,
    0x2E80..=0x2FDF,
    0x3200..=0x33FF,
    0xFFA0..=0xFFDC,
    0xFFFD..=0xFFFD,
];

/// What the model asks of a character's case, worked out once for the characters of
/// legacy single-byte charsets (up to U+21FF), known for the blocks without case or
/// punctuation ([`is_caseless`]), and by the Unicode tables beyond.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct LetterCase {
    /// Its lower case (the first character of it), as [`normalise_char`] gives it for
    /// non-ASCII.
    pub(super) lower: char,
    /// `char::is_uppercase`.
    pub(super) upper: bool,
    /// `char::is_lowercase`.
    pub(super) lowercase: bool,
    /// One of [`PUNCTUATION`].
    pub(super) punctuation: bool,
}

/// Characters below this have their [`LetterCase`] in a table: the alphabets of the
/// legacy single-byte charsets, and the punctuation, currency signs and letterlike
/// symbols (U+2000 to U+21FF) that their upper halves decode to.
pub(super) const CASE_TABLE: u32 = 0x2200;

impl LetterCase {
    fn of(c: char) -> Self {
        LetterCase {
            lower: c.to_lowercase().next().unwrap_or(c),
            upper: c.is_uppercase(),
            lowercase: c.is_lowercase(),
            punctuation: PUNCTUATION.contains(&c),
        }
    }
}

/// The [`LetterCase`] of `c`.
#[inline(always)]
pub(super) fn letter_case(c: char) -> LetterCase {
    static TABLE: OnceLock<Vec<LetterCase>> = OnceLock::new();
    if u32::from(c) < CASE_TABLE {
        let table = TABLE.get_or_init(|| {
            (0..CASE_TABLE)
                .map(|n| LetterCase::of(char::from_u32(n).unwrap_or('\0')))
                .collect()
        });
        table[c as usize]
    } else if is_caseless(c) || is_cjk_punctuation(c) {
        // The bulk of East Asian text, and its punctuation: the Unicode tables say as
        // much.
        LetterCase {
            lower: c,
            upper: false,
            lowercase: false,
            punctuation: false,
        }
    } else {
        LetterCase::of(c)
    }
}

/// What [`prepare`] counted beside the characters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Counts {
    /// Punctuation marks between words, made boundaries.
    pub(super) punctuation: usize,
    /// Upper-case non-ASCII letters.
    pub(super) upper_case: usize,
}

/// A character as the model counts it: lower case; ASCII that is not a letter is a
/// word boundary (a space).
fn normalise_char(c: char) -> char {
    if c.is_ascii() {
        if c.is_ascii_alphabetic() {
            c.to_ascii_lowercase()
        } else {
            ' '
        }
    } else {
        c.to_lowercase().next().unwrap_or(c)
    }
}

const BLOCKS: usize = 22;

/// The size of each block of [`block_of`], by its number.
const BLOCK_SIZES: [f64; BLOCKS] = [
    1.0, 52.0, 32.0, 34.0, 62.0, 336.0, 112.0, 144.0, 256.0, 112.0, 256.0, 128.0, 240.0, 160.0,
    160.0, 96.0, 160.0, 20992.0, 11172.0, 352.0, 6400.0, 60000.0,
];

/// [`CharStats`] before [`Language::precompute`] works them out.
const UNSEEN: CharStats = CharStats {
    has_pairs: false,
    ln_uni: f64::NEG_INFINITY,
    ln_unlisted: 0.0,
};

/// Coarse character classes and their sizes, the fallback for characters the training
/// text never showed: Latin-1 by [`LATIN1_BLOCKS`], the rest by [`BLOCK_RANGES`]
/// (block 21, the largest, for a character in none of them).
fn block_of(c: char) -> (usize, f64) {
    let n = u32::from(c);
    let block = match BLOCKS_BELOW_CASE_TABLE.get(n as usize) {
        Some(&block) => usize::from(block),
        None => usize::from(block_in_ranges(n)),
    };
    (block, BLOCK_SIZES[block])
}

/// The block of [`block_of`] of the character whose scalar value is `n`, from
/// [`LATIN1_BLOCKS`] and [`BLOCK_RANGES`].
const fn block_in_ranges(n: u32) -> u8 {
    if n < 0x100 {
        return LATIN1_BLOCKS[n as usize];
    }
    // The last range that starts at or before `n`.
    let mut i = BLOCK_RANGES.len();
    while i > 0 {
        i -= 1;
        let (first, last, block) = BLOCK_RANGES[i];
        if first <= n {
            return if n <= last { block } else { 21 };
        }
    }
    21
}

/// [`block_in_ranges`] of every character below the case table (the alphabets of the
/// legacy single-byte charsets), worked out when the library is built.
static BLOCKS_BELOW_CASE_TABLE: [u8; CASE_TABLE as usize] = {
    let mut blocks = [0u8; CASE_TABLE as usize];
    let mut n = 0;
    while n < blocks.len() {
        blocks[n] = block_in_ranges(n as u32);
        n += 1;
    }
    blocks
};

/// The block of each Latin-1 character: the space 0, ASCII letters 1, other ASCII 0,
/// C1 controls 2, signs and punctuation (with `×` and `÷`) 3, letters 4.
const LATIN1_BLOCKS: [u8; 256] = {
    let mut blocks = [0u8; 256];
    let mut n = 0;
    while n < 256 {
        blocks[n] = match n as u8 {
            b'A'..=b'Z' | b'a'..=b'z' => 1,
            0x00..=0x7F => 0,
            0x80..=0x9F => 2,
            0xA0..=0xBF | 0xD7 | 0xF7 => 3,
            _ => 4,
        };
        n += 1;
    }
    blocks
};

/// The blocks beyond Latin-1: first and last character and block number, in order of
/// the first character, none overlapping.
const BLOCK_RANGES: [(u32, u32, u8); 21] = [
    (0x100, 0x24F, 5),
    (0x300, 0x36F, 6),
    (0x370, 0x3FF, 7),
    (0x400, 0x4FF, 8),
    (0x590, 0x5FF, 9),
    (0x600, 0x6FF, 10),
    (0xE00, 0xE7F, 11),
    (0x1100, 0x11FF, 19),
    (0x2000, 0x206F, 12),
    (0x20A0, 0x20CF, 12),
    (0x2100, 0x214F, 12),
    (0x2500, 0x259F, 13),
    (0x3000, 0x303F, 14),
    (0x3040, 0x309F, 15),
    (0x30A0, 0x30FF, 16),
    (0x3130, 0x318F, 19),
    (0x4E00, 0x9FFF, 17),
    (0xAC00, 0xD7A3, 18),
    (0xE000, 0xF8FF, 20),
    (0xFF00, 0xFF5F, 14),
    (0xFF60, 0xFF9F, 16),
];

/// Reads the packed model. The build wrote it, so a malformed record is a build fault:
/// it is skipped (an unknown charset name, a code point that is no character) rather
/// than a panic.
fn unpack(packed: &'static [u8]) -> Model {
    let mut reader = Packed { bytes: packed };
    let mut languages: Vec<Language> = Vec::new();
    while !reader.bytes.is_empty() {
        let code = reader.text();
        let charsets = reader
            .text()
            .split(',')
            .filter_map(|label| Encoding::for_label(label.as_bytes()))
            .collect();
        let mut lang = Language {
            code,
            charsets,
            unigrams: KeyMap::default(),
            bigrams: KeyMap::default(),
            pair_log_p: HashMap::default(),
            contexts: KeyMap::default(),
            total: 0.0,
            backoff: BIGRAM_BACKOFF,
            blocks: [0.0; BLOCKS],
            block_stats: [UNSEEN; BLOCKS],
            direct_stats: Vec::new(),
            stats: HashMap::default(),
            ascii_pairs: Vec::new(),
        };
        let mut c = 0u32;
        let unigrams = reader.number();
        lang.unigrams.reserve(unigrams as usize);
        for _ in 0..unigrams {
            c = c.wrapping_add(reader.number());
            let count = reader.number();
            let Some(c) = char::from_u32(c) else { continue };
            lang.unigrams.insert(u32::from(c), count);
            lang.total += f64::from(count);
            lang.blocks[block_of(c).0] += f64::from(count);
        }
        let (mut a, mut b) = (0u32, 0u32);
        let bigrams = reader.number();
        lang.bigrams.reserve(bigrams as usize);
        for k in 0..bigrams {
            let step = reader.number();
            if k == 0 {
                (a, b) = (step.wrapping_sub(1), reader.number());
            } else if step == 0 {
                b = b.wrapping_add(reader.number());
            } else {
                (a, b) = (a.wrapping_add(step), reader.number());
            }
            let count = reader.number();
            if let (Some(first), Some(second)) = (char::from_u32(a), char::from_u32(b)) {
                lang.bigrams.insert(pair(first, second), count);
                let context = lang.contexts.entry(u32::from(first)).or_default();
                *context = context.saturating_add(count);
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
        // C1 controls are what a wrong single-byte charset decodes to, never text.
        lang.blocks[2] *= 0.01;
        if lang.bigrams.len() >= PAIRS_CUT {
            lang.backoff = BIGRAM_BACKOFF_CUT;
        }
        lang.precompute();
    }
    let mut by_charset: Vec<(&'static Encoding, Vec<usize>)> = Vec::new();
    for (i, lang) in languages.iter().enumerate() {
        for &encoding in &lang.charsets {
            match by_charset.iter_mut().find(|(e, _)| *e == encoding) {
                Some((_, positions)) => positions.push(i),
                None => by_charset.push((encoding, vec![i])),
            }
        }
    }
    let ascii_by_pair = (0..ASCII_SYMBOLS * ASCII_SYMBOLS)
        .flat_map(|k| languages.iter().map(move |l| l.ascii_pairs[k]))
        .collect();
    Model {
        languages,
        by_charset,
        ascii_by_pair,
    }
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

    /// The packed model holds every record of the text it was packed from, and no other.
    #[test]
    fn the_packed_model_is_the_text_model() {
        let text = include_str!("model.txt");
        let model = unpack(MODEL_PACKED);
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
                assert_eq!(lang.code, key);
                let names: Vec<&str> = lang.charsets.iter().map(|e| e.name()).collect();
                assert_eq!(names.join(","), value);
                continue;
            }
            let lang = &model.languages[index.unwrap()];
            let count: u32 = value.parse().unwrap();
            let chars: Vec<char> = key.chars().collect();
            match kind {
                "U" => {
                    unigrams += 1;
                    assert_eq!(
                        lang.unigrams.get(&u32::from(chars[0])),
                        Some(&count),
                        "{line:?}"
                    );
                }
                _ => {
                    bigrams += 1;
                    assert_eq!(
                        lang.bigrams.get(&pair(chars[0], chars[1])),
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
    fn the_block_ranges_are_in_order_and_apart() {
        for pair in BLOCK_RANGES.windows(2) {
            assert!(pair[0].0 <= pair[0].1 && pair[0].1 < pair[1].0, "{pair:?}");
        }
        for (c, block) in [
            (' ', 0),
            ('Q', 1),
            ('5', 0),
            ('\u{85}', 2),
            ('×', 3),
            ('é', 4),
            ('ő', 5),
            ('\u{301}', 6),
            ('λ', 7),
            ('ж', 8),
            ('א', 9),
            ('ع', 10),
            ('ก', 11),
            ('\u{1100}', 19),
            ('—', 12),
            ('€', 12),
            ('™', 12),
            ('─', 13),
            ('。', 14),
            ('あ', 15),
            ('ア', 16),
            ('ㄱ', 19),
            ('中', 17),
            ('한', 18),
            ('\u{E000}', 20),
            ('！', 14),
            ('ｱ', 16),
            ('\u{FFFD}', 21),
            ('\u{250}', 21),
            ('\u{20D0}', 21),
        ] {
            assert_eq!(block_of(c).0, block, "{c:?}");
        }
    }

    #[test]
    fn every_block_s_size_is_the_characters_in_it() {
        let mut counts = [0usize; BLOCKS];
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            counts[block_of(c).0] += 1;
        }
        // Block 0 (the space, and ASCII that is not a letter, a word boundary) counts as
        // one character, and block 21 (everything else) has a nominal size.
        for block in 1..BLOCKS - 1 {
            assert_eq!(BLOCK_SIZES[block], counts[block] as f64, "block {block}");
        }
    }

    #[test]
    fn a_truncated_model_reads_without_panicking() {
        for cut in [0, 1, 7, 100, 1000] {
            let end = MODEL_PACKED.len().min(cut);
            let _ = unpack(&MODEL_PACKED[..end]);
        }
    }

    #[test]
    fn text_in_a_language_is_likelier_in_its_own_model() {
        let model = model();
        let find = |code: &str| model.languages.iter().find(|l| l.code == code).unwrap();
        let (de, ru) = (find("de"), find("ru"));
        let german = "Größe der Straße";
        let russian = "Привет мир";
        let (german, _) = prepare(german.chars(), 0);
        let (russian, _) = prepare(russian.chars(), 0);
        assert!(de.log_likelihood(&german) > ru.log_likelihood(&german));
        assert!(ru.log_likelihood(&russian) > de.log_likelihood(&russian));
        assert_eq!(de.log_likelihood(&[]), 0.0);
    }

    proptest::proptest! {
        #[test]
        fn ascii_pairs_are_counted_in_the_tables_order(text in "[a-z ,.0-9]{0,300}") {
            let pairs = ascii_pairs(text.as_bytes());
            // Every pair of the table counted in place, then the ones that came.
            let slot = |c: char| if c == ' ' { 26 } else { usize::from(c as u8 - b'a') };
            let mut table = [0u32; ASCII_SYMBOLS * ASCII_SYMBOLS];
            for &(a, b) in &pairs {
                table[slot(a) * ASCII_SYMBOLS + slot(b)] += 1;
            }
            let expected: Vec<(u16, u32)> = (0u16..).zip(table).filter(|&(_, n)| n > 0).collect();
            let counted = AsciiPairs::of(&pairs);
            proptest::prop_assert_eq!(&counted.counts, &expected);
            let model = model();
            let each: Vec<u64> = model
                .languages
                .iter()
                .map(|l| l.ascii_log_likelihood(&counted).to_bits())
                .collect();
            let all: Vec<u64> = model.ascii_log_likelihoods(&counted).iter().map(|f| f.to_bits()).collect();
            proptest::prop_assert_eq!(each, all);
        }

        #[test]
        fn ascii_pairs_read_from_bytes_are_the_pairs_counted(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..3000)
        ) {
            let from_bytes = AsciiPairs::of_bytes(&bytes);
            let counted = AsciiPairs::of(&ascii_pairs(&bytes));
            proptest::prop_assert_eq!(&from_bytes.counts, &counted.counts);
        }

        /// The vector sums of the ASCII evidence are the plain loop's, bit for bit, on
        /// every instruction set this processor has.
        #[test]
        fn ascii_log_likelihoods_are_the_plain_sums_on_every_instruction_set(
            text in "[a-zA-Z ,.0-9\u{e9}\u{416}]{0,400}"
        ) {
            let bytes = text.as_bytes();
            let model = model();
            let pairs = AsciiPairs::of_bytes(bytes);
            let bits = |sums: &[f64]| sums.iter().map(|s| s.to_bits()).collect::<Vec<_>>();
            let mut plain = vec![-0.0f64; model.languages.len()];
            model.add_ascii_log_likelihoods(&pairs, &mut plain);
            proptest::prop_assert_eq!(bits(&model.ascii_log_likelihoods(&pairs)), bits(&plain));
            #[cfg(target_arch = "x86_64")]
            {
                if std::arch::is_x86_feature_detected!("avx2") {
                    let mut sums = vec![-0.0f64; plain.len()];
                    // SAFETY: the processor has AVX2.
                    unsafe { model.add_ascii_log_likelihoods_avx2(&pairs, &mut sums) };
                    proptest::prop_assert_eq!(bits(&sums), bits(&plain));
                }
                if std::arch::is_x86_feature_detected!("avx512f") {
                    let mut sums = vec![-0.0f64; plain.len()];
                    // SAFETY: the processor has AVX-512.
                    unsafe { model.add_ascii_log_likelihoods_avx512(&pairs, &mut sums) };
                    proptest::prop_assert_eq!(bits(&sums), bits(&plain));
                }
            }
        }
    }

    #[test]
    fn full_width_letters_and_digits_fold_to_ascii_and_none_is_caseless() {
        assert_eq!(fold_full_width_alphanumeric('Ａ'), 'A');
        assert_eq!(fold_full_width_alphanumeric('９'), '9');
        assert_eq!(fold_full_width_alphanumeric('ｚ'), 'z');
        for c in ('\u{FF00}'..='\u{FF6F}').chain(['a', 'é', 'Ж', 'ア', '（']) {
            let folded = fold_full_width_alphanumeric(c);
            if c.is_alphanumeric() && ('\u{FF00}'..='\u{FF5E}').contains(&c) {
                // The full-width form of an ASCII letter or digit is 0xFEE0 above it.
                assert_eq!(u32::from(folded) + 0xFEE0, u32::from(c), "{c:?}");
                assert!(folded.is_ascii_alphanumeric(), "{c:?} -> {folded:?}");
                // `prepare_into` folds after passing caseless characters through.
                assert!(!is_caseless(c), "{c:?}");
            } else {
                assert_eq!(folded, c);
            }
        }
    }

    #[test]
    fn the_case_table_is_the_unicode_tables() {
        for c in (0..CASE_TABLE + 16).filter_map(char::from_u32) {
            assert_eq!(letter_case(c), LetterCase::of(c), "{c:?}");
        }
        assert!(letter_case('Ж').upper && letter_case('ж').lowercase);
        assert_eq!(letter_case('Ж').lower, 'ж');
        assert!(letter_case('«').punctuation && !letter_case('ż').punctuation);
    }

    #[test]
    fn caseless_characters_are_their_own_normal_form() {
        for range in CASELESS {
            assert!(*range.start() >= CASE_TABLE, "{range:X?}");
            for c in range.filter_map(char::from_u32) {
                assert!(is_caseless(c), "{c}");
                assert_eq!(letter_case(c), LetterCase::of(c), "{c}");
                assert_eq!(normalise_char(c), c, "{c}");
                assert!(!c.is_uppercase() && !c.is_lowercase(), "{c}");
                assert!(!is_punctuation(c) && c != APOSTROPHE, "{c}");
            }
        }
        // Chinese, Japanese and Korean punctuation has no case either.
        for c in (0x3000..=0xFFFF)
            .filter_map(char::from_u32)
            .filter(|&c| is_cjk_punctuation(c))
        {
            assert_eq!(letter_case(c), LetterCase::of(c), "{c}");
            assert!(!c.is_uppercase() && !c.is_lowercase(), "{c}");
        }
        // Cased letters just outside the blocks stay with the Unicode tables.
        for c in ['Ⓐ', 'Ａ', 'ａ'] {
            assert!(!is_caseless(c), "{c}");
        }
    }

    #[test]
    fn opening_marks_after_a_letter_are_letters_and_apostrophes_and_cjk_marks_boundaries() {
        let (chars, n) = prepare("pokaz¿ ¿qué".chars(), 0);
        assert_eq!(chars.iter().collect::<String>(), "pokaz¿  qué");
        assert_eq!(n.punctuation, 1);
        let (chars, n) = prepare("d’ús ’λλο".chars(), 0);
        assert_eq!(chars.iter().collect::<String>(), "d ús ’λλο");
        assert_eq!(n.punctuation, 1);
        let (chars, n) = prepare("作者、翻訳。".chars(), 0);
        assert_eq!(chars.iter().collect::<String>(), "作者 翻訳 ");
        assert_eq!(n.punctuation, 2);
        assert!(is_punctuation('、') && is_punctuation('„') && !is_punctuation('ż'));
    }

    #[test]
    fn ascii_pairs_are_lower_case_words_that_stop_at_non_ascii_bytes() {
        let pairs = ascii_pairs(b"Ab, c\xE9d");
        assert_eq!(
            pairs,
            [(' ', 'a'), ('a', 'b'), ('b', ' '), (' ', 'c')],
            "no pair across the non-ASCII byte"
        );
        assert!(ascii_pairs(b"").is_empty());
        assert_eq!(ascii_pairs(&b"ab ".repeat(1000)).len(), ASCII_PAIRS);
        let model = model();
        let find = |code: &str| model.languages.iter().find(|l| l.code == code).unwrap();
        let dutch = AsciiPairs::of(&ascii_pairs(b"het is een mooie dag in de stad"));
        assert!(find("nl").ascii_log_likelihood(&dutch) > find("lt").ascii_log_likelihood(&dutch));
    }

    #[test]
    fn punctuation_between_words_is_a_boundary_and_inside_a_word_a_letter() {
        let (chars, n) = prepare("« GRÖẞE »".chars(), 0);
        assert_eq!(chars.iter().collect::<String>(), "  größe  ");
        assert_eq!((n.punctuation, n.upper_case), (2, 2));
        let (chars, n) = prepare("ě» a«b".chars(), 0);
        assert_eq!(chars.iter().collect::<String>(), "ě» a«b");
        assert_eq!(n, Counts::default());
        let (chars, n) = prepare("a«b".chars(), 0);
        assert_eq!(chars.iter().collect::<String>(), "a«b");
        assert_eq!(n, Counts::default());
    }
}
