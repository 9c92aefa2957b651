//! The percent decoder: `%XX` to bytes, malformed escapes kept and reported, whitespace
//! removal and `+` handling, as a state machine that resumes across chunk boundaries.

use super::kernel::{hex_value, is_removable_whitespace, literal_run, StopTable};
use crate::diagnostics::{Code, Diagnostic, Diagnostics};

/// An escape begun but not finished at the end of the last chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pending {
    None,
    /// Saw `%` at this input offset.
    Percent {
        at: u64,
    },
    /// Saw `%` at `at` and the hex digit `digit` at `digit_at`.
    PercentDigit {
        at: u64,
        digit: u8,
        digit_at: u64,
    },
}

/// How many output bytes' input offsets the decoder remembers.
const RECENT: usize = 8;

/// Percent-decodes a stream of chunks. The output for any chunking equals the output for
/// the whole input.
#[derive(Clone, Debug)]
pub(crate) struct PercentDecoder {
    stops: StopTable,
    strip_whitespace: bool,
    plus_space: bool,
    /// Report escapes of bidi controls (`%E2%80%AE` …): only meaningful for UTF-8.
    check_bidi: bool,
    pending: Pending,
    /// Input offset of the next byte fed.
    offset: u64,
    /// Output bytes produced so far.
    produced: u64,
    /// Input offsets of the last `RECENT` output bytes (ring, indexed by output count).
    recent: [u64; RECENT],
    reported_layers: bool,
    /// Progress through `%25` then two hex digits in the output: 0 idle, 1 after the
    /// `%25`, 2 after one hex digit. `layer_at` is where the `%25` was.
    layer_state: u8,
    layer_at: u64,
    /// Progress through a UTF-8 bidi control (E2 80 AA..AE, E2 81 A6..A9) in the output:
    /// 0 idle, 1 after E2, 0x80 or 0x81 after the second byte. `bidi_at`: where E2 was.
    bidi_state: u8,
    bidi_at: u64,
}

impl PercentDecoder {
    pub(crate) fn new(strip_whitespace: bool, plus_space: bool, check_bidi: bool) -> Self {
        PercentDecoder {
            stops: StopTable::new(strip_whitespace, plus_space),
            strip_whitespace,
            plus_space,
            check_bidi,
            pending: Pending::None,
            offset: 0,
            produced: 0,
            recent: [0; RECENT],
            reported_layers: false,
            layer_state: 0,
            layer_at: 0,
            bidi_state: 0,
            bidi_at: 0,
        }
    }

    /// Starts a new entry whose first byte is at input offset `offset`.
    pub(crate) fn reset(&mut self, offset: u64) {
        self.pending = Pending::None;
        self.offset = offset;
        self.produced = 0;
        self.reported_layers = false;
        self.layer_state = 0;
        self.bidi_state = 0;
    }

    /// Input offset of the next byte to be fed.
    pub(crate) fn offset(&self) -> u64 {
        self.offset
    }

    /// Input offset of the output byte `back` places before the end (1: the last one), if
    /// it is among the remembered ones.
    pub(crate) fn recent_offset(&self, back: u64) -> Option<u64> {
        (back >= 1 && back <= RECENT as u64 && back <= self.produced)
            .then(|| self.recent[((self.produced - back) % RECENT as u64) as usize])
    }

    #[inline]
    fn note(&mut self, offset: u64) {
        self.recent[(self.produced % RECENT as u64) as usize] = offset;
        self.produced += 1;
    }

    #[inline]
    fn note_run(&mut self, first: u64, length: usize) {
        let skipped = length.saturating_sub(RECENT);
        self.produced += skipped as u64;
        for k in skipped..length {
            self.note(first + k as u64);
        }
    }

    /// Decodes `input`, appending to `out` and reporting findings to `diagnostics`.
    pub(crate) fn decode(
        &mut self,
        input: &[u8],
        out: &mut Vec<u8>,
        diagnostics: &mut Diagnostics,
    ) {
        self.run::<false>(input, out, &mut Vec::new(), diagnostics);
    }

    /// Like [`decode`](Self::decode), and also appends to `map` the input offset of every
    /// output byte.
    pub(crate) fn decode_tracked(
        &mut self,
        input: &[u8],
        out: &mut Vec<u8>,
        map: &mut Vec<u64>,
        diagnostics: &mut Diagnostics,
    ) {
        self.run::<true>(input, out, map, diagnostics);
    }

    fn run<const TRACK: bool>(
        &mut self,
        input: &[u8],
        out: &mut Vec<u8>,
        map: &mut Vec<u64>,
        diagnostics: &mut Diagnostics,
    ) {
        let base = self.offset;
        let mut i = 0;
        out.reserve(input.len());
        while i < input.len() {
            match self.pending {
                Pending::None => {
                    let run = literal_run(&input[i..], &self.stops);
                    if run > 0 {
                        if self.layer_state != 0 {
                            self.follow_layer(&input[i..i + run.min(2)], diagnostics);
                        }
                        if self.check_bidi {
                            self.follow_bidi_run(&input[i..i + run], base + i as u64, diagnostics);
                        }
                        out.extend_from_slice(&input[i..i + run]);
                        self.note_run(base + i as u64, run);
                        if TRACK {
                            map.extend((0..run as u64).map(|k| base + i as u64 + k));
                        }
                        i += run;
                        continue;
                    }
                    let at = base + i as u64;
                    match input[i] {
                        b'%' => {
                            if let (Some(&hi), Some(&lo)) = (input.get(i + 1), input.get(i + 2)) {
                                if let (Some(h), Some(l)) = (hex_value(hi), hex_value(lo)) {
                                    let value = h << 4 | l;
                                    self.emit_escape(value, at, out, diagnostics);
                                    if TRACK {
                                        map.push(at);
                                    }
                                    i += 3;
                                    continue;
                                }
                            }
                            self.pending = Pending::Percent { at };
                            i += 1;
                        }
                        b'+' if self.plus_space => {
                            self.layer_state = 0;
                            self.bidi_state = 0;
                            out.push(b' ');
                            self.note(at);
                            if TRACK {
                                map.push(at);
                            }
                            i += 1;
                        }
                        // Removable whitespace: dropped.
                        _ => i += 1,
                    }
                }
                Pending::Percent { at } => {
                    let byte = input[i];
                    let digit_at = base + i as u64;
                    if self.strip_whitespace && is_removable_whitespace(byte) {
                        i += 1;
                    } else if hex_value(byte).is_some() {
                        self.pending = Pending::PercentDigit {
                            at,
                            digit: byte,
                            digit_at,
                        };
                        i += 1;
                    } else {
                        // Not an escape: the `%` is literal; `byte` is looked at afresh.
                        self.abandon_pending::<TRACK>(out, map, diagnostics);
                    }
                }
                Pending::PercentDigit { at, digit, .. } => {
                    let byte = input[i];
                    if self.strip_whitespace && is_removable_whitespace(byte) {
                        i += 1;
                    } else if let Some(low) = hex_value(byte) {
                        let value = hex_value(digit).unwrap_or(0) << 4 | low;
                        self.pending = Pending::None;
                        self.emit_escape(value, at, out, diagnostics);
                        if TRACK {
                            map.push(at);
                        }
                        i += 1;
                    } else {
                        // Not an escape: `%` and the digit are literal; `byte` is looked at
                        // afresh.
                        self.abandon_pending::<TRACK>(out, map, diagnostics);
                    }
                }
            }
        }
        self.offset = base + input.len() as u64;
    }

    /// Ends the entry: an unfinished escape is written as it is and reported.
    pub(crate) fn finish_tracked(
        &mut self,
        out: &mut Vec<u8>,
        map: &mut Vec<u64>,
        diagnostics: &mut Diagnostics,
    ) {
        self.abandon_pending::<true>(out, map, diagnostics);
    }

    /// Writes an unfinished escape as the literal bytes it consists of and reports it.
    fn abandon_pending<const TRACK: bool>(
        &mut self,
        out: &mut Vec<u8>,
        map: &mut Vec<u64>,
        diagnostics: &mut Diagnostics,
    ) {
        let literal: &[(u8, u64)] = match self.pending {
            Pending::None => return,
            Pending::Percent { at } => &[(b'%', at)],
            Pending::PercentDigit {
                at,
                digit,
                digit_at,
            } => &[(b'%', at), (digit, digit_at)],
        };
        self.malformed(literal, out, diagnostics);
        if TRACK {
            map.extend(literal.iter().map(|&(_, offset)| offset));
        }
    }

    /// Ends the entry (see [`finish_tracked`](Self::finish_tracked)).
    pub(crate) fn finish(&mut self, out: &mut Vec<u8>, diagnostics: &mut Diagnostics) {
        self.finish_tracked(out, &mut Vec::new(), diagnostics);
    }

    fn malformed(
        &mut self,
        literal: &[(u8, u64)],
        out: &mut Vec<u8>,
        diagnostics: &mut Diagnostics,
    ) {
        let at = literal[0].1;
        if diagnostics.wants_more() {
            let shown: String = literal.iter().map(|&(b, _)| b as char).collect();
            diagnostics.push(Diagnostic::new(
                Code::MalformedEscape,
                at,
                format!("{shown:?} is not followed by two hex digits; kept as it is"),
            ));
        } else {
            diagnostics.count_unkept();
        }
        self.layer_state = 0;
        self.bidi_state = 0;
        for &(byte, offset) in literal {
            out.push(byte);
            self.note(offset);
        }
        self.pending = Pending::None;
    }

    /// Follows the output bytes `bytes` through the `%25` + two hex digits pattern.
    fn follow_layer(&mut self, bytes: &[u8], diagnostics: &mut Diagnostics) {
        for &byte in bytes {
            if self.layer_state == 0 {
                return;
            }
            if hex_value(byte).is_none() {
                self.layer_state = 0;
            } else if self.layer_state == 1 {
                self.layer_state = 2;
            } else {
                self.layer_state = 0;
                self.reported_layers = true;
                diagnostics.push(Diagnostic::new(
                    Code::MultipleLayers,
                    self.layer_at,
                    "`%25` followed by hex digits: the text looks percent-encoded more than once (--until-stable peels every layer)",
                ));
            }
        }
    }

    #[inline]
    fn emit_escape(
        &mut self,
        value: u8,
        at: u64,
        out: &mut Vec<u8>,
        diagnostics: &mut Diagnostics,
    ) {
        out.push(value);
        self.note(at);
        if self.layer_state != 0 {
            self.follow_layer(&[value], diagnostics);
        }
        if self.check_bidi {
            self.follow_bidi(value, at, diagnostics);
        }
        if value == b'%' && !self.reported_layers {
            self.layer_state = 1;
            self.layer_at = at;
        } else if (value < 0x20 && !matches!(value, b'\t' | b'\n' | b'\r')) || value == 0x7F {
            if !diagnostics.wants_more() {
                diagnostics.count_unkept();
                return;
            }
            diagnostics.push(Diagnostic::new(
                Code::ControlCharacter,
                at,
                format!("escape decodes to the control character U+{value:04X}"),
            ));
        }
    }

    /// Follows one output byte (from input offset `at`) through the bidi-control pattern.
    #[inline]
    fn follow_bidi(&mut self, byte: u8, at: u64, diagnostics: &mut Diagnostics) {
        let found = match (self.bidi_state, byte) {
            (_, 0xE2) => {
                self.bidi_state = 1;
                self.bidi_at = at;
                return;
            }
            (1, 0x80 | 0x81) => {
                self.bidi_state = byte;
                return;
            }
            (0x80, 0xAA..=0xAE) | (0x81, 0xA6..=0xA9) => true,
            _ => false,
        };
        self.bidi_state = 0;
        if found {
            diagnostics.push(Diagnostic::new(
                Code::BidiCharacter,
                self.bidi_at,
                "a bidirectional formatting character (U+202A..U+202E or U+2066..U+2069), which can disguise text",
            ));
        }
    }

    /// Follows a literal run through the bidi-control pattern, looking only where it can
    /// match: at its start when a match is under way, and at each 0xE2.
    fn follow_bidi_run(&mut self, run: &[u8], first: u64, diagnostics: &mut Diagnostics) {
        let mut resume = 0;
        if self.bidi_state != 0 {
            for (k, &byte) in run.iter().enumerate().take(2) {
                self.follow_bidi(byte, first + k as u64, diagnostics);
                resume = k + 1;
                if self.bidi_state == 0 {
                    break;
                }
            }
        }
        let mut search = resume;
        while let Some(found) = memchr::memchr(0xE2, &run[search.min(run.len())..]) {
            let start = search + found;
            for (k, &byte) in run[start..].iter().enumerate().take(3) {
                self.follow_bidi(byte, first + (start + k) as u64, diagnostics);
                if k > 0 && self.bidi_state == 0 {
                    break;
                }
            }
            search = start + 1;
        }
    }
}
