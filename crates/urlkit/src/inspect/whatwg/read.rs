//! The input as the basic URL parser reads it, and where its parts sit: what the failure
//! messages and the warnings need to point at the input's own bytes.

use crate::inspect::parts::is_special;
use std::ops::Range;

/// The input after the first steps of the basic URL parser (URL Standard §4.4, steps 1–3):
/// leading and trailing C0 controls and spaces removed, then every tab and newline; with
/// where each byte read sits in the input. It costs the text read and one number per tab
/// or newline removed, not one per byte.
pub(super) struct Read {
    pub text: String,
    /// The C0 controls and spaces stripped at the start.
    lead: usize,
    /// Where in `text` each tab or newline was removed (the length of `text` then), in
    /// order: text byte `i` sits past as many removed bytes as there are entries up to `i`.
    removed: Vec<usize>,
    /// The input's length, where offsets past the end point.
    input_len: usize,
    /// Bytes stripped at the start and end.
    pub stripped_ends: bool,
    /// Offset in the input of the first tab or newline removed from the inside.
    pub first_tab_or_newline: Option<usize>,
}

impl Read {
    pub fn of(input: &str) -> Read {
        let lead = input.len() - input.trim_start_matches(|c: char| c <= ' ').len();
        let trimmed = input.trim_matches(|c: char| c <= ' ');
        let mut removed = Vec::new();
        let text = if trimmed.contains(['\t', '\n', '\r']) {
            let mut text = String::with_capacity(trimmed.len());
            let mut start = 0;
            for (i, c) in trimmed.match_indices(['\t', '\n', '\r']) {
                text.push_str(&trimmed[start..i]);
                removed.push(text.len());
                start = i + c.len();
            }
            text.push_str(&trimmed[start..]);
            text
        } else {
            trimmed.to_owned()
        };
        let first_tab_or_newline = trimmed.find(['\t', '\n', '\r']).map(|i| lead + i);
        Read {
            text,
            lead,
            removed,
            input_len: input.len(),
            stripped_ends: trimmed.len() != input.len(),
            first_tab_or_newline,
        }
    }

    /// The input offset of byte `i` of the text read (the input's end past the last).
    pub fn input_offset(&self, i: usize) -> usize {
        if i >= self.text.len() {
            return self.input_len;
        }
        self.lead + i + self.removed.partition_point(|&at| at <= i)
    }

    /// The scheme of the text read, lower-cased, and where it ends (at its `:`): an ASCII
    /// letter, then letters, digits, `+`, `-` or `.`, then `:` (URL Standard §4.4 scheme
    /// start state and scheme state).
    pub fn scheme(&self) -> Option<(String, usize)> {
        let b = self.text.as_bytes();
        if !b.first()?.is_ascii_alphabetic() {
            return None;
        }
        let end = b
            .iter()
            .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')))?;
        (b[end] == b':').then(|| (self.text[..end].to_ascii_lowercase(), end))
    }
}

/// The authority of the text read, where the parser finds one: for `scheme` (the input's
/// own, or the base's for a relative reference, `relative` set), the byte range in `text`
/// between the slashes and the first `/`, `?`, `#` (or `\` for special schemes).
pub(super) fn authority(
    text: &str,
    scheme: &str,
    after_scheme: usize,
    relative: bool,
) -> Option<Range<usize>> {
    let b = text.as_bytes();
    let special = is_special(scheme);
    let slash = |c: &u8| *c == b'/' || special && *c == b'\\';
    let rest = &b[after_scheme..];
    let start = if special && scheme != "file" && !relative {
        // Special authority slashes: any number of slashes and backslashes is skipped, but
        // a scheme with no slash at all may be a path relative to a base of that scheme,
        // which the caller does not know about: it is still read as an authority here.
        after_scheme + rest.iter().take_while(|c| slash(c)).count()
    } else if rest.len() >= 2 && slash(&rest[0]) && slash(&rest[1]) {
        after_scheme + 2
    } else {
        return None;
    };
    let end = b[start..]
        .iter()
        .position(|c| matches!(c, b'/' | b'?' | b'#') || special && *c == b'\\')
        .map_or(b.len(), |i| start + i);
    Some(start..end)
}

/// An authority split as the authority and host states split it: userinfo before the last
/// `@`, then the host, then a port after the first `:` outside brackets. Ranges in the
/// same text as `range`.
pub(super) struct AuthorityParts {
    pub userinfo: Option<Range<usize>>,
    pub host: Range<usize>,
    pub port: Option<Range<usize>>,
}

pub(super) fn split_authority(text: &str, range: Range<usize>) -> AuthorityParts {
    let a = &text[range.clone()];
    let (userinfo, host_start) = match a.rfind('@') {
        Some(i) => (Some(range.start..range.start + i), range.start + i + 1),
        None => (None, range.start),
    };
    let hp = &text[host_start..range.end];
    let mut in_brackets = false;
    let colon = hp.bytes().position(|c| {
        match c {
            b'[' => in_brackets = true,
            b']' => in_brackets = false,
            _ => {}
        }
        c == b':' && !in_brackets
    });
    match colon {
        Some(i) => AuthorityParts {
            userinfo,
            host: host_start..host_start + i,
            port: Some(host_start + i + 1..range.end),
        },
        None => AuthorityParts {
            userinfo,
            host: host_start..range.end,
            port: None,
        },
    }
}
