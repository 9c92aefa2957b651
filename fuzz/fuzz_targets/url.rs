//! URL parsing, resolution and normalization on arbitrary text: never panics; normalize is
//! idempotent on URI references; compare is symmetric.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlkit::inspect::rfc3986::{compare, normalize, relativize, resolve, NormalizeOptions};
use urlkit::inspect::{rfc3986, whatwg};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The first line is the reference, the rest the base.
    let (reference, base) = text
        .split_once('\n')
        .unwrap_or((text, "http://a/b/c/d;p?q"));
    let base_url = whatwg::parse(base, None).ok();
    let _ = whatwg::report(reference, base_url.as_ref());
    let _ = whatwg::report(reference, None);
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
