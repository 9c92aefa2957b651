//! Round-trip properties of the inspector.

use proptest::prelude::*;
use urlkit::inspect::iri::{iri_to_uri, uri_to_iri_display};
use urlkit::inspect::rfc3986::{normalize, relativize, resolve, NormalizeOptions};
use urlkit::inspect::{base58, rfc3986};

/// Paths, queries and fragments built from characters that matter to the algorithms.
fn reference() -> impl Strategy<Value = String> {
    "(//[a-c]{1,2}(:[0-9]{1,2})?)?(/?(\\.|\\.\\.|[a-c:;=]{1,3})(/(\\.|\\.\\.|[a-c;]{0,3})){0,4})?(\\?[a-c=&/]{0,4})?(#[a-c?/]{0,3})?"
}

proptest! {
    #[test]
    fn base58_decodes_what_it_encodes(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        prop_assert_eq!(base58::decode(&base58::encode(&bytes)).unwrap(), bytes);
    }

    #[test]
    fn split_then_recompose_is_identity(s in "\\PC{0,40}") {
        prop_assert_eq!(rfc3986::split(&s).recompose(), s);
    }

    #[test]
    fn iri_survives_uri_and_back(s in "[a-z/?#=&.\u{a0}-\u{2ff}\u{4e00}-\u{4e80}\u{1f600}-\u{1f640}]{0,30}") {
        let uri = iri_to_uri(&s);
        prop_assert!(uri.is_ascii());
        prop_assert_eq!(uri_to_iri_display(&uri), s);
    }

    #[test]
    fn relativize_resolves_back(target in reference()) {
        let base = "http://a/b/c/d;p?q";
        let absolute = resolve(base, &target).unwrap();
        let rel = relativize(base, &absolute).unwrap();
        prop_assert_eq!(&resolve(base, &rel).unwrap(), &absolute);
        // No longer than the absolute-path reference, whenever that one resolves back too.
        if let Some(path_and_after) = absolute.strip_prefix("http://a") {
            if resolve(base, path_and_after).unwrap() == absolute {
                prop_assert!(rel.len() <= path_and_after.len(), "{} against {}", rel, path_and_after);
            }
        }
    }

    #[test]
    fn normalize_is_idempotent(target in reference(), upper in any::<bool>()) {
        let o = NormalizeOptions::default();
        let mut uri = resolve("http://a/b/c/d;p?q", &target).unwrap();
        if upper {
            uri = uri.to_uppercase();
        }
        let once = normalize(&uri, &o);
        prop_assert_eq!(normalize(&once, &o), once.clone());
    }

    #[test]
    fn compare_is_symmetric(
        left in reference(),
        right in reference(),
        upper in any::<bool>(),
        sort_query in any::<bool>(),
    ) {
        use urlkit::inspect::rfc3986::compare;
        let o = NormalizeOptions { sort_query };
        let left = resolve("http://a/b/c/d;p?q", &left).unwrap();
        let mut right = resolve("http://a/b/c/d;p?q", &right).unwrap();
        if upper {
            right = right.to_uppercase();
        }
        for (l, r) in [(left.as_str(), right.as_str()), (left.as_str(), left.as_str())] {
            let there = compare(l, r, &o);
            let back = compare(r, l, &o);
            prop_assert_eq!(there.equivalent, back.equivalent);
            prop_assert_eq!(&there.left, &back.right);
            prop_assert_eq!(there.differences.len(), back.differences.len());
            for (d, e) in there.differences.iter().zip(&back.differences) {
                prop_assert_eq!(d.component, e.component);
                prop_assert_eq!(&d.left, &e.right);
                prop_assert_eq!(&d.right, &e.left);
            }
        }
        prop_assert!(compare(&left, &left, &o).equivalent);
    }
}

/// Strings made of URL delimiters, escapes, whitespace and non-ASCII, where slicing mistakes
/// would show.
fn hostile() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("http://".to_owned()),
            Just("file:".to_owned()),
            Just("//".to_owned()),
            "[:/?#\\[\\]@!$&'()*+,;=%\\\\. \t\n.0-9a-fA-F]{1,3}",
            Just("xn--".to_owned()),
            "\\PC",
            Just("%E2%82".to_owned()),
        ],
        0..12,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #[test]
    fn nothing_panics_on_hostile_input(s in hostile(), t in hostile()) {
        use urlkit::inspect::{idn, iri, template::Template, whatwg, Url};
        let _ = rfc3986::parse(&s);
        let _ = rfc3986::Components::of(&s);
        let _ = rfc3986::diagram(&s);
        let _ = normalize(&s, &NormalizeOptions { sort_query: true });
        let _ = urlkit::inspect::rfc3986::compare(&s, &t, &NormalizeOptions::default());
        let _ = resolve(&s, &t);
        let _ = relativize(&s, &t);
        let _ = idn::to_ascii(&s);
        let _ = idn::to_unicode(&s);
        let _ = idn::host_warnings(&s, 0);
        let _ = iri::uri_to_iri_display(&s);
        let _ = base58::decode(&s);
        let _ = Template::parse(&s);
        if let Ok(report) = whatwg::report(&s, None) {
            let url = Url::parse(&s).unwrap();
            let _ = whatwg::diagram(&url);
            let tpl = Template::parse("{url}{scheme}{user}{password}{host}{port}{:port}{path}{query}{fragment}{query:a}{query-all:%}").unwrap();
            let mut out = Vec::new();
            tpl.render(&url, &mut out);
            prop_assert_eq!(report.href, url.as_str());
        }
        if let Ok(base) = Url::parse(&t) {
            let _ = whatwg::report(&s, Some(&base));
        }
    }
}
