//! The streaming codec against the whole-input codec: for any chunking (taken from the
//! input), the output and the findings are equal.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlkit::Codec;

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
    // Every finding kept, as the whole-input functions keep them.
    let (codec, whole) = if mode & 1 == 0 {
        let options = common::encode_options(charset, set, flags);
        (Codec::encoder(&options), urlkit::encode(input, &options))
    } else {
        let options = common::decode_options(charset, flags);
        (Codec::decoder(&options), urlkit::decode(input, &options))
    };
    let mut codec = codec.keep_findings(usize::MAX);
    let mut out = Vec::new();
    for pair in points.windows(2) {
        codec
            .feed(&input[pair[0]..pair[1]], &mut out)
            .expect("a lenient codec never rejects");
    }
    codec.finish(&mut out).expect("a lenient codec never rejects");
    assert_eq!(out, whole.output, "chunked output differs (mode {mode})");
    assert_eq!(
        common::sorted(codec.diagnostics().items().to_vec()),
        common::sorted(whole.diagnostics.items().to_vec()),
        "chunked findings differ (mode {mode})"
    );
});
