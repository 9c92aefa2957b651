//! Conformance data from the web-platform-tests, read from `../shared/conformance/`.

mod common;

use urlkit::{Charset, EncodeOptions, EncodeSet};

/// `wpt/percent-encoding.json`: the query of a special URL, percent-encoded in a legacy
/// charset; unencodable characters become `%26%23N%3B`.
#[test]
fn wpt_percent_encoding_in_every_listed_charset() {
    let data = common::shared_json("conformance/wpt/percent-encoding.json");
    let mut checked = 0;
    for case in data.as_array().unwrap().iter().filter(|c| c.is_object()) {
        let input = case["input"].as_str().unwrap();
        for (label, expected) in case["output"].as_object().unwrap() {
            let options = EncodeOptions {
                charset: Charset::for_label(label).unwrap(),
                set: EncodeSet::SPECIAL_QUERY,
                ..EncodeOptions::default()
            };
            let outcome = urlkit::encode(input.as_bytes(), &options);
            assert_eq!(
                outcome.text(),
                expected.as_str().unwrap(),
                "input {input:?} in {label}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 14, "only {checked} cases found");
}

/// `wpt/urlencoded-parser-data.json`: `application/x-www-form-urlencoded` parsing.
#[test]
fn wpt_urlencoded_parser() {
    let data = common::shared_json("conformance/wpt/urlencoded-parser-data.json");
    let cases = data.as_array().unwrap();
    assert!(cases.len() >= 30);
    for case in cases {
        let input = case["input"].as_str().unwrap();
        let expected: Vec<(String, String)> = case["output"]
            .as_array()
            .unwrap()
            .iter()
            .map(|pair| {
                (
                    pair[0].as_str().unwrap().to_string(),
                    pair[1].as_str().unwrap().to_string(),
                )
            })
            .collect();
        assert_eq!(
            urlkit::codec::parse_form(input.as_bytes()),
            expected,
            "input {input:?}"
        );
    }
}
