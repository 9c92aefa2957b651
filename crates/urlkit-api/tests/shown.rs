//! `shown` against the answers written out by hand in the vectors the WebAssembly module's
//! tests share (`crates/urlkit-wasm/js/test/vectors.json`, `shown`): the module's
//! `humanSize`, `resultName` and `shownParts` are held to the same answers in Node and in
//! Chromium, so the server and the page say the same.

use serde_json::Value;
use urlkit_api::shown::{
    clean_name, human_size, result_name, Done, ShownParts, COMPONENTS, NAME_BYTES,
};

fn vectors() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../urlkit-wasm/js/test/vectors.json"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str::<Value>(&text).unwrap()["shown"].clone()
}

/// A name of the vectors: a string, or pieces that are a string or `[text, times]`.
fn name(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Array(pieces) => pieces
            .iter()
            .map(|piece| match piece {
                Value::String(s) => s.clone(),
                Value::Array(pair) => pair[0]
                    .as_str()
                    .unwrap()
                    .repeat(pair[1].as_u64().unwrap() as usize),
                other => panic!("not a piece of a name: {other}"),
            })
            .collect(),
        other => panic!("not a name: {other}"),
    }
}

#[test]
fn sizes_are_the_vectors() {
    let sizes = vectors()["sizes"].as_array().unwrap().clone();
    assert!(sizes.len() >= 10);
    for case in sizes {
        let bytes = case[0].as_u64().unwrap();
        assert_eq!(
            human_size(bytes),
            case[1].as_str().unwrap(),
            "{bytes} bytes"
        );
    }
}

#[test]
fn result_names_are_the_vectors() {
    let names = vectors()["result_names"].as_array().unwrap().clone();
    assert!(names.len() >= 10);
    for case in names {
        let upload = name(&case["upload"]);
        let done = match case["op"].as_str().unwrap() {
            "encode" => Done::Encoded,
            "decode" => Done::Decoded,
            other => panic!("op {other}"),
        };
        assert_eq!(
            result_name(&upload, done),
            name(&case["name"]),
            "{upload:?}"
        );
    }
}

#[test]
fn sizes_past_what_javascript_counts() {
    assert_eq!(human_size(u64::MAX), "17179869184.0 GiB");
    assert_eq!(human_size(3 << 40), "3072 GiB");
}

#[test]
fn cleaned_names_are_short_visible_and_not_hidden() {
    assert_eq!(
        clean_name("a/b\\..\\\"evil\"name.tar.gz").as_deref(),
        Some("evilname.tar.gz")
    );
    assert_eq!(clean_name(" .. \u{202E}"), None);
    let long = clean_name(&"ü".repeat(500)).unwrap();
    assert_eq!(long, "ü".repeat(NAME_BYTES / 2));
}

#[test]
fn the_components_read_in_url_order() {
    assert_eq!(
        COMPONENTS.join(" "),
        "scheme user password host port path query fragment"
    );
}

#[cfg(feature = "inspect")]
#[test]
fn every_component_is_one_the_inspector_edits() {
    for name in COMPONENTS {
        assert!(
            urlkit::inspect::edit::Component::named(name).is_ok(),
            "{name} is not an editable component"
        );
    }
}

#[test]
fn parts_are_the_vectors() {
    let cases = vectors()["parts"].as_array().unwrap().clone();
    assert!(cases.len() >= 3);
    for case in cases {
        let view = case["view"].to_string();
        let parts = ShownParts::of_view(&view).unwrap_or_else(|e| panic!("{view}: {e}"));
        assert_eq!(
            serde_json::to_value(&parts).unwrap(),
            case["parts"],
            "{}",
            case["about"]
        );
        // The same from the JSON value.
        assert_eq!(ShownParts::of_value(case["view"].clone()).unwrap(), parts);
    }
}

#[test]
fn what_is_not_a_view_is_refused_with_where() {
    for (bad, words) in [
        ("[1, 2]", "a JSON object, not an array"),
        ("null", "a JSON object, not null"),
        ("{\"host\": 5}", "expected a string"),
        ("{\"port\": -1}", "did not match"),
        ("{\"scheme\": \"http\"", "EOF"),
    ] {
        let error = ShownParts::of_view(bad).unwrap_err().to_string();
        assert!(error.contains(words), "{bad}: {error}");
    }
    // A view with no field at all shows nothing.
    assert_eq!(ShownParts::of_view("{}").unwrap(), ShownParts::default());
}

/// The server's page reads its typed reports by the same rule as the vectors' JSON.
#[cfg(feature = "inspect")]
#[test]
fn reports_the_server_holds_give_the_parts_written_out() {
    use urlkit::inspect::rfc3986::Components;
    use urlkit::inspect::whatwg;
    let url = "http://ann:@[2001:db8::7]:80/a/b?q=1#f";
    let report = whatwg::report(url, None).unwrap();
    let parts = ShownParts::of_report(&report);
    assert_eq!(
        (
            parts.href.as_deref(),
            parts.user.as_deref(),
            parts.password.as_deref(),
            parts.host.as_deref(),
            parts.port.as_deref(),
            parts.default_port.as_deref(),
            parts.segments.clone(),
            parts.origin.as_deref()
        ),
        (
            Some("http://ann@[2001:db8::7]/a/b?q=1#f"),
            Some("ann"),
            None,
            Some("[2001:db8::7]"),
            None,
            Some("80"),
            vec!["a".to_owned(), "b".to_owned()],
            Some("http://[2001:db8::7]")
        )
    );
    let generic = ShownParts::of_report(&Components::of(url).unwrap());
    assert_eq!(
        (
            generic.user.as_deref(),
            generic.port.as_deref(),
            generic.host_type.as_deref(),
            generic.href
        ),
        (Some("ann:"), Some("80"), Some("ipv6"), None)
    );
}
