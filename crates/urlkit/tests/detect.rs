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

/// What decoding per line gave: the output, the charset of the last entry, and each
/// finding's code, offset, line and message.
type Decoded = (
    Vec<u8>,
    Option<Charset>,
    Vec<(urlkit::Code, u64, Option<u64>, String)>,
);

/// Decodes `input` one entry per line with `auto` and the ranking given.
fn decode_lines(input: &[u8], ranking: urlkit::detect::Ranking) -> Decoded {
    let options = urlkit::DecodeOptions {
        charset: urlkit::CharsetChoice::Auto,
        per_line: true,
        ranking,
        ..urlkit::DecodeOptions::default()
    };
    let finished = urlkit::Codec::decoder(&options).run(input).unwrap();
    let findings = finished
        .diagnostics
        .items()
        .iter()
        .map(|d| (d.code, d.offset, d.line, d.message.clone()))
        .collect();
    (finished.output, finished.charset, findings)
}

/// A note's message without the other candidates it lists.
fn without_candidates(message: &str) -> &str {
    message
        .split("; other candidates")
        .next()
        .unwrap_or(message)
}

proptest::proptest! {
    /// Lines in UTF-8, ASCII, with byte order marks or in legacy charsets, escaped or not,
    /// decode the same whether or not the runners-up are ranked: the same output, charset
    /// and findings, whose notes differ at most by the candidates listed (which the notes
    /// without runners-up leave out).
    #[test]
    fn per_line_auto_decodes_alike_with_and_without_runners_up(
        lines in proptest::collection::vec(
            (
                "\\PC{0,12}",
                proptest::sample::select(vec!["UTF-8", "Shift_JIS", "windows-1251", "EUC-KR", "GBK"]),
                proptest::bool::ANY,
                proptest::bool::ANY,
            ),
            0..8,
        ),
    ) {
        use urlkit::detect::Ranking;
        let mut input = Vec::new();
        for (text, charset, escaped, mark) in &lines {
            let encoding = encoding_rs::Encoding::for_label(charset.as_bytes()).unwrap();
            let mut bytes = encoding.encode(text).0.into_owned();
            if *mark {
                bytes.splice(0..0, [0xEF, 0xBB, 0xBF]);
            }
            if *escaped {
                for b in bytes {
                    input.extend_from_slice(format!("%{b:02X}").as_bytes());
                }
            } else {
                input.extend(bytes.into_iter().filter(|&b| b != b'\n' && b != b'\r'));
            }
            input.push(b'\n');
        }
        let (full_out, full_charset, full) = decode_lines(&input, Ranking::RunnersUp);
        let (out, charset, quick) = decode_lines(&input, Ranking::Charset);
        proptest::prop_assert_eq!(out, full_out);
        proptest::prop_assert_eq!(charset, full_charset);
        proptest::prop_assert_eq!(quick.len(), full.len());
        for (q, f) in quick.iter().zip(&full) {
            proptest::prop_assert_eq!((q.0, q.1, q.2), (f.0, f.1, f.2));
            proptest::prop_assert_eq!(&q.3[..], without_candidates(&f.3));
        }
    }
}

/// `text` in EUC-KR as Python's `euc_kr` codec writes it: a syllable outside the 2,350 of
/// KS X 1001 as eight bytes, the Hangul filler `A4 D4` and its initial consonant, vowel and
/// final consonant (the filler when it has none) as compatibility jamo of row `A4`.
fn euc_kr_with_jamo(text: &str) -> Vec<u8> {
    // Row A4 from A1: the 30 consonants, then the 21 vowels.
    const CONSONANTS: &str = "ㄱㄲㄳㄴㄵㄶㄷㄸㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅃㅄㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ";
    const INITIALS: &str = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ";
    const FINALS: &str = "ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ";
    let consonant = |c: char| 0xA1 + CONSONANTS.chars().position(|x| x == c).unwrap() as u8;
    let mut bytes = Vec::new();
    for c in text.chars() {
        let mut utf8 = [0; 4];
        let (encoded, _, unmappable) = encoding_rs::EUC_KR.encode(c.encode_utf8(&mut utf8));
        let in_ks_x_1001 =
            !unmappable && (encoded.len() == 1 || encoded[0] >= 0xB0 && encoded[1] >= 0xA1);
        if in_ks_x_1001 || !('가'..='힣').contains(&c) {
            bytes.extend_from_slice(&encoded);
            continue;
        }
        let index = c as u32 - 0xAC00;
        let (initial, vowel, last) = (index / (21 * 28), index / 28 % 21, index % 28);
        let initial = INITIALS.chars().nth(initial as usize).unwrap();
        bytes.extend_from_slice(&[
            0xA4,
            0xD4,
            0xA4,
            consonant(initial),
            0xA4,
            0xBF + vowel as u8,
            0xA4,
        ]);
        bytes.push(if last == 0 {
            0xD4
        } else {
            consonant(FINALS.chars().nth(last as usize - 1).unwrap())
        });
    }
    bytes
}

#[test]
fn korean_with_syllables_in_eight_bytes_is_euc_kr_and_no_other_charset_is_sure() {
    // What Python's `'똠방각하 펲쀍'.encode('euc_kr')` gives.
    let python = b"\xa4\xd4\xa4\xa8\xa4\xc7\xa4\xb1\xb9\xe6\xb0\xa2\xc7\xcf \
        \xa4\xd4\xa4\xbd\xa4\xc4\xa4\xbd\xa4\xd4\xa4\xb3\xa4\xce\xa4\xaa";
    assert_eq!(euc_kr_with_jamo("똠방각하 펲쀍"), python);
    for text in [
        "똠방각하 펲쀍",
        "똠방각하",
        "뷁 쌰 햏",
        "오늘 뷁 날씨가 좋네요",
        "펲쀍",
    ] {
        let bytes = euc_kr_with_jamo(text);
        let d = detect(&bytes, None);
        assert_eq!(d.charset.name(), "EUC-KR", "{text}: {d:?}");
        // Whatever the answer, EUC-JP (which reads row A4 as hiragana) is not sure.
        let euc_jp = d.runners_up.iter().find(|c| c.charset.name() == "EUC-JP");
        assert!(euc_jp.is_none_or(|c| c.confidence < 0.5), "{text}: {d:?}");
    }
}

#[test]
fn a_utf8_line_cut_inside_a_character_stays_utf8_with_the_damage_reported() {
    use urlkit::detect::{Ranking, DAMAGED_UTF8};
    let text = "東京都の天気は晴れ、気温は二十度です。";
    let escaped: String = text.bytes().map(|b| format!("%{b:02X}")).collect();
    // The second line lost the last byte of its last character (a URL cut short).
    let cut = &escaped[..escaped.len() - 3];
    let input = format!("https://example.jp/?q={escaped}\nhttps://example.jp/?q={cut}\n");
    let (output, _, findings) = decode_lines(input.as_bytes(), Ranking::Charset);
    let expected = format!(
        "https://example.jp/?q={text}\nhttps://example.jp/?q={}\u{FFFD}\n",
        text.strip_suffix("す。").unwrap().to_owned() + "す"
    );
    assert_eq!(String::from_utf8(output).unwrap(), expected);
    let second_line: Vec<_> = findings.iter().filter(|f| f.2 == Some(2)).collect();
    assert_eq!(second_line.len(), 2, "{findings:?}");
    assert_eq!(second_line[0].0, urlkit::Code::CharsetDetected);
    assert!(
        second_line[0]
            .3
            .starts_with(&format!("charset detected: UTF-8 ({DAMAGED_UTF8}")),
        "{}",
        second_line[0].3
    );
    assert_eq!(second_line[1].0, urlkit::Code::InvalidSequence);
}
