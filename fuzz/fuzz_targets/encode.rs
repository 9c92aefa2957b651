//! Encoding in every charset and set: never panics; outside the `iri` set the output is
//! ASCII; in binary mode decoding gives the input back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlkit::{CharsetChoice, DecodeOptions};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let ([charset, set, flags], input) = common::split::<3>(data);
    let options = common::encode_options(charset, set, flags);
    let outcome = urlkit::encode(input, &options);
    let base = common::sets()[set as usize % common::sets().len()];
    if base != common::iri() {
        assert!(outcome.output.is_ascii(), "encoded output is not ASCII");
    }
    if options.binary && !options.per_line && !options.set.keeps(b'%') {
        let back = urlkit::decode(
            &outcome.output,
            &DecodeOptions {
                charset: CharsetChoice::Fixed(urlkit::Charset::UTF_8),
                // The form set writes space as `+` of itself.
                plus_space: options.space_plus || options.set.writes_space_as_plus(),
                keep_whitespace: true,
                binary: true,
                ..DecodeOptions::default()
            },
        );
        if !options.set.keeps(b'+') || !(options.space_plus || options.set.writes_space_as_plus()) {
            assert_eq!(back.output, input, "binary round trip");
        }
    }
});
