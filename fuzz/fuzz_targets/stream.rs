//! The streaming codec against the whole-input codec: for any chunking (taken from the
//! input), the output and the findings are equal.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlkit::{Decoder, Diagnostics, Encoder};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let ([mode, charset, set, flags, cuts], input) = common::split::<5>(data);
    // Chunk lengths cycle through the low bits of the input bytes themselves, seeded by
    // `cuts`, so the fuzzer controls the chunking without spending many bytes on it.
    let mut lengths = input
        .iter()
        .map(|b| 1 + ((*b ^ cuts) as usize % 17))
        .cycle()
        .chain(std::iter::repeat(1));
    let mut points = vec![0];
    while *points.last().unwrap() < input.len() {
        let next = points.last().unwrap() + lengths.next().unwrap();
        points.push(next.min(input.len()));
    }
    let mut out = Vec::new();
    let mut diagnostics = Diagnostics::new();
    if mode & 1 == 0 {
        let options = common::encode_options(charset, set, flags);
        let whole = urlkit::encode(input, &options);
        let mut encoder = Encoder::new(&options);
        for pair in points.windows(2) {
            encoder.feed(&input[pair[0]..pair[1]], &mut out, &mut diagnostics);
        }
        encoder.finish(&mut out, &mut diagnostics);
        assert_eq!(out, whole.output, "encode: chunked output differs");
        assert_eq!(
            common::sorted(diagnostics.into_vec()),
            common::sorted(whole.diagnostics),
            "encode: chunked findings differ"
        );
    } else {
        let options = common::decode_options(charset, flags);
        let whole = urlkit::decode(input, &options);
        let mut decoder = Decoder::new(&options);
        for pair in points.windows(2) {
            decoder.feed(&input[pair[0]..pair[1]], &mut out, &mut diagnostics);
        }
        decoder.finish(&mut out, &mut diagnostics);
        assert_eq!(out, whole.output, "decode: chunked output differs");
        assert_eq!(
            common::sorted(diagnostics.into_vec()),
            common::sorted(whole.diagnostics),
            "decode: chunked findings differ"
        );
    }
});
