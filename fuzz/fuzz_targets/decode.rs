//! Decoding in every charset with every option: never panics, text output is UTF-8, every
//! finding points inside the input.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let ([charset, flags], input) = common::split::<2>(data);
    let options = common::decode_options(charset, flags);
    let outcome = urlkit::decode(input, &options);
    if !options.binary {
        assert!(
            std::str::from_utf8(&outcome.output).is_ok(),
            "decoded text is not UTF-8"
        );
    }
    for d in outcome.diagnostics.iter() {
        assert!(
            d.offset as usize <= input.len(),
            "finding past the end: {d:?}"
        );
    }
    if flags & 128 != 0 && !options.per_line {
        let _ = urlkit::decode_until_stable(input, &options);
    }
});
