//! The RFC 3986 generic-syntax view, normalization and comparison, IRI conversion, Base58,
//! `--get` templates and the parse warnings.

use urlkit::inspect::base58;
use urlkit::inspect::iri::{iri_to_uri, uri_to_iri_display};
use urlkit::inspect::rfc3986::{self, compare, normalize, Components, HostKind, NormalizeOptions};
use urlkit::inspect::template::Template;
use urlkit::inspect::whatwg::parse_with_warnings;
use urlkit::inspect::{whatwg, Url};

fn c(input: &str) -> Components {
    Components::of(input).unwrap_or_else(|e| panic!("{input}: {e}"))
}

#[test]
fn section_1_1_2_examples_split_as_the_rfc_shows() {
    let ftp = c("ftp://ftp.is.co.za/rfc/rfc1808.txt");
    assert_eq!(ftp.scheme.as_deref(), Some("ftp"));
    assert_eq!(ftp.host.as_deref(), Some("ftp.is.co.za"));
    assert_eq!(ftp.path, "/rfc/rfc1808.txt");

    let ldap = c("ldap://[2001:db8::7]/c=GB?objectClass?one");
    assert_eq!(ldap.scheme.as_deref(), Some("ldap"));
    assert_eq!(ldap.authority.as_deref(), Some("[2001:db8::7]"));
    assert_eq!(ldap.host.as_deref(), Some("[2001:db8::7]"));
    assert_eq!(ldap.host_type, Some(HostKind::Ipv6));
    assert_eq!(ldap.path, "/c=GB");
    assert_eq!(ldap.query.as_deref(), Some("objectClass?one"));
    assert_eq!(ldap.fragment, None);

    let mailto = c("mailto:John.Doe@example.com");
    assert_eq!(mailto.scheme.as_deref(), Some("mailto"));
    assert_eq!(mailto.authority, None);
    assert_eq!(mailto.path, "John.Doe@example.com");

    let news = c("news:comp.infosystems.www.servers.unix");
    assert_eq!(news.path, "comp.infosystems.www.servers.unix");

    let tel = c("tel:+1-816-555-1212");
    assert_eq!(tel.scheme.as_deref(), Some("tel"));
    assert_eq!(tel.path, "+1-816-555-1212");

    let telnet = c("telnet://192.0.2.16:80/");
    assert_eq!(telnet.host.as_deref(), Some("192.0.2.16"));
    assert_eq!(telnet.host_type, Some(HostKind::Ipv4));
    assert_eq!(telnet.port.as_deref(), Some("80"));
    assert_eq!(telnet.path, "/");

    let urn = c("urn:oasis:names:specification:docbook:dtd:xml:4.1.2");
    assert_eq!(urn.scheme.as_deref(), Some("urn"));
    assert_eq!(urn.path, "oasis:names:specification:docbook:dtd:xml:4.1.2");
}

#[test]
fn section_3_example_splits_into_five_components() {
    let foo = c("foo://example.com:8042/over/there?name=ferret#nose");
    assert_eq!(foo.scheme.as_deref(), Some("foo"));
    assert_eq!(foo.authority.as_deref(), Some("example.com:8042"));
    assert_eq!(foo.path, "/over/there");
    assert_eq!(foo.query.as_deref(), Some("name=ferret"));
    assert_eq!(foo.fragment.as_deref(), Some("nose"));
    assert_eq!(foo.path_segments, ["over", "there"]);
}

#[test]
fn rfc3986_diagram_brackets_the_section_3_example() {
    let uri = "foo://example.com:8042/over/there?name=ferret#nose";
    let drawing = rfc3986::diagram(uri).unwrap();
    let lines: Vec<Vec<char>> = drawing.lines().map(|l| l.chars().collect()).collect();
    // (first, last) column of scheme, host, port, path, query, fragment, counted by hand.
    for (first, last) in [(0, 2), (6, 16), (18, 21), (22, 32), (34, 44), (46, 49)] {
        assert_eq!(lines[1][first], '└', "column {first}");
        assert_eq!(lines[1][last], '┘', "column {last}");
    }
    assert!(rfc3986::diagram("a b").is_err());
}

#[test]
fn split_and_recompose_round_trip() {
    for s in [
        "",
        "a",
        "//",
        "?",
        "#",
        "a:b",
        "//h:1/p?q#f",
        "http://a/b?c#d?e#f",
        "x/y:z",
    ] {
        assert_eq!(rfc3986::split(s).recompose(), s);
    }
}

#[test]
fn invalid_references_name_the_position() {
    let e = rfc3986::parse("http://exa mple.com/").unwrap_err();
    assert_eq!(e.position, 10);
    let e = rfc3986::parse("http://a/%zz").unwrap_err();
    assert_eq!(e.position, 9);
    let e = rfc3986::parse("http://a:8x/").unwrap_err();
    assert_eq!(e.position, 10);
    let e = rfc3986::parse("1http://a/").unwrap_err();
    assert_eq!(e.position, 0);
    let e = rfc3986::parse("http://[::g]/").unwrap_err();
    assert_eq!(e.position, 8);
    assert!(rfc3986::parse("http://[v7.abc:def]/").is_ok());
}

#[test]
fn issue_example_is_equivalent() {
    let r = compare(
        "http://A:80/%7euser/./x",
        "http://a/~user/x",
        &NormalizeOptions::default(),
    );
    assert!(r.equivalent, "{r:?}");
    assert!(r.differences.is_empty());
}

#[test]
fn normalization_follows_section_6() {
    let o = NormalizeOptions::default();
    assert_eq!(
        normalize("HTTP://www.Example.com/", &o),
        "http://www.example.com/"
    );
    assert_eq!(
        normalize("http://a/%7Euser/%2fx%3a", &o),
        "http://a/~user/%2Fx%3A"
    );
    assert_eq!(normalize("http://a/b/./c/../d", &o), "http://a/b/d");
    assert_eq!(normalize("http://example.com", &o), "http://example.com/");
    assert_eq!(normalize("http://example.com:/", &o), "http://example.com/");
    assert_eq!(
        normalize("https://example.com:443/x", &o),
        "https://example.com/x"
    );
    assert_eq!(
        normalize("http://example.com:8080/x", &o),
        "http://example.com:8080/x"
    );
    assert_eq!(
        normalize("mailto:Joe@Example.COM", &o),
        "mailto:Joe@Example.COM"
    );
    let sort = NormalizeOptions { sort_query: true };
    assert_eq!(
        normalize("http://a/?b=2&a=1&b=1", &sort),
        "http://a/?a=1&b=2&b=1"
    );
}

/// Found by the `url` fuzz target: removing `/./` from `file:/.//p` left `file://p`,
/// whose `p` then read as a host, and normalizing again gave `file://p/`.
#[test]
fn normalization_never_turns_a_path_into_an_authority() {
    let o = NormalizeOptions::default();
    for (input, expected) in [
        ("file:/.//p", "file:/.//p"),
        ("x:/a/..//b", "x:/.//b"),
        ("x:/..//b/./c", "x:/.//b/c"),
        ("file:///.//p", "file:////p"),
    ] {
        let once = normalize(input, &o);
        assert_eq!(once, expected, "{input}");
        assert_eq!(normalize(&once, &o), once, "{input}");
        assert!(compare(input, &once, &o).equivalent, "{input}");
    }
}

/// Found by the `url` fuzz target: `..` against `file://mai/q:/i/q:` made the `url` crate
/// keep the drive-letter-shaped last segment (and, with debug assertions, panic).
#[test]
fn dot_segments_remove_a_drive_letter_segment_after_the_first() {
    let report = whatwg::report("..", Url::parse("file:///q:/i/q:").ok().as_ref()).unwrap();
    assert_eq!(report.href, "file:///q:/");
    let base = whatwg::parse("file://mai/q:/i/q:", None).unwrap();
    let resolved = whatwg::parse("..", Some(&base)).unwrap();
    assert!(resolved.as_str().ends_with("/q:/"), "{resolved}");
    assert_eq!(
        whatwg::parse("file:///a/c:/../x", None).map(String::from),
        Ok("file:///a/x".to_owned())
    );
}

#[test]
fn comparison_lists_differing_components() {
    let r = compare(
        "http://a/x?q=1",
        "https://a/x?q=2",
        &NormalizeOptions::default(),
    );
    assert!(!r.equivalent);
    let names: Vec<_> = r.differences.iter().map(|d| d.component).collect();
    assert_eq!(names, ["scheme", "query"]);
    assert_eq!(r.differences[1].left.as_deref(), Some("q=1"));
}

#[test]
fn iri_round_trip_keeps_reserved_escapes() {
    assert_eq!(
        iri_to_uri("http://example.com/引き割り.html"),
        "http://example.com/%E5%BC%95%E3%81%8D%E5%89%B2%E3%82%8A.html"
    );
    assert_eq!(
        uri_to_iri_display("http://example.com/%E5%BC%95%E3%81%8D%E5%89%B2%E3%82%8A.html"),
        "http://example.com/引き割り.html"
    );
    assert_eq!(
        uri_to_iri_display("/a%2Fb%3F%20%e5%bc%95"),
        "/a%2Fb%3F%20引"
    );
    // Invalid UTF-8 and bidi controls stay escaped.
    assert_eq!(uri_to_iri_display("/%E5%BC/%C3"), "/%E5%BC/%C3");
    assert_eq!(uri_to_iri_display("/%E2%80%AE"), "/%E2%80%AE");
    assert_eq!(iri_to_uri("a b\t%41"), "a%20b%09%41");
}

#[test]
fn base58_matches_known_vectors() {
    assert_eq!(base58::encode(b"hello world"), "StV1DL6CwTryKyV");
    assert_eq!(base58::encode(b""), "");
    assert_eq!(base58::encode(&[0, 0, 1]), "112");
    assert_eq!(base58::decode("StV1DL6CwTryKyV").unwrap(), b"hello world");
    assert_eq!(base58::decode("112").unwrap(), [0, 0, 1]);
    // The genesis block's coinbase address.
    let addr = base58::decode("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa").unwrap();
    assert_eq!(addr.len(), 25);
    assert_eq!(addr[0], 0);
    assert_eq!(addr[1..3], [0x62, 0xe9]);
    let e = base58::decode("abc0def").unwrap_err();
    assert_eq!((e.position, e.character), (3, '0'));
    assert!(base58::decode("ab c").is_err());
}

fn render(template: &str, url: &str) -> String {
    let t = Template::parse(template).unwrap();
    let mut out = Vec::new();
    t.render(&Url::parse(url).unwrap(), &mut out);
    String::from_utf8(out).unwrap()
}

#[test]
fn templates_fill_in_decoded_components() {
    let u = "https://us%20er:p%40ss@example.com/a%20b/c?x=1&y=a+b%26&x=2;z#fr%20ag";
    assert_eq!(render("{host}", u), "example.com");
    assert_eq!(
        render("{scheme}|{user}|{password}|{port}|{default:port}", u),
        "https|us er|p@ss||443"
    );
    assert_eq!(render("{port} {default:port}", "imap://h:144/"), "144 144");
    assert_eq!(render("{port} {default:port}", "imap://h/"), " 143");
    assert_eq!(
        render("{default:url} {url}", "https://h/p"),
        "https://h:443/p https://h/p"
    );
    assert_eq!(
        render(
            "{idn:url} {puny:host}",
            "http://xn--fsqu00a.xn--3lr804guic/"
        ),
        "http://例子.卷筒纸/ xn--fsqu00a.xn--3lr804guic"
    );
    // trurl's brackets and escapes: the first `{` or `[` chooses the placeholders.
    assert_eq!(render(r"[scheme] {host} \[ [[", u), "https {host} [ [");
    assert_eq!(render(r"\{{scheme}\[ \\[x", u), r"{https[ \[x");
    assert_eq!(render("{scheme} {host", u), "https {host");
    assert_eq!(render("{query:}", "http://h/?=bar&a=b"), "bar");
    assert_eq!(
        render("{path} {:path} {path:raw}", u),
        "/a b/c /a%20b/c /a%20b/c"
    );
    assert_eq!(
        render("{query:x} {query:y} {query-all:x} {query:z}", u),
        "1 a b& 1 2 "
    );
    assert_eq!(render("{:query:y}", u), "a+b%26");
    assert_eq!(render("{fragment}", u), "fr ag");
    assert_eq!(render("{{{url}}}\\t", "http://a/"), "{http://a/}\t");
    assert_eq!(render("{:port}", "http://a/"), "");
    assert_eq!(render("{path}", "http://a/x%0Ay"), "/x%0Ay");
    assert_eq!(
        render("{host:unicode}", "http://xn--fsqu00a.xn--3lr804guic/"),
        "例子.卷筒纸"
    );
    assert_eq!(render("{host:unicode}", "http://[::1]/"), "[::1]");
}

#[test]
fn bad_templates_name_the_position() {
    assert_eq!(Template::parse("ab{nope}").unwrap_err().position, 2);
    assert_eq!(Template::parse("x {nope:host}").unwrap_err().position, 2);
    assert_eq!(Template::parse("[puny:idn:host]").unwrap_err().position, 0);
    assert!(Template::parse("{query-all}").is_err());
    // Unclosed and lone brackets are text, as in trurl.
    assert!(Template::parse("{host").is_ok());
    assert!(Template::parse("x}").is_ok());
    assert!(Template::parse("{query:}").is_ok());
}

fn codes(input: &str) -> Vec<&'static str> {
    let (_, w) = parse_with_warnings(input, None).unwrap();
    w.iter().map(|d| d.code.as_str()).collect()
}

#[test]
fn parse_warns_about_what_the_parser_repaired() {
    assert_eq!(codes("http://user:secret@a.example/"), ["password-in-url"]);
    assert_eq!(codes("http://a.example:80/"), ["explicit-default-port"]);
    assert_eq!(codes("http://a.example\\x"), ["backslash-as-slash"]);
    assert_eq!(codes("  http://a.example/"), ["whitespace-stripped"]);
    assert_eq!(codes("http://a.exa\tmple/"), ["whitespace-stripped"]);
    assert_eq!(codes("http://0x7f.1/"), ["non-canonical-ipv4"]);
    assert!(codes("http://127.0.0.1/").is_empty());
    let long = format!("http://a.example/{}", "é".repeat(2100));
    let (_, w) = parse_with_warnings(&long, None).unwrap();
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].code.as_str(), "url-too-long");
    // The 2,049th character: 17 ASCII bytes, then two-byte characters.
    assert_eq!(w[0].offset, 17 + 2 * (2048 - 17));
    let exactly = format!("http://a.example/{}", "x".repeat(2048 - 17));
    assert!(codes(&exactly).is_empty());
    assert_eq!(codes("http://xn--80ak6aa92e.com/"), ["confusable-host"]);
    let (_, w) = parse_with_warnings("http://u:pw@a/", None).unwrap();
    assert_eq!(w[0].offset, 9);
}

#[test]
fn report_decodes_segments_pairs_and_fragment() {
    let r = whatwg::report("http://a/x%20y/%E2%82%AC?a=1&a=&b=c+d;e=%41&&#f%20g", None).unwrap();
    assert_eq!(
        r.path_segments.as_deref(),
        Some(&["x y".to_owned(), "€".to_owned()][..])
    );
    let pairs: Vec<(&str, &str)> = r
        .query_pairs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(pairs, [("a", "1"), ("a", ""), ("b", "c d"), ("e", "A"),]);
    assert!(whatwg::report("http://a/?", None)
        .unwrap()
        .query_pairs
        .is_empty());
    assert_eq!(
        whatwg::report("http://a/?=", None).unwrap().query_pairs,
        [(String::new(), String::new())]
    );
    assert_eq!(r.fragment.as_deref(), Some("f%20g"));
    assert_eq!(r.fragment_decoded.as_deref(), Some("f g"));
    assert_eq!(r.host_type, "domain");
    assert_eq!(r.default_port, Some(80));
    assert_eq!(
        whatwg::report("mailto:x@y", None).unwrap().path_segments,
        None
    );
    assert_eq!(whatwg::report("sc://h/", None).unwrap().host_type, "opaque");
    assert_eq!(
        whatwg::report("http://[::1]/", None).unwrap().host_type,
        "ipv6"
    );
}

#[test]
fn parse_failures_name_the_position() {
    let e = whatwg::report("http://a:99999/", None).unwrap_err();
    assert_eq!(e.position, 9);
    let e = whatwg::report("http://exa mple.com/", None).unwrap_err();
    assert_eq!(e.position, 10);
    let e = whatwg::report("no-scheme", None).unwrap_err();
    assert!(e.message.contains("base"), "{e}");
}

#[test]
fn diagram_brackets_each_component_of_the_seed_url() {
    let href =
        "https://john.doe@www.example.com:123/forum/questions/?tag=networking&order=newest#top";
    let drawing = whatwg::diagram(&Url::parse(href).unwrap());
    let lines: Vec<Vec<char>> = drawing.lines().map(|l| l.chars().collect()).collect();
    assert_eq!(lines[0].iter().collect::<String>(), href);
    // (first, last) column of scheme, userinfo, host, port, path, query, fragment, counted
    // by hand in the href above.
    for (first, last) in [
        (0, 4),
        (8, 15),
        (17, 31),
        (33, 35),
        (36, 52),
        (54, 80),
        (82, 84),
    ] {
        assert_eq!(lines[1][first], '└', "column {first}");
        assert_eq!(lines[1][last], '┘', "column {last}");
    }
    let labels: String = lines[2..].iter().flatten().collect();
    for name in [
        "scheme", "user", "host", "port", "path", "query", "fragment",
    ] {
        assert!(labels.contains(name), "{name} missing:\n{drawing}");
    }
}
