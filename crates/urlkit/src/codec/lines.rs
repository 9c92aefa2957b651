//! Entry framing: the whole input as one entry, or one entry per line.

use super::{Entry, Newline};
use crate::diagnostics::Diagnostics;

/// Feeds an [`Entry`] codec the whole input, or each LF- or CRLF-terminated line as its
/// own entry with the separator written after each result.
pub(crate) struct Framing<E: Entry> {
    entry: E,
    per_line: bool,
    newline: Newline,
    /// Input offset of the next byte.
    offset: u64,
    /// The current line has begun (bytes fed since the last separator).
    in_line: bool,
    /// A `\r` ended the last chunk; whether it belongs to a CRLF is not known yet.
    pending_cr: bool,
    /// The current line, counted from 1, and the input offset it starts at.
    line: u64,
    line_start: u64,
}

impl<E: Entry> Framing<E> {
    pub(crate) fn new(entry: E, per_line: bool, newline: Newline) -> Self {
        Framing {
            entry,
            per_line,
            newline,
            offset: 0,
            in_line: false,
            pending_cr: false,
            line: 1,
            line_start: 0,
        }
    }

    pub(crate) fn entry(&self) -> &E {
        &self.entry
    }

    /// Back to the start of a new input, as when new.
    pub(crate) fn reset(&mut self) {
        self.offset = 0;
        self.in_line = false;
        self.pending_cr = false;
        self.line = 1;
        self.line_start = 0;
        self.entry.reset(0);
    }

    /// Per-line mode: whether the next byte fed starts a line (nothing of a line is held).
    pub(crate) fn at_line_start(&self) -> bool {
        self.per_line && !self.in_line && !self.pending_cr
    }

    /// The number of the current line (counted from 1) and the input offset it starts at.
    pub(crate) fn line_position(&self) -> (u64, u64) {
        (self.line, self.line_start)
    }

    /// Per-line mode, at the start of a line: passes over `lines` whole lines, `bytes` of
    /// input with their line breaks, whose results (each followed by the separator) the
    /// caller wrote, as if they had been fed.
    pub(crate) fn pass_lines(&mut self, lines: u64, bytes: u64) {
        debug_assert!(self.at_line_start());
        self.offset += bytes;
        self.line += lines;
        self.line_start = self.offset;
        self.entry.reset(self.offset);
    }

    pub(crate) fn feed(&mut self, chunk: &[u8], out: &mut Vec<u8>, diagnostics: &mut Diagnostics) {
        if !self.per_line {
            self.entry.feed(chunk, out, diagnostics);
            self.offset += chunk.len() as u64;
            return;
        }
        diagnostics.start_line(self.line, self.line_start);
        let mut rest = chunk;
        if self.pending_cr && !rest.is_empty() {
            self.pending_cr = false;
            if rest[0] != b'\n' {
                self.entry.feed(b"\r", out, diagnostics);
            }
        }
        while !rest.is_empty() {
            match memchr::memchr(b'\n', rest) {
                Some(end) => {
                    let line = rest[..end].strip_suffix(b"\r").unwrap_or(&rest[..end]);
                    self.entry.feed(line, out, diagnostics);
                    self.entry.finish(out, diagnostics);
                    out.extend_from_slice(self.newline.as_bytes());
                    self.offset += end as u64 + 1;
                    self.entry.reset(self.offset);
                    self.in_line = false;
                    self.line += 1;
                    self.line_start = self.offset;
                    diagnostics.start_line(self.line, self.line_start);
                    rest = &rest[end + 1..];
                }
                None => {
                    self.in_line = true;
                    let (body, cr) = match rest.strip_suffix(b"\r") {
                        Some(body) => (body, true),
                        None => (rest, false),
                    };
                    self.entry.feed(body, out, diagnostics);
                    self.pending_cr = cr;
                    self.offset += rest.len() as u64;
                    rest = &[];
                }
            }
        }
    }

    pub(crate) fn finish(&mut self, out: &mut Vec<u8>, diagnostics: &mut Diagnostics) {
        if !self.per_line {
            self.entry.finish(out, diagnostics);
            return;
        }
        diagnostics.start_line(self.line, self.line_start);
        if self.pending_cr {
            self.pending_cr = false;
            self.entry.feed(b"\r", out, diagnostics);
        }
        if self.in_line {
            self.entry.finish(out, diagnostics);
            out.extend_from_slice(self.newline.as_bytes());
            self.in_line = false;
            self.entry.reset(self.offset);
        }
    }
}
