//! URL parsing, editing, resolution and normalization on arbitrary text: never panics; the
//! `--get` fast path gives the full parse's output; an edited URL is a URL that parses to
//! itself; normalize is idempotent on URI references; compare is symmetric.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlkit::inspect::edit::{expand_alternatives, Component, Edits};
use urlkit::inspect::rfc3986::{compare, normalize, relativize, resolve, NormalizeOptions};
use urlkit::inspect::template::Template;
use urlkit::inspect::{rfc3986, whatwg};

const COMPONENTS: [Component; 10] = [
    Component::Scheme,
    Component::User,
    Component::Password,
    Component::Host,
    Component::HostPort,
    Component::Port,
    Component::Path,
    Component::Query,
    Component::Fragment,
    Component::Href,
];

fuzz_target!(|data: &[u8]| {
    // The fast path reads bytes, valid UTF-8 or not.
    let template = Template::parse("{scheme}|{host}|{port}|{:port}|{hostport}").unwrap();
    let mut fast = Vec::new();
    let fast_result = template.render_input(data, None, &mut fast);
    let lossy = String::from_utf8_lossy(data);
    let mut full = Vec::new();
    let full_result = whatwg::parse(&lossy, None).map(|url| template.render(&url, &mut full));
    assert_eq!(fast_result.is_ok(), full_result.is_ok(), "fast path on {lossy:?}");
    assert_eq!(fast, full, "fast path on {lossy:?}");

    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The first line is the reference, the second the base, the third a value to set.
    let mut lines = text.splitn(3, '\n');
    let reference = lines.next().unwrap_or("");
    let base = lines.next().unwrap_or("http://a/b/c/d;p?q");
    let value = lines.next().unwrap_or("x");
    let base_url = whatwg::parse(base, None).ok();
    let _ = whatwg::report(reference, base_url.as_ref());
    if let Ok(url) = whatwg::parse(reference, None) {
        let _ = whatwg::report_parsed(reference, &url, Vec::new());
        assert_eq!(
            whatwg::parse(url.as_str(), None).map(String::from).as_deref(),
            Ok(url.as_str()),
            "a serialization parses to itself"
        );
        // Each setter, then the query edits; whatever they do, the result is a URL.
        let pick = value.len() % COMPONENTS.len();
        for component in [COMPONENTS[pick], COMPONENTS[(pick + 3) % COMPONENTS.len()]] {
            let mut edited = url.clone();
            let set = edited.set(component, value);
            if set.is_err() {
                assert_eq!(edited.as_str(), url.as_str(), "a refused {component} changed the URL");
            }
            let _ = edited.clone().clear(component);
        }
        let edits = Edits {
            redirect: Some(value.to_owned()),
            append_query: vec![value.to_owned()],
            append_path: vec![value.to_owned()],
            trim_query: vec![format!("{value}*")],
            sort_query: true,
            ..Edits::default()
        };
        if let Ok(edited) = edits.apply(&url) {
            assert_eq!(
                whatwg::parse(edited.as_str(), None).map(String::from).as_deref(),
                Ok(edited.as_str())
            );
        }
        let _ = edits.apply_rfc3986(reference);
    }
    let _ = expand_alternatives(reference);
    let _ = rfc3986::Components::of(reference);
    let _ = rfc3986::diagram(reference);
    assert_eq!(rfc3986::split(reference).recompose(), reference);
    if let Ok(resolved) = resolve(base, reference) {
        let _ = relativize(base, &resolved);
    }
    for sort_query in [false, true] {
        let options = NormalizeOptions { sort_query };
        if rfc3986::parse(reference).is_ok() {
            let once = normalize(reference, &options);
            assert_eq!(
                normalize(&once, &options),
                once,
                "normalize is not idempotent"
            );
        }
        let there = compare(reference, base, &options);
        let back = compare(base, reference, &options);
        assert_eq!(
            there.equivalent, back.equivalent,
            "compare is not symmetric"
        );
        assert_eq!(there.left, back.right);
        assert_eq!(there.differences.len(), back.differences.len());
        for (d, e) in there.differences.iter().zip(&back.differences) {
            assert_eq!(d.component, e.component);
            assert_eq!(d.left, e.right);
            assert_eq!(d.right, e.left);
        }
    }
});
