//! RFC 3986 §5 reference resolution against `rfc3986-resolve.json` and the §5.4 examples,
//! and relativization as its inverse.

use serde_json::Value;
use urlkit::inspect::rfc3986::{relativize, remove_dot_segments, resolve};
use urlkit_testdata::conformance;

fn acceptable(expected: &Value) -> Vec<String> {
    match expected {
        Value::String(s) => vec![s.clone()],
        Value::Array(a) => a
            .iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect(),
        other => panic!("unexpected expected value {other}"),
    }
}

#[test]
fn every_rfc3986_resolve_case_passes() {
    let data = conformance("rfc3986-resolve.json");
    let cases = data["cases"].as_array().expect("cases");
    let mut failures = Vec::new();
    for case in cases {
        let base = case["base"].as_str().expect("base");
        let reference = case["ref"].as_str().expect("ref");
        let want = acceptable(&case["expected"]);
        match resolve(base, reference) {
            Ok(got) if want.contains(&got) => {}
            other => failures.push(format!(
                "{base} + {reference}: want {want:?}, got {other:?}"
            )),
        }
    }
    eprintln!(
        "rfc3986-resolve.json: {} cases, {} failed",
        cases.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(cases.len() > 190);
}

/// RFC 3986 §5.4.1 and §5.4.2, as printed there.
const SECTION_5_4: &[(&str, &str)] = &[
    ("g:h", "g:h"),
    ("g", "http://a/b/c/g"),
    ("./g", "http://a/b/c/g"),
    ("g/", "http://a/b/c/g/"),
    ("/g", "http://a/g"),
    ("//g", "http://g"),
    ("?y", "http://a/b/c/d;p?y"),
    ("g?y", "http://a/b/c/g?y"),
    ("#s", "http://a/b/c/d;p?q#s"),
    ("g#s", "http://a/b/c/g#s"),
    ("g?y#s", "http://a/b/c/g?y#s"),
    (";x", "http://a/b/c/;x"),
    ("g;x", "http://a/b/c/g;x"),
    ("g;x?y#s", "http://a/b/c/g;x?y#s"),
    ("", "http://a/b/c/d;p?q"),
    (".", "http://a/b/c/"),
    ("./", "http://a/b/c/"),
    ("..", "http://a/b/"),
    ("../", "http://a/b/"),
    ("../g", "http://a/b/g"),
    ("../..", "http://a/"),
    ("../../", "http://a/"),
    ("../../g", "http://a/g"),
    ("../../../g", "http://a/g"),
    ("../../../../g", "http://a/g"),
    ("/./g", "http://a/g"),
    ("/../g", "http://a/g"),
    ("g.", "http://a/b/c/g."),
    (".g", "http://a/b/c/.g"),
    ("g..", "http://a/b/c/g.."),
    ("..g", "http://a/b/c/..g"),
    ("./../g", "http://a/b/g"),
    ("./g/.", "http://a/b/c/g/"),
    ("g/./h", "http://a/b/c/g/h"),
    ("g/../h", "http://a/b/c/h"),
    ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
    ("g;x=1/../y", "http://a/b/c/y"),
    ("g?y/./x", "http://a/b/c/g?y/./x"),
    ("g?y/../x", "http://a/b/c/g?y/../x"),
    ("g#s/./x", "http://a/b/c/g#s/./x"),
    ("g#s/../x", "http://a/b/c/g#s/../x"),
    ("http:g", "http:g"),
];

#[test]
fn section_5_4_examples_hold() {
    for (reference, want) in SECTION_5_4 {
        assert_eq!(
            resolve("http://a/b/c/d;p?q", reference).unwrap(),
            *want,
            "{reference}"
        );
    }
}

#[test]
fn section_5_2_4_examples_hold() {
    assert_eq!(remove_dot_segments("/a/b/c/./../../g"), "/a/g");
    assert_eq!(remove_dot_segments("mid/content=5/../6"), "mid/6");
}

#[test]
fn base_without_scheme_is_rejected() {
    let e = resolve("/just/a/path", "g").unwrap_err();
    assert!(e.message.contains("no scheme"), "{e}");
}

#[test]
fn relativize_inverts_resolve_on_every_example() {
    let base = "http://a/b/c/d;p?q";
    for (_, target) in SECTION_5_4 {
        let rel = relativize(base, target).unwrap();
        assert_eq!(resolve(base, &rel).unwrap(), *target, "{target} via {rel}");
        assert!(rel.len() <= target.len(), "{rel} longer than {target}");
    }
    let data = conformance("rfc3986-resolve.json");
    for case in data["cases"].as_array().expect("cases") {
        let base = case["base"].as_str().expect("base");
        for target in acceptable(&case["expected"]) {
            // Resolution removes dot segments, so a target such as "http://a/../g" comes back
            // as it resolves: "http://a/g".
            let rel = relativize(base, &target).unwrap();
            let want = resolve(base, &target).unwrap();
            assert_eq!(
                resolve(base, &rel).unwrap(),
                want,
                "{base} → {target} via {rel}"
            );
        }
    }
}

#[test]
fn relativize_gives_short_references() {
    let base = "http://a/b/c/d;p?q";
    assert_eq!(relativize(base, "http://a/b/c/g").unwrap(), "g");
    assert_eq!(relativize(base, "http://a/b/g").unwrap(), "../g");
    assert_eq!(relativize(base, "http://a/b/c/d;p?q#s").unwrap(), "#s");
    assert_eq!(relativize(base, "http://a/b/c/d;p?y").unwrap(), "?y");
    assert_eq!(relativize(base, "http://a/b/c/").unwrap(), "./");
    assert_eq!(relativize(base, "http://g/x").unwrap(), "//g/x");
    assert_eq!(relativize(base, "ftp://a/b").unwrap(), "ftp://a/b");
    assert_eq!(relativize(base, "http://a/b/c/g:h").unwrap(), "./g:h");
    // The shortest wins: an absolute path over a climb of dot segments, and on a tie the
    // relative path.
    let deep = "http://a/b/c/d/e/f";
    assert_eq!(relativize(deep, "http://a/x").unwrap(), "/x");
    assert_eq!(relativize(deep, "http://a/b/c/d/e/x").unwrap(), "x");
    assert_eq!(relativize(deep, "http://a/b/c/d/x").unwrap(), "../x");
    assert_eq!(relativize(deep, "http://a/b/c/x").unwrap(), "/b/c/x");
    assert_eq!(relativize(deep, "http://a/b/x").unwrap(), "/b/x");
}
