//! Accuracy of urlkit's charset detection beside the `chardetng` crate and (given a file
//! of their guesses) Python's `chardet` and `charset-normalizer`, and the calibration of
//! urlkit's confidence. `scripts/measure/detect-accuracy.sh` builds the sample set and runs this.
//!
//! ```text
//! cargo run --release -p detect-eval -- --samples FILE [--python GUESSES]
//!     [--split report|tune|all] [--classes] [--misses] [--points FILE]
//! ```
//! `GUESSES` is JSON lines `{"detector": NAME, "index": N, "guess": NAME-or-null,
//! "same_text": BOOL}` as written by `python_detectors.py` (`index` is the sample's line
//! number from 0); a guess counts as right by the rules of `detect_eval::is_correct`, or
//! when `same_text` says Python's codec of that name reads the sample's text exactly.
//! Prints accuracy per length and per charset family, every class (language × charset ×
//! length) where urlkit is behind chardetng (all classes with `--classes`), urlkit's
//! confusion pairs, and the reliability table with the expected calibration error.
//! `--points FILE` writes, for every statistical guess, `confidence non_ascii_bytes right`
//! (one line each), what `fit_calibration.py` fits urlkit's confidence curve on.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use detect_eval::{family, is_correct, reliability, round_trips, tally_by, Sample, Tally};

struct Args {
    samples: PathBuf,
    python: Option<PathBuf>,
    split: String,
    classes: bool,
    misses: bool,
    points: Option<PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        samples: PathBuf::new(),
        python: None,
        split: "report".into(),
        classes: false,
        misses: false,
        points: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--samples" => args.samples = value()?.into(),
            "--python" => args.python = Some(value()?.into()),
            "--split" => args.split = value()?,
            "--classes" => args.classes = true,
            "--misses" => args.misses = true,
            "--points" => args.points = Some(value()?.into()),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if args.samples.as_os_str().is_empty() {
        return Err("--samples FILE is required".into());
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(e) => {
            eprintln!("detect-eval: {e}");
            return ExitCode::from(2);
        }
    };
    let all = match detect_eval::load_samples(&args.samples) {
        Ok(all) => all,
        Err(e) => {
            eprintln!("detect-eval: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut dropped = 0;
    let mut indices = Vec::new();
    for (i, s) in all.iter().enumerate() {
        if args.split != "all" && s.split != args.split {
            continue;
        }
        if round_trips(s) {
            indices.push(i);
        } else {
            dropped += 1;
        }
    }
    let samples: Vec<&Sample> = indices.iter().map(|&i| &all[i]).collect();
    println!(
        "{} samples ({} split of {}){}",
        samples.len(),
        args.split,
        args.samples.display(),
        if dropped > 0 {
            format!("; {dropped} left out: the WHATWG decoder reads them differently")
        } else {
            String::new()
        }
    );

    let detections: Vec<urlkit::detect::Detection> = samples
        .iter()
        .map(|s| urlkit::detect::detect(&s.bytes, None))
        .collect();
    let urlkit: Vec<Option<&str>> = detections.iter().map(|d| Some(d.charset.name())).collect();
    let chardetng: Vec<Option<&str>> = samples
        .iter()
        .map(|s| Some(detect_eval::chardetng_guess(&s.bytes)))
        .collect();
    let mut detectors: Vec<(String, Vec<Option<String>>)> = vec![
        ("urlkit".into(), owned(&urlkit)),
        ("chardetng".into(), owned(&chardetng)),
    ];
    if let Some(path) = &args.python {
        match read_python(path, &all, &indices) {
            Ok(python) => detectors.extend(python),
            Err(e) => {
                eprintln!("detect-eval: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let views: Vec<(&str, Vec<Option<&str>>)> = detectors
        .iter()
        .map(|(name, g)| (name.as_str(), g.iter().map(Option::as_deref).collect()))
        .collect();

    table("accuracy by length", &samples, &views, |s| {
        length_order(&s.length)
    });
    table("accuracy by charset family", &samples, &views, |s| {
        (family(&s.charset).to_string(), String::new())
    });

    classes(&samples, &urlkit, &chardetng, args.classes);
    confusions(&samples, &urlkit);
    calibration(&samples, &detections);

    if let Some(path) = &args.points {
        let mut lines = String::new();
        for (i, s) in samples.iter().enumerate() {
            if detections[i].reason == "statistical guess" {
                let non_ascii = s.bytes.iter().filter(|&&b| b >= 0x80).count();
                let right = u8::from(is_correct(s, urlkit[i]));
                lines.push_str(&format!(
                    "{} {non_ascii} {right}\n",
                    detections[i].confidence
                ));
            }
        }
        if let Err(e) = std::fs::write(path, lines) {
            eprintln!("detect-eval: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    if args.misses {
        println!("\nurlkit's misses (\"(right)\" where chardetng's guess is right):");
        for (i, s) in samples.iter().enumerate() {
            if !is_correct(s, urlkit[i]) {
                println!(
                    "  {} {} {}: urlkit {} ({:.2}), chardetng {}{}: {:?}",
                    s.lang,
                    s.charset,
                    s.length,
                    urlkit[i].unwrap_or("-"),
                    detections[i].confidence,
                    chardetng[i].unwrap_or("-"),
                    if is_correct(s, chardetng[i]) {
                        " (right)"
                    } else {
                        ""
                    },
                    s.text
                );
            }
        }
    }
    ExitCode::SUCCESS
}

fn owned(guesses: &[Option<&str>]) -> Vec<Option<String>> {
    guesses.iter().map(|g| g.map(str::to_owned)).collect()
}

/// Lengths in the order people paste them, shortest first.
fn length_order(length: &str) -> (String, String) {
    let rank = match length {
        "query" | "short" => "1",
        "path" => "2",
        _ => "3",
    };
    (rank.to_string(), length.to_string())
}

/// One table: a row per key, a column per detector, and an overall row.
fn table(
    title: &str,
    samples: &[&Sample],
    detectors: &[(&str, Vec<Option<&str>>)],
    key: impl Fn(&Sample) -> (String, String) + Copy,
) {
    println!("\n{title}");
    let mut header = format!("  {:<24}", "");
    for (name, _) in detectors {
        header.push_str(&format!(" {:>22}", short_name(name)));
    }
    println!("{header}");
    let tallies: Vec<BTreeMap<(String, String), Tally>> = detectors
        .iter()
        .map(|(_, g)| tally_by(samples, g, key))
        .collect();
    let Some(first) = tallies.first() else { return };
    for k in first.keys() {
        let label = if k.1.is_empty() { &k.0 } else { &k.1 };
        let n = first[k].total;
        let mut row = format!("  {:<24}", format!("{label} ({n})"));
        for t in &tallies {
            let t = t.get(k).copied().unwrap_or_default();
            row.push_str(&format!(" {:>21.1}%", t.percent()));
        }
        println!("{row}");
    }
    let mut row = format!("  {:<24}", format!("overall ({})", samples.len()));
    for (_, g) in detectors {
        let mut t = Tally::default();
        for (s, guess) in samples.iter().zip(g) {
            t.add(is_correct(s, *guess));
        }
        row.push_str(&format!(" {:>21.1}%", t.percent()));
    }
    println!("{row}");
}

fn short_name(name: &str) -> &str {
    name.split(' ').next().unwrap_or(name)
}

/// Classes (language × charset × length) where urlkit is behind chardetng, or all.
fn classes(samples: &[&Sample], urlkit: &[Option<&str>], chardetng: &[Option<&str>], all: bool) {
    let key = |s: &Sample| {
        (
            s.lang.clone(),
            s.charset.clone(),
            length_order(&s.length).0 + &s.length,
        )
    };
    let a = tally_by(samples, urlkit, key);
    let b = tally_by(samples, chardetng, key);
    let behind: Vec<_> = a.keys().filter(|k| a[*k].right < b[*k].right).collect();
    let (ahead, level) = a.keys().fold((0, 0), |(ahead, level), k| {
        match a[k].right.cmp(&b[k].right) {
            std::cmp::Ordering::Greater => (ahead + 1, level),
            std::cmp::Ordering::Equal => (ahead, level + 1),
            std::cmp::Ordering::Less => (ahead, level),
        }
    });
    println!(
        "\nclasses (language × charset × length): {}; urlkit ahead of chardetng in {ahead}, \
         level in {level}, behind in {}",
        a.len(),
        behind.len()
    );
    let shown: Vec<_> = if all { a.keys().collect() } else { behind };
    for k in shown {
        println!(
            "  {:<8} {:<13} {:<10} urlkit {:>3}/{:<3} chardetng {:>3}/{:<3}",
            k.0,
            k.1,
            &k.2[1..],
            a[k].right,
            a[k].total,
            b[k].right,
            b[k].total
        );
    }
}

/// urlkit's wrong answers as (right charset → guessed charset) pairs, most frequent first.
fn confusions(samples: &[&Sample], urlkit: &[Option<&str>]) {
    let mut pairs: BTreeMap<(String, String), usize> = BTreeMap::new();
    for (s, g) in samples.iter().zip(urlkit) {
        if !is_correct(s, *g) {
            *pairs
                .entry((s.charset.clone(), g.unwrap_or("-").to_string()))
                .or_default() += 1;
        }
    }
    let mut pairs: Vec<_> = pairs.into_iter().collect();
    pairs.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let total: usize = pairs.iter().map(|p| p.1).sum();
    println!("\nurlkit's confusions ({total} wrong answers), right → guessed:");
    for ((right, guessed), n) in pairs {
        println!("  {n:>4}  {right} → {guessed}");
    }
}

/// Reliability table and expected calibration error of urlkit's confidence.
fn calibration(samples: &[&Sample], detections: &[urlkit::detect::Detection]) {
    let points: Vec<(f64, bool)> = samples
        .iter()
        .zip(detections)
        .map(|(s, d)| {
            (
                f64::from(d.confidence),
                is_correct(s, Some(d.charset.name())),
            )
        })
        .collect();
    let (bands, ece) = reliability(&points);
    println!("\nreliability of urlkit's confidence:");
    println!(
        "  {:<11} {:>7} {:>16} {:>10}",
        "confidence", "answers", "mean confidence", "right"
    );
    for b in bands.iter().filter(|b| b.count > 0) {
        println!(
            "  {:.1}–{:.1}     {:>7} {:>16.3} {:>9.1}%",
            b.low,
            b.high,
            b.count,
            b.confidence_sum / b.count as f64,
            100.0 * b.right as f64 / b.count as f64
        );
    }
    println!(
        "  expected calibration error: {:.3} ({} answers)",
        ece,
        points.len()
    );
}

/// The Python detectors' guesses, one list per detector in the order of `indices` (the
/// kept samples' line numbers). A guess Python's own codec reads right stands for the
/// sample's charset.
type Named = (String, Vec<Option<String>>);

fn read_python(path: &PathBuf, all: &[Sample], indices: &[usize]) -> Result<Vec<Named>, String> {
    let data = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut by: BTreeMap<String, BTreeMap<usize, Option<String>>> = BTreeMap::new();
    for line in data.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("{}: {e}", path.display()))?;
        let (Some(name), Some(index)) = (v["detector"].as_str(), v["index"].as_u64()) else {
            return Err(format!(
                "{}: a line without detector or index",
                path.display()
            ));
        };
        let index = index as usize;
        let guess = if v["same_text"].as_bool().unwrap_or(false) {
            all.get(index).map(|s| s.charset.clone())
        } else {
            v["guess"].as_str().map(str::to_owned)
        };
        by.entry(name.to_owned()).or_default().insert(index, guess);
    }
    Ok(by
        .into_iter()
        .map(|(name, guesses)| {
            let list = indices
                .iter()
                .map(|i| guesses.get(i).cloned().flatten())
                .collect();
            (name, list)
        })
        .collect())
}
