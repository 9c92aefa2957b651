//! Accuracy of urlkit's charset detection against the `chardetng` crate (and, given a
//! file of their guesses, Python's `chardet` and `charset-normalizer`) on the committed
//! sample set.
//!
//! ```text
//! cargo run -p urlkit --example detect_eval -- [--samples FILE] [--python GUESSES]
//!     [--table-only] [--misses]
//! ```
//! `GUESSES` is JSON lines `{"detector": NAME, "index": N, "guess": NAME-or-null,
//! "same_text": BOOL}` as written by `detect-eval/python_detectors.py`; a guess counts
//! as right by the rules of `eval::is_correct`, or when `same_text` says Python's codec
//! of that name reads the sample's text exactly.

#[path = "../detect-eval/eval.rs"]
mod eval;

use std::collections::BTreeMap;
use std::path::PathBuf;

fn main() {
    let mut samples_path = eval::default_samples();
    let mut python: Option<PathBuf> = None;
    let mut table_only = false;
    let mut misses = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--samples" => samples_path = args.next().expect("--samples FILE").into(),
            "--python" => python = Some(args.next().expect("--python FILE").into()),
            "--table-only" => table_only = true,
            "--misses" => misses = true,
            other => {
                eprintln!("unknown argument {other}");
                std::process::exit(2);
            }
        }
    }
    let samples = eval::load_samples(&samples_path);
    let urlkit: Vec<Option<&str>> = samples
        .iter()
        .map(|s| Some(eval::urlkit_guess(&s.bytes)))
        .collect();
    let chardetng: Vec<Option<&str>> = samples
        .iter()
        .map(|s| Some(eval::chardetng_guess(&s.bytes)))
        .collect();

    let mut rows: Vec<(String, eval::Score)> = vec![
        (
            "urlkit".into(),
            eval::score(&samples, urlkit.iter().copied()),
        ),
        (
            "chardetng".into(),
            eval::score(&samples, chardetng.iter().copied()),
        ),
    ];
    if let Some(path) = &python {
        for (name, guesses) in read_python(path, samples.len()) {
            // A guess that Python's codec reads right counts as right: stand in the
            // sample's own charset name for it.
            let names = guesses.iter().zip(&samples).map(|((guess, same), sample)| {
                if *same {
                    Some(sample.charset.as_str())
                } else {
                    guess.as_deref()
                }
            });
            let score = eval::score(&samples, names);
            rows.push((name, score));
        }
    }

    if !table_only {
        println!("samples: {} ({})", samples.len(), samples_path.display());
        println!();
        println!(
            "{:<10} {:<14} {:<6} {:>9} {:>9}",
            "lang", "charset", "class", "urlkit", "chardetng"
        );
        for ((lang, charset, class), (a, b)) in eval::breakdown(&samples, &urlkit, &chardetng) {
            println!(
                "{lang:<10} {charset:<14} {class:<6} {:>4}/{:<4} {:>4}/{:<4}",
                a.right, a.total, b.right, b.total
            );
        }
        println!();
    }
    if !table_only {
        calibration(&samples);
    }
    if misses {
        for (i, s) in samples.iter().enumerate() {
            if !eval::is_correct(s, urlkit[i]) {
                println!(
                    "MISS {} {} {}: urlkit {} chardetng {} {:?}",
                    s.lang,
                    s.charset,
                    if s.long { "long" } else { "short" },
                    urlkit[i].unwrap_or("-"),
                    chardetng[i].unwrap_or("-"),
                    s.text
                );
            }
        }
        println!();
    }
    let long = samples.iter().filter(|s| s.long).count();
    println!(
        "{:<26} {:>15} {:>15} {:>15}",
        "detector",
        format!("long ({long})"),
        format!("short ({})", samples.len() - long),
        format!("overall ({})", samples.len())
    );
    for (name, s) in rows {
        println!(
            "{name:<26} {:>14.1}% {:>14.1}% {:>14.1}%",
            s.long.percent(),
            s.short.percent(),
            s.all.percent()
        );
    }
}

/// Reads the Python detectors' guesses, one list per detector in sample order.
type Guesses = Vec<(Option<String>, bool)>;

fn read_python(path: &PathBuf, n: usize) -> Vec<(String, Guesses)> {
    let data = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut by: BTreeMap<String, Guesses> = BTreeMap::new();
    for line in data.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).expect("guess line");
        let name = v["detector"].as_str().expect("detector").to_owned();
        let index = v["index"].as_u64().expect("index") as usize;
        let guesses = by.entry(name).or_insert_with(|| vec![(None, false); n]);
        if index < n {
            let same = v["same_text"].as_bool().unwrap_or(false);
            guesses[index] = (v["guess"].as_str().map(str::to_owned), same);
        }
    }
    by.into_iter().collect()
}

/// How honest urlkit's confidence is: accuracy of its statistical guesses per band of
/// reported confidence.
fn calibration(samples: &[eval::Sample]) {
    let bands = [0.0, 0.5, 0.8, 0.95, 0.99, 1.01];
    let mut tallies = [eval::Tally::default(); 5];
    let mut sums = [0.0f64; 5];
    for s in samples {
        let d = urlkit::detect::detect(&s.bytes, None);
        if d.reason != "statistical guess" {
            continue;
        }
        let c = f64::from(d.confidence);
        let band = bands
            .windows(2)
            .position(|w| c >= w[0] && c < w[1])
            .unwrap_or(4);
        tallies[band].add(eval::is_correct(s, Some(d.charset)));
        sums[band] += c;
    }
    println!("statistical guesses by reported confidence:");
    for (i, t) in tallies.iter().enumerate() {
        if t.total > 0 {
            println!(
                "  {:.2}..{:.2}: {:>4} guesses, mean confidence {:.3}, right {:.1}%",
                bands[i],
                bands[i + 1].min(1.0),
                t.total,
                sums[i] / t.total as f64,
                t.percent()
            );
        }
    }
    println!();
}
