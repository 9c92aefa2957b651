//! The URL Standard's basic URL parser, through the `url` crate, with one correction.
//!
//! `url` 2.5.8 keeps a path segment shaped like a Windows drive letter (`c:`, `c|`) when a
//! `..` or a relative reference should remove it, in every scheme, although the Standard
//! gives such a segment a meaning only as the first segment of a `file:` path ("shorten a
//! URL's path"; servo/rust-url#1114). So `http://h/a/c:/..` came out as `http://h/a/c:/`
//! instead of `http://h/a/`, `..` against `file:///w:/a:` as `file:///w:/a:` instead of
//! `file:///w:/`, and builds with debug assertions panicked on some of them.
//!
//! [`parse`] gives the Standard's result: when the input or the base has such a segment
//! anywhere else, its `:` or `|` is hidden behind an escape that neither contains, the
//! crate parses the disguised text (where the segment is an ordinary one, as the Standard
//! treats it), and the escape is turned back afterwards. Everything else goes straight to
//! the crate.

use url::{ParseError, Position, SyntaxViolation, Url};

/// Parses `input`, against `base` when given, as the URL Standard's basic URL parser does.
///
/// Bad input: the crate's [`ParseError`] (no scheme and no base, invalid host or port, …).
pub fn parse(input: &str, base: Option<&Url>) -> Result<Url, ParseError> {
    parse_reporting(input, base, None)
}

/// [`parse`], calling `on_violation` for each validation error the Standard names
/// (backslash, stripped whitespace, …), as `url::ParseOptions` does.
pub fn parse_reporting(
    input: &str,
    base: Option<&Url>,
    on_violation: Option<&dyn Fn(SyntaxViolation)>,
) -> Result<Url, ParseError> {
    let base_at_risk = base.is_some_and(|b| !b.cannot_be_a_base() && has_drive_segment(b.path()));
    if !base_at_risk && !input_at_risk(input) {
        return options(base, on_violation).parse(input);
    }
    corrected(input, base, on_violation)
}

fn options<'a>(
    base: Option<&'a Url>,
    on_violation: Option<&'a dyn Fn(SyntaxViolation)>,
) -> url::ParseOptions<'a> {
    Url::options()
        .base_url(base)
        .syntax_violation_callback(on_violation)
}

/// The input as the parser reads it: leading and trailing C0 controls and spaces removed,
/// tabs and newlines removed everywhere.
fn as_read(input: &str) -> std::borrow::Cow<'_, str> {
    let trimmed = input.trim_matches(|c: char| c <= ' ');
    if trimmed.contains(['\t', '\n', '\r']) {
        trimmed
            .chars()
            .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
            .collect::<String>()
            .into()
    } else {
        trimmed.into()
    }
}

fn input_at_risk(input: &str) -> bool {
    has_drive_segment(&as_read(input))
}

/// Whether `text` has a segment that looks like a drive letter after a slash: `/c:`,
/// `\c|/`, … (the place of every drive letter the parser could mistreat).
fn has_drive_segment(text: &str) -> bool {
    drive_segments(text).next().is_some()
}

/// Byte offsets of the `:` or `|` of each drive-letter-shaped segment that follows a slash.
fn drive_segments(text: &str) -> impl Iterator<Item = usize> + '_ {
    let bytes = text.as_bytes();
    memchr::memchr2_iter(b':', b'|', bytes).filter(move |&at| {
        at >= 2
            && bytes[at - 1].is_ascii_alphabetic()
            && matches!(bytes[at - 2], b'/' | b'\\')
            && bytes
                .get(at + 1)
                .is_none_or(|b| matches!(b, b'/' | b'\\' | b'?' | b'#'))
    })
}

/// An escape for `symbol` (`%3A` for `:`, `%7C` for `|`, lengthened as needed) that occurs
/// in none of `texts`.
fn disguise_for(symbol: char, texts: &[&str]) -> String {
    let (upper, lower) = if symbol == ':' {
        ("%3A", "%3a")
    } else {
        ("%7C", "%7c")
    };
    let mut escape = upper.to_owned();
    while texts.iter().any(|t| t.contains(&escape)) {
        escape.push_str(lower);
    }
    escape
}

/// `text` with the `:` or `|` of the drive-letter segments that `hide` picks replaced by
/// `colon` or `pipe`. `hide` sees the offset of the symbol and the rewritten text up to it
/// (the segment's letter included), and is asked in increasing order.
fn hide_drive_letters(
    text: &str,
    colon: &str,
    pipe: &str,
    mut hide: impl FnMut(usize, &str) -> bool,
) -> String {
    let mut rewritten = String::with_capacity(text.len() + 8);
    let mut last = 0;
    for at in drive_segments(text) {
        rewritten.push_str(&text[last..at]);
        rewritten.push_str(match text.as_bytes()[at] {
            _ if !hide(at, &rewritten) => &text[at..at + 1],
            b':' => colon,
            _ => pipe,
        });
        last = at + 1;
    }
    rewritten.push_str(&text[last..]);
    rewritten
}

/// How many prefixes are parsed to tell where a drive-letter segment stands; beyond that,
/// every one is disguised.
const PREFIX_PARSES: usize = 64;

fn corrected(
    input: &str,
    base: Option<&Url>,
    on_violation: Option<&dyn Fn(SyntaxViolation)>,
) -> Result<Url, ParseError> {
    let text = as_read(input);
    let base_text = base.map(Url::as_str).unwrap_or("");
    let colon = disguise_for(':', &[&text, base_text]);
    let pipe = disguise_for('|', &[&text, base_text]);

    // The base: every drive-letter segment but a file: path's first.
    let disguised_base = match base {
        Some(b) if !b.cannot_be_a_base() && has_drive_segment(b.path()) => {
            let path = &b[Position::BeforePath..Position::AfterPath];
            let kept_until = if b.scheme() == "file" {
                path[1.min(path.len())..]
                    .find('/')
                    .map_or(path.len(), |k| k + 1)
            } else {
                0
            };
            let rebuilt = format!(
                "{}{}{}",
                &b[..Position::BeforePath],
                hide_drive_letters(path, &colon, &pipe, |at, _| at > kept_until),
                &b[Position::AfterPath..]
            );
            Some(Url::parse(&rebuilt)?)
        }
        _ => None,
    };
    let base_is_file = base.is_some_and(|b| b.scheme() == "file");
    let base = disguised_base.as_ref().or(base);

    // The input: a drive-letter segment is disguised when the input before it leaves a
    // path that is not a file: URL's empty one (`file:///`, `file://host/`, `x/..`).
    let mut last = 0;
    let mut parses = 0;
    let mut hiding = false;
    let disguised = hide_drive_letters(&text, &colon, &pipe, |at, so_far| {
        let between = &text[last..at];
        last = at + 1;
        let dotted = between.contains('.') || between.contains("%2e") || between.contains("%2E");
        if hiding && !dotted {
            return true;
        }
        let head = &text[..at - 1];
        let file_scheme = head
            .get(..5)
            .is_some_and(|s| s.eq_ignore_ascii_case("file:"));
        let slashes_only = head[if file_scheme { 5 } else { 0 }..]
            .bytes()
            .all(|b| matches!(b, b'/' | b'\\'));
        hiding = if slashes_only && (file_scheme || base_is_file) {
            // The file slash and file host states look ahead for a drive letter here.
            false
        } else if parses < PREFIX_PARSES {
            parses += 1;
            // The rewritten input before the segment's letter.
            match options(base, None).parse(&so_far[..so_far.len() - 1]) {
                Ok(u) => {
                    !(u.cannot_be_a_base()
                        || u.query().is_some()
                        || u.fragment().is_some()
                        || u.scheme() == "file" && u.path() == "/")
                }
                // A host or a scheme, not a path.
                Err(_) => false,
            }
        } else {
            true
        };
        hiding
    });

    let violations = std::cell::RefCell::new(Vec::new());
    let record = |v: SyntaxViolation| violations.borrow_mut().push(v);
    let parsed = options(base, Some(&record)).parse(&disguised)?;
    if let Some(report) = on_violation {
        let trimmed = input.trim_matches(|c: char| c <= ' ');
        if trimmed.len() != input.len() {
            report(SyntaxViolation::C0SpaceIgnored);
        }
        if trimmed.contains(['\t', '\n', '\r']) {
            report(SyntaxViolation::TabOrNewlineIgnored);
        }
        for v in violations.into_inner() {
            report(v);
        }
    }
    let restored = parsed.as_str().replace(&colon, ":").replace(&pipe, "|");
    Ok(Url::parse(&restored).unwrap_or(parsed))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Results of Chromium's and Node's `new URL(input, base)` (URL Standard behaviour).
    const CASES: &[(&str, Option<&str>, &str)] = &[
        ("file:///a/c:/..", None, "file:///a/"),
        ("file:///a/c:/../x", None, "file:///a/x"),
        ("file://h/a/c:/..", None, "file://h/a/"),
        ("file:///a/c|/..", None, "file:///a/"),
        ("file:///a/c:/../../d:", None, "file:///d:"),
        ("file:///a/\tc:/..", None, "file:///a/"),
        ("file:///c:/..", None, "file:///c:/"),
        ("file://c:/x", None, "file:///c:/x"),
        ("file:///a?/c:", None, "file:///a?/c:"),
        ("file:///a/c%3A/b:/..", None, "file:///a/c%3A/"),
        ("x", Some("file:///a/c:"), "file:///a/x"),
        ("..", Some("file:///w:/a:"), "file:///w:/"),
        ("file:..", Some("file:///w:/a:"), "file:///w:/"),
        ("..", Some("file:///q:/i/q:"), "file:///q:/"),
        ("?q", Some("file:///w:/a:"), "file:///w:/a:?q"),
        ("./y", Some("file:///a/b:"), "file:///a/y"),
        ("", Some("file:///a/b:"), "file:///a/b:"),
        ("/z", Some("file:///a/b:"), "file:///z"),
        ("../..", Some("file:///a/b:/c:"), "file:///"),
        ("/d:", Some("file:///c:/a"), "file:///d:"),
        ("..", Some("file:///c:"), "file:///c:/"),
        ("http://u:p@h/c:/..", None, "http://u:p@h/"),
        ("http://h/a/c:/../x", None, "http://h/a/x"),
        ("x://h/a/c:/..", None, "x://h/a/"),
        ("x:/a/c:/..", None, "x:/a/"),
        ("..", Some("abc://x/y/z/C:/"), "abc://x/y/z/"),
        ("..", Some("http://h/c:"), "http://h/"),
        ("http://f:/c", None, "http://f/c"),
        (
            "file:\\c:\\foo\\bar",
            Some("file:///c:/baz/qux"),
            "file:///c:/foo/bar",
        ),
        ("//c:/x", Some("http://h/"), "http://c/x"),
        ("mailto:/c:/..", None, "mailto:/"),
        ("https://example.com/a:/b", None, "https://example.com/a:/b"),
    ];

    #[test]
    fn drive_letter_segments_after_the_first_are_ordinary_segments() {
        for &(input, base, expected) in CASES {
            let base = base.map(|b| parse(b, None).expect(b));
            let got = parse(input, base.as_ref()).map_or_else(|_| "ERR".to_owned(), String::from);
            assert_eq!(got, expected, "{input:?} against {base:?}");
        }
    }

    #[test]
    fn validation_errors_are_still_reported() {
        let seen = std::cell::RefCell::new(Vec::new());
        let record = |v: SyntaxViolation| seen.borrow_mut().push(v);
        parse_reporting("file:\\\\\\a\\c:\\..", None, Some(&record)).unwrap();
        assert!(seen.borrow().contains(&SyntaxViolation::Backslash));
    }

    #[test]
    fn invalid_input_is_still_an_error() {
        assert!(parse("file://a b/c:/..", None).is_err());
        assert!(parse("/c:/..", None).is_err());
    }
}
