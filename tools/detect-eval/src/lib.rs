//! Scoring of charset detectors on a sample set in JSON lines, as written by
//! `catalog_samples.py` (real text from gettext catalogs) or `make_samples.py` (faker
//! values): the rules for a right answer, tallies per class, and the calibration of
//! urlkit's confidence.

use std::collections::BTreeMap;
use std::path::Path;

use encoding_rs::Encoding;

/// One sample: text in a language, encoded in a charset.
pub struct Sample {
    pub lang: String,
    pub charset: String,
    /// `query`, `path` or `paragraph` (catalog samples); `short` or `long` (faker).
    pub length: String,
    /// `tune` or `report` (catalog samples); `report` when the file has no split.
    pub split: String,
    pub text: String,
    pub bytes: Vec<u8>,
}

/// Reads a sample file; an unreadable file or a malformed line is an error naming it.
pub fn load_samples(path: &Path) -> Result<Vec<Sample>, String> {
    let data = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut samples = Vec::new();
    for (n, line) in data.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = |why: &str| format!("{}:{}: {why}", path.display(), n + 1);
        let v: serde_json::Value = serde_json::from_str(line).map_err(|e| bad(&e.to_string()))?;
        let field = |k: &str| v[k].as_str().map(str::to_owned);
        let hex = field("hex").ok_or_else(|| bad("no hex"))?;
        let bytes = (0..hex.len() / 2)
            .map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2).unwrap_or("zz"), 16))
            .collect::<Result<Vec<u8>, _>>()
            .map_err(|_| bad("hex is not hex"))?;
        samples.push(Sample {
            lang: field("lang").ok_or_else(|| bad("no lang"))?,
            charset: field("charset").ok_or_else(|| bad("no charset"))?,
            length: field("length")
                .or_else(|| field("class"))
                .ok_or_else(|| bad("no length"))?,
            split: field("split").unwrap_or_else(|| "report".into()),
            text: field("text").ok_or_else(|| bad("no text"))?,
            bytes,
        });
    }
    Ok(samples)
}

/// Whether `encoding_rs` reads the sample's bytes back to its text: samples whose
/// generator's codec differs from the WHATWG decoder on these bytes are not fair tests.
pub fn round_trips(sample: &Sample) -> bool {
    let Some(encoding) = Encoding::for_label(sample.charset.as_bytes()) else {
        return false;
    };
    let bom_len = match sample.charset.as_str() {
        "UTF-16LE" | "UTF-16BE" => 2,
        _ => 0,
    };
    sample.bytes.len() >= bom_len
        && encoding
            .decode_without_bom_handling_and_without_replacement(&sample.bytes[bom_len..])
            .is_some_and(|text| text == sample.text)
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
/// Right when both name the same encoding through `encoding_rs` labels (so ISO-8859-1
/// and windows-1252, EUC-KR and windows-949, TIS-620 and windows-874 are one), when one
/// is GBK and the other gb18030, when a generic `UTF-16` names a sample that starts with
/// a UTF-16 byte order mark, or when the guessed encoding decodes the sample's bytes to
/// exactly its text without errors (an ASCII-compatible superset that agrees on these
/// bytes, such as ISO-8859-9 for windows-1254 text without the differing letters).
pub fn is_correct(sample: &Sample, guess: Option<&str>) -> bool {
    let Some(guess) = guess else { return false };
    let Some(expected) = Encoding::for_label(sample.charset.as_bytes()) else {
        return false;
    };
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
    sample.bytes.len() >= bom_len
        && guessed
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

/// The charset family a sample's charset belongs to, for the per-family table.
pub fn family(charset: &str) -> &'static str {
    match charset {
        "windows-1252" => "Western",
        "windows-1250" | "ISO-8859-2" => "Central European",
        "windows-1251" | "KOI8-R" | "KOI8-U" | "ISO-8859-5" | "IBM866" => "Cyrillic",
        "windows-1253" | "ISO-8859-7" => "Greek",
        "windows-1254" => "Turkish",
        "windows-1255" => "Hebrew",
        "windows-1256" => "Arabic",
        "windows-1257" => "Baltic",
        "windows-1258" => "Vietnamese",
        "windows-874" => "Thai",
        "Shift_JIS" | "EUC-JP" | "ISO-2022-JP" => "Japanese",
        "GBK" | "gb18030" => "Chinese (simplified)",
        "Big5" => "Chinese (traditional)",
        "EUC-KR" => "Korean",
        _ => "Unicode",
    }
}

/// Right and total counts.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
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

/// Tallies of one detector's guesses (one per sample, in order) grouped by `key`.
pub fn tally_by<K: Ord>(
    samples: &[&Sample],
    guesses: &[Option<&str>],
    key: impl Fn(&Sample) -> K,
) -> BTreeMap<K, Tally> {
    let mut map: BTreeMap<K, Tally> = BTreeMap::new();
    for (sample, guess) in samples.iter().zip(guesses) {
        map.entry(key(sample))
            .or_default()
            .add(is_correct(sample, *guess));
    }
    map
}

/// One band of the reliability table: guesses whose confidence fell in `low..high`.
#[derive(Clone, Copy, Default, Debug)]
pub struct Band {
    pub low: f64,
    pub high: f64,
    pub count: usize,
    pub confidence_sum: f64,
    pub right: usize,
}

/// Reliability table (ten equal bands of reported confidence) and expected calibration
/// error: the count-weighted mean gap between a band's mean confidence and its accuracy.
/// `points` are (confidence, right) pairs; an empty list gives an ECE of 0.
pub fn reliability(points: &[(f64, bool)]) -> (Vec<Band>, f64) {
    let mut bands: Vec<Band> = (0..10)
        .map(|i| Band {
            low: f64::from(i) / 10.0,
            high: f64::from(i + 1) / 10.0,
            ..Band::default()
        })
        .collect();
    for &(confidence, right) in points {
        let index = ((confidence * 10.0).floor() as usize).min(9);
        let band = &mut bands[index];
        band.count += 1;
        band.confidence_sum += confidence;
        band.right += usize::from(right);
    }
    let total = points.len().max(1) as f64;
    let ece = bands
        .iter()
        .filter(|b| b.count > 0)
        .map(|b| {
            let n = b.count as f64;
            (n / total) * (b.confidence_sum / n - b.right as f64 / n).abs()
        })
        .sum();
    (bands, ece)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turkish() -> Sample {
        Sample {
            lang: "tr".into(),
            charset: "windows-1254".into(),
            length: "query".into(),
            split: "report".into(),
            text: "Gölcük".into(),
            bytes: vec![0x47, 0xF6, 0x6C, 0x63, 0xFC, 0x6B],
        }
    }

    #[test]
    fn the_accuracy_rules_accept_equal_encodings_and_reject_wrong_ones() {
        let sample = turkish();
        assert!(is_correct(&sample, Some("ISO-8859-9")));
        assert!(
            is_correct(&sample, Some("windows-1252")),
            "decodes to the same text"
        );
        assert!(!is_correct(&sample, Some("windows-1251")));
        assert!(!is_correct(&sample, Some("no-such-charset")));
        assert!(!is_correct(&sample, None));
        assert!(round_trips(&sample));
    }

    #[test]
    fn a_perfectly_calibrated_detector_has_no_calibration_error() {
        let points: Vec<(f64, bool)> = (0..100).map(|i| (0.95, i % 20 != 0)).collect();
        let (bands, ece) = reliability(&points);
        assert_eq!(bands[9].count, 100);
        assert!(ece < 1e-9, "{ece}");
        let overconfident: Vec<(f64, bool)> = (0..100).map(|i| (0.95, i % 2 == 0)).collect();
        let (_, ece) = reliability(&overconfident);
        assert!((ece - 0.45).abs() < 1e-9, "{ece}");
    }
}
