//! Decoding one entry: escapes → bytes → text in the chosen (or detected) charset.

use super::joined::JoinedEntries;
use super::percent::PercentDecoder;
use super::utf8::Utf8Stream;
use super::{CharsetChoice, DecodeOptions, Entry};
use crate::charset::{Charset, TextDecoder};
use crate::detect::{self, Detection};
use crate::diagnostics::{Code, Diagnostics};

/// How much input the UTF-8 path decodes and validates at a time.
pub(crate) const UTF8_PIECE: usize = 64 * 1024;

/// How much raw input `auto` looks at before choosing a charset.
pub(crate) const DETECTION_WINDOW: usize = 64 * 1024;

enum Stage {
    /// Raw decoded bytes (binary mode).
    Bytes,
    Utf8(Utf8Stream),
    Text(TextDecoder),
    /// `auto`: raw input held until there is enough to choose a charset.
    Detecting(Vec<u8>),
}

pub(crate) struct EntryDecoder {
    options: DecodeOptions,
    percent: PercentDecoder,
    stage: Stage,
    /// Decoded bytes still to drop (a byte order mark that chose the charset).
    skip: usize,
    charset: Option<Charset>,
    detection: Option<Detection>,
    /// A `literal-non-ascii` finding was made for this entry.
    reported_literal: bool,
    /// Text input in a legacy charset: its literal characters, checked as UTF-8 (a
    /// character cut by a chunk's end is held for the next chunk).
    literal: Utf8Stream,
    /// Watches for line breaks removed between entries (when whitespace is removed).
    joined: Option<JoinedEntries>,
    buffer: Vec<u8>,
    map: Vec<u64>,
    scratch: Vec<u8>,
    /// The invalid sequences of the chunk being converted (start, length), kept for the
    /// next chunk's.
    found: Vec<(isize, usize)>,
    /// `auto`: the memory of the last entry's held raw input and of its bytes as
    /// detection saw them, reused by the next entry (per line, one entry a line).
    held: Vec<u8>,
    probed: Vec<u8>,
}

impl EntryDecoder {
    pub(crate) fn new(options: &DecodeOptions) -> Self {
        let check_bidi = matches!(options.charset, CharsetChoice::Fixed(c) if c.is_utf8())
            || options.charset == CharsetChoice::Auto;
        let mut decoder = EntryDecoder {
            options: options.clone(),
            percent: PercentDecoder::new(!options.keep_whitespace, options.plus_space, check_bidi),
            stage: Stage::Bytes,
            skip: 0,
            charset: None,
            detection: None,
            reported_literal: false,
            literal: Utf8Stream::default(),
            joined: (!options.keep_whitespace).then(JoinedEntries::new),
            buffer: Vec::new(),
            map: Vec::new(),
            scratch: Vec::new(),
            found: Vec::new(),
            held: Vec::new(),
            probed: Vec::new(),
        };
        decoder.start_stage();
        decoder
    }

    fn start_stage(&mut self) {
        self.skip = 0;
        self.stage = if self.options.binary {
            Stage::Bytes
        } else {
            match self.options.charset {
                CharsetChoice::Fixed(charset) => self.stage_for(charset),
                CharsetChoice::Auto => Stage::Detecting(std::mem::take(&mut self.held)),
            }
        };
    }

    fn stage_for(&mut self, charset: Charset) -> Stage {
        self.charset = Some(charset);
        if charset.is_utf8() {
            Stage::Utf8(Utf8Stream::default())
        } else {
            Stage::Text(TextDecoder::new(charset))
        }
    }

    /// The charset in use: the chosen one, or the detected one once detection ran.
    pub(crate) fn charset(&self) -> Option<Charset> {
        self.charset
    }

    pub(crate) fn detection(&self) -> Option<&Detection> {
        self.detection.as_ref()
    }

    /// Chooses the charset for the held raw input and decodes it.
    fn resolve_detection(
        &mut self,
        complete: bool,
        out: &mut Vec<u8>,
        diagnostics: &mut Diagnostics,
    ) {
        let Stage::Detecting(raw) = &mut self.stage else {
            return;
        };
        let mut raw = std::mem::take(raw);
        let mut probe = self.percent.clone();
        let mut decoded = std::mem::take(&mut self.probed);
        decoded.clear();
        let mut ignored = Diagnostics::with_limit(0);
        if self.options.text {
            // Literal characters of text say nothing about the charset of the escapes.
            let escapes: Vec<u8> = raw.iter().copied().filter(u8::is_ascii).collect();
            probe.decode(&escapes, &mut decoded, &mut ignored);
        } else {
            probe.decode(&raw, &mut decoded, &mut ignored);
        }
        if complete {
            // Only at the true end is an unfinished escape literal text.
            probe.finish(&mut decoded, &mut ignored);
        }
        let detection = detect::detect_url_entry(&decoded, complete, self.options.ranking);
        let charset = detection.charset;
        // The note is written only when it is kept: per line, past the findings cap,
        // most entries are only counted.
        diagnostics.push_lazy(Code::CharsetDetected, self.percent.offset(), || {
            detected_message(&detection)
        });
        self.stage = self.stage_for(charset);
        self.skip = detection.bom_length;
        self.detection = Some(detection);
        self.convert(&raw, out, diagnostics);
        raw.clear();
        (self.held, self.probed) = (raw, decoded);
    }

    /// Whether literal non-ASCII input goes around the charset: text input read in a
    /// charset other than UTF-8.
    fn keeps_literal_characters(&self) -> bool {
        self.options.text && matches!(self.stage, Stage::Text(_))
    }

    /// Decodes a chunk in the chosen charset. Text input in a legacy charset is cut at its
    /// literal non-ASCII characters: the escapes around them are decoded in the charset, each
    /// run to its end, and the characters are written as they are. Byte input with literal
    /// non-ASCII bytes in a legacy charset is decoded whole and reported once per entry.
    fn convert(&mut self, input: &[u8], out: &mut Vec<u8>, diagnostics: &mut Diagnostics) {
        if !self.keeps_literal_characters() {
            if !self.reported_literal && matches!(self.stage, Stage::Text(_)) {
                self.report_literal(input, diagnostics);
            }
            self.process(input, false, out, diagnostics);
            return;
        }
        let mut rest = input;
        while !rest.is_empty() {
            let ascii = rest
                .iter()
                .position(|b| !b.is_ascii())
                .unwrap_or(rest.len());
            if ascii > 0 {
                // A character of text cut short before ASCII is an invalid sequence.
                self.end_literal(out, diagnostics);
            }
            self.process(&rest[..ascii], false, out, diagnostics);
            rest = &rest[ascii..];
            let literal = rest.iter().position(u8::is_ascii).unwrap_or(rest.len());
            if literal > 0 {
                // What the charset holds back cannot continue past a character of text.
                self.process(&[], true, out, diagnostics);
                if let Some(charset) = self.charset {
                    self.stage = self.stage_for(charset);
                }
                self.write_literal(&rest[..literal], out, diagnostics);
                rest = &rest[literal..];
            }
        }
    }

    /// Writes literal characters of text input as they are; bytes that are not UTF-8 (text
    /// that is not text) become U+FFFD, each reported as `invalid-sequence`.
    fn write_literal(&mut self, run: &[u8], out: &mut Vec<u8>, diagnostics: &mut Diagnostics) {
        let start = self.percent.offset();
        self.literal.feed::<true>(run, out, |at, length| {
            report_invalid_literal(start, at, length, diagnostics)
        });
        self.percent.pass_over(run.len() as u64);
    }

    /// Ends a run of literal characters: a character left incomplete becomes U+FFFD.
    fn end_literal(&mut self, out: &mut Vec<u8>, diagnostics: &mut Diagnostics) {
        let end = self.percent.offset();
        self.literal.finish::<true>(out, |at, length| {
            report_invalid_literal(end, at, length, diagnostics)
        });
    }

    /// Reports the first literal non-ASCII byte of `input`, if any, as read in the charset.
    fn report_literal(&mut self, input: &[u8], diagnostics: &mut Diagnostics) {
        let Some(at) = input.iter().position(|b| !b.is_ascii()) else {
            return;
        };
        self.reported_literal = true;
        let charset = self.charset.map(|c| c.name()).unwrap_or("the charset");
        diagnostics.push_lazy(
            Code::LiteralNonAscii,
            self.percent.offset() + at as u64,
            || {
                format!(
                    "literal non-ASCII byte 0x{:02X} read in {charset} like the escapes; \
                 text input (an argument, a JSON string) would keep its characters as they are",
                    input[at]
                )
            },
        );
    }

    /// Percent-decodes `input` (or, with `finish`, ends the entry) and converts the bytes.
    fn process(
        &mut self,
        input: &[u8],
        finish: bool,
        out: &mut Vec<u8>,
        diagnostics: &mut Diagnostics,
    ) {
        if let Stage::Bytes = self.stage {
            if finish {
                self.percent.finish(out, diagnostics);
            } else {
                self.percent.decode(input, out, diagnostics);
            }
            return;
        }
        let before = self.percent.snapshot();
        self.buffer.clear();
        // Index, among the bytes decoded from this chunk, of `self.buffer[0]`.
        let mut base = 0usize;
        if finish {
            self.percent.finish(&mut self.buffer, diagnostics);
        } else if let (Stage::Utf8(stream), 0) = (&mut self.stage, self.skip) {
            // The common case decodes straight into `out` and validates the bytes where
            // they are; only a chunk with an invalid sequence takes the general path.
            let start = out.len();
            let held = stream.move_carry_into(out);
            self.percent.decode(input, out, diagnostics);
            match stream.validate_in_place(out, start) {
                Ok(()) => return,
                Err(valid) if valid >= held => {
                    // What comes before the invalid sequence stays where it is.
                    base = valid - held;
                    self.buffer.extend_from_slice(&out[start + valid..]);
                    out.truncate(start + valid);
                }
                Err(_) => {
                    stream.restore_carry(&out[start..start + held]);
                    self.buffer.extend_from_slice(&out[start + held..]);
                    out.truncate(start);
                }
            }
        } else {
            self.percent.decode(input, &mut self.buffer, diagnostics);
        }
        let dropped = self.skip.min(self.buffer.len());
        self.skip -= dropped;
        let decoded = &self.buffer[dropped..];

        // Invalid sequences are located lazily: the input offset of every decoded byte is
        // worked out only for a chunk that has one.
        let mut found = std::mem::take(&mut self.found);
        found.clear();
        match &mut self.stage {
            Stage::Utf8(stream) => {
                let base = base as isize;
                stream.feed::<true>(decoded, out, |s, l| found.push((s + base, l)));
                if finish {
                    stream.finish::<true>(out, |s, l| found.push((s + decoded.len() as isize, l)));
                }
            }
            Stage::Text(decoder) => {
                decoder.decode(decoded, finish, out, |s, l| found.push((s, l)));
            }
            Stage::Bytes | Stage::Detecting(_) => {}
        }
        if found.is_empty() {
            self.found = found;
            return;
        }
        let mut locator = Locator::new(&before, input, finish, self.percent.checkpoints());
        let charset = self.charset.map(|c| c.name()).unwrap_or("UTF-8");
        for &(start, length) in &found {
            let index = start + dropped as isize;
            let offset = if index >= 0 {
                locator.offset_of(index as usize, &mut self.map, &mut self.scratch)
            } else {
                before.recent_offset(index.unsigned_abs() as u64)
            }
            .unwrap_or_else(|| before.offset());
            diagnostics.push_lazy(Code::InvalidSequence, offset, || {
                invalid_message(length, charset)
            });
        }
        self.found = found;
    }
}

/// The message of an `invalid-sequence` finding: `length` decoded bytes that are not
/// valid in the charset named `charset`.
pub(crate) fn invalid_message(length: usize, charset: &str) -> String {
    format!("{length} byte(s) that are not valid {charset}; decoded as U+FFFD")
}

/// Reports `length` bytes of text input that are not UTF-8, at `at` bytes from the input
/// offset `base` (negative: bytes held over from before it).
fn report_invalid_literal(base: u64, at: isize, length: usize, diagnostics: &mut Diagnostics) {
    diagnostics.push_lazy(
        Code::InvalidSequence,
        base.saturating_add_signed(at as i64),
        || format!("{length} byte(s) of text input that are not valid UTF-8; decoded as U+FFFD"),
    );
}

/// How much input the locator replays with offsets tracked at a time.
const LOCATOR_PIECE: usize = 1024;

/// Finds the input offset of decoded bytes by replaying the percent decoder over the
/// chunk: quickly up to the piece of input that holds the byte, then that piece with every
/// output byte's offset recorded. Requests come in increasing order.
struct Locator<'a> {
    /// The decoder's state at the start of the unexamined input.
    replay: PercentDecoder,
    input: &'a [u8],
    finish: bool,
    /// Input bytes and output bytes behind `replay`.
    consumed: usize,
    produced: usize,
    /// Output bytes the tracked piece in the map starts at, once there is one.
    mapped_from: Option<usize>,
    /// The state at the start of the chunk, and where the decoder was idle in it.
    before: &'a PercentDecoder,
    checkpoints: &'a [(usize, usize)],
}

impl<'a> Locator<'a> {
    fn new(
        before: &'a PercentDecoder,
        input: &'a [u8],
        finish: bool,
        checkpoints: &'a [(usize, usize)],
    ) -> Self {
        Locator {
            replay: before.clone(),
            input,
            finish,
            consumed: 0,
            produced: 0,
            mapped_from: None,
            before,
            checkpoints: if finish { &[] } else { checkpoints },
        }
    }

    fn offset_of(
        &mut self,
        index: usize,
        map: &mut Vec<u64>,
        scratch: &mut Vec<u8>,
    ) -> Option<u64> {
        let mut ignored = Diagnostics::with_limit(0);
        if let Some(from) = self.mapped_from {
            if index >= from && index < from + map.len() {
                return map.get(index - from).copied();
            }
        }
        if self.finish {
            map.clear();
            scratch.clear();
            self.replay
                .clone()
                .finish_tracked(scratch, map, &mut ignored);
            self.mapped_from = Some(0);
            return map.get(index).copied();
        }
        // Skip ahead to the last checkpoint at or before the byte.
        let usable = self
            .checkpoints
            .partition_point(|&(_, output)| output <= index);
        if let Some(&(consumed, produced)) = usable.checked_sub(1).map(|k| &self.checkpoints[k]) {
            if consumed > self.consumed {
                self.replay = self.before.resumed_at(consumed);
                self.consumed = consumed;
                self.produced = produced;
            }
        }
        loop {
            let end = (self.consumed + LOCATOR_PIECE).min(self.input.len());
            let piece = &self.input[self.consumed..end];
            // The last piece holds the byte if any does: it is replayed tracked at once,
            // without first being decoded to see whether it does (a short entry is all
            // one piece).
            let last = end == self.input.len();
            let mut ahead = self.replay.clone();
            scratch.clear();
            if !last {
                ahead.decode(piece, scratch, &mut ignored);
            }
            if last || self.produced + scratch.len() > index {
                map.clear();
                scratch.clear();
                self.replay
                    .clone()
                    .decode_tracked(piece, scratch, map, &mut ignored);
                self.mapped_from = Some(self.produced);
                return map.get(index.checked_sub(self.produced)?).copied();
            }
            self.replay = ahead;
            self.produced += scratch.len();
            self.consumed = end;
        }
    }
}

impl Entry for EntryDecoder {
    fn feed(&mut self, input: &[u8], out: &mut Vec<u8>, diagnostics: &mut Diagnostics) {
        if let Some(joined) = &mut self.joined {
            joined.scan(input, diagnostics);
        }
        if let Stage::Detecting(raw) = &mut self.stage {
            raw.extend_from_slice(input);
            if raw.len() >= DETECTION_WINDOW {
                self.resolve_detection(false, out, diagnostics);
            }
            return;
        }
        if let Stage::Utf8(_) = self.stage {
            // In pieces, so that an invalid sequence sends only its own piece down the
            // slower path that copies and locates.
            for piece in input.chunks(UTF8_PIECE) {
                self.process(piece, false, out, diagnostics);
            }
        } else {
            self.convert(input, out, diagnostics);
        }
    }

    fn finish(&mut self, out: &mut Vec<u8>, diagnostics: &mut Diagnostics) {
        if let Stage::Detecting(_) = self.stage {
            self.resolve_detection(true, out, diagnostics);
        }
        self.end_literal(out, diagnostics);
        self.process(&[], true, out, diagnostics);
    }

    fn reset(&mut self, offset: u64) {
        self.percent.reset(offset);
        if let Some(joined) = &mut self.joined {
            joined.reset(offset);
        }
        self.reported_literal = false;
        self.literal = Utf8Stream::default();
        if self.options.charset == CharsetChoice::Auto {
            self.charset = None;
            self.detection = None;
        }
        self.start_stage();
    }
}

/// The message of the `charset-detected` finding `auto` makes for `detection`.
pub(crate) fn detected_message(detection: &Detection) -> String {
    let mut message = format!(
        "charset detected: {} ({}, confidence {:.2})",
        detection.charset.name(),
        detection.reason,
        detection.confidence
    );
    if !detection.runners_up.is_empty() {
        let others: Vec<String> = detection
            .runners_up
            .iter()
            .map(|c| format!("{} {:.2}", c.charset, c.confidence))
            .collect();
        message.push_str(&format!("; other candidates: {}", others.join(", ")));
    }
    message
}

#[cfg(test)]
mod tests {
    use crate::codec::Decoder;
    use crate::{Charset, CharsetChoice, Code, DecodeOptions, Diagnostics};
    use proptest::prelude::*;

    const PIECES: &[&str] = &[
        "a",
        "%41",
        "%C3",
        "%A9",
        "%E5%BC%95",
        "%FF",
        "%E2%80%AE",
        "%2",
        "%zz",
        "%",
        "%25",
        "%0A",
        " ",
        "\n",
        "+",
        "é",
        "引",
        "%F0%9F%98%80",
        "%80",
        "%2541",
        "https://",
    ];

    /// The output and the code and offset of each finding that does not look past the
    /// chunk (a message may describe bytes held over from an earlier chunk less precisely;
    /// the bidi and layer checks look at the rest of the chunk only).
    fn run(input: &[u8], cuts: &[usize], options: &DecodeOptions) -> (Vec<u8>, Vec<String>) {
        let mut decoder = Decoder::new(options);
        let mut out = Vec::new();
        let mut diagnostics = Diagnostics::new();
        let mut start = 0;
        for &cut in cuts {
            let cut = cut.min(input.len()).max(start);
            decoder.feed(&input[start..cut], &mut out, &mut diagnostics);
            start = cut;
        }
        decoder.feed(&input[start..], &mut out, &mut diagnostics);
        decoder.finish(&mut out, &mut diagnostics);
        let mut found: Vec<String> = diagnostics
            .items()
            .iter()
            .filter(|d| !matches!(d.code, Code::BidiCharacter | Code::MultipleLayers))
            .map(|d| format!("{} {}", d.code, d.offset))
            .collect();
        // Findings are in input order per stage, and each chunk goes through both stages.
        found.sort();
        (out, found)
    }

    /// The detection window of `auto` ends inside an escaped character: the text is still
    /// UTF-8, whatever the offset of the cut.
    #[test]
    fn auto_detects_utf8_when_its_window_ends_inside_a_character() {
        let options = DecodeOptions {
            charset: CharsetChoice::Auto,
            ..DecodeOptions::default()
        };
        for lead in 0..9 {
            let text = "x".repeat(lead) + &"東京都の天気。Привет".repeat(3000);
            let encoded: String = text.bytes().map(|b| format!("%{b:02X}")).collect();
            let mut decoder = Decoder::new(&options);
            let mut out = Vec::new();
            let mut diagnostics = Diagnostics::new();
            for chunk in encoded.as_bytes().chunks(70_000) {
                decoder.feed(chunk, &mut out, &mut diagnostics);
            }
            decoder.finish(&mut out, &mut diagnostics);
            assert_eq!(
                decoder.charset().map(|c| c.name()),
                Some("UTF-8"),
                "lead {lead}"
            );
            assert!(out == text.as_bytes(), "lead {lead}");
        }
    }

    /// Invalid sequences far apart in a large input, each at a known offset, some on the
    /// boundaries of the pieces the UTF-8 path works in.
    #[test]
    fn invalid_sequences_in_a_large_input_are_found_where_they_are() {
        let mut input = Vec::new();
        let mut expected_output = Vec::new();
        let mut expected_offsets = Vec::new();
        for (k, gap) in [100usize, 65_433, 65_536, 1, 200_000, 70_000, 3]
            .into_iter()
            .enumerate()
        {
            input.extend(std::iter::repeat_n(b'a', gap));
            expected_output.extend(std::iter::repeat_n(b'a', gap));
            expected_offsets.push(input.len() as u64);
            if k % 2 == 0 {
                // An escape of a byte that never starts a character.
                input.extend_from_slice(b"%FF");
                expected_output.extend_from_slice("\u{FFFD}".as_bytes());
            } else {
                // A raw lead byte without its continuation.
                input.extend_from_slice(b"\xC3(");
                expected_output.extend_from_slice("\u{FFFD}(".as_bytes());
            }
        }
        for cuts in [vec![], vec![65_536], vec![1, 65_535, 131_072, 300_000]] {
            let (output, found) = run(&input, &cuts, &DecodeOptions::default());
            assert!(output == expected_output, "output differs, cuts {cuts:?}");
            let mut offsets: Vec<u64> = found
                .iter()
                .map(|f| {
                    assert!(f.starts_with(&Code::InvalidSequence.to_string()), "{f}");
                    f.rsplit(' ').next().unwrap().parse().unwrap()
                })
                .collect();
            offsets.sort_unstable();
            assert_eq!(offsets, expected_offsets, "cuts {cuts:?}");
        }
    }

    fn legacy(label: &str, text: bool) -> DecodeOptions {
        DecodeOptions {
            charset: CharsetChoice::for_label(label).unwrap(),
            text,
            ..DecodeOptions::default()
        }
    }

    #[test]
    fn text_keeps_its_characters_and_reads_only_escapes_in_a_legacy_charset() {
        let outcome = crate::decode("漢%FC".as_bytes(), &legacy("latin1", true));
        assert_eq!(outcome.text(), "漢ü");
        assert!(outcome.diagnostics.is_empty(), "{:?}", outcome.diagnostics);
        let outcome = crate::decode("東京 %83%89%81%5B".as_bytes(), &legacy("sjis", true));
        assert_eq!(outcome.text(), "東京ラー");
        // An escaped character cut by a literal one is invalid on both sides of it.
        let outcome = crate::decode("%83漢%89".as_bytes(), &legacy("sjis", true));
        assert!(outcome.text().contains('漢'), "{}", outcome.text());
        let codes: Vec<Code> = outcome.diagnostics.iter().map(|d| d.code).collect();
        assert!(codes.contains(&Code::InvalidSequence), "{codes:?}");
        // `auto` judges the escapes alone.
        let auto = DecodeOptions {
            charset: CharsetChoice::Auto,
            text: true,
            ..DecodeOptions::default()
        };
        assert_eq!(
            crate::decode("ラーメン=%83%89%81%5B%83%81%83%93".as_bytes(), &auto).text(),
            "ラーメン=ラーメン"
        );
    }

    #[test]
    fn bytes_are_read_whole_in_the_charset_and_a_literal_non_ascii_byte_is_reported() {
        let outcome = crate::decode("ab漢%FC".as_bytes(), &legacy("latin1", false));
        assert_eq!(outcome.text(), "abæ¼¢ü");
        let literal: Vec<u64> = outcome
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::LiteralNonAscii)
            .map(|d| d.offset)
            .collect();
        assert_eq!(literal, [2], "reported once, at the first such byte");
        // UTF-8 reads literal bytes as text either way, and says nothing.
        for text in [false, true] {
            let outcome = crate::decode("漢%E5%AD%97".as_bytes(), &legacy("utf-8", text));
            assert_eq!(outcome.text(), "漢字");
            assert!(outcome.diagnostics.is_empty());
        }
    }

    #[test]
    fn text_that_is_not_utf8_becomes_replacement_characters() {
        // Text input is meant to hold characters; bytes that are not UTF-8 are repaired
        // and reported, never written through.
        let outcome = crate::decode(b"a\xC1\xC1%FC\xE6\xBC", &legacy("latin1", true));
        assert_eq!(outcome.text(), "a\u{FFFD}\u{FFFD}\u{FC}\u{FFFD}");
        let found: Vec<(Code, u64)> = outcome
            .diagnostics
            .iter()
            .map(|d| (d.code, d.offset))
            .collect();
        assert_eq!(
            found,
            [
                (Code::InvalidSequence, 1),
                (Code::InvalidSequence, 2),
                (Code::InvalidSequence, 6)
            ]
        );
    }

    #[test]
    fn per_line_text_keeps_characters_on_every_line() {
        let options = DecodeOptions {
            per_line: true,
            ..legacy("latin1", true)
        };
        let outcome = crate::decode("é%E9\r\n漢%FC\n".as_bytes(), &options);
        assert_eq!(outcome.text(), "éé\n漢ü\n");
    }

    #[test]
    fn urls_on_separate_lines_are_reported_as_joined_unless_each_line_is_an_entry() {
        let input = b"https://a/%D0%98\r\nhttps://b/";
        let joined = |options: &DecodeOptions| {
            crate::decode(input, options)
                .diagnostics
                .iter()
                .filter(|d| d.code == Code::EntriesJoined)
                .map(|d| d.offset)
                .collect::<Vec<_>>()
        };
        assert_eq!(joined(&DecodeOptions::default()), [17]);
        let binary = DecodeOptions {
            binary: true,
            ..DecodeOptions::default()
        };
        assert_eq!(joined(&binary), [17]);
        for options in [
            DecodeOptions {
                per_line: true,
                ..DecodeOptions::default()
            },
            DecodeOptions {
                keep_whitespace: true,
                ..DecodeOptions::default()
            },
        ] {
            assert!(joined(&options).is_empty(), "{options:?}");
        }
    }

    proptest! {
        #[test]
        fn any_chunking_gives_the_whole_result_with_the_same_findings(
            pieces in proptest::collection::vec(0..PIECES.len(), 0..120),
            mut cuts in proptest::collection::vec(0usize..600, 0..6),
            charset in 0..4usize,
            text in any::<bool>(),
        ) {
            let input: String = pieces.iter().map(|&p| PIECES[p]).collect();
            cuts.sort_unstable();
            let options = DecodeOptions {
                charset: match charset {
                    0 => CharsetChoice::default(),
                    1 => CharsetChoice::Auto,
                    2 => CharsetChoice::for_label("shift_jis").unwrap(),
                    _ => CharsetChoice::Fixed(Charset::for_label("latin1").unwrap()),
                },
                text,
                ..DecodeOptions::default()
            };
            let whole = run(input.as_bytes(), &[], &options);
            prop_assert_eq!(run(input.as_bytes(), &cuts, &options), whole);
        }

        #[test]
        fn text_in_a_legacy_charset_is_utf8_out_in_any_chunking(
            pieces in proptest::collection::vec(0..LITERAL_PIECES.len(), 0..60),
            mut cuts in proptest::collection::vec(0usize..200, 0..6),
        ) {
            let input: Vec<u8> = pieces.iter().flat_map(|&p| LITERAL_PIECES[p].iter().copied()).collect();
            cuts.sort_unstable();
            let options = legacy("latin1", true);
            let whole = run(&input, &[], &options);
            prop_assert!(std::str::from_utf8(&whole.0).is_ok(), "{:?}", whole.0);
            prop_assert_eq!(run(&input, &cuts, &options), whole);
        }
    }

    /// Literal pieces of text input, some not UTF-8 (a lone lead byte, a cut character).
    const LITERAL_PIECES: &[&[u8]] = &[
        b"a",
        b"%FC",
        b"%E9",
        "\u{6f22}".as_bytes(),
        "\u{e9}".as_bytes(),
        b"\xC1",
        b"\xE6\xBC",
        b"\xBC",
        b"\xFF",
        b"%",
        b"%zz",
    ];
}
