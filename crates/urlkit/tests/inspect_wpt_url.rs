//! WHATWG URL parsing against web-platform-tests' `urltestdata.json`, through the JSON
//! report of `urlkit::inspect::whatwg::report`.

use serde_json::Value;
use urlkit::inspect::whatwg::{self, diagram};
use urlkit::inspect::Url;
use urlkit_testdata::conformance;

/// Cases (input, base, reason) where the `url` crate (2.5.8) follows an older version of the
/// URL Standard than this copy of the tests. Everything else must pass, and these must
/// still fail (so the list shrinks when `url` catches up).
#[rustfmt::skip]
const KNOWN_FAILURES: &[(&str, &str, &str)] = &[
    ("file:///w|/m", "", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("non-special:opaque  ?hi", "", "opaque path: a space before ? or # is now percent-encoded"),
    ("non-special:opaque  #hi", "", "opaque path: a space before ? or # is now percent-encoded"),
    ("non-special:opaque \t\t  \t#hi", "", "opaque path: a space before ? or # is now percent-encoded"),
    ("non-special:opaque \t\t  #hi", "", "opaque path: a space before ? or # is now percent-encoded"),
    ("non-special:opaque\t\t  \r #hi", "", "opaque path: a space before ? or # is now percent-encoded"),
    ("http://a.b.c.xn--pokxncvks", "", "IDNA: an ASCII host is only lower-cased since whatwg/url#914; the url crate still rejects bad xn-- labels (servo/rust-url#1135)"),
    ("http://10.0.0.xn--pokxncvks", "", "IDNA: an ASCII host is only lower-cased since whatwg/url#914; the url crate still rejects bad xn-- labels (servo/rust-url#1135)"),
    ("http://a.b.c.XN--pokxncvks", "", "IDNA: an ASCII host is only lower-cased since whatwg/url#914; the url crate still rejects bad xn-- labels (servo/rust-url#1135)"),
    ("http://a.b.c.Xn--pokxncvks", "", "IDNA: an ASCII host is only lower-cased since whatwg/url#914; the url crate still rejects bad xn-- labels (servo/rust-url#1135)"),
    ("http://10.0.0.XN--pokxncvks", "", "IDNA: an ASCII host is only lower-cased since whatwg/url#914; the url crate still rejects bad xn-- labels (servo/rust-url#1135)"),
    ("http://10.0.0.xN--pokxncvks", "", "IDNA: an ASCII host is only lower-cased since whatwg/url#914; the url crate still rejects bad xn-- labels (servo/rust-url#1135)"),
    ("/", "file://h/C:/a/b", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("file:\\\\//", "", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("file:\\\\\\\\", "", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("file:\\\\\\\\?fox", "", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("file:\\\\\\\\#guppy", "", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("file://spider///", "", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("file:\\\\localhost//", "", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("file://\\/localhost//cat", "", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("file://localhost//a//../..//", "", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("/////mouse", "file:///elephant", "special-authority-slashes: the url crate rejects ///host against an http base"),
    ("\\/localhost//pig", "file://lion/", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("//localhost//pig", "file://lion/", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("/..//localhost//pig", "file://lion/", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("C|", "file://host/dir/file", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("C|", "file://host/D:/dir1/dir2/file", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("C|#", "file://host/dir/file", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("C|?", "file://host/dir/file", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("C|/", "file://host/dir/file", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("C|\n/", "file://host/dir/file", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("C|\\", "file://host/dir/file", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("/c:/foo/bar", "file://host/path", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("..", "file://x/C:/", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("file://example.net/C:/", "", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("file://1.2.3.4/C:/", "", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("file://[1::8]/C:/", "", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("C|/", "file://host/", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("/C:/", "file://host/", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("file:C:/", "file://host/", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("file:/C:/", "file://host/", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("file://localhost//a//../..//foo", "", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("file://localhost////foo", "", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("file:////foo", "", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("file:////one/two", "file:///", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("////one/two", "file:///", "special-authority-slashes: the url crate rejects ///host against an http base"),
    ("file:///.//", "file:////", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("file:.//p", "", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("file:/.//p", "", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("blob:blob:https://example.org/", "", "blob: origin: the standard now gives an opaque origin unless the inner URL is http(s)"),
    ("blob:ftp://host/path", "", "blob: origin: the standard now gives an opaque origin unless the inner URL is http(s)"),
    ("blob:ws://example.org/", "", "blob: origin: the standard now gives an opaque origin unless the inner URL is http(s)"),
    ("blob:wss://example.org/", "", "blob: origin: the standard now gives an opaque origin unless the inner URL is http(s)"),
    ("file://xn--/p", "", "IDNA: an ASCII host is only lower-cased since whatwg/url#914; the url crate still rejects bad xn-- labels (servo/rust-url#1135)"),
    ("foo://host/ !\"$%&'()*+,-./:;<=>@[\\]^_`{|}~", "", "path percent-encode set: the standard now encodes ^"),
    ("wss://host/ !\"$%&'()*+,-./:;<=>@[\\]^_`{|}~", "", "path percent-encode set: the standard now encodes ^"),
    ("https://xn--/", "", "IDNA: an ASCII host is only lower-cased since whatwg/url#914; the url crate still rejects bad xn-- labels (servo/rust-url#1135)"),
    ("///test", "http://example.org/", "special-authority-slashes: the url crate rejects ///host against an http base"),
    ("///\\//\\//test", "http://example.org/", "special-authority-slashes: the url crate rejects ///host against an http base"),
    ("///example.org/path", "http://example.org/", "special-authority-slashes: the url crate rejects ///host against an http base"),
    ("///example.org/../path", "http://example.org/", "special-authority-slashes: the url crate rejects ///host against an http base"),
    ("///example.org/../../", "http://example.org/", "special-authority-slashes: the url crate rejects ///host against an http base"),
    ("///example.org/../path/../../", "http://example.org/", "special-authority-slashes: the url crate rejects ///host against an http base"),
    ("///example.org/../path/../../path", "http://example.org/", "special-authority-slashes: the url crate rejects ///host against an http base"),
    ("/\\//\\/a/../", "file:///", "file: URLs: host and empty path segments handled by an older version of the standard"),
    ("\\a", "foo://foo/a", "non-special scheme: a backslash is kept in a relative path"),
    ("\\/a", "foo://foo/a", "non-special scheme: a backslash is kept in a relative path"),
    ("\\\\a", "foo://foo/a", "non-special scheme: a backslash is kept in a relative path"),
];

const ATTRIBUTES: &[&str] = &[
    "href", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search",
    "hash", "origin",
];

fn check(case: &Value) -> Result<(), String> {
    let input = case["input"].as_str().ok_or("no input")?;
    let base = match case["base"].as_str() {
        Some(b) => match Url::parse(b) {
            Ok(u) => Some(u),
            Err(_) if case["failure"] == true => return Ok(()),
            Err(e) => return Err(format!("base {b:?} does not parse: {e}")),
        },
        None => None,
    };
    let result = whatwg::report(input, base.as_ref());
    if case["failure"] == true {
        return match result {
            Ok(r) => Err(format!("expected failure, got {}", r.href)),
            Err(_) => Ok(()),
        };
    }
    let report = result.map_err(|e| format!("failed: {e}"))?;
    // The drawing must not fail on any URL the parser accepts, and starts with the href.
    let url = Url::options()
        .base_url(base.as_ref())
        .parse(input)
        .map_err(|e| e.to_string())?;
    let drawing = diagram(&url);
    if drawing.lines().next() != Some(url.as_str()) {
        return Err(format!("diagram does not start with the href: {drawing}"));
    }
    let json = serde_json::to_value(&report).map_err(|e| e.to_string())?;
    for attr in ATTRIBUTES {
        if let Some(expected) = case.get(*attr) {
            if json[*attr] != *expected {
                return Err(format!("{attr}: expected {expected}, got {}", json[*attr]));
            }
        }
    }
    Ok(())
}

#[test]
fn urltestdata_cases_pass_through_the_json_report() {
    let data = conformance("wpt/urltestdata.json");
    let cases = data.as_array().expect("array");
    let mut failures = Vec::new();
    let mut total = 0;
    for case in cases.iter().filter(|c| c.is_object()) {
        total += 1;
        if let Err(why) = check(case) {
            let input = case["input"].as_str().unwrap_or("").to_owned();
            failures.push((input, case["base"].clone(), why));
        }
    }
    let unexpected: Vec<_> = failures
        .iter()
        .filter(|(input, base, _)| {
            !KNOWN_FAILURES
                .iter()
                .any(|(k, b, _)| k == input && base.as_str().unwrap_or("") == *b)
        })
        .collect();
    for f in &unexpected {
        eprintln!("FAIL {:?} base {} : {}", f.0, f.1, f.2);
    }
    eprintln!(
        "urltestdata: {total} cases, {} failed ({} known)",
        failures.len(),
        failures.len() - unexpected.len()
    );
    assert!(
        unexpected.is_empty(),
        "{} unexpected failures",
        unexpected.len()
    );
    let stale: Vec<_> = KNOWN_FAILURES
        .iter()
        .filter(|(k, b, _)| {
            !failures
                .iter()
                .any(|(input, base, _)| input == k && base.as_str().unwrap_or("") == *b)
        })
        .collect();
    assert!(
        stale.is_empty(),
        "listed as failing but now pass: {stale:?}"
    );
    assert!(total > 800);
}
