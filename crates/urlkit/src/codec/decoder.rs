//! Decoding one entry: escapes → bytes → text in the chosen (or detected) charset.

use super::percent::PercentDecoder;
use super::utf8::Utf8Stream;
use super::{CharsetChoice, DecodeOptions, Entry};
use crate::charset::{Charset, TextDecoder};
use crate::detect::{self, Detection};
use crate::diagnostics::{Code, Diagnostic, Diagnostics};

/// How much raw input `auto` looks at before choosing a charset.
const DETECTION_WINDOW: usize = 64 * 1024;

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
    buffer: Vec<u8>,
    map: Vec<u64>,
    scratch: Vec<u8>,
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
            buffer: Vec::new(),
            map: Vec::new(),
            scratch: Vec::new(),
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
                CharsetChoice::Auto => Stage::Detecting(Vec::new()),
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
    fn resolve_detection(&mut self, out: &mut Vec<u8>, diagnostics: &mut Diagnostics) {
        let Stage::Detecting(raw) = &mut self.stage else {
            return;
        };
        let raw = std::mem::take(raw);
        let mut probe = self.percent.clone();
        let mut decoded = Vec::with_capacity(raw.len());
        let mut ignored = Diagnostics::with_limit(0);
        probe.decode(&raw, &mut decoded, &mut ignored);
        probe.finish(&mut decoded, &mut ignored);
        let hint = detect::tld_of_url(&decoded);
        let detection = detect::detect(&decoded, hint);
        let charset = Charset::for_label(detection.charset).unwrap_or(Charset::UTF_8);
        let mut message = format!(
            "charset detected: {} ({}, confidence {:.2})",
            charset.name(),
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
        diagnostics.push(Diagnostic::new(
            Code::CharsetDetected,
            self.percent.offset(),
            message,
        ));
        self.stage = self.stage_for(charset);
        self.skip = detection.bom_length;
        self.detection = Some(detection);
        self.process(&raw, false, out, diagnostics);
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
        let before = self.percent.clone();
        self.buffer.clear();
        if finish {
            self.percent.finish(&mut self.buffer, diagnostics);
        } else {
            self.percent.decode(input, &mut self.buffer, diagnostics);
        }
        let dropped = self.skip.min(self.buffer.len());
        self.skip -= dropped;
        let decoded = &self.buffer[dropped..];

        // Invalid sequences are located lazily: the input offset of every decoded byte is
        // worked out only for a chunk that has one.
        let mut found: Vec<(isize, usize)> = Vec::new();
        match &mut self.stage {
            Stage::Utf8(stream) => {
                stream.feed::<true>(decoded, out, |s, l| found.push((s, l)));
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
            return;
        }
        self.map.clear();
        let mut replay = before.clone();
        self.scratch.clear();
        let mut ignored = Diagnostics::with_limit(0);
        if finish {
            replay.finish_tracked(&mut self.scratch, &mut self.map, &mut ignored);
        } else {
            replay.decode_tracked(input, &mut self.scratch, &mut self.map, &mut ignored);
        }
        let charset = self.charset.map(|c| c.name()).unwrap_or("UTF-8");
        for (start, length) in found {
            let index = start + dropped as isize;
            let offset = if index >= 0 {
                self.map.get(index as usize).copied()
            } else {
                before.recent_offset(index.unsigned_abs() as u64)
            }
            .unwrap_or_else(|| before.offset());
            diagnostics.push(Diagnostic::new(
                Code::InvalidSequence,
                offset,
                format!("{length} byte(s) that are not valid {charset}; decoded as U+FFFD"),
            ));
        }
    }
}

impl Entry for EntryDecoder {
    fn feed(&mut self, input: &[u8], out: &mut Vec<u8>, diagnostics: &mut Diagnostics) {
        if let Stage::Detecting(raw) = &mut self.stage {
            raw.extend_from_slice(input);
            if raw.len() >= DETECTION_WINDOW {
                self.resolve_detection(out, diagnostics);
            }
            return;
        }
        self.process(input, false, out, diagnostics);
    }

    fn finish(&mut self, out: &mut Vec<u8>, diagnostics: &mut Diagnostics) {
        if let Stage::Detecting(_) = self.stage {
            self.resolve_detection(out, diagnostics);
        }
        self.process(&[], true, out, diagnostics);
    }

    fn reset(&mut self, offset: u64) {
        self.percent.reset(offset);
        if self.options.charset == CharsetChoice::Auto {
            self.charset = None;
            self.detection = None;
        }
        self.start_stage();
    }
}
