//! Every error of the library carries a kind a caller can match on, beside its position
//! and its words, and the words name no front end.

use urlkit::inspect::base58::{self, Base58Problem};
use urlkit::inspect::edit::{expand_alternatives, Component, EditProblem, Edits, ExpandProblem};
use urlkit::inspect::idn::{self, IdnProblem};
use urlkit::inspect::rfc3986::{self, ResolveProblem, SyntaxProblem};
use urlkit::inspect::template::{Reference, RenderProblem, Style, Template, TemplateProblem};
use urlkit::inspect::whatwg::{self, ParseProblem};
use urlkit::settings::{Setting, SettingProblem};
use urlkit::{Charset, DecodeSettings, EncodeSettings};

#[test]
fn url_standard_failures_name_their_kind_component_and_byte() {
    let cases = [
        ("/relative", ParseProblem::RelativeWithoutBase, "scheme", 0),
        (
            "https://exa mple.com/",
            ParseProblem::ForbiddenCodePoint,
            "host",
            11,
        ),
        (
            "http://example.com:99999/",
            ParseProblem::InvalidPort,
            "port",
            19,
        ),
        (
            "http://example.com:8a/",
            ParseProblem::InvalidPort,
            "port",
            20,
        ),
        ("http://[::1/", ParseProblem::InvalidIpv6, "host", 7),
        ("http://1.2.3.999/", ParseProblem::InvalidIpv4, "host", 7),
        ("http://user@:80/", ParseProblem::EmptyHost, "host", 12),
        ("http://a.\u{0378}/", ParseProblem::Idna, "host", 9),
    ];
    for (input, kind, component, position) in cases {
        let failure = whatwg::parse(input, None).unwrap_err();
        assert_eq!(
            (failure.kind, failure.component, failure.position),
            (kind, component, position),
            "{input}: {}",
            failure.message
        );
    }
}

#[test]
fn rfc3986_syntax_errors_name_their_kind_and_byte() {
    let cases = [
        ("1http://a/", SyntaxProblem::Scheme, 0),
        ("ht~tp://a/", SyntaxProblem::Scheme, 2),
        ("http://a/b%zz", SyntaxProblem::MalformedEscape, 10),
        ("http://a/b c", SyntaxProblem::DisallowedCharacter, 10),
        ("http://[::1/", SyntaxProblem::IpLiteral, 7),
        ("http://a:8x/", SyntaxProblem::Port, 10),
    ];
    for (input, kind, position) in cases {
        let error = rfc3986::parse(input).unwrap_err();
        assert_eq!(
            (error.kind, error.position),
            (kind, position),
            "{input}: {error}"
        );
    }
    let error = rfc3986::resolve("a/b", "../c").unwrap_err();
    assert_eq!(error.kind, ResolveProblem::BaseNotAbsolute, "{error}");
}

#[test]
fn idn_errors_name_their_kind_and_label() {
    let cases = [
        ("exa mple.com", IdnProblem::ForbiddenCodePoint, 3),
        ("", IdnProblem::Empty, 0),
        ("ok.\u{0378}.com", IdnProblem::Label, 3),
    ];
    for (input, kind, position) in cases {
        let error = idn::to_ascii(input).unwrap_err();
        assert_eq!(
            (error.kind, error.position),
            (kind, position),
            "{input:?}: {error}"
        );
    }
}

#[test]
fn setting_errors_name_their_setting_and_kind_in_the_library_s_own_words() {
    let unknown = EncodeSettings {
        charset: Some("klingon".into()),
        ..EncodeSettings::default()
    }
    .check()
    .unwrap_err();
    assert_eq!(
        (unknown.setting, unknown.kind),
        (Setting::Charset, SettingProblem::UnknownName)
    );
    let conflict = DecodeSettings {
        per_line: true,
        until_stable: true,
        ..DecodeSettings::default()
    }
    .check()
    .unwrap_err();
    assert_eq!(
        (conflict.setting, conflict.kind),
        (Setting::UntilStable, SettingProblem::Conflict)
    );
    // The library's words name no command of a front end.
    let words = Charset::for_label("klingon").unwrap_err().to_string();
    assert!(
        words.contains("\"klingon\"") && !words.contains("urlkit "),
        "{words}"
    );
}

#[test]
fn findings_name_no_option_of_a_front_end() {
    let outcome = urlkit::decode(b"a%2541b", &urlkit::DecodeOptions::default());
    let layers = outcome
        .diagnostics
        .iter()
        .find(|d| d.code == urlkit::Code::MultipleLayers)
        .expect("a finding of several layers");
    assert!(
        layers.message.contains("more than once") && !layers.message.contains("--"),
        "{}",
        layers.message
    );
}

fn url(s: &str) -> whatwg::Url {
    whatwg::parse(s, None).unwrap_or_else(|e| panic!("{s}: {}", e.message))
}

#[test]
fn url_standard_edits_name_their_kind_component_and_byte() {
    let set = |component: Component, value: &str| Edits {
        set: vec![(component, value.to_owned())],
        ..Edits::default()
    };
    let clear = |component: Component| Edits {
        clear: vec![component],
        ..Edits::default()
    };
    let cases = [
        (
            "http://a/",
            set(Component::Href, "/relative"),
            EditProblem::InvalidUrl,
            "url",
            Some(0),
        ),
        (
            "http://a/",
            Edits {
                redirect: Some("http://exa mple/".into()),
                ..Edits::default()
            },
            EditProblem::Redirect,
            "url",
            Some(10),
        ),
        (
            "http://a/",
            set(Component::Scheme, "1http"),
            EditProblem::InvalidScheme,
            "scheme",
            Some(0),
        ),
        (
            "http://a/",
            set(Component::Scheme, "foo"),
            EditProblem::SchemeChange,
            "scheme",
            None,
        ),
        (
            "http://a/",
            set(Component::Host, "b:80"),
            EditProblem::InvalidHost,
            "host",
            Some(1),
        ),
        (
            "http://a/",
            set(Component::Port, "99999"),
            EditProblem::InvalidPort,
            "port",
            Some(0),
        ),
        (
            "mailto:x@example.com",
            set(Component::User, "u"),
            EditProblem::NoAuthority,
            "user",
            None,
        ),
        (
            "http://a/",
            clear(Component::Host),
            EditProblem::HostRequired,
            "host",
            None,
        ),
        (
            "mailto:x@example.com",
            set(Component::Host, "b"),
            EditProblem::OpaquePath,
            "host",
            None,
        ),
        (
            "mailto:x@example.com",
            Edits {
                append_path: vec!["b".into()],
                ..Edits::default()
            },
            EditProblem::OpaquePath,
            "path",
            None,
        ),
        (
            "http://a/",
            clear(Component::Scheme),
            EditProblem::CannotClear,
            "scheme",
            None,
        ),
    ];
    for (input, edits, kind, component, position) in cases {
        let error = edits.apply(&url(input)).unwrap_err();
        assert_eq!(
            (error.kind, error.component, error.position),
            (kind, component, position),
            "{input} {edits:?}: {error}"
        );
    }
    let unknown = Component::named("hots").unwrap_err();
    assert_eq!(unknown.kind, EditProblem::UnknownComponent, "{unknown}");
}

#[test]
fn rfc3986_edits_name_their_kind_component_and_byte() {
    let set = |component: Component, value: &str| Edits {
        set: vec![(component, value.to_owned())],
        ..Edits::default()
    };
    let cases = [
        (
            "http://a/b c",
            Edits::default(),
            EditProblem::InvalidUrl,
            "url",
            Some(10),
        ),
        (
            "a/b",
            Edits {
                redirect: Some("../c".into()),
                ..Edits::default()
            },
            EditProblem::Redirect,
            "url",
            None,
        ),
        (
            "ldap://a/",
            set(Component::Scheme, "ld~ap"),
            EditProblem::InvalidScheme,
            "scheme",
            Some(2),
        ),
        (
            "ldap://a/",
            set(Component::Host, "[not-ipv6]"),
            EditProblem::InvalidHost,
            "host",
            Some(0),
        ),
        (
            "ldap://a/",
            set(Component::Port, "38x"),
            EditProblem::InvalidPort,
            "port",
            Some(2),
        ),
        (
            "urn:isbn:0451450523",
            set(Component::Password, "p"),
            EditProblem::NoAuthority,
            "password",
            None,
        ),
        (
            "ldap://u@a/",
            Edits {
                clear: vec![Component::Host],
                ..Edits::default()
            },
            EditProblem::HostRequired,
            "host",
            None,
        ),
        (
            "ldap://a/",
            Edits {
                clear: vec![Component::Href],
                ..Edits::default()
            },
            EditProblem::CannotClear,
            "url",
            None,
        ),
        (
            "urn:isbn:0451450523",
            set(Component::Path, "//x"),
            EditProblem::Ambiguous,
            "path",
            None,
        ),
    ];
    for (input, edits, kind, component, position) in cases {
        let error = edits.apply_rfc3986(input).unwrap_err();
        assert_eq!(
            (error.kind, error.component, error.position),
            (kind, component, position),
            "{input} {edits:?}: {error}"
        );
    }
}

#[test]
fn alternatives_errors_name_their_kind_and_brace() {
    let many = "{a,b}".repeat(14);
    let cases = [
        ("https://{www,api.example/", ExpandProblem::Unclosed, 8),
        ("https://www}.example/", ExpandProblem::Unopened, 11),
        ("https://{a,{b}}.example/", ExpandProblem::Nested, 11),
        (many.as_str(), ExpandProblem::TooMany, 65),
    ];
    for (input, kind, position) in cases {
        let error = expand_alternatives(input).unwrap_err();
        assert_eq!(
            (error.kind, error.position),
            (kind, position),
            "{input}: {error}"
        );
    }
}

#[test]
fn template_errors_name_their_kind_and_byte() {
    let cases = [
        ("{host} {hots}", TemplateProblem::UnknownPlaceholder, 7),
        ("{must:loud:host}", TemplateProblem::UnknownQualifier, 0),
        (
            "x{puny:idn:host}",
            TemplateProblem::ConflictingQualifiers,
            1,
        ),
        ("{query-all}", TemplateProblem::MissingKey, 0),
    ];
    for (template, kind, position) in cases {
        let error = Template::parse(template).unwrap_err();
        assert_eq!(
            (error.kind, error.position),
            (kind, position),
            "{template}: {error}"
        );
    }
}

#[test]
fn render_errors_name_their_kind_component_and_placeholder() {
    let cases = [
        (
            "{host} {must:port}",
            "http://a/",
            RenderProblem::Missing,
            "port",
            7,
        ),
        (
            "{must:query:k}",
            "http://a/?j=1",
            RenderProblem::MissingParameter,
            "query",
            0,
        ),
        (
            "{strict:path}",
            "http://a/b%01",
            RenderProblem::ControlCharacter,
            "path",
            0,
        ),
    ];
    for (template, input, kind, component, position) in cases {
        let template = Template::parse(template).unwrap();
        let error = template
            .render_with(&Reference::new(input), &Style::default(), &mut Vec::new())
            .unwrap_err();
        assert_eq!(
            (error.kind, error.component, error.position),
            (kind, component, position),
            "{input}: {error}"
        );
    }
}

#[test]
fn base58_errors_tell_a_look_alike_from_another_character() {
    let cases = [
        ("abc0def", Base58Problem::LookAlike, 3, '0'),
        ("2Il", Base58Problem::LookAlike, 1, 'I'),
        ("ab c", Base58Problem::OutsideAlphabet, 2, ' '),
        ("abé", Base58Problem::OutsideAlphabet, 2, 'é'),
    ];
    for (input, kind, position, character) in cases {
        let error = base58::decode(input).unwrap_err();
        assert_eq!(
            (error.kind, error.position, error.character),
            (kind, position, character),
            "{input}: {error}"
        );
    }
    // The words keep their hint for a look-alike.
    let words = base58::decode("abc0def").unwrap_err().to_string();
    assert!(words.contains("leaves out 0, O, I and l"), "{words}");
}
