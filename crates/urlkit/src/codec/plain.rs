//! Plain UTF-8 entries: short entries (the rows of a column) that need none of the
//! decoder's state machine, decoded straight into the caller's buffer.
//!
//! An entry is plain when the full decoder would find nothing to report in it: every `%`
//! starts an escape with two hex digits, no escape needs attention (a control other than
//! tab, LF and CR, `%25`, a bidi control), no whitespace is removed, and the result is
//! UTF-8. For such an entry the output is the same as the full decoder's and there are no
//! findings; any other entry is left to the full decoder, which repairs and reports.

use super::kernel::{self, portable, StopTable, REMOVABLE_WHITESPACE};
use super::{utf8, CharsetChoice, DecodeOptions};

/// `%` bytes after a copy of the entry: never an escape (`%` is not a hex digit), so the
/// vector loops stop where the entry ends, and run whole blocks up to there instead of
/// leaving a short entry's last bytes to the byte-at-a-time loop.
const PADDING: usize = 64;

/// The fast path of a decoder whose options allow one.
pub(crate) struct PlainUtf8 {
    stops: StopTable,
    strip_whitespace: bool,
    /// The entry being decoded, followed by [`PADDING`].
    padded: Vec<u8>,
}

impl PlainUtf8 {
    /// The fast path for `options`: decoding to UTF-8 text, one entry per input.
    pub(crate) fn for_options(options: &DecodeOptions) -> Option<Self> {
        let utf8 = matches!(options.charset, CharsetChoice::Fixed(c) if c.is_utf8());
        (utf8 && !options.binary && !options.per_line).then(|| PlainUtf8 {
            // Whitespace is looked for before decoding: the span never meets any to remove.
            stops: StopTable::new(false, options.plus_space),
            strip_whitespace: !options.keep_whitespace,
            padded: Vec::new(),
        })
    }

    /// Decodes all of `input` onto `out` and returns true when it is plain; otherwise
    /// leaves `out` as it was and returns false, for the full decoder to take the entry.
    pub(crate) fn decode(&mut self, input: &[u8], out: &mut Vec<u8>) -> bool {
        let kernels = kernel::kernels();
        self.padded.clear();
        self.padded.extend_from_slice(input);
        self.padded.resize(input.len() + PADDING, b'%');
        let padded = &self.padded[..];
        // Whole vector blocks: the padding has no whitespace.
        let scanned = &padded[..input.len().next_multiple_of(32)];
        if self.strip_whitespace
            && (kernels.first_member)(scanned, &REMOVABLE_WHITESPACE) < input.len()
        {
            return false;
        }
        let start = out.len();
        let mut at = 0;
        loop {
            at += (kernels.decode_span)(&padded[at..], &self.stops.class, out);
            // The span stops at the padding at the latest: no escape reaches into it.
            debug_assert!(at <= input.len());
            if at >= input.len() {
                break;
            }
            // The span stops before a malformed escape or one that needs attention.
            match portable::escape_at(&input[at..]) {
                Some(value @ (b'\t' | b'\n' | b'\r')) => out.push(value),
                Some(0xE2) if !starts_bidi_control(&input[at + 3..]) => out.push(0xE2),
                _ => {
                    out.truncate(start);
                    return false;
                }
            }
            at += 3;
        }
        if !utf8::is_utf8(&out[start..]) {
            out.truncate(start);
            return false;
        }
        true
    }
}

/// Whether the input after an escape of 0xE2 continues it into a bidi control
/// (`%80%AA`..`%80%AE`, `%81%A6`..`%81%A9`), which the full decoder reports.
fn starts_bidi_control(rest: &[u8]) -> bool {
    let second = portable::escape_at(rest);
    let third = rest.get(3..).and_then(portable::escape_at);
    matches!(
        (second, third),
        (Some(0x80), Some(0xAA..=0xAE)) | (Some(0x81), Some(0xA6..=0xA9))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(options: &DecodeOptions, input: &[u8]) -> Option<String> {
        let mut out = b"kept".to_vec();
        let taken = PlainUtf8::for_options(options)
            .expect("UTF-8 text has a fast path")
            .decode(input, &mut out);
        if !taken {
            assert_eq!(
                out, b"kept",
                "a row left to the full decoder leaves the output as it was"
            );
            return None;
        }
        Some(String::from_utf8(out[4..].to_vec()).unwrap())
    }

    #[test]
    fn clean_rows_are_decoded_here() {
        let options = DecodeOptions::default();
        let row = b"https://ex.com/caf%C3%A9?q=%E2%82%AC%20%F0%9F%98%80&x=%E2%80%94%0A%09";
        assert_eq!(
            plain(&options, row).unwrap(),
            "https://ex.com/café?q=€ 😀&x=—\n\t"
        );
        assert_eq!(plain(&options, b"").unwrap(), "");
        assert_eq!(plain(&options, "é+".as_bytes()).unwrap(), "é+");
        let plus = DecodeOptions {
            plus_space: true,
            ..DecodeOptions::default()
        };
        assert_eq!(plain(&plus, b"a+b").unwrap(), "a b");
        let keep = DecodeOptions {
            keep_whitespace: true,
            ..DecodeOptions::default()
        };
        assert_eq!(plain(&keep, b"a b\n").unwrap(), "a b\n");
    }

    #[test]
    fn rows_with_something_to_report_are_left_to_the_decoder() {
        let options = DecodeOptions::default();
        for row in [
            &b"a%zz"[..],
            b"a%4",
            b"a%",
            b"%2541",
            b"%00",
            b"%7F",
            b"%E2%80%AE",
            b"%e2%81%a6",
            b"%C3",
            b"%FF",
            b"\xFF",
            b"a b",
            b"a\nb",
            b"\x0C",
        ] {
            assert_eq!(
                plain(&options, row),
                None,
                "{:?}",
                String::from_utf8_lossy(row)
            );
        }
    }

    #[test]
    fn other_charsets_binary_and_per_line_have_no_fast_path() {
        let latin1 = DecodeOptions {
            charset: CharsetChoice::for_label("latin1").unwrap(),
            ..DecodeOptions::default()
        };
        let binary = DecodeOptions {
            binary: true,
            ..DecodeOptions::default()
        };
        let per_line = DecodeOptions {
            per_line: true,
            ..DecodeOptions::default()
        };
        let auto = DecodeOptions {
            charset: CharsetChoice::Auto,
            ..DecodeOptions::default()
        };
        for options in [latin1, binary, per_line, auto] {
            assert!(PlainUtf8::for_options(&options).is_none());
        }
    }
}
