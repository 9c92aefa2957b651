//! Charset detection through the public API: the top-level-domain hint, hard cases from
//! real text, honest confidence when two charsets read the bytes equally well, and no
//! panic on any input. The accuracy measurement on real text is
//! `scripts/measure/detect-accuracy.sh` (`tools/detect-eval`), not a test.

use urlkit::detect::{detect, tld_of_url};
use urlkit::Charset;

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
    let mut random = urlkit_testdata::Random::new(0x2545_F491_4F6C_DD1D);
    for len in 0..200 {
        let bytes = random.bytes(len);
        let d = detect(&bytes, Some("jp"));
        assert!((0.0..=1.0).contains(&d.confidence), "{d:?}");
        assert!(d.runners_up.len() <= urlkit::detect::MAX_RUNNERS_UP);
        assert!(d.bom_length <= bytes.len());
    }
}

/// Encodes `text` in `encoding`, which must represent all of it.
fn encoded(text: &str, encoding: &'static encoding_rs::Encoding) -> Vec<u8> {
    let (bytes, _, unmappable) = encoding.encode(text);
    assert!(!unmappable, "{} cannot encode {text:?}", encoding.name());
    bytes.into_owned()
}

/// What the detected charset reads `bytes` as.
fn read_as_detected(bytes: &[u8]) -> String {
    let d = detect(bytes, None);
    let Charset::Whatwg(encoding) = d.charset else {
        panic!("not a WHATWG charset: {d:?}")
    };
    encoding.decode_without_bom_handling(bytes).0.into_owned()
}

#[test]
fn three_bytes_that_are_words_in_two_charsets_get_low_confidence_and_both() {
    // `%E4%F6%FC`: `äöü` in windows-1252, `дць` in windows-1251.
    let d = detect(&[0xE4, 0xF6, 0xFC], None);
    assert!(d.confidence < 0.5, "{d:?}");
    let candidates: Vec<&str> = std::iter::once(d.charset.name())
        .chain(d.runners_up.iter().map(|c| c.charset.name()))
        .collect();
    assert!(candidates.contains(&"windows-1252"), "{candidates:?}");
    assert!(candidates.contains(&"windows-1251"), "{candidates:?}");
}

#[test]
fn lithuanian_and_latvian_in_windows_1257_are_detected() {
    for text in [
        "Lietuvos Respublikos užsienio reikalų ministerija",
        "Latvijas Republikas Saeimā ievēlēti deputāti",
    ] {
        let bytes = encoded(text, encoding_rs::WINDOWS_1257);
        assert_eq!(
            detect(&bytes, None).charset.name(),
            "windows-1257",
            "{text}"
        );
    }
}

#[test]
fn vietnamese_windows_1258_with_combining_tone_marks_is_detected() {
    // As windows-1258 writes it: ê, ô, ư precomposed, tone marks combining.
    let text = "Tiê\u{301}ng Viê\u{323}t la\u{300} ngôn ngư\u{303} chi\u{301}nh thư\u{301}c cu\u{309}a Viê\u{323}t Nam";
    let bytes = encoded(text, encoding_rs::WINDOWS_1258);
    assert!(
        bytes.contains(&0xEC) && bytes.contains(&0xF2),
        "combining marks"
    );
    assert_eq!(detect(&bytes, None).charset.name(), "windows-1258");
}

#[test]
fn german_in_windows_1252_is_not_taken_for_greek() {
    for text in [
        "Größe",
        "Grüße aus München",
        "Übergrößen für Bären",
        "schön",
    ] {
        let bytes = encoded(text, encoding_rs::WINDOWS_1252);
        let d = detect(&bytes, None);
        assert_ne!(d.charset.name(), "windows-1253", "{text}");
        assert_eq!(read_as_detected(&bytes), text, "{d:?}");
    }
}

#[test]
fn korean_in_euc_kr_is_not_taken_for_euc_jp() {
    for text in ["서울", "검색", "한국어", "대한민국 서울특별시 종로구"] {
        let bytes = encoded(text, encoding_rs::EUC_KR);
        assert_eq!(detect(&bytes, None).charset.name(), "EUC-KR", "{text}");
    }
}

#[test]
fn short_traditional_chinese_in_big5_is_detected() {
    for text in ["臺灣", "中華民國", "繁體中文"] {
        let bytes = encoded(text, encoding_rs::BIG5);
        assert_eq!(detect(&bytes, None).charset.name(), "Big5", "{text}");
    }
}

#[test]
fn a_sure_answer_lists_the_other_readings_with_the_rest_of_the_probability() {
    let bytes = encoded("Привет, как дела? Всё хорошо.", encoding_rs::WINDOWS_1251);
    let d = detect(&bytes, None);
    assert_eq!(d.charset.name(), "windows-1251");
    assert!(d.confidence > 0.9, "{d:?}");
    let rest: f32 = d.runners_up.iter().map(|c| c.confidence).sum();
    assert!(rest <= 1.0 - d.confidence + 1e-4, "{d:?}");
}
