//! Editing URLs: components by name, the setters' refusals, query edits, redirects,
//! alternatives, and the RFC 3986 view's edits.

use proptest::prelude::*;
use urlkit::inspect::edit::{
    combinations, expand_alternatives, matches_pattern, Alternatives, Component, Edits,
    MAX_EXPANSIONS,
};
use urlkit::inspect::{query_pairs, Url};

fn url(s: &str) -> Url {
    Url::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn edited(edits: &Edits, s: &str) -> String {
    edits
        .apply(&url(s))
        .unwrap_or_else(|e| panic!("{s}: {e}"))
        .to_string()
}

#[test]
fn components_answer_to_trurl_names_and_url_api_names() {
    for (name, component) in [
        ("scheme", Component::Scheme),
        ("protocol", Component::Scheme),
        ("user", Component::User),
        ("username", Component::User),
        ("host", Component::Host),
        ("hostname", Component::Host),
        ("HostPort", Component::HostPort),
        ("pathname", Component::Path),
        ("search", Component::Query),
        ("hash", Component::Fragment),
        ("url", Component::Href),
        ("href", Component::Href),
    ] {
        assert_eq!(Component::named(name), Ok(component), "{name}");
    }
    assert_eq!(Component::Fragment.name(), "fragment");
    let e = Component::named("colour").unwrap_err();
    assert!(e.message.contains("hostport"), "{e}");
}

#[test]
fn patterns_match_names_with_stars_anywhere() {
    assert!(matches_pattern("utm_*", "utm_source"));
    assert!(matches_pattern("utm_*", "utm_"));
    assert!(!matches_pattern("utm_*", "xutm_source"));
    assert!(matches_pattern("*_id", "session_id"));
    assert!(matches_pattern("a*b*c", "a-x-b-y-c"));
    assert!(!matches_pattern("a*b*c", "a-x-c-y-b"));
    assert!(matches_pattern("*", ""));
    assert!(matches_pattern("a\\*", "a*"));
    assert!(!matches_pattern("a\\*", "ab"));
    assert!(matches_pattern("name", "name"));
    assert!(!matches_pattern("name", "names"));
}

/// A reference matcher that tries every split: exponential, but plain to read.
fn matches_by_trying_every_split(pattern: &[char], text: &[char]) -> bool {
    match pattern.split_first() {
        None => text.is_empty(),
        Some(('*', rest)) => {
            (0..=text.len()).any(|skip| matches_by_trying_every_split(rest, &text[skip..]))
        }
        Some(('\\', rest)) if !rest.is_empty() => {
            text.first() == Some(&rest[0]) && matches_by_trying_every_split(&rest[1..], &text[1..])
        }
        Some((c, rest)) => {
            text.first() == Some(c) && matches_by_trying_every_split(rest, &text[1..])
        }
    }
}

proptest! {
    #[test]
    fn patterns_match_as_trying_every_split_does(
        pattern in "[ab*\\\\]{0,8}",
        text in "[ab*\\\\]{0,10}",
    ) {
        let p: Vec<char> = pattern.chars().collect();
        let t: Vec<char> = text.chars().collect();
        prop_assert_eq!(
            matches_pattern(&pattern, &text),
            matches_by_trying_every_split(&p, &t),
            "{:?} against {:?}", pattern, text
        );
    }
}

/// A pattern of thousands of stars against thousands of names: read once, refused at once
/// where the name is shorter than its pieces, and otherwise matched in one pass.
#[test]
fn long_patterns_against_many_names_are_linear() {
    let pattern = "*b".repeat(16_380);
    let query: String = (0..16_380)
        .map(|i| format!("n{i}=v"))
        .collect::<Vec<_>>()
        .join("&");
    let edits = Edits {
        trim_query: vec![pattern.clone(), "n1*".into()],
        sort_query: true,
        ..Edits::default()
    };
    let kept = edits.edited_query(Some(&query)).unwrap();
    let names: Vec<&str> = kept.split('&').map(|p| p.trim_end_matches("=v")).collect();
    let mut expected: Vec<String> = (0..16_380)
        .map(|i| format!("n{i}"))
        .filter(|name| !name.starts_with("n1"))
        .collect();
    expected.sort();
    assert_eq!(names, expected);
    assert!(matches_pattern(&pattern, &"ab".repeat(16_380)));
    assert!(!matches_pattern(&pattern, &"ab".repeat(16_379)));
}

#[test]
fn alternatives_expand_in_order_and_bad_braces_name_their_byte() {
    assert_eq!(
        expand_alternatives("h://{a,b}.x/{1,2}").unwrap(),
        ["h://a.x/1", "h://a.x/2", "h://b.x/1", "h://b.x/2"]
    );
    assert_eq!(expand_alternatives("{,www.}e").unwrap(), ["e", "www.e"]);
    assert_eq!(expand_alternatives("a\\{b\\}\\,").unwrap(), ["a{b},"]);
    assert_eq!(expand_alternatives("{\\,,x}").unwrap(), [",", "x"]);
    assert_eq!(expand_alternatives("plain").unwrap(), ["plain"]);
    assert_eq!(expand_alternatives("ab{c").unwrap_err().position, 2);
    assert_eq!(expand_alternatives("ab}").unwrap_err().position, 2);
    assert_eq!(expand_alternatives("{a{b}}").unwrap_err().position, 2);
    let many = "{0,1,2,3,4,5,6,7,8,9}".repeat(5);
    let e = expand_alternatives(&many).unwrap_err();
    assert!(e.message.contains(&MAX_EXPANSIONS.to_string()), "{e}");
}

#[test]
fn alternatives_are_counted_without_being_made_and_made_one_at_a_time() {
    // 2^13 and 2^64: counted from the groups (the second past a usize), nothing made.
    let a = Alternatives::parse(&"{a,b}".repeat(13)).unwrap();
    assert_eq!(a.count(), Some(8192));
    let huge = Alternatives::parse(&"{a,b}".repeat(64)).unwrap();
    assert_eq!(huge.count(), None);
    assert_eq!(huge.position_past(MAX_EXPANSIONS), Some(5 * 13));
    let e = expand_alternatives(&"{a,b}".repeat(64)).unwrap_err();
    assert_eq!(e.position, 65);
    assert!(
        e.message
            .contains("more than 18446744073709551615 combinations"),
        "{e}"
    );
    let e = expand_alternatives(&"{a,b}".repeat(14)).unwrap_err();
    assert!(
        e.message.starts_with("16384 combinations; at most 10000"),
        "{e}"
    );

    // The iterator and nth give expand_alternatives's texts, in its order.
    let text = "h://{a,b,}.x/{1,2,3}\\{z\\}";
    let listed = expand_alternatives(text).unwrap();
    let a = Alternatives::parse(text).unwrap();
    assert_eq!(a.count(), Some(9));
    assert_eq!(a.iter().collect::<Vec<_>>(), listed);
    assert_eq!(listed[0], "h://a.x/1{z}");
    assert_eq!(listed[8], "h://.x/3{z}");
    for (i, t) in listed.iter().enumerate() {
        assert_eq!(a.nth(i).as_ref(), Some(t));
    }
    assert_eq!(a.nth(9), None);
    let plain = Alternatives::parse("plain").unwrap();
    assert!(plain.is_plain());
    assert_eq!(plain.iter().collect::<Vec<_>>(), ["plain"]);
    // Nothing past the last text, however long the iterator is asked.
    let mut it = plain.iter();
    assert_eq!(it.nth(1), None);
    assert_eq!(it.next(), None);

    assert_eq!(combinations([10, 10, 100]), Some(10_000));
    assert_eq!(combinations([]), Some(1));
    assert_eq!(combinations([usize::MAX, 2]), None);
    assert_eq!(combinations([usize::MAX, 0]), Some(0));
}

#[test]
fn query_edits_append_encoded_trim_by_decoded_name_and_sort_stably() {
    let edits = Edits {
        append_query: vec!["a b=c&d=e".into(), "flag".into()],
        ..Edits::default()
    };
    let q = edits.edited_query(Some("x=1")).unwrap();
    assert_eq!(q, "x=1&a+b=c%26d%3De&flag");
    assert_eq!(
        query_pairs(&q),
        [
            ("x".to_owned(), "1".to_owned()),
            ("a b".into(), "c&d=e".into()),
            ("flag".into(), "".into())
        ]
    );

    let trim = Edits {
        trim_query: vec!["utm_*".into(), "a b".into()],
        ..Edits::default()
    };
    assert_eq!(
        trim.edited_query(Some("utm%5Fsource=1&id=2&a+b=3&utm_x"))
            .as_deref(),
        Some("id=2")
    );
    assert_eq!(trim.edited_query(Some("utm_a=1")), None);

    let sort = Edits {
        sort_query: true,
        ..Edits::default()
    };
    assert_eq!(
        sort.edited_query(Some("b=1&a=2&b=0&%C3%A9=3&z=4"))
            .as_deref(),
        Some("a=2&b=1&b=0&z=4&%C3%A9=3")
    );
    // UTF-16 order, as URLSearchParams.sort(): U+1F600 (D83D DE00) before U+FF5E, though
    // its code point is greater.
    assert_eq!(
        sort.edited_query(Some("%EF%BD%9E=2&%F0%9F%98%80=1"))
            .as_deref(),
        Some("%F0%9F%98%80=1&%EF%BD%9E=2")
    );
    let semicolons = Edits {
        sort_query: true,
        query_separator: ';',
        ..Edits::default()
    };
    assert_eq!(
        semicolons.edited_query(Some("b=1;a=2")).as_deref(),
        Some("a=2;b=1")
    );
}

#[test]
fn edits_run_in_trurls_order() {
    // The redirect first, then the sets, then the query edits.
    let edits = Edits {
        redirect: Some("../b?z=1&y=2".into()),
        set: vec![
            (Component::Port, "8080".into()),
            (Component::Fragment, "f".into()),
        ],
        append_query: vec!["x=3".into()],
        trim_query: vec!["z".into()],
        sort_query: true,
        ..Edits::default()
    };
    assert_eq!(
        edited(&edits, "https://h.example/a/c"),
        "https://h.example:8080/b?x=3&y=2#f"
    );
    let paths = Edits {
        append_path: vec!["x y".into(), "z/w".into()],
        ..Edits::default()
    };
    assert_eq!(edited(&paths, "http://h/a/"), "http://h/a/x%20y/z%2Fw");
    let e = paths.apply(&url("mailto:x@y")).unwrap_err();
    assert_eq!(e.component, "path");
}

#[test]
fn clearing_removes_what_the_url_can_lose_and_refuses_the_rest() {
    let mut u = url("https://u:p@a.example:8443/p?q#f");
    for c in [
        Component::Password,
        Component::Port,
        Component::Query,
        Component::Fragment,
    ] {
        u.clear(c).unwrap();
    }
    assert_eq!(u.as_str(), "https://u@a.example/p");
    u.clear(Component::Path).unwrap();
    assert_eq!(u.as_str(), "https://u@a.example/");
    assert!(u.clear(Component::Scheme).is_err());
    let e = u.clear(Component::Host).unwrap_err();
    assert!(e.message.contains("must have a host"), "{e}");

    let mut file = url("file://server/share/x");
    file.clear(Component::Host).unwrap();
    assert_eq!(file.as_str(), "file:///share/x");

    let mut opaque = url("sc://h:1/p");
    opaque.clear(Component::HostPort).unwrap();
    assert_eq!(opaque.as_str(), "sc:///p");
}

#[test]
fn refused_values_say_why_and_where() {
    let cases: &[(&str, Component, &str, &str, Option<usize>)] = &[
        ("http://a/", Component::Scheme, "foo", "special", None),
        ("foo://a/", Component::Scheme, "https", "special", None),
        ("http://u@a/", Component::Scheme, "file", "file:", None),
        (
            "http://a/",
            Component::Scheme,
            "1x",
            "starts with a letter",
            Some(0),
        ),
        (
            "http://a/",
            Component::Scheme,
            "h*",
            "cannot be part of a scheme",
            Some(1),
        ),
        ("mailto:x", Component::User, "u", "without a host", None),
        ("file:///x", Component::Port, "80", "file: URL", None),
        ("http://a/", Component::Port, "x", "number", Some(0)),
        (
            "http://a/",
            Component::Port,
            "65536",
            "above 65535",
            Some(0),
        ),
        ("http://a/", Component::Host, "a b", "' '", Some(1)),
        ("http://a/", Component::Host, "b:81", "hostport", Some(1)),
        ("http://a/", Component::Host, "", "must have a host", None),
        ("http://a/", Component::Host, "1.2.3.999", "IPv4", Some(0)),
        ("http://a/", Component::Host, "[::g]", "IPv6", Some(0)),
        ("mailto:x", Component::Host, "h", "opaque path", None),
        ("mailto:x", Component::Path, "/p", "opaque path", None),
        (
            "http://a/",
            Component::Href,
            "nope",
            "relative URL",
            Some(0),
        ),
    ];
    for &(href, component, value, says, at) in cases {
        let mut u = url(href);
        let e = u.set(component, value).expect_err(value);
        assert!(
            e.message.contains(says),
            "{href} {component} {value:?}: {e}"
        );
        assert_eq!(e.position, at, "{href} {component} {value:?}: {e}");
        assert_eq!(e.component, component.name());
        assert_eq!(u.as_str(), url(href).as_str(), "refused, so unchanged");
    }
}

#[test]
fn rfc3986_edits_encode_what_a_component_cannot_hold_and_keep_escapes() {
    let set = |pairs: &[(Component, &str)]| Edits {
        set: pairs.iter().map(|&(c, v)| (c, v.to_owned())).collect(),
        ..Edits::default()
    };
    let ldap = "ldap://[2001:db8::7]/c=GB?objectClass?one";
    assert_eq!(
        set(&[
            (Component::Host, "h.example"),
            (Component::User, "a b"),
            (Component::Password, "p:w")
        ])
        .apply_rfc3986(ldap)
        .unwrap(),
        "ldap://a%20b:p:w@h.example/c=GB?objectClass?one"
    );
    assert_eq!(
        set(&[(Component::Query, "x y%41"), (Component::Fragment, "#")])
            .apply_rfc3986("urn:a")
            .unwrap(),
        "urn:a?x%20y%41#%23"
    );
    assert_eq!(
        set(&[(Component::Host, "h")])
            .apply_rfc3986("x:/p")
            .unwrap(),
        "x://h/p"
    );
    assert_eq!(
        set(&[(Component::Path, "p")])
            .apply_rfc3986("x://h")
            .unwrap(),
        "x://h/p"
    );
    // (the values set, the URI, what the refusal says)
    type Refused<'a> = (&'a [(Component, &'a str)], &'a str, &'a str);
    let refused: &[Refused] = &[
        (&[(Component::Port, "1")], "mailto:x", "no authority"),
        (&[(Component::Port, "1a")], "x://h", "digits"),
        (&[(Component::Scheme, "1x")], "x:y", "letter"),
        (&[(Component::Host, "[zz]")], "x://h", "IPv6"),
        (&[(Component::Path, "//p")], "x:y", "authority"),
        (&[(Component::Scheme, "")], "a:b:c", "first path segment"),
    ];
    for (pairs, uri, says) in refused {
        let e = set(pairs).apply_rfc3986(uri).unwrap_err();
        assert!(e.to_string().contains(says), "{uri} {pairs:?}: {e}");
    }
    let clear_host = Edits {
        clear: vec![Component::Host],
        ..Edits::default()
    };
    assert!(clear_host.apply_rfc3986("x://u@h/p").is_err());
    assert_eq!(clear_host.apply_rfc3986("x://h/p").unwrap(), "x:/p");
    let redirect = Edits {
        redirect: Some("../g".into()),
        ..Edits::default()
    };
    assert_eq!(
        redirect.apply_rfc3986("http://a/b/c/d;p?q").unwrap(),
        "http://a/b/g"
    );
}

proptest! {
    /// Whatever the name and value, an appended parameter reads back as given (`=` in the
    /// name aside, where the first one splits).
    #[test]
    fn an_appended_parameter_reads_back_as_given(name in "[^=]{0,12}", value in ".{0,12}") {
        let edits = Edits {
            append_query: vec![format!("{name}={value}")],
            ..Edits::default()
        };
        let u = edits.apply(&url("https://h.example/?a=1")).unwrap();
        let pairs = query_pairs(u.query().unwrap());
        prop_assert_eq!(pairs.last().cloned(), Some((name.clone(), value.clone())));
        let again = edits.apply_rfc3986("https://h.example/?a=1").unwrap();
        prop_assert_eq!(again, u.to_string());
    }
}

proptest! {
    /// The sort of raw names (compared where they lie, by their UTF-8 bytes) orders them as
    /// their UTF-16 code units do, and keeps equal names in their order.
    #[test]
    fn sorting_raw_names_follows_utf16_order(
        names in proptest::collection::vec("[ab\u{e9}\u{d7ff}\u{e000}\u{fffd}\u{1f600}]{0,3}", 0..12)
    ) {
        let query: Vec<String> = names.iter().enumerate().map(|(i, n)| format!("{n}={i}")).collect();
        let edits = Edits { sort_query: true, ..Edits::default() };
        let sorted = edits.edited_query(Some(&query.join("&")));
        let mut expected = query.clone();
        expected.sort_by_key(|p| p.split('=').next().unwrap().encode_utf16().collect::<Vec<u16>>());
        prop_assert_eq!(sorted, (!expected.is_empty()).then(|| expected.join("&")));
    }
}

#[test]
fn query_edits_trim_replace_append_then_sort_and_drop_empty_pieces() {
    let edits = Edits {
        trim_query: vec!["a".into()],
        replace_query: vec![("b=x y".into(), false), ("k=v".into(), true)],
        append_query: vec!["a=new".into()],
        sort_query: true,
        ..Edits::default()
    };
    // `a` is trimmed before `a=new` is appended; the second `b` goes; `k` is appended;
    // the sort is stable (`a` after the trim, `b` where it was replaced).
    assert_eq!(
        edits.edited_query(Some("b=1&&a=2&z=0&b=3&")).as_deref(),
        Some("a=new&b=x+y&k=v&z=0")
    );
    let replace = Edits {
        replace_query: vec![("a b=1".into(), false)],
        ..Edits::default()
    };
    assert_eq!(
        replace.edited_query(Some("x&a+b=0")).as_deref(),
        Some("x&a+b=1")
    );
    assert_eq!(replace.edited_query(Some("x")).as_deref(), Some("x"));
    assert_eq!(replace.edited_query(Some("&&")), None);
    assert_eq!(replace.edited_query(None), None);
}

#[test]
fn conditional_sets_fill_only_absent_components() {
    let edits = Edits {
        set_if_empty: vec![
            (Component::Port, "99".into()),
            (Component::Query, "q".into()),
            (Component::User, "u".into()),
        ],
        ..Edits::default()
    };
    assert_eq!(edited(&edits, "http://h/"), "http://u@h:99/?q");
    assert_eq!(edited(&edits, "http://a@h:88/?x"), "http://a@h:88/?x");
    // A default port is absent in the URL Standard.
    assert_eq!(edited(&edits, "http://h:80/?x"), "http://u@h:99/?x");
    assert!(url("http://h/").lacks(Component::Fragment));
    assert!(!url("http://h/#f").lacks(Component::Fragment));
    assert!(!url("http://h/").lacks(Component::Scheme));
    assert_eq!(
        edits.apply_rfc3986("ldap://h/c=GB").unwrap(),
        "ldap://u@h:99/c=GB?q"
    );
}
