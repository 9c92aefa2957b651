//! Every fast path against the reference loops: every length 0..=300 at every alignment
//! 0..32, every named encode set and a random custom one, an escape (valid, malformed,
//! cut short or needing attention) at every position of every length, and random inputs.
//!
//! A kernel that never returns must fail a test rather than hang it: the sweeps run on a
//! worker thread watched by [`terminates`], which names the kernel and the input that
//! did not come back.

use super::*;
use proptest::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

/// The longest input the sweeps try.
const LONGEST: usize = 300;

/// How long a sweep may take before its kernel is taken to hang. Generous, since the sweeps
/// also run under instruction-set emulation.
const SWEEP_LIMIT: Duration = Duration::from_secs(240);

/// Where a sweep is, for the message when it does not come back: four numbers whose
/// meaning the sweep names when it starts.
#[derive(Default)]
struct Progress {
    at: [AtomicUsize; 4],
}

impl Progress {
    /// Records that the sweep is about to try the input these numbers describe.
    fn trying(&self, at: [usize; 4]) {
        for (slot, value) in self.at.iter().zip(at) {
            slot.store(value, Ordering::Relaxed);
        }
    }
}

/// Runs `sweep` on a worker thread and fails when it has not returned within `limit`,
/// naming the input it was trying (the numbers of [`Progress`], called `labels`); a failure
/// inside the sweep fails the test as it is.
fn terminates(
    name: &str,
    labels: [&str; 4],
    limit: Duration,
    sweep: impl FnOnce(&Progress) + Send + 'static,
) {
    let progress = Arc::new(Progress::default());
    let (sender, receiver) = mpsc::channel();
    let watched = Arc::clone(&progress);
    let worker = std::thread::Builder::new()
        .name(name.to_string())
        .spawn(move || {
            sweep(&watched);
            let _ = sender.send(());
        })
        .expect("a worker thread starts");
    match receiver.recv_timeout(limit) {
        Ok(()) => {
            let _ = worker.join();
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            // The sweep panicked: show its message as the test's failure.
            if let Err(panic) = worker.join() {
                std::panic::resume_unwind(panic);
            }
        }
        Err(mpsc::RecvTimeoutError::Timeout) => {
            let at: Vec<String> = labels
                .iter()
                .zip(&progress.at)
                .filter(|(label, _)| !label.is_empty())
                .map(|(label, value)| format!("{label} {}", value.load(Ordering::Relaxed)))
                .collect();
            panic!(
                "{name}: a kernel did not return within {limit:?}; stuck at {}",
                at.join(", ")
            );
        }
    }
}

/// Pieces inputs are made of: literals, escapes (valid, malformed, needing attention),
/// whitespace, `+`, non-ASCII.
const PIECES: &[&[u8]] = &[
    b"a",
    b"Z",
    b"0",
    b"~",
    b"-",
    b"/",
    b"?",
    b"&",
    b"=",
    b"%41",
    b"%e9",
    b"%C3%A9",
    b"%E2%80%AE",
    b"%2",
    b"%zz",
    b"%",
    b"%25",
    b"%0A",
    b"%7f",
    b"%20",
    b"%2B",
    b" ",
    b"\n",
    b"\r\n",
    b"\t",
    b"\x0C",
    b"+",
    b"\xC3\xA9",
    b"\xFF",
    b"\x00",
    b"\x7F",
    b"abcdefghijklmnopqrstuvwxyz",
    b"%E5%BC%95%E3%81%8D%E5%89%B2%E3%82%8A",
    b"%41%42%43%44%45%46%47%48%49%4A%4B%4C",
];

/// A deterministic pseudo-random byte string of `length` bytes built from [`PIECES`].
fn sample(seed: u64, length: usize) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut bytes = Vec::with_capacity(length + 64);
    while bytes.len() < length {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        bytes.extend_from_slice(PIECES[(state % PIECES.len() as u64) as usize]);
    }
    bytes.truncate(length);
    bytes
}

fn stop_tables() -> Vec<StopTable> {
    [(false, false), (false, true), (true, false), (true, true)]
        .into_iter()
        .map(|(strip, plus)| StopTable::new(strip, plus))
        .collect()
}

fn random_set() -> EncodeSet {
    let chars: String = (0x20u8..0x7F)
        .filter(|b| b.wrapping_mul(37) % 5 < 2)
        .map(char::from)
        .collect();
    EncodeSet::ALL
        .with_safe(&chars)
        .and_then(|s| s.with_unsafe("az"))
        .unwrap_or_default()
}

/// Every named set and a custom one, with space as `+` and lower-case hex, each with a
/// label for failure messages.
fn escape_tables() -> Vec<(String, EscapeTable)> {
    let mut sets: Vec<EncodeSet> = EncodeSet::names()
        .filter_map(|n| EncodeSet::named(n).ok())
        .collect();
    sets.push(random_set());
    let mut tables = Vec::new();
    for set in sets {
        for (space_plus, lowercase) in [(false, false), (true, false), (false, true)] {
            let label = format!("{set:?} space_plus {space_plus} lowercase {lowercase}");
            tables.push((label, EscapeTable::new(set, space_plus, lowercase)));
        }
    }
    tables
}

fn check_all(input: &[u8], stops: &[StopTable], escapes: &[(String, EscapeTable)], context: &str) {
    let kernels = available();
    check_decoding(&kernels, input, stops, context);
    for kernels in &kernels[1..] {
        for (label, table) in escapes {
            let mut expected = b"prefix".to_vec();
            (PORTABLE.escape)(input, table, &mut expected);
            let mut got = b"prefix".to_vec();
            (kernels.escape)(input, table, &mut got);
            assert_eq!(
                got, expected,
                "{} escape {label} {context} {input:?}",
                kernels.name
            );
        }
    }
}

/// Every kernel's `first_member` and `decode_span` (flagging too, where it has one) against
/// the reference on `input`, appending to output that already holds something.
fn check_decoding(kernels: &[&'static Kernels], input: &[u8], stops: &[StopTable], context: &str) {
    for stop in stops {
        let first = (PORTABLE.first_member)(input, &stop.class);
        let mut expected = b"prefix".to_vec();
        let taken = (PORTABLE.decode_span)(input, &stop.class, &mut expected);
        let mut expected_flagging = (b"prefix".to_vec(), Vec::new());
        let taken_flagging = portable::decode_span_flagging(
            input,
            &stop.class,
            &mut expected_flagging.0,
            &mut expected_flagging.1,
        );
        let mut expected_lenient = (b"prefix".to_vec(), Vec::new());
        let taken_lenient = portable::decode_span_lenient(
            input,
            &stop.class,
            &mut expected_lenient.0,
            &mut expected_lenient.1,
        );
        assert_eq!(
            taken_lenient,
            input.len(),
            "portable lenient {context} {input:?}"
        );
        for kernels in &kernels[1..] {
            assert_eq!(
                (kernels.first_member)(input, &stop.class),
                first,
                "{} first_member {context} {input:?}",
                kernels.name
            );
            let mut got = b"prefix".to_vec();
            let fast_taken = (kernels.decode_span)(input, &stop.class, &mut got);
            assert_eq!(
                (fast_taken, &got),
                (taken, &expected),
                "{} decode_span {context} {input:?}",
                kernels.name
            );
            if let Some(fast_flagging) = kernels.decode_span_flagging {
                let mut got = (b"prefix".to_vec(), Vec::new());
                let fast_taken = fast_flagging(input, &stop.class, &mut got.0, &mut got.1);
                assert_eq!(
                    (fast_taken, &got),
                    (taken_flagging, &expected_flagging),
                    "{} decode_span_flagging {context} {input:?}",
                    kernels.name
                );
            }
            if let Some(fast_quiet) = kernels.decode_span_quiet {
                let mut got = b"prefix".to_vec();
                let fast_taken = fast_quiet(input, &stop.class, &mut got);
                assert_eq!(
                    (fast_taken, &got),
                    (taken_flagging, &expected_flagging.0),
                    "{} decode_span_quiet {context} {input:?}",
                    kernels.name
                );
            }
            if let Some(fast_lenient) = kernels.decode_span_lenient {
                let mut got = (b"prefix".to_vec(), Vec::new());
                let fast_taken = fast_lenient(input, &stop.class, &mut got.0, &mut got.1);
                assert_eq!(
                    (fast_taken, &got),
                    (taken_lenient, &expected_lenient),
                    "{} decode_span_lenient {context} {input:?}",
                    kernels.name
                );
            }
        }
    }
}

#[test]
fn hex_digits_and_escapes_are_read_from_the_table_as_the_standard_reads_them() {
    for byte in 0..=u8::MAX {
        let expected = char::from(byte).to_digit(16).map(|d| d as u8);
        assert_eq!(hex_value(byte), expected, "byte {byte:#04x}");
    }
    for high in 0..=u8::MAX {
        for low in 0..=u8::MAX {
            let escape = [b'%', high, low];
            let expected = std::str::from_utf8(&escape[1..])
                .ok()
                .filter(|digits| digits.bytes().all(|b| b.is_ascii_hexdigit()))
                .and_then(|digits| u8::from_str_radix(digits, 16).ok());
            assert_eq!(portable::escape_at(&escape), expected, "{escape:?}");
        }
    }
    assert_eq!(portable::escape_at(b"%4"), None);
    assert_eq!(portable::escape_at(b"x41"), None);
}

#[test]
fn the_lenient_reference_copies_a_percent_that_starts_no_escape_and_goes_on() {
    /// An input, whether whitespace is removed, whether `+` is a space, the output and
    /// the offsets of the `%` bytes copied as they are.
    type Case = (&'static [u8], bool, bool, &'static [u8], &'static [usize]);
    let cases: [Case; 6] = [
        (b"a%zz%41b", false, false, b"a%zzAb", &[1]),
        (b"100%%3F", false, false, b"100%?", &[3]),
        (b"%4g%4", false, false, b"%4g%4", &[0, 3]),
        (b"%", false, false, b"%", &[0]),
        (b"a+b %25%2", false, true, b"a b %%2", &[7]),
        (b"a b\n%0A%4%20", true, false, b"ab\n%4 ", &[7]),
    ];
    for (input, strip, plus, expected, kept) in cases {
        let stops = StopTable::new(strip, plus);
        let (mut out, mut got_kept) = (Vec::new(), Vec::new());
        let taken = portable::decode_span_lenient(input, &stops.class, &mut out, &mut got_kept);
        assert_eq!(
            (taken, out.as_slice(), got_kept.as_slice()),
            (input.len(), expected, kept),
            "{input:?}"
        );
    }
}

#[test]
fn fast_paths_match_the_reference_at_every_length_and_alignment() {
    let labels = ["offset", "length", "", ""];
    terminates(
        "every length and alignment",
        labels,
        SWEEP_LIMIT,
        |progress| {
            let stops = stop_tables();
            let escapes = escape_tables();
            let buffer = sample(1, LONGEST + 32);
            for offset in 0..32 {
                for length in 0..=LONGEST {
                    let input = &buffer[offset..offset + length];
                    progress.trying([offset, length, 0, 0]);
                    check_all(input, &stops, &escapes, &format!("at {offset}"));
                }
            }
        },
    );
}

#[test]
fn fast_paths_match_the_reference_on_uniform_inputs() {
    let labels = ["piece", "offset", "length", ""];
    terminates("uniform inputs", labels, SWEEP_LIMIT, |progress| {
        let stops = stop_tables();
        let escapes = escape_tables();
        let uniform: [&[u8]; 6] = [b"a", b"%41", b"\xE5", b" ", b"%E2", b"%41%42%43%44%45]"];
        for (index, piece) in uniform.into_iter().enumerate() {
            let buffer: Vec<u8> = piece.iter().copied().cycle().take(LONGEST + 32).collect();
            for offset in 0..32 {
                for length in 0..=LONGEST {
                    let input = &buffer[offset..offset + length];
                    progress.trying([index, offset, length, 0]);
                    check_all(input, &stops, &escapes, "uniform");
                }
            }
        }
    });
}

/// What the position sweep puts at each position: an escape that decodes, one that needs
/// attention, a malformed one, one cut short and a lone `%`.
const PLACED: [&[u8]; 5] = [b"%41", b"%0A", b"%zz", b"%4", b"%"];

/// The percent decoder's kernels on every input of every length up to [`LONGEST`] that
/// holds one of [`PLACED`] at any position, in a run of literals or a run of escapes, at
/// several alignments: every kernel returns, and returns what the reference returns.
#[test]
fn decoding_kernels_return_with_a_percent_at_every_position() {
    let labels = [
        "background and placed piece",
        "offset",
        "length",
        "position",
    ];
    terminates(
        "a percent at every position",
        labels,
        SWEEP_LIMIT,
        |progress| {
            let stops = [StopTable::new(true, true), StopTable::new(false, false)];
            let kernels = available();
            let backgrounds: [&[u8]; 2] = [b"abcdefgh", b"%E5%BC%95"];
            let mut buffer = Vec::with_capacity(LONGEST + 64);
            for (b, background) in backgrounds.into_iter().enumerate() {
                for (p, placed) in PLACED.into_iter().enumerate() {
                    for offset in 0..4 {
                        for length in 0..=LONGEST {
                            // `position == length` places nothing: the background alone.
                            for position in 0..=length {
                                buffer.clear();
                                buffer.resize(offset, b'.');
                                buffer.extend(background.iter().cycle().take(length));
                                let end = (position + placed.len()).min(length);
                                buffer[offset + position..offset + end]
                                    .copy_from_slice(&placed[..end - position]);
                                let input = &buffer[offset..offset + length];
                                progress.trying([b * PLACED.len() + p, offset, length, position]);
                                check_decoding(&kernels, input, &stops, "placed");
                            }
                        }
                    }
                }
            }
        },
    );
}

/// The kernels the processor offers are the ones this build is expected to exercise:
/// `URLKIT_EXPECT_KERNELS` (a comma-separated list of kernel names, set by CI from what the
/// machine reports) must all be available, so a sweep cannot pass by quietly skipping one.
#[test]
fn the_expected_kernels_are_exercised() {
    let names: Vec<&str> = available().iter().map(|k| k.name).collect();
    assert_eq!(names[0], "portable");
    println!("kernels exercised: {}", names.join(", "));
    if let Ok(expected) = std::env::var("URLKIT_EXPECT_KERNELS") {
        for name in expected.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            assert!(
                names.contains(&name),
                "kernel {name} expected but not available; available: {names:?}"
            );
        }
    }
}

#[test]
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn byte_class_lookup_matches_the_encode_set() {
    for (label, table) in escape_tables() {
        for byte in 0..=255u8 {
            assert_eq!(
                table.keep_class().contains(byte),
                table.keeps(byte),
                "{label} {byte}"
            );
        }
    }
}

#[test]
fn fast_paths_match_the_reference_on_random_input() {
    terminates(
        "random inputs",
        ["case", "", "", ""],
        SWEEP_LIMIT,
        |progress| {
            let config = ProptestConfig {
                source_file: Some(file!()),
                ..ProptestConfig::default()
            };
            let mut runner = proptest::test_runner::TestRunner::new(config);
            let case = AtomicUsize::new(0);
            let pieces = proptest::collection::vec(0..PIECES.len() + 256, 0..200);
            let outcome = runner.run(&pieces, |pieces| {
                progress.trying([case.fetch_add(1, Ordering::Relaxed), 0, 0, 0]);
                let input: Vec<u8> = pieces
                    .iter()
                    .flat_map(|&p| match PIECES.get(p) {
                        Some(piece) => piece.to_vec(),
                        None => vec![(p - PIECES.len()) as u8],
                    })
                    .collect();
                check_all(&input, &stop_tables(), &escape_tables(), "random");
                Ok(())
            });
            if let Err(failure) = outcome {
                panic!("{failure}");
            }
        },
    );
}

/// The inputs that once never returned on aarch64, where the NEON kernel met a `%` 16 to
/// 47 bytes before the end of the input, through the public decoder.
#[test]
fn decoding_returns_on_the_inputs_that_once_hung_the_neon_kernel() {
    let limit = Duration::from_secs(60);
    terminates(
        "inputs that hung NEON",
        ["case", "", "", ""],
        limit,
        |progress| {
            let cases: [(Vec<u8>, &str); 3] = [
                (b"%E5%BC%95%E3%81%8D%20x".to_vec(), "引き x"),
                (b"%41".repeat(7), "AAAAAAA"),
                (b"abcd%41".repeat(3), "abcdAabcdAabcdA"),
            ];
            for (case, (input, expected)) in cases.iter().enumerate() {
                progress.trying([case, 0, 0, 0]);
                let decoded = crate::codec::decode(input, &crate::codec::DecodeOptions::default());
                assert_eq!(decoded.text(), *expected);
            }
        },
    );
}
