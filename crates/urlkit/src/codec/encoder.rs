//! Encoding one entry: text → charset bytes → escapes.

use super::kernel::{escape_into, EscapeTable};
use super::utf8::Utf8Stream;
use super::{EncodeOptions, Entry};
use crate::charset::{Charset, TextEncoder, Unencodable};
use crate::diagnostics::{Code, Diagnostic, Diagnostics};

enum Stage {
    /// Bytes escaped as they are (binary mode).
    Bytes,
    /// UTF-8 target: the input bytes are the charset bytes; validated for findings only.
    Utf8(Utf8Stream),
    /// Any other charset: input decoded as UTF-8, converted, then escaped.
    Text {
        encoder: TextEncoder,
        held: Vec<u8>,
        converted: Vec<u8>,
    },
}

pub(crate) struct EntryEncoder {
    table: EscapeTable,
    charset: Charset,
    stage: Stage,
    /// Input offset of the next byte.
    offset: u64,
}

impl EntryEncoder {
    pub(crate) fn new(options: &EncodeOptions) -> Self {
        let space_plus = options.space_plus || options.set.writes_space_as_plus();
        let table = EscapeTable::new(options.set, space_plus, options.lowercase);
        let mut encoder = EntryEncoder {
            table,
            charset: options.charset,
            stage: Stage::Bytes,
            offset: 0,
        };
        encoder.stage = encoder.fresh_stage(options.binary);
        encoder
    }

    fn fresh_stage(&self, binary: bool) -> Stage {
        if binary {
            Stage::Bytes
        } else if self.charset.is_utf8() {
            Stage::Utf8(Utf8Stream::default())
        } else {
            Stage::Text {
                encoder: TextEncoder::new(self.charset),
                held: Vec::new(),
                converted: Vec::new(),
            }
        }
    }

    fn convert(
        &mut self,
        input: &[u8],
        last: bool,
        out: &mut Vec<u8>,
        diagnostics: &mut Diagnostics,
    ) {
        let Stage::Text {
            encoder,
            held,
            converted,
        } = &mut self.stage
        else {
            return;
        };
        // Offset of `held[0]` in the input.
        let base = self.offset - held.len() as u64;
        held.extend_from_slice(input);
        let table = &self.table;
        let charset = self.charset;
        let mut position = 0;
        loop {
            let (valid, problem) = match std::str::from_utf8(&held[position..]) {
                Ok(text) => (text, None),
                Err(error) => {
                    let end = position + error.valid_up_to();
                    // The prefix up to `valid_up_to` is valid UTF-8.
                    let text = std::str::from_utf8(&held[position..end]).unwrap_or_default();
                    (text, Some((end, error.error_len())))
                }
            };
            let text_base = base + position as u64;
            let is_last = last && problem.is_none();
            encoder.encode(valid, is_last, converted, |u, converted| {
                escape_into(converted, table, out);
                converted.clear();
                write_character_reference(u, table, out);
                diagnostics.push(unencodable(u, text_base, charset));
            });
            match problem {
                None => {
                    held.clear();
                    break;
                }
                Some((end, Some(length))) => {
                    diagnostics.push(Diagnostic::new(
                        Code::InvalidInput,
                        base + end as u64,
                        format!(
                            "{} is not valid UTF-8 text; encoded as U+FFFD",
                            hex_bytes(&held[end..end + length])
                        ),
                    ));
                    encoder.encode("\u{FFFD}", false, converted, |u, converted| {
                        escape_into(converted, table, out);
                        converted.clear();
                        write_character_reference(u, table, out);
                    });
                    position = end + length;
                }
                Some((end, None)) => {
                    if last {
                        diagnostics.push(Diagnostic::new(
                            Code::InvalidInput,
                            base + end as u64,
                            format!(
                                "{} is an incomplete UTF-8 sequence at the end of the text; encoded as U+FFFD",
                                hex_bytes(&held[end..])
                            ),
                        ));
                        encoder.encode("\u{FFFD}", true, converted, |u, converted| {
                            escape_into(converted, table, out);
                            converted.clear();
                            write_character_reference(u, table, out);
                        });
                        held.clear();
                    } else {
                        held.drain(..end);
                    }
                    break;
                }
            }
        }
        escape_into(converted, table, out);
        converted.clear();
    }
}

/// Writes `&#N;` for an unencodable character, escaped the way browsers submit forms:
/// `&`, `#` and `;` always as `%26`, `%23`, `%3B`.
fn write_character_reference(u: Unencodable, table: &EscapeTable, out: &mut Vec<u8>) {
    table.push_escaped(b'&', out);
    table.push_escaped(b'#', out);
    for digit in (u.character as u32).to_string().bytes() {
        if table.keeps(digit) {
            out.push(digit);
        } else {
            table.push_escaped(digit, out);
        }
    }
    table.push_escaped(b';', out);
}

fn unencodable(u: Unencodable, text_base: u64, charset: Charset) -> Diagnostic {
    Diagnostic::new(
        Code::UnencodableCharacter,
        text_base + u.offset as u64,
        format!(
            "U+{:04X} {:?} cannot be represented in {}; written as &#{};",
            u.character as u32,
            u.character,
            charset.name(),
            u.character as u32
        ),
    )
}

pub(crate) fn hex_bytes(bytes: &[u8]) -> String {
    let mut text = String::new();
    for (i, byte) in bytes.iter().enumerate() {
        if i > 0 {
            text.push(' ');
        }
        text.push_str(&format!("0x{byte:02X}"));
    }
    text
}

impl Entry for EntryEncoder {
    fn feed(&mut self, input: &[u8], out: &mut Vec<u8>, diagnostics: &mut Diagnostics) {
        match &mut self.stage {
            Stage::Bytes => escape_into(input, &self.table, out),
            Stage::Utf8(stream) => {
                escape_into(input, &self.table, out);
                let base = self.offset;
                stream.feed::<false>(input, out, |start, length| {
                    diagnostics.push(invalid_input(base, start, length));
                });
            }
            Stage::Text { .. } => self.convert(input, false, out, diagnostics),
        }
        self.offset += input.len() as u64;
    }

    fn finish(&mut self, out: &mut Vec<u8>, diagnostics: &mut Diagnostics) {
        match &mut self.stage {
            Stage::Bytes => {}
            Stage::Utf8(stream) => {
                let base = self.offset;
                stream.finish::<false>(out, |start, length| {
                    diagnostics.push(invalid_input(base, start, length));
                });
            }
            Stage::Text { .. } => self.convert(&[], true, out, diagnostics),
        }
    }

    fn reset(&mut self, offset: u64) {
        let binary = matches!(self.stage, Stage::Bytes);
        self.stage = self.fresh_stage(binary);
        self.offset = offset;
    }
}

fn invalid_input(base: u64, start: isize, length: usize) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidInput,
        base.saturating_add_signed(start as i64),
        format!("{length} byte(s) that are not valid UTF-8 text; escaped as they are"),
    )
}
