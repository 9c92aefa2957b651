//! Scoring of charset detectors on the committed sample set (`samples.jsonl`), shared
//! by `examples/detect_eval.rs` and `tests/detect.rs`.

use std::collections::BTreeMap;
use std::path::Path;

use encoding_rs::Encoding;

/// One sample: text in a language, encoded in a charset.
pub struct Sample {
    pub lang: String,
    pub charset: String,
    pub long: bool,
    pub text: String,
    pub bytes: Vec<u8>,
}

/// Path of the committed sample set.
pub fn default_samples() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("detect-eval/samples.jsonl")
}

/// Reads `samples.jsonl`; panics with the line number on a malformed line (the file is
/// generated, so that is a bug in the generator).
pub fn load_samples(path: &Path) -> Vec<Sample> {
    let data = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    data.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, line)| {
            let v: serde_json::Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
            let field = |k: &str| {
                v[k].as_str()
                    .unwrap_or_else(|| panic!("line {}: no {k}", n + 1))
            };
            let hex = field("hex");
            let bytes = (0..hex.len() / 2)
                .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex"))
                .collect();
            Sample {
                lang: field("lang").to_owned(),
                charset: field("charset").to_owned(),
                long: field("class") == "long",
                text: field("text").to_owned(),
                bytes,
            }
        })
        .collect()
}

/// Maps a detector's charset name to an `encoding_rs` encoding: WHATWG labels through
/// `Encoding::for_label`, after renaming the Python codec names that are not labels.
pub fn encoding_for_name(name: &str) -> Option<&'static Encoding> {
    let lower = name.trim().to_ascii_lowercase().replace('_', "-");
    let label = match lower.as_str() {
        "cp932" | "ms932" | "windows-31j" | "shift-jis" | "sjis" | "shift-jis-2004" => "shift_jis",
        "euc-jis-2004" | "euc-jisx0213" => "euc-jp",
        "big5hkscs" | "big5-hkscs" => "big5",
        "cp949" | "uhc" | "ms949" => "windows-949",
        "cp874" | "tis-620" => "windows-874",
        "mac-cyrillic" | "maccyrillic" => "x-mac-cyrillic",
        "ascii" => "us-ascii",
        other => other,
    };
    Encoding::for_label(label.as_bytes())
}

/// Whether `guess` is a right answer for `sample`.
///
/// Equal when both name the same encoding through `encoding_rs` labels (so ISO-8859-1
/// and windows-1252, EUC-KR and windows-949, TIS-620 and windows-874 are one), when one
/// is GBK and the other gb18030, when a generic `UTF-16` names a sample that starts with
/// a UTF-16 byte order mark, or when the guessed encoding decodes the sample's bytes to
/// exactly its text without errors (an ASCII-compatible superset that agrees on these
/// bytes, such as ISO-8859-9 for windows-1254 text without the differing letters).
pub fn is_correct(sample: &Sample, guess: Option<&str>) -> bool {
    let Some(guess) = guess else { return false };
    let expected = Encoding::for_label(sample.charset.as_bytes()).expect("sample charset");
    let bom_len = match sample.charset.as_str() {
        "UTF-16LE" | "UTF-16BE" => 2,
        _ => 0,
    };
    let generic = guess.trim().to_ascii_lowercase().replace('_', "-");
    if bom_len > 0 && generic == "utf-16" {
        return true;
    }
    if sample.charset.starts_with("UTF-32") || guess.eq_ignore_ascii_case(&sample.charset) {
        return guess.eq_ignore_ascii_case(&sample.charset);
    }
    let Some(guessed) = encoding_for_name(guess) else {
        return false;
    };
    let gb = [encoding_rs::GBK, encoding_rs::GB18030];
    if guessed == expected || (gb.contains(&guessed) && gb.contains(&expected)) {
        return true;
    }
    guessed
        .decode_without_bom_handling_and_without_replacement(&sample.bytes[bom_len..])
        .is_some_and(|text| text == sample.text)
}

/// The `chardetng` crate alone, as a browser uses it: a byte order mark first, then the
/// detector with no TLD hint and UTF-8 allowed.
pub fn chardetng_guess(bytes: &[u8]) -> &'static str {
    if let Some((encoding, _)) = Encoding::for_bom(bytes) {
        return encoding.name();
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Allow);
    detector.feed(bytes, true);
    detector.guess(None, chardetng::Utf8Detection::Allow).name()
}

/// urlkit's detector with no TLD hint.
pub fn urlkit_guess(bytes: &[u8]) -> &'static str {
    urlkit::detect::detect(bytes, None).charset
}

/// Right and total counts.
#[derive(Clone, Copy, Default, Debug)]
pub struct Tally {
    pub right: usize,
    pub total: usize,
}

impl Tally {
    pub fn add(&mut self, right: bool) {
        self.right += usize::from(right);
        self.total += 1;
    }

    pub fn percent(&self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            100.0 * self.right as f64 / self.total as f64
        }
    }
}

/// A detector's tallies on the long set, the short set and both.
#[derive(Clone, Copy, Default, Debug)]
pub struct Score {
    pub long: Tally,
    pub short: Tally,
    pub all: Tally,
}

/// Scores a detector's guesses (one per sample, in order).
pub fn score<'a>(samples: &[Sample], guesses: impl IntoIterator<Item = Option<&'a str>>) -> Score {
    let mut s = Score::default();
    for (sample, guess) in samples.iter().zip(guesses) {
        let right = is_correct(sample, guess);
        if sample.long {
            s.long.add(right);
        } else {
            s.short.add(right);
        }
        s.all.add(right);
    }
    s
}

/// Tallies per (language, charset, class) for two detectors side by side.
pub fn breakdown(
    samples: &[Sample],
    a: &[Option<&str>],
    b: &[Option<&str>],
) -> BTreeMap<(String, String, &'static str), (Tally, Tally)> {
    let mut map: BTreeMap<_, (Tally, Tally)> = BTreeMap::new();
    for (i, s) in samples.iter().enumerate() {
        let class = if s.long { "long" } else { "short" };
        let e = map
            .entry((s.lang.clone(), s.charset.clone(), class))
            .or_default();
        e.0.add(is_correct(s, a[i]));
        e.1.add(is_correct(s, b[i]));
    }
    map
}
