//! The scheme, host and port of a URL read without the parser, for the URLs plain enough
//! that the parser could only agree: a lower-case scheme, `//`, an ASCII host of letters,
//! digits, `-`, `.` and `_` that is neither an IPv4 address nor Punycode, and a port of
//! digits. Anything else (and every URL the parser would reject) is left to the parser.
//!
//! The parser's host and port do not depend on what follows the authority, and nothing
//! after it can make the parse fail, so the rest of the input is not read at all. The
//! differential tests (`crates/urlkit/tests/inspect_fast_path.rs`) hold this to the
//! parser's answers on the benchmark lists and on generated URLs.

use super::failure::ends_in_a_number;

/// What a plain URL's scheme, host and port are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Simple<'a> {
    /// The scheme, lower-case ASCII.
    pub scheme: &'a str,
    /// The host as written (ASCII, to be lower-cased): `None` when the URL has none,
    /// empty for the empty host.
    pub host: Option<&'a str>,
    /// The port written, unless it is the scheme's default.
    pub port: Option<u16>,
    /// The scheme's default port.
    pub default_port: Option<u16>,
}

/// The scheme, host and port of `input` if it is plain enough to read them without the
/// parser; `None` otherwise (the parser must answer).
pub(crate) fn simple(input: &[u8]) -> Option<Simple<'_>> {
    let colon = scheme_end(input)?;
    // SAFETY-free: the scheme is ASCII, checked by `scheme_end`.
    let scheme = std::str::from_utf8(&input[..colon]).ok()?;
    let rest = &input[colon + 1..];
    let default_port = match scheme {
        "http" | "ws" => Some(80),
        "https" | "wss" => Some(443),
        "ftp" => Some(21),
        "file" => None,
        _ => {
            // Non-special: without "//" there is no host, and nothing after the scheme can
            // fail; with "//" the host is opaque, which the parser reads.
            return match rest {
                [b'/', b'/', ..] => None,
                [b'/', next, ..] | [next, ..] if matches!(next, b'\t' | b'\n' | b'\r') => None,
                _ => Some(Simple {
                    scheme,
                    host: None,
                    port: None,
                    default_port: None,
                }),
            };
        }
    };
    let authority = rest.strip_prefix(b"//")?;
    let end = authority
        .iter()
        .position(|c| matches!(c, b'/' | b'?' | b'#' | b'\\'))
        .unwrap_or(authority.len());
    let authority = &authority[..end];
    let (host, port) = match authority.iter().position(|&c| c == b':') {
        Some(i) if scheme != "file" => (&authority[..i], Some(&authority[i + 1..])),
        Some(_) => return None,
        None => (authority, None),
    };
    if !host
        .iter()
        .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_'))
    {
        return None;
    }
    // SAFETY-free: checked ASCII just above.
    let host = std::str::from_utf8(host).ok()?;
    if host.is_empty() {
        return (scheme == "file").then_some(Simple {
            scheme,
            host: Some(""),
            port: None,
            default_port,
        });
    }
    if ends_in_a_number(host)
        || host
            .split('.')
            .any(|label| label.len() >= 4 && label[..4].eq_ignore_ascii_case("xn--"))
    {
        return None;
    }
    let port = match port {
        None | Some([]) => None,
        Some(digits) if digits.len() <= 5 && digits.iter().all(u8::is_ascii_digit) => {
            let n: u32 = digits.iter().fold(0, |n, &d| n * 10 + u32::from(d - b'0'));
            let n = u16::try_from(n).ok()?;
            (Some(n) != default_port).then_some(n)
        }
        Some(_) => return None,
    };
    let host = if scheme == "file" && host.eq_ignore_ascii_case("localhost") {
        ""
    } else {
        host
    };
    Some(Simple {
        scheme,
        host: Some(host),
        port,
        default_port,
    })
}

/// Where the `:` after a lower-case scheme is: a letter, then letters, digits, `+`, `-`
/// or `.`.
fn scheme_end(input: &[u8]) -> Option<usize> {
    if !input.first()?.is_ascii_lowercase() {
        return None;
    }
    let end = input.iter().position(|&c| {
        !(c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, b'+' | b'-' | b'.'))
    })?;
    (input[end] == b':').then_some(end)
}
