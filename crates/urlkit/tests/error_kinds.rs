//! Every error of the library carries a kind a caller can match on, beside its position
//! and its words, and the words name no front end.

use urlkit::inspect::idn::{self, IdnProblem};
use urlkit::inspect::rfc3986::{self, ResolveProblem, SyntaxProblem};
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
