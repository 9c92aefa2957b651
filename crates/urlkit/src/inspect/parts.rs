//! Helpers shared by both views of a URL: percent-decoding of components (with the
//! codec's hex digits), query pairs, well-known ports and the component diagram. This
//! module depends on no other module of `inspect`.

use crate::codec::kernel::portable;

/// The most characters of a text that a message quotes ([`excerpt`]).
pub const EXCERPT_CHARS: usize = 200;

/// `text` quoted for a message (as Rust's `{:?}` quotes it): whole when it has at most
/// [`EXCERPT_CHARS`] characters, else its first ones, an ellipsis and its length in bytes
/// (`"http://h/aaaa"… (104857600 bytes)`). Every text is accepted; the result is at most
/// a few kilobytes however long the text.
pub fn excerpt(text: &str) -> String {
    match text.char_indices().nth(EXCERPT_CHARS) {
        None => format!("{text:?}"),
        Some((end, _)) => format!("{:?}… ({} bytes)", &text[..end], text.len()),
    }
}

/// Appends the percent-decoded bytes of `input` to `out` (URL Standard §1.3 "percent-decode"):
/// a `%` not followed by two hex digits is copied as it is; `+` becomes a space when
/// `plus_as_space` is set.
pub(crate) fn percent_decode_into(input: &[u8], plus_as_space: bool, out: &mut Vec<u8>) {
    let mut i = 0;
    while i < input.len() {
        if let Some(value) = escape_at(input, i) {
            out.push(value);
            i += 3;
            continue;
        }
        let b = input[i];
        out.push(if b == b'+' && plus_as_space { b' ' } else { b });
        i += 1;
    }
}

/// The byte of the escape `%XX` at `i`, if there is one there.
#[inline]
pub(crate) fn escape_at(bytes: &[u8], i: usize) -> Option<u8> {
    bytes.get(i..).and_then(portable::escape_at)
}

/// Percent-decodes `input` and reads the bytes as UTF-8, replacing invalid sequences with
/// U+FFFD (Encoding Standard "UTF-8 decode without BOM").
pub(crate) fn percent_decode_lossy(input: &str, plus_as_space: bool) -> String {
    if !(input.contains('%') || plus_as_space && input.contains('+')) {
        return input.to_owned();
    }
    let mut out = Vec::with_capacity(input.len());
    percent_decode_into(input.as_bytes(), plus_as_space, &mut out);
    match String::from_utf8(out) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// The default port of a scheme the URL Standard knows (§4.1 "special scheme") or that IANA
/// registers with a well-known port; `None` for others.
pub fn default_port(scheme: &str) -> Option<u16> {
    Some(match scheme.to_ascii_lowercase().as_str() {
        "ftp" => 21,
        "ssh" | "sftp" => 22,
        "telnet" => 23,
        "gopher" => 70,
        "http" | "ws" => 80,
        "nntp" | "news" => 119,
        "imap" => 143,
        "ldap" => 389,
        "https" | "wss" => 443,
        "rtsp" => 554,
        "ldaps" => 636,
        _ => return None,
    })
}

/// Splits a query at `&` and `;` into decoded `(name, value)` pairs: `+` is a space, escapes
/// are decoded as UTF-8 (invalid bytes become U+FFFD, a `%` without two hex digits stays).
/// Duplicates are kept; empty pieces (`a=1&&b=2`, a trailing `&`) are skipped, as the URL
/// Standard's `application/x-www-form-urlencoded` parser skips them (`=` alone is the pair
/// `("", "")`).
pub fn query_pairs(query: &str) -> Vec<(String, String)> {
    pairs(query).collect()
}

/// [`query_pairs`], one pair at a time.
pub(crate) fn pairs(query: &str) -> impl Iterator<Item = (String, String)> + '_ {
    query.split(['&', ';']).filter(|p| !p.is_empty()).map(|p| {
        let (k, v) = p.split_once('=').unwrap_or((p, ""));
        (percent_decode_lossy(k, true), percent_decode_lossy(v, true))
    })
}

/// A report lists at most this many query pairs, and as many path segments, and counts
/// the rest, so that its size stays a small multiple of the URL's.
pub const LISTED_ENTRIES: usize = 1000;

/// The first [`LISTED_ENTRIES`] items, and how many more there were.
pub(crate) fn capped<T>(items: impl IntoIterator<Item = T>) -> (Vec<T>, usize) {
    let mut iter = items.into_iter();
    let listed: Vec<T> = iter.by_ref().take(LISTED_ENTRIES).collect();
    (listed, iter.count())
}

/// Whether the URL Standard treats `scheme` as special (§4.1).
pub fn is_special(scheme: &str) -> bool {
    matches!(scheme, "http" | "https" | "ws" | "wss" | "ftp" | "file")
}

/// Draws `text` (ASCII) with each `(start, end, name)` byte span bracketed beneath it and
/// its name hung below the bracket, names placed right to left on the first free row.
pub(crate) fn draw(text: &str, spans: &[(usize, usize, &str)]) -> String {
    let href = text;
    let width = href.len();
    let mut brackets = vec![' '; width];
    let mut ticks = Vec::new();
    for &(s, e, name) in spans {
        let w = e - s;
        let tick = match w {
            1 => {
                brackets[s] = '│';
                s
            }
            2 => {
                brackets[s] = '├';
                brackets[s + 1] = '┘';
                s
            }
            _ => {
                let mid = s + (w - 1) / 2;
                brackets[s] = '└';
                brackets[e - 1] = '┘';
                for b in &mut brackets[s + 1..e - 1] {
                    *b = '─';
                }
                brackets[mid] = '┬';
                mid
            }
        };
        ticks.push((tick, name));
    }
    // Right to left: each label goes on the first row with room, with a line down to it.
    let mut rows: Vec<Vec<char>> = Vec::new();
    let mut leftmost: Vec<usize> = Vec::new();
    for &(tick, name) in ticks.iter().rev() {
        let end = tick + name.len();
        let r = (0..)
            .find(|&r| leftmost.get(r).is_none_or(|&left| left > end))
            .unwrap_or(0);
        while rows.len() <= r {
            rows.push(Vec::new());
            leftmost.push(usize::MAX);
        }
        for (row, left) in rows.iter_mut().zip(leftmost.iter_mut()).take(r) {
            put(row, tick, "│");
            *left = (*left).min(tick);
        }
        put(&mut rows[r], tick, name);
        leftmost[r] = tick;
    }
    let mut out = String::new();
    out.push_str(href);
    out.push('\n');
    out.push_str(brackets.iter().collect::<String>().trim_end());
    for row in rows {
        out.push('\n');
        out.push_str(row.iter().collect::<String>().trim_end());
    }
    out.push('\n');
    out
}

fn put(row: &mut Vec<char>, col: usize, text: &str) {
    let need = col + text.chars().count();
    if row.len() < need {
        row.resize(need, ' ');
    }
    for (i, c) in text.chars().enumerate() {
        row[col + i] = c;
    }
}
