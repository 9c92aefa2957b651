//! Charset detection through the public API: the top-level-domain hint, hard cases from
//! real text, honest confidence when two charsets read the bytes equally well, and no
//! panic on any input. The accuracy measurement on real text is
//! `scripts/detect-accuracy.sh` (`tools/detect-eval`), not a test.

use urlkit::detect::{detect, tld_of_url};

#[test]
fn tld_of_url_feeds_the_hint() {
    let url = b"http://example.jp/search?q=\x93\x8c\x8b\x9e";
    let tld = tld_of_url(url);
    assert_eq!(tld, Some("jp"));
    let query = &url[url.len() - 4..];
    assert_eq!(detect(query, tld).charset.name(), "Shift_JIS");
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
