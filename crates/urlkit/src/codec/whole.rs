//! Whole UTF-8 entries with something to repair or report (a column's row, a line), decoded
//! in one pass by the vector loops of the plain rows, the findings made where the loops
//! stop, instead of through the full decoder's streaming state machine.
//!
//! An entry is taken when it is whole (its end is known, so nothing is held for a next
//! chunk), at most [`UTF8_PIECE`] long, and, when whitespace is removed, has none to
//! remove (whitespace may sit inside an escape, `%4 1`, which only the state machine
//! reads). There every output byte comes from one input byte or one escape, so the place
//! of an invalid sequence is worked out from the input alone, without decoding it again.
//! Output and findings (their codes, offsets, messages and order) are the full decoder's:
//! the findings of the escapes in input order, then the invalid sequences, then the
//! escape the entry's end cuts short (`%`, `%4`) and the character it cuts short, as the
//! full decoder reports them when the entry is finished.

use super::decoder::{invalid_message, UTF8_PIECE};
use super::kernel::{self, hex_value, portable, Kernels, StopTable};
use super::percent::{malformed_message, PercentDecoder};
use super::{utf8, DecodeOptions};
use crate::diagnostics::{Code, Diagnostics};

/// The fast path for whole entries with findings, decoding to UTF-8 text.
pub(crate) struct WholeUtf8 {
    stops: StopTable,
    strip_whitespace: bool,
    /// The findings that depend on the input after an escape (a second layer, a bidi
    /// control), made by the full decoder's own check.
    attention: PercentDecoder,
    /// The decoded bytes of an entry that is not UTF-8, before repair.
    decoded: Vec<u8>,
    /// The invalid sequences of that entry: (start, length) in `decoded`.
    invalid: Vec<(usize, usize)>,
    kernels: &'static Kernels,
}

impl WholeUtf8 {
    /// The fast path for `options`, whatever their framing: a fixed UTF-8 charset, text
    /// out.
    pub(crate) fn for_options(options: &DecodeOptions) -> Option<Self> {
        Self::with_kernels(options, kernel::kernels())
    }

    /// [`for_options`](Self::for_options) with these vector loops.
    pub(crate) fn with_kernels(options: &DecodeOptions, kernels: &'static Kernels) -> Option<Self> {
        super::entry_paths::decodes_to_utf8_text(options).then(|| WholeUtf8 {
            // Whitespace is looked for before decoding: the loops never meet any to remove.
            stops: StopTable::new(false, options.plus_space),
            strip_whitespace: !options.keep_whitespace,
            attention: PercentDecoder::new(!options.keep_whitespace, options.plus_space, true),
            decoded: Vec::new(),
            invalid: Vec::new(),
            kernels,
        })
    }

    /// Decodes `input`, a whole entry whose first byte is at input offset `base`, onto
    /// `out`, its findings onto `diagnostics`, as the full decoder fed the entry and
    /// finished does, and returns true; or returns false having done nothing, when the
    /// entry is not one this path takes (see the module's documentation).
    pub(crate) fn decode(
        &mut self,
        input: &[u8],
        base: u64,
        out: &mut Vec<u8>,
        diagnostics: &mut Diagnostics,
    ) -> bool {
        let kernels = self.kernels;
        if input.len() > UTF8_PIECE {
            return false;
        }
        if super::entry_paths::holds_whitespace_to_remove(input, self.strip_whitespace, kernels) {
            return false;
        }
        self.attention.reset(base);
        let start = out.len();
        // Where the escape cut short by the entry's end starts, if there is one.
        let mut cut_short = None;
        let mut at = 0;
        loop {
            // Every call, one after each finding, runs whole vectors up to the entry's end
            // (see `Kernels::decode_span`).
            at += (kernels.decode_span)(&input[at..], &self.stops.class, out);
            if at >= input.len() {
                break;
            }
            // The loops stop before an escape that needs attention or a malformed one
            // (`%` is the only byte they stop at and leave).
            if let Some(value) = portable::escape_at(&input[at..]) {
                out.push(value);
                let rest = &input[at + 3..];
                self.attention
                    .attend_in_entry(value, base + at as u64, rest, diagnostics);
                at += 3;
                continue;
            }
            let kept = match input.get(at + 1) {
                Some(&digit) if hex_value(digit).is_some() => 2,
                _ => 1,
            };
            let shown = &input[at..at + kept];
            out.extend_from_slice(shown);
            if at + kept == input.len() {
                cut_short = Some(at);
                break;
            }
            diagnostics.push_lazy(Code::MalformedEscape, base + at as u64, || {
                malformed_message(shown)
            });
            at += kept;
        }
        if utf8::is_utf8(&out[start..]) {
            report_cut_short(input, base, cut_short, diagnostics);
            return true;
        }
        self.repair(input, base, start, cut_short, out, diagnostics);
        true
    }

    /// Replaces each invalid sequence of `out[start..]` with U+FFFD, as the full decoder
    /// does, and reports it where its first byte was in `input`; a character cut short by
    /// an escape the entry's end cuts short is reported after that escape.
    fn repair(
        &mut self,
        input: &[u8],
        base: u64,
        start: usize,
        cut_short: Option<usize>,
        out: &mut Vec<u8>,
        diagnostics: &mut Diagnostics,
    ) {
        // What comes before the first invalid sequence stays where it is, when finding it
        // is worth a pass of its own: a short output is repaired whole in one pass.
        let prefix = if out.len() - start > utf8::SHORT_INPUT {
            utf8::valid_up_to(&out[start..])
        } else {
            0
        };
        self.decoded.clear();
        self.decoded.extend_from_slice(&out[start + prefix..]);
        out.truncate(start + prefix);
        self.invalid.clear();
        let decoded = &self.decoded[..];
        let invalid = &mut self.invalid;
        utf8::repair_into(decoded, out, |first, length| {
            invalid.push((prefix + first, length));
        });
        // The bytes the entry's end cut short stand after the character before them,
        // which the full decoder holds until the entry is finished.
        let decoded_before_cut = cut_short.map(|at| prefix + decoded.len() - (input.len() - at));
        let held = decoded_before_cut.and_then(|end| {
            self.invalid.last().filter(|&&(first, length)| {
                first + length == end
                    && matches!(
                        utf8::validate(&decoded[first - prefix..end - prefix]),
                        Err((0, None))
                    )
            })
        });
        let reported_now = self.invalid.len() - usize::from(held.is_some());
        // Where each sequence was in the input is worked out only for findings kept.
        let mut locator = Locator::new(input);
        for &(first, length) in &self.invalid[..reported_now] {
            diagnostics.push_located(
                Code::InvalidSequence,
                base,
                || base + locator.offset_of(first) as u64,
                || invalid_message(length, crate::Charset::UTF_8.name()),
            );
        }
        report_cut_short(input, base, cut_short, diagnostics);
        if let Some(&(first, length)) = held {
            diagnostics.push_located(
                Code::InvalidSequence,
                base,
                || base + Locator::new(input).offset_of(first) as u64,
                || invalid_message(length, crate::Charset::UTF_8.name()),
            );
        }
    }
}

/// Reports the escape that the entry's end cut short, at `at` in `input`.
fn report_cut_short(input: &[u8], base: u64, at: Option<usize>, diagnostics: &mut Diagnostics) {
    if let Some(at) = at {
        diagnostics.push_lazy(Code::MalformedEscape, base + at as u64, || {
            malformed_message(&input[at..])
        });
    }
}

/// The input offsets of decoded bytes of an entry without whitespace to remove, asked for
/// in increasing order: each escape (`%` and two hex digits) gives one byte, any other
/// input byte one.
struct Locator<'a> {
    input: &'a [u8],
    /// The input offset and the decoded byte reached.
    at: usize,
    decoded: usize,
}

impl<'a> Locator<'a> {
    fn new(input: &'a [u8]) -> Self {
        Locator {
            input,
            at: 0,
            decoded: 0,
        }
    }

    /// The input offset of decoded byte `index` (not before the last one asked for).
    fn offset_of(&mut self, index: usize) -> usize {
        loop {
            let next = self.at + literal_run(&self.input[self.at..]);
            let literal = next - self.at;
            if self.decoded + literal > index || next == self.input.len() {
                return self.at + (index - self.decoded);
            }
            self.decoded += literal;
            self.at = next;
            if self.decoded == index {
                return self.at;
            }
            self.decoded += 1;
            self.at += if portable::escape_at(&self.input[self.at..]).is_some() {
                3
            } else {
                1
            };
        }
    }
}

/// How many bytes of `bytes` come before the first `%` (all of them without one): the
/// first [`SHORT_LITERAL`] read eight at a time, as escapes in URLs are a few bytes apart
/// and a call of the vector search costs more than it saves there, the rest by it.
fn literal_run(bytes: &[u8]) -> usize {
    let mut at = 0;
    while at < bytes.len() {
        if at == SHORT_LITERAL {
            return memchr::memchr(b'%', &bytes[at..]).map_or(bytes.len(), |k| at + k);
        }
        // The bytes past the end read as zeros, not `%`.
        let percent = portable::bytes_equal(utf8::next_eight(bytes, at), b'%');
        if percent != 0 {
            return at + percent.trailing_zeros() as usize / 8;
        }
        at += 8;
    }
    bytes.len()
}

/// Bytes [`literal_run`] reads a word at a time before it calls the vector search.
const SHORT_LITERAL: usize = 32;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::kernel::REMOVABLE_WHITESPACE;
    use crate::Codec;

    /// Pieces of entries: clean ones, and ones the full decoder repairs or reports, or
    /// that sit on the edge of it (an escape or a character cut by the entry's end among
    /// them, when a piece ends the entry).
    const PIECES: &[&[u8]] = &[
        b"a",
        b"xyz/",
        b"%20",
        b"%C3%A9",
        b"%E2%82%AC",
        b"%F0%9F%98%80",
        b"%EF%BF%BD",
        b"\xC3\xA9",
        b"+",
        b"%0A",
        b"%25",
        b"%2541",
        b"%25a",
        b"%e2%80%ae",
        b"%E2%81%A7",
        b"%E2%80",
        b"%E2",
        b"%80",
        b"%C3",
        b"%E5%BC",
        b"%FF",
        b"\xFF",
        b"\xF0\x9F",
        b"%00",
        b"%7F",
        b"%",
        b"%4",
        b"%zz",
        b"%4g",
        b" ",
        b"\n",
        b"\r",
    ];

    /// The full decoder's output and findings (all of them, messages included) for an
    /// entry starting at `base`.
    fn full(options: &DecodeOptions, base: u64, input: &[u8]) -> (Vec<u8>, Vec<String>) {
        let mut codec = Codec::decoder(options).keep_findings(usize::MAX);
        let mut out = Vec::new();
        codec.feed(input, &mut out).unwrap();
        codec.finish(&mut out).unwrap();
        let findings = codec
            .diagnostics()
            .items()
            .iter()
            .map(|d| format!("{} {} {}", d.code, d.offset + base, d.message))
            .collect();
        (out, findings)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1024))]

        /// Every kernel this processor runs (and so NEON under emulation on aarch64) gives
        /// every entry it takes the full decoder's output and findings, in the same order,
        /// and takes every entry without whitespace to remove.
        #[test]
        fn entries_with_findings_agree_with_the_full_decoder_on_every_kernel(
            pieces in proptest::collection::vec(proptest::sample::select(PIECES), 0..24),
            plus_space in proptest::bool::ANY,
            keep_whitespace in proptest::bool::ANY,
            base in 0u64..1000,
        ) {
            let input = pieces.concat();
            let options = DecodeOptions { plus_space, keep_whitespace, ..DecodeOptions::default() };
            let (expected_out, expected_findings) = full(&options, base, &input);
            let whitespace = input.iter().any(|&b| REMOVABLE_WHITESPACE.contains(b));
            for kernels in kernel::available() {
                let mut whole = WholeUtf8::with_kernels(&options, kernels).unwrap();
                let mut out = b"before".to_vec();
                let mut diagnostics = Diagnostics::new();
                let taken = whole.decode(&input, base, &mut out, &mut diagnostics);
                proptest::prop_assert_eq!(taken, keep_whitespace || !whitespace, "{}", kernels.name);
                if !taken {
                    proptest::prop_assert_eq!(&out, b"before", "{}", kernels.name);
                    proptest::prop_assert!(diagnostics.is_empty());
                    continue;
                }
                proptest::prop_assert_eq!(&out[6..], &expected_out[..], "{}", kernels.name);
                let findings: Vec<String> = diagnostics
                    .items()
                    .iter()
                    .map(|d| format!("{} {} {}", d.code, d.offset, d.message))
                    .collect();
                proptest::prop_assert_eq!(&findings, &expected_findings, "{}", kernels.name);
            }
        }
    }

    #[test]
    fn literal_runs_end_where_a_search_for_the_first_percent_ends_them() {
        for length in 0..80 {
            for percent in (0..=length).chain([usize::MAX]) {
                let mut bytes: Vec<u8> = (0..length).map(|k| b"a%\xA5\x05e"[k % 5] ^ 1).collect();
                if let Some(byte) = bytes.get_mut(percent) {
                    *byte = b'%';
                }
                let expected = bytes.iter().position(|&b| b == b'%').unwrap_or(length);
                assert_eq!(literal_run(&bytes), expected, "{bytes:?}");
            }
        }
    }

    #[test]
    fn findings_come_in_the_full_decoders_order() {
        let options = DecodeOptions::default();
        // A control, an invalid sequence, a character cut short by an escape cut short.
        let input = b"%00a%FFb%E5%BC%4";
        let mut whole = WholeUtf8::for_options(&options).unwrap();
        let (mut out, mut diagnostics) = (Vec::new(), Diagnostics::new());
        assert!(whole.decode(input, 10, &mut out, &mut diagnostics));
        assert_eq!(out, "\0a\u{FFFD}b\u{FFFD}%4".as_bytes());
        let found: Vec<(Code, u64)> = diagnostics.iter().map(|d| (d.code, d.offset)).collect();
        assert_eq!(
            found,
            [
                (Code::ControlCharacter, 10),
                (Code::InvalidSequence, 14),
                (Code::MalformedEscape, 24),
                (Code::InvalidSequence, 18),
            ]
        );
        // Whitespace to remove is left to the full decoder.
        assert!(!whole.decode(b"%4 1", 0, &mut out, &mut diagnostics));
    }
}
