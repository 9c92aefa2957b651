//! The percent decoder: `%XX` to bytes, malformed escapes kept and reported, whitespace
//! removal and `+` handling, as a state machine that resumes across chunk boundaries.

use super::kernel::{
    decode_span_flagging, hex_value, is_removable_whitespace, literal_run, StopTable,
};
use crate::diagnostics::{Code, Diagnostics};

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
    /// Points of the last [`decode`](Self::decode) call where the state machine was idle:
    /// (input bytes, output bytes) from the start of that call. Replays start from them.
    checkpoints: Vec<(usize, usize)>,
    /// Escapes needing attention that the fast path decoded (offsets into its input).
    flagged: Vec<usize>,
    /// A check on the input after an escape that the end of a chunk cut short.
    lookahead: Option<Lookahead>,
}

/// A finding that depends on the raw input right after an escape: `%25` followed by two hex
/// digits (`multiple-layers`), or `%E2` followed by `%80%AA`..`%80%AE` or
/// `%81%A6`..`%81%A9` (`bidi-character`). Held while a chunk boundary hides the bytes it
/// needs, so that any chunking reports the same findings.
#[derive(Clone, Copy, Debug)]
struct Lookahead {
    code: Code,
    at: u64,
    seen: [u8; 6],
    len: usize,
}

impl Lookahead {
    fn needed(&self) -> usize {
        if self.code == Code::MultipleLayers {
            2
        } else {
            6
        }
    }

    /// Whether the bytes seen so far can still complete a match.
    fn can_match(&self) -> bool {
        let seen = &self.seen[..self.len];
        if self.code == Code::MultipleLayers {
            return seen.iter().all(|&b| hex_value(b).is_some());
        }
        let hex_at = |k: usize| seen.get(k).map(|&b| hex_value(b));
        let second = match (hex_at(1), hex_at(2)) {
            (Some(Some(h)), Some(Some(l))) => Some(h << 4 | l),
            _ => None,
        };
        let structure = seen.iter().enumerate().all(|(k, &b)| match k {
            0 | 3 => b == b'%',
            _ => hex_value(b).is_some(),
        });
        let third = match (hex_at(4), hex_at(5)) {
            (Some(Some(h)), Some(Some(l))) => Some(h << 4 | l),
            _ => None,
        };
        structure
            && match (second, third) {
                (None, _) => seen.len() < 2 || hex_at(1) == Some(Some(8)),
                (Some(0x80 | 0x81), None) => seen.len() < 5 || hex_at(4) == Some(Some(0xA)),
                (Some(0x80), Some(value)) => (0xAA..=0xAE).contains(&value),
                (Some(0x81), Some(value)) => (0xA6..=0xA9).contains(&value),
                _ => false,
            }
    }
}

/// How much input one fast-path call takes at most, so that checkpoints are this close.
const SPAN_WINDOW: usize = 64 * 1024;

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
            checkpoints: Vec::new(),
            flagged: Vec::new(),
            lookahead: None,
        }
    }

    /// Starts a new entry whose first byte is at input offset `offset`.
    pub(crate) fn reset(&mut self, offset: u64) {
        self.pending = Pending::None;
        self.offset = offset;
        self.produced = 0;
        self.reported_layers = false;
        self.lookahead = None;
    }

    /// Moves past `len` input bytes that were written out elsewhere (literal characters of
    /// text input), after the entry's pending escape was ended with `finish`.
    pub(crate) fn pass_over(&mut self, len: u64) {
        self.pending = Pending::None;
        self.lookahead = None;
        self.offset += len;
    }

    /// This decoder's state without the scratch of its last call (checkpoints, flagged
    /// escapes): what a replay of the next call starts from, copied without allocating.
    pub(crate) fn snapshot(&self) -> PercentDecoder {
        PercentDecoder {
            stops: self.stops.clone(),
            strip_whitespace: self.strip_whitespace,
            plus_space: self.plus_space,
            check_bidi: self.check_bidi,
            pending: self.pending,
            offset: self.offset,
            produced: self.produced,
            recent: self.recent,
            reported_layers: self.reported_layers,
            checkpoints: Vec::new(),
            flagged: Vec::new(),
            lookahead: self.lookahead,
        }
    }

    /// The checkpoints of the last [`decode`](Self::decode) call.
    pub(crate) fn checkpoints(&self) -> &[(usize, usize)] {
        &self.checkpoints
    }

    /// This decoder as it was at a checkpoint of a `decode` call it made from this state:
    /// idle, at `consumed` input bytes into that call.
    pub(crate) fn resumed_at(&self, consumed: usize) -> PercentDecoder {
        PercentDecoder {
            pending: Pending::None,
            offset: self.offset + consumed as u64,
            checkpoints: Vec::new(),
            ..self.clone()
        }
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

    /// Notes the input offsets of the output of a span [`decode_span_flagging`] took, which started
    /// at input offset `first` and produced `produced` bytes. Only the last [`RECENT`] are
    /// remembered, so the span is walked back from its end: in a span every `%` starts an
    /// escape, and the other stop bytes are `+` (one output byte) or removed whitespace.
    fn note_span(&mut self, first: u64, span: &[u8], produced: usize) {
        let count = produced.min(RECENT);
        let mut offsets = [0u64; RECENT];
        let mut found = 0;
        let mut end = span.len();
        while found < count {
            let last = span[end - 1];
            if end >= 3 && span[end - 3] == b'%' {
                end -= 3;
            } else {
                end -= 1;
                if self.stops.stops(last) && last != b'+' {
                    continue;
                }
            }
            offsets[found] = first + end as u64;
            found += 1;
        }
        self.produced += (produced - count) as u64;
        for &offset in offsets[..count].iter().rev() {
            self.note(offset);
        }
    }

    /// Appends to `map` the input offset of every output byte of a span (see
    /// [`note_span`](Self::note_span)).
    fn map_span(&self, first: u64, span: &[u8], map: &mut Vec<u64>) {
        let mut j = 0;
        while j < span.len() {
            let byte = span[j];
            if byte == b'%' {
                map.push(first + j as u64);
                j += 3;
            } else {
                if !self.stops.stops(byte) || byte == b'+' {
                    map.push(first + j as u64);
                }
                j += 1;
            }
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
        let out_start = out.len();
        if !TRACK {
            self.checkpoints.clear();
        }
        if let Some(mut lookahead) = self.lookahead.take() {
            let take = (lookahead.needed() - lookahead.len).min(input.len());
            lookahead.seen[lookahead.len..lookahead.len + take].copy_from_slice(&input[..take]);
            lookahead.len += take;
            self.settle(lookahead, diagnostics);
        }
        while i < input.len() {
            match self.pending {
                Pending::None => {
                    let before = out.len();
                    let end = input.len().min(i + SPAN_WINDOW);
                    self.flagged.clear();
                    let taken =
                        decode_span_flagging(&input[i..end], &self.stops, out, &mut self.flagged);
                    if taken > 0 {
                        for k in 0..self.flagged.len() {
                            let at = i + self.flagged[k];
                            let value = hex_value(input[at + 1]).unwrap_or(0) << 4
                                | hex_value(input[at + 2]).unwrap_or(0);
                            self.attend(value, base + at as u64, &input[at + 3..], diagnostics);
                        }
                        let span = &input[i..i + taken];
                        let first = base + i as u64;
                        self.note_span(first, span, out.len() - before);
                        if TRACK {
                            self.map_span(first, span, map);
                        }
                        i += taken;
                        if !TRACK && i == end && end < input.len() {
                            self.checkpoints.push((i, out.len() - out_start));
                        }
                        continue;
                    }
                    let run = literal_run(&input[i..], &self.stops);
                    if run > 0 {
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
                                    self.emit_escape(value, at, &input[i + 3..], out, diagnostics);
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
                        self.emit_escape(value, at, &input[i + 1..], out, diagnostics);
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
        self.lookahead = None;
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
        diagnostics.push_lazy(Code::MalformedEscape, literal[0].1, || {
            let shown: Vec<u8> = literal.iter().map(|&(b, _)| b).collect();
            malformed_message(&shown)
        });
        for &(byte, offset) in literal {
            out.push(byte);
            self.note(offset);
        }
        self.pending = Pending::None;
    }

    #[inline]
    fn emit_escape(
        &mut self,
        value: u8,
        at: u64,
        rest: &[u8],
        out: &mut Vec<u8>,
        diagnostics: &mut Diagnostics,
    ) {
        out.push(value);
        self.note(at);
        self.attend(value, at, rest, diagnostics);
    }

    /// [`attend`](Self::attend) for an escape of a whole entry, `rest` being all of the
    /// entry after it: a check that the entry's end cuts short is dropped, as
    /// [`finish`](Self::finish) drops it.
    pub(crate) fn attend_in_entry(
        &mut self,
        value: u8,
        at: u64,
        rest: &[u8],
        diagnostics: &mut Diagnostics,
    ) {
        self.attend(value, at, rest, diagnostics);
        self.lookahead = None;
    }

    /// Reports what an escape of `value` at `at`, followed by the input `rest`, needs
    /// reporting. Tab, LF and CR are ordinary text and not reported.
    #[inline]
    fn attend(&mut self, value: u8, at: u64, rest: &[u8], diagnostics: &mut Diagnostics) {
        let code = match value {
            b'\t' | b'\n' | b'\r' => return,
            0..0x20 | 0x7F => {
                diagnostics.push_lazy(Code::ControlCharacter, at, || {
                    control_message(value).to_string()
                });
                return;
            }
            b'%' if !self.reported_layers => Code::MultipleLayers,
            0xE2 if self.check_bidi => Code::BidiCharacter,
            _ => return,
        };
        let mut lookahead = Lookahead {
            code,
            at,
            seen: [0; 6],
            len: 0,
        };
        let take = lookahead.needed().min(rest.len());
        lookahead.seen[..take].copy_from_slice(&rest[..take]);
        lookahead.len = take;
        self.settle(lookahead, diagnostics);
    }

    /// Reports `lookahead` if it matched, keeps it if the chunk ended before it could tell.
    fn settle(&mut self, lookahead: Lookahead, diagnostics: &mut Diagnostics) {
        if !lookahead.can_match() {
            return;
        }
        if lookahead.len < lookahead.needed() {
            self.lookahead = Some(lookahead);
            return;
        }
        let message = if lookahead.code == Code::MultipleLayers {
            if self.reported_layers {
                return;
            }
            self.reported_layers = true;
            "`%25` followed by hex digits: the text looks percent-encoded more than once (decoding until stable peels every layer)"
        } else {
            "escape decodes to a bidirectional formatting character (U+202A..U+202E or U+2066..U+2069), which can disguise text"
        };
        diagnostics.push_lazy(lookahead.code, lookahead.at, || message.to_string());
    }
}

/// The message of a `malformed-escape` finding: `shown` is the `%` and the hex digit
/// after it, if any, that are kept as they are.
pub(crate) fn malformed_message(shown: &[u8]) -> String {
    let shown: String = shown.iter().map(|&b| b as char).collect();
    format!("{shown:?} is not followed by two hex digits; kept as it is")
}

/// The message for an escape of the control character `value` (C0 or DEL), made once.
fn control_message(value: u8) -> &'static str {
    static MESSAGES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let messages = MESSAGES.get_or_init(|| {
        (0..=0x7Fu8)
            .map(|v| format!("escape decodes to the control character U+{v:04X}"))
            .collect()
    });
    &messages[usize::from(value & 0x7F)]
}
