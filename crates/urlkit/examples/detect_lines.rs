//! Per-line charset detection timed against chardetng on one core, for
//! `scripts/measure/bench.sh` (inputs from `scripts/measure/detect-lines.py`).
//!
//!   cargo run --release -p urlkit --example detect_lines -- NAME FILE [LABELS]
//!
//! FILE holds one percent-encoded entry a line; LABELS, when given, each line's charset
//! (a WHATWG name). Prints `NAME<TAB>implementation<TAB>lines/s<TAB>accuracy` rows: the
//! per-line decode with a fixed UTF-8 charset, with `auto` (runners-up only where they
//! come with the answer, and with them), and detection alone on each line's decoded
//! bytes by urlkit and by chardetng (with the line's top-level domain as its hint, as
//! urlkit has). Accuracy is the share of lines whose detected charset reads the bytes as
//! the labelled one does (`-` without labels). Each figure is the best of three runs
//! (of one, for a run over five seconds), timed in processor time of the thread.

#[path = "support/cpu.rs"]
mod cpu;

use cpu::best_of_three;

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use urlkit::detect::{detect_entry, tld_of_url, Ranking};
use urlkit::{Charset, CharsetChoice, Codec, DecodeOptions};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [name, file, rest @ ..] = &args[..] else {
        eprintln!("usage: detect_lines NAME FILE [LABELS]");
        std::process::exit(2);
    };
    let input = std::fs::read(file).expect("FILE cannot be read");
    let labels: Option<Vec<&'static encoding_rs::Encoding>> = rest.first().map(|path| {
        std::fs::read_to_string(path)
            .expect("LABELS cannot be read")
            .lines()
            .map(|l| encoding_rs::Encoding::for_label(l.as_bytes()).expect("a WHATWG name"))
            .collect()
    });
    let lines: Vec<&[u8]> = input
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    let count = lines.len() as f64;
    // ROWS=a,b runs only the rows whose implementation names one of these (for profiling).
    let only: Option<Vec<String>> = std::env::var("ROWS")
        .ok()
        .map(|r| r.split(',').map(str::to_string).collect());
    let wanted = |implementation: &str| {
        only.as_ref()
            .is_none_or(|only| only.iter().any(|o| o == implementation))
    };
    let row = |implementation: &str, seconds: f64, accuracy: Option<f64>| {
        let accuracy = accuracy.map_or("-".to_string(), |a| format!("{a:.4}"));
        println!(
            "{name}\t{implementation}\t{:.0}\t{accuracy}",
            count / seconds
        );
    };

    for (implementation, charset, ranking) in [
        (
            "decode -l",
            CharsetChoice::Fixed(Charset::UTF_8),
            Ranking::Charset,
        ),
        ("decode -l -c auto", CharsetChoice::Auto, Ranking::Charset),
        (
            "decode -l -c auto (runners-up)",
            CharsetChoice::Auto,
            Ranking::RunnersUp,
        ),
    ] {
        if !wanted(implementation) {
            continue;
        }
        let options = DecodeOptions {
            charset,
            per_line: true,
            ranking,
            ..DecodeOptions::default()
        };
        let seconds = best_of_three(|| {
            let finished = Codec::decoder(&options).run(&input).expect("lenient");
            finished.output.len()
        });
        row(implementation, seconds, None);
    }

    // Detection alone, on the bytes each line's escapes stand for.
    if !["urlkit detect", "urlkit detect (runners-up)", "chardetng"]
        .iter()
        .any(|r| wanted(r))
    {
        return;
    }
    let binary = DecodeOptions {
        binary: true,
        ..DecodeOptions::default()
    };
    let decoded: Vec<Vec<u8>> = lines
        .iter()
        .map(|l| urlkit::decode(l, &binary).output)
        .collect();
    let hints: Vec<Option<&str>> = decoded.iter().map(|b| tld_of_url(b)).collect();
    let accuracy = |answers: &[&'static encoding_rs::Encoding]| {
        labels.as_ref().map(|labels| {
            let right = answers
                .iter()
                .zip(labels)
                .zip(&decoded)
                .filter(|((answer, label), bytes)| {
                    answer.decode_without_bom_handling(bytes).0
                        == label.decode_without_bom_handling(bytes).0
                })
                .count();
            right as f64 / answers.len() as f64
        })
    };
    for (implementation, ranking) in [
        ("urlkit detect", Ranking::Charset),
        ("urlkit detect (runners-up)", Ranking::RunnersUp),
    ] {
        if !wanted(implementation) {
            continue;
        }
        let mut answers = Vec::new();
        let seconds = best_of_three(|| {
            answers = decoded
                .iter()
                .zip(&hints)
                .map(
                    |(bytes, hint)| match detect_entry(bytes, *hint, true, ranking).charset {
                        Charset::Whatwg(encoding) => encoding,
                        _ => encoding_rs::UTF_8,
                    },
                )
                .collect();
            answers.len()
        });
        row(implementation, seconds, accuracy(&answers));
    }
    if !wanted("chardetng") {
        return;
    }
    let mut answers = Vec::new();
    let seconds = best_of_three(|| {
        answers = decoded
            .iter()
            .zip(&hints)
            .map(|(bytes, hint)| {
                let mut detector = EncodingDetector::new(Iso2022JpDetection::Allow);
                detector.feed(bytes, true);
                detector.guess(hint.map(str::as_bytes), Utf8Detection::Allow)
            })
            .collect();
        answers.len()
    });
    row("chardetng", seconds, accuracy(&answers));
}
