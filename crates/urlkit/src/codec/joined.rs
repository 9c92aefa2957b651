//! Entries joined by whitespace removal: decoding removes unencoded line breaks, which
//! repairs text wrapped over several lines but also glues together URLs pasted one per
//! line. A line break followed by what starts a URL (`scheme://`) is reported once per
//! entry, so a front end can offer per-line decoding instead.

use super::kernel::is_removable_whitespace;
use crate::diagnostics::{Code, Diagnostics};

/// The longest scheme recognised after a line break (RFC 3986 §3.1 sets no limit; real
/// schemes are short).
const MAX_SCHEME: usize = 32;

#[derive(Clone, Copy, Debug)]
enum State {
    /// Nothing but whitespace so far: a line break here separates nothing.
    Leading,
    /// Inside the entry, no line break being looked at.
    Text,
    /// After a line break at offset `at`: `scheme` bytes of a possible scheme (held in
    /// `JoinedEntries::scheme`), then `tail` bytes of `://`.
    AfterBreak { at: u64, scheme: usize, tail: u8 },
    /// Reported for this entry.
    Done,
}

/// Watches an entry's raw input, byte by byte across chunks, for a removed line break
/// between two URLs. The input is only read: decoding is unaffected.
#[derive(Clone, Debug)]
pub(crate) struct JoinedEntries {
    state: State,
    /// Input offset of the next byte.
    offset: u64,
    scheme: [u8; MAX_SCHEME],
}

impl JoinedEntries {
    pub(crate) fn new() -> Self {
        JoinedEntries {
            state: State::Leading,
            offset: 0,
            scheme: [0; MAX_SCHEME],
        }
    }

    /// Starts a new entry at input offset `offset`.
    pub(crate) fn reset(&mut self, offset: u64) {
        self.state = State::Leading;
        self.offset = offset;
    }

    /// Reads the next chunk of the entry, reporting the first line break that is followed
    /// by `scheme://`.
    pub(crate) fn scan(&mut self, input: &[u8], diagnostics: &mut Diagnostics) {
        let mut i = 0;
        while i < input.len() {
            match self.state {
                State::Done => break,
                State::Leading => {
                    match input[i..].iter().position(|&b| !is_removable_whitespace(b)) {
                        Some(k) => {
                            i += k;
                            self.state = State::Text;
                        }
                        None => i = input.len(),
                    }
                }
                State::Text => match memchr::memchr(b'\n', &input[i..]) {
                    Some(k) => {
                        self.state = State::AfterBreak {
                            at: self.offset + (i + k) as u64,
                            scheme: 0,
                            tail: 0,
                        };
                        i += k + 1;
                    }
                    None => i = input.len(),
                },
                State::AfterBreak { at, scheme, tail } => {
                    if self.step(input[i], at, scheme, tail, diagnostics) {
                        i += 1;
                    }
                }
            }
        }
        self.offset += input.len() as u64;
    }

    /// Takes `byte` after a line break; returns false when the byte is to be looked at
    /// again as ordinary text (it may be the next line break).
    fn step(
        &mut self,
        byte: u8,
        at: u64,
        scheme: usize,
        tail: u8,
        diagnostics: &mut Diagnostics,
    ) -> bool {
        let next = match (tail, byte) {
            // Blank lines and indentation before the next line's text.
            (0, _) if scheme == 0 && is_removable_whitespace(byte) => Some((scheme, 0)),
            (0, b'a'..=b'z' | b'A'..=b'Z') if scheme < MAX_SCHEME => Some((scheme + 1, 0)),
            (0, b'0'..=b'9' | b'+' | b'-' | b'.') if scheme > 0 && scheme < MAX_SCHEME => {
                Some((scheme + 1, 0))
            }
            (0, b':') if scheme >= 2 => Some((scheme, 1)),
            (1, b'/') => Some((scheme, 2)),
            (2, b'/') => {
                self.report(at, scheme, diagnostics);
                return true;
            }
            _ => None,
        };
        match next {
            Some((scheme_len, tail)) => {
                if scheme_len > scheme {
                    self.scheme[scheme] = byte;
                }
                self.state = State::AfterBreak {
                    at,
                    scheme: scheme_len,
                    tail,
                };
                true
            }
            None => {
                self.state = State::Text;
                false
            }
        }
    }

    fn report(&mut self, at: u64, scheme: usize, diagnostics: &mut Diagnostics) {
        self.state = State::Done;
        let name = String::from_utf8_lossy(&self.scheme[..scheme]);
        diagnostics.push_lazy(Code::EntriesJoined, at, || {
            format!(
                "line break removed between two entries (the next line starts a URL, \
                 `{name}://`): decode each line separately to keep them apart"
            )
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(input: &[u8], cuts: &[usize]) -> Vec<(u64, String)> {
        let mut watch = JoinedEntries::new();
        let mut sink = Diagnostics::new();
        let mut start = 0;
        for &cut in cuts.iter().chain([&input.len()]) {
            watch.scan(&input[start..cut], &mut sink);
            start = cut;
        }
        sink.items()
            .iter()
            .map(|d| (d.offset, d.message.clone()))
            .collect()
    }

    #[test]
    fn a_url_on_the_next_line_is_reported_once_at_the_first_break() {
        let input =
            b"https://ru.wikipedia.org/wiki/%D0%9C#x\r\nhttps://ja.wikipedia.org/\nftp://c/";
        let whole = found(input, &[]);
        assert_eq!(whole.len(), 1, "{whole:?}");
        assert_eq!(whole[0].0, 39);
        assert!(whole[0].1.contains("`https://`"), "{}", whole[0].1);
        for cut in 0..input.len() {
            assert_eq!(found(input, &[cut]), whole, "cut at {cut}");
        }
    }

    #[test]
    fn wrapped_text_and_leading_breaks_are_not_reported() {
        for input in [
            &b"%E5%BC%95%E3%81\n%8D%20and\n  more text"[..],
            b"\n\nhttps://a/",
            b"a\nhttp:/x",
            b"a\nh://x",
            b"a\n1http://x",
        ] {
            assert!(
                found(input, &[]).is_empty(),
                "{:?}",
                String::from_utf8_lossy(input)
            );
        }
    }

    #[test]
    fn blank_lines_between_entries_still_count() {
        let input = b"a%20b\n\n  mailto+x://y";
        assert_eq!(found(input, &[])[0].0, 5);
    }

    #[test]
    fn each_entry_is_watched_afresh() {
        let mut watch = JoinedEntries::new();
        let mut sink = Diagnostics::new();
        watch.scan(b"a\nhttps://b", &mut sink);
        watch.reset(11);
        watch.scan(b"c\nhttp://d", &mut sink);
        let offsets: Vec<u64> = sink.items().iter().map(|d| d.offset).collect();
        assert_eq!(offsets, [1, 12]);
    }
}
