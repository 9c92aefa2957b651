//! Charset detection measured on the committed sample set (`detect-eval/samples.jsonl`):
//! urlkit must be at least as accurate as the `chardetng` crate on long and on short
//! samples, and must not panic on any of them.

#[path = "../detect-eval/eval.rs"]
#[allow(dead_code)]
mod eval;

use urlkit::detect::{detect, tld_of_url};

fn scores() -> (eval::Score, eval::Score) {
    let samples = eval::load_samples(&eval::default_samples());
    assert!(samples.len() > 1000, "sample set too small");
    let urlkit = eval::score(
        &samples,
        samples.iter().map(|s| Some(eval::urlkit_guess(&s.bytes))),
    );
    let chardetng = eval::score(
        &samples,
        samples
            .iter()
            .map(|s| Some(eval::chardetng_guess(&s.bytes))),
    );
    (urlkit, chardetng)
}

#[test]
fn urlkit_is_at_least_as_accurate_as_chardetng_on_long_and_short_samples() {
    let (urlkit, chardetng) = scores();
    assert!(
        urlkit.long.right >= chardetng.long.right,
        "long: urlkit {:?} chardetng {:?}",
        urlkit.long,
        chardetng.long
    );
    assert!(
        urlkit.short.right >= chardetng.short.right,
        "short: urlkit {:?} chardetng {:?}",
        urlkit.short,
        chardetng.short
    );
}

#[test]
fn the_accuracy_rules_accept_equal_encodings_and_reject_wrong_ones() {
    let sample = eval::Sample {
        lang: "tr".into(),
        charset: "windows-1254".into(),
        long: false,
        text: "Gölcük".into(),
        bytes: vec![0x47, 0xF6, 0x6C, 0x63, 0xFC, 0x6B],
    };
    assert!(eval::is_correct(&sample, Some("ISO-8859-9")));
    assert!(
        eval::is_correct(&sample, Some("windows-1252")),
        "decodes to the same text"
    );
    assert!(!eval::is_correct(&sample, Some("windows-1251")));
    assert!(!eval::is_correct(&sample, Some("no-such-charset")));
    assert!(!eval::is_correct(&sample, None));
}

#[test]
fn tld_of_url_feeds_the_hint() {
    let url = b"http://example.jp/search?q=\x93\x8c\x8b\x9e";
    let tld = tld_of_url(url);
    assert_eq!(tld, Some("jp"));
    let query = &url[url.len() - 4..];
    assert_eq!(detect(query, tld).charset, "Shift_JIS");
}

#[test]
fn detection_never_panics_on_arbitrary_bytes() {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for len in 0..200 {
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
            .collect();
        let d = detect(&bytes, Some("jp"));
        assert!((0.0..=1.0).contains(&d.confidence), "{d:?}");
        assert!(d.runners_up.len() <= urlkit::detect::MAX_RUNNERS_UP);
        assert!(d.bom_length <= bytes.len());
    }
}
