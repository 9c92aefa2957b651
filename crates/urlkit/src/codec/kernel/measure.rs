//! The throughput of every kernel this processor runs, each called directly (the codec
//! benchmark measures only the one chosen at run time). A measurement, not a test: it is
//! built only with the `measure-kernels` feature, asserts nothing and prints GB/s per
//! kernel and input.
//!
//! ```text
//! cargo test --release -p urlkit --features measure-kernels --lib codec::kernel::measure -- --ignored --nocapture
//! ```
//!
//! Inputs are those of `benches/codec.rs`, from `../shared/bench-data/`: the URL lists
//! (`urls`), the same with every byte outside `A-Z a-z 0-9` escaped (`urls-escaped`) and
//! `multilingual.txt` encoded with the unreserved set (`multilingual-escaped`) are decoded;
//! `urls` and `multilingual.txt` are encoded with the unreserved set. Decoding drives
//! `decode_span` as the decoder does: where it stops, the escape or byte it stopped at is
//! taken one at a time and the span goes on. Times are those the thread ran (on Linux), so
//! the figures hold on a machine busy with other work, though less well than on an idle one.

use super::*;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn read(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/bench-data")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Decodes all of `input` with `kernels`, taking what `decode_span` stops at one step at a
/// time.
fn decode_all(kernels: &Kernels, input: &[u8], stops: &StopTable, out: &mut Vec<u8>) {
    let mut i = 0;
    while i < input.len() {
        i += (kernels.decode_span)(&input[i..], &stops.class, out);
        if i < input.len() {
            match portable::escape_at(&input[i..]) {
                Some(value) => {
                    out.push(value);
                    i += 3;
                }
                None => {
                    out.push(input[i]);
                    i += 1;
                }
            }
        }
    }
}

/// The time this thread has spent running on a processor, from Linux's
/// `/proc/thread-self/schedstat`, so that time spent waiting for a processor on a busy
/// machine is not counted; `None` where that cannot be read.
fn running_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanoseconds = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanoseconds))
}

/// The best of several rounds of `run` over `bytes` input bytes, in GB/s: of the time the
/// thread ran where the system says, else of the time that passed.
fn gigabytes_per_second(bytes: usize, mut run: impl FnMut()) -> f64 {
    let mut best = Duration::MAX;
    for _ in 0..15 {
        let start = Instant::now();
        let ran_before = running_time();
        let mut rounds = 0;
        while start.elapsed() < Duration::from_millis(100) {
            run();
            rounds += 1;
        }
        let took = match (ran_before, running_time()) {
            (Some(before), Some(after)) => after.saturating_sub(before),
            _ => start.elapsed(),
        };
        best = best.min(took / rounds);
    }
    bytes as f64 / best.as_secs_f64() / 1e9
}

#[test]
#[ignore = "a measurement: run with --release --ignored --nocapture"]
fn kernel_throughput() {
    let mut urls = Vec::new();
    for name in ["node_files.txt", "isaacs_files.txt", "kasztp.txt"] {
        urls.extend_from_slice(&read(name));
    }
    let multilingual = read("multilingual.txt");
    let unreserved = EscapeTable::new(EncodeSet::UNRESERVED, false, false);
    let non_alphanumeric = EscapeTable::new(
        EncodeSet::UNRESERVED
            .with_unsafe("-._~")
            .expect("ASCII characters"),
        false,
        false,
    );
    let mut escaped_urls = Vec::new();
    (PORTABLE.escape)(&urls, &non_alphanumeric, &mut escaped_urls);
    let mut escaped_multilingual = Vec::new();
    (PORTABLE.escape)(&multilingual, &unreserved, &mut escaped_multilingual);
    let stops = StopTable::new(true, false);

    let decoded: [(&str, &[u8]); 3] = [
        ("urls", &urls),
        ("urls-escaped", &escaped_urls),
        ("multilingual-escaped", &escaped_multilingual),
    ];
    let encoded: [(&str, &[u8]); 2] = [("urls", &urls), ("multilingual", &multilingual)];
    let mut out = Vec::with_capacity(3 * urls.len().max(multilingual.len()) + 64);
    for kernels in available() {
        for (name, input) in decoded {
            let speed = gigabytes_per_second(input.len(), || {
                out.clear();
                decode_all(kernels, black_box(input), &stops, &mut out);
                black_box(out.len());
            });
            println!("{:<8} decode {name:<22} {speed:6.2} GB/s", kernels.name);
        }
        for (name, input) in encoded {
            let speed = gigabytes_per_second(input.len(), || {
                out.clear();
                (kernels.escape)(black_box(input), &unreserved, &mut out);
                black_box(out.len());
            });
            println!("{:<8} encode {name:<22} {speed:6.2} GB/s", kernels.name);
        }
    }
}
