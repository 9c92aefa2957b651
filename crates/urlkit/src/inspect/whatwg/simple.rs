//! The scheme, host and port of a URL read without the parser, for the URLs plain enough
//! that the parser could only agree: a lower-case scheme, `//`, an ASCII host of letters,
//! digits, `-`, `.` and `_` that is neither an IPv4 address nor Punycode, and a port of
//! digits. Anything else (and every URL the parser would reject) is left to the parser.
//!
//! The parser's host and port do not depend on what follows the authority, and nothing
//! after it can make the parse fail, so the rest of the input is not read at all. The
//! differential tests (`crates/urlkit/tests/inspect_fast_path.rs`) hold this to the
//! parser's answers on the benchmark lists and on generated URLs.

/// What a plain URL's scheme, host and port are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Simple<'a> {
    /// The scheme, lower-case ASCII.
    pub scheme: &'a [u8],
    /// The host as written (ASCII, to be lower-cased): `None` when the URL has none,
    /// empty for the empty host.
    pub host: Option<&'a [u8]>,
    /// The port written, unless it is the scheme's default.
    pub port: Option<u16>,
    /// The scheme's default port.
    pub default_port: Option<u16>,
}

/// How the fast path reads a byte of an authority.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    /// A letter, a digit, `-` or `_`.
    Host,
    Dot,
    Colon,
    /// `/`, `?`, `#` or `\`: the end of the authority.
    End,
    /// Anything else: the parser must read this URL.
    Other,
}

const CLASSES: [Class; 256] = {
    let mut table = [Class::Other; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match b as u8 {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' => Class::Host,
            b'.' => Class::Dot,
            b':' => Class::Colon,
            b'/' | b'?' | b'#' | b'\\' => Class::End,
            _ => Class::Other,
        };
        b += 1;
    }
    table
};

/// The scheme, host and port of `input` if it is plain enough to read them without the
/// parser; `None` otherwise (the parser must answer).
pub(crate) fn simple(input: &[u8]) -> Option<Simple<'_>> {
    let colon = scheme_end(input)?;
    let scheme = &input[..colon];
    let rest = &input[colon + 1..];
    let default_port = match scheme {
        b"http" | b"ws" => Some(80),
        b"https" | b"wss" => Some(443),
        b"ftp" => Some(21),
        b"file" => None,
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
    let mut end = authority.len();
    let mut port = None;
    for (i, &b) in authority.iter().enumerate() {
        match CLASSES[b as usize] {
            Class::Host | Class::Dot => {}
            Class::Colon => {
                if scheme == b"file" {
                    return None;
                }
                end = i;
                port = Some(read_port(&authority[i + 1..])?);
                break;
            }
            Class::End => {
                end = i;
                break;
            }
            Class::Other => return None,
        }
    }
    let host = &authority[..end];
    if host.is_empty() {
        return (scheme == b"file").then_some(Simple {
            scheme,
            host: Some(host),
            port: None,
            default_port,
        });
    }
    if ends_in_a_number(host) || has_punycode(host) {
        return None;
    }
    let host = if scheme == b"file" && host.eq_ignore_ascii_case(b"localhost") {
        &host[..0]
    } else {
        host
    };
    Some(Simple {
        scheme,
        host: Some(host),
        port: port.flatten().filter(|&p| Some(p) != default_port),
        default_port,
    })
}

/// The port after a `:`, up to the end of the authority: `Some(None)` when it is empty,
/// `None` when the parser must read it (not digits, or above 65535).
fn read_port(after_colon: &[u8]) -> Option<Option<u16>> {
    let digits = after_colon
        .iter()
        .position(|&b| CLASSES[b as usize] == Class::End)
        .map_or(after_colon, |end| &after_colon[..end]);
    if digits.is_empty() {
        return Some(None);
    }
    if digits.len() > 5 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = digits
        .iter()
        .fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'));
    u16::try_from(n).ok().map(Some)
}

/// The "ends in a number" check of the host parser (URL Standard §3.5): the last label,
/// ignoring one trailing dot, is all digits, or `0x` and hex digits. Such a host is read
/// as an IPv4 address.
pub(super) fn ends_in_a_number(host: &[u8]) -> bool {
    let host = match host.strip_suffix(b".") {
        Some(h) if !h.is_empty() => h,
        _ => host,
    };
    let last = host.rsplit(|&b| b == b'.').next().unwrap_or_default();
    if !last.is_empty() && last.iter().all(u8::is_ascii_digit) {
        return true;
    }
    match last {
        [b'0', b'x' | b'X', hex @ ..] => hex.iter().all(u8::is_ascii_hexdigit),
        _ => false,
    }
}

/// Whether a label starts with `xn--` (any case): IDNA must check it.
fn has_punycode(host: &[u8]) -> bool {
    memchr::memchr(b'-', host).is_some()
        && host
            .split(|&b| b == b'.')
            .any(|label| label.len() >= 4 && label[..4].eq_ignore_ascii_case(b"xn--"))
}

/// Where the `:` after a lower-case scheme is: a letter, then letters, digits, `+`, `-`
/// or `.`.
fn scheme_end(input: &[u8]) -> Option<usize> {
    // The schemes of nearly every URL first.
    for (prefix, colon) in [(&b"https:"[..], 5), (b"http:", 4), (b"file:", 4)] {
        if input.starts_with(prefix) {
            return Some(colon);
        }
    }
    if !input.first()?.is_ascii_lowercase() {
        return None;
    }
    let end = input.iter().position(|&c| {
        !(c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, b'+' | b'-' | b'.'))
    })?;
    (input[end] == b':').then_some(end)
}
