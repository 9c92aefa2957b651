//! Conformance data from the web-platform-tests, kept in the repository's `conformance/`.

use urlkit::{Charset, EncodeOptions, EncodeSet};
use urlkit_testdata::{conformance, conformance_dir};

/// `wpt/percent-encoding.json`: the query of a special URL, percent-encoded in a legacy
/// charset; unencodable characters become `%26%23N%3B`.
#[test]
fn wpt_percent_encoding_in_every_listed_charset() {
    let data = conformance("wpt/percent-encoding.json");
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
    let data = conformance("wpt/urlencoded-parser-data.json");
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

/// The repository's copy of the conformance data is the project's shared copy
/// (`../shared/conformance/` beside the repository), file for file and byte for byte. A
/// plain clone has no such folder: the test is then listed as ignored, and
/// `scripts/test.sh` runs it when the folder is there.
#[test]
#[ignore = "needs ../shared/conformance beside the repository; scripts/test.sh runs it"]
fn the_repository_copy_equals_the_shared_conformance_data() {
    let shared = conformance_dir().join("../../shared/conformance");
    let entries = std::fs::read_dir(shared.join("wpt"))
        .unwrap_or_else(|e| panic!("{} cannot be read: {e}", shared.display()));
    let mut files: Vec<String> = entries
        .map(|e| format!("wpt/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    files.push("rfc3986-resolve.json".to_string());
    assert!(files.len() > 5, "{files:?}");
    for file in files {
        let theirs = std::fs::read(shared.join(&file)).unwrap();
        let ours = std::fs::read(conformance_dir().join(&file))
            .unwrap_or_else(|e| panic!("conformance/{file} is missing from the repository: {e}"));
        assert!(
            ours == theirs,
            "conformance/{file} differs from the shared copy"
        );
    }
}
