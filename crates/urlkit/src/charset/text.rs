//! Streaming conversion between UTF-8 text and a charset's bytes.

use super::{Charset, DosCodePage};
use encoding_rs::{DecoderResult, EncoderResult};

/// A character the target charset cannot represent, at a byte offset into the text given
/// to [`TextEncoder::encode`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unencodable {
    /// The character.
    pub character: char,
    /// Byte offset of the character in the text passed to the call that found it.
    pub offset: usize,
}

enum EncoderKind {
    Whatwg(Box<encoding_rs::Encoder>),
    Utf16 { big_endian: bool },
    Utf32 { big_endian: bool },
    Dos(DosCodePage),
}

/// Converts UTF-8 text to a charset's bytes, piece by piece.
///
/// State carried between calls (ISO-2022-JP's shift state) makes any split of the text give
/// the same bytes as the whole.
pub struct TextEncoder {
    kind: EncoderKind,
}

impl TextEncoder {
    /// An encoder to `charset`. UTF-16 and UTF-32 are written without a byte order mark.
    pub fn new(charset: Charset) -> Self {
        let kind = match charset {
            Charset::Whatwg(e) if e == encoding_rs::UTF_16LE => {
                EncoderKind::Utf16 { big_endian: false }
            }
            Charset::Whatwg(e) if e == encoding_rs::UTF_16BE => {
                EncoderKind::Utf16 { big_endian: true }
            }
            Charset::Whatwg(e) => EncoderKind::Whatwg(Box::new(e.new_encoder())),
            Charset::Utf32Le => EncoderKind::Utf32 { big_endian: false },
            Charset::Utf32Be => EncoderKind::Utf32 { big_endian: true },
            Charset::Dos(page) => EncoderKind::Dos(page),
        };
        TextEncoder { kind }
    }

    /// Appends the bytes of `text` to `out`. `last` marks the end of the text (ISO-2022-JP
    /// then returns to ASCII).
    ///
    /// Each character the charset cannot represent is skipped and handed to `unencodable`
    /// together with `out`, so the caller can write a replacement at the right place.
    pub fn encode(
        &mut self,
        text: &str,
        last: bool,
        out: &mut Vec<u8>,
        mut unencodable: impl FnMut(Unencodable, &mut Vec<u8>),
    ) {
        match &mut self.kind {
            EncoderKind::Whatwg(encoder) => {
                let mut buffer = [0u8; 4096];
                let mut consumed = 0;
                loop {
                    let (result, read, written) = encoder.encode_from_utf8_without_replacement(
                        &text[consumed..],
                        &mut buffer,
                        last,
                    );
                    out.extend_from_slice(&buffer[..written]);
                    consumed += read;
                    match result {
                        EncoderResult::InputEmpty => break,
                        EncoderResult::OutputFull => continue,
                        EncoderResult::Unmappable(character) => {
                            // The reported character may differ from the input one
                            // (ISO-2022-JP reports U+FFFD for ESC, SO and SI): locate the
                            // input character that was just consumed.
                            let length = text[..consumed]
                                .chars()
                                .next_back()
                                .map_or(0, char::len_utf8);
                            let offset = consumed - length;
                            unencodable(Unencodable { character, offset }, out);
                        }
                    }
                }
            }
            EncoderKind::Utf16 { big_endian } => {
                let mut units = [0u16; 2];
                for character in text.chars() {
                    for unit in character.encode_utf16(&mut units) {
                        out.extend_from_slice(&if *big_endian {
                            unit.to_be_bytes()
                        } else {
                            unit.to_le_bytes()
                        });
                    }
                }
            }
            EncoderKind::Utf32 { big_endian } => {
                for character in text.chars() {
                    let value = character as u32;
                    out.extend_from_slice(&if *big_endian {
                        value.to_be_bytes()
                    } else {
                        value.to_le_bytes()
                    });
                }
            }
            EncoderKind::Dos(page) => {
                for (offset, character) in text.char_indices() {
                    match page.encode_char(character) {
                        Some(byte) => out.push(byte),
                        None => unencodable(Unencodable { character, offset }, out),
                    }
                }
            }
        }
    }
}

enum DecoderKind {
    Whatwg(Box<encoding_rs::Decoder>),
    Utf32 {
        big_endian: bool,
        pending: [u8; 4],
        pending_len: usize,
    },
    Dos(DosCodePage),
}

/// Converts a charset's bytes to UTF-8, piece by piece, as the Encoding Standard
/// prescribes: every invalid sequence becomes U+FFFD and is reported.
///
/// A byte order mark is data (decoded as U+FEFF): the caller skips it when it chose the
/// charset because of it.
pub struct TextDecoder {
    kind: DecoderKind,
}

const REPLACEMENT: &[u8] = "\u{FFFD}".as_bytes();

/// Most room made at once for decoded text (see [`TextDecoder::decode`]).
const WINDOW: usize = 8192;

impl TextDecoder {
    /// A decoder from `charset`.
    pub fn new(charset: Charset) -> Self {
        let kind = match charset {
            Charset::Whatwg(e) => {
                DecoderKind::Whatwg(Box::new(e.new_decoder_without_bom_handling()))
            }
            Charset::Utf32Le | Charset::Utf32Be => DecoderKind::Utf32 {
                big_endian: charset == Charset::Utf32Be,
                pending: [0; 4],
                pending_len: 0,
            },
            Charset::Dos(page) => DecoderKind::Dos(page),
        };
        TextDecoder { kind }
    }

    /// Appends the UTF-8 text of `input` to `out`; `last` marks the end of the stream (an
    /// incomplete sequence then becomes U+FFFD).
    ///
    /// For each invalid sequence, `malformed(start, length)` is called with the sequence's
    /// start relative to the beginning of `input` (negative when it began in an earlier
    /// call) and its length in bytes.
    pub fn decode(
        &mut self,
        input: &[u8],
        last: bool,
        out: &mut Vec<u8>,
        mut malformed: impl FnMut(isize, usize),
    ) {
        match &mut self.kind {
            DecoderKind::Whatwg(decoder) => {
                // Decoded straight into `out`, in windows of room that grow as the text
                // does: as much as the input can give (at most `WINDOW`), so that a short
                // entry zeroes a few hundred bytes rather than a whole window, and a long
                // one zeroes each byte of room once.
                let window = decoder
                    .max_utf8_buffer_length_without_replacement(input.len())
                    .map_or(WINDOW, |most| most.clamp(REPLACEMENT.len(), WINDOW));
                let mut end = out.len();
                out.resize(end + window, 0);
                let mut consumed = 0;
                loop {
                    let (result, read, written) = decoder.decode_to_utf8_without_replacement(
                        &input[consumed..],
                        &mut out[end..],
                        last,
                    );
                    end += written;
                    consumed += read;
                    match result {
                        DecoderResult::InputEmpty => break,
                        DecoderResult::OutputFull => out.resize(end + window, 0),
                        DecoderResult::Malformed(length, after) => {
                            if out.len() - end < REPLACEMENT.len() {
                                out.resize(end + window, 0);
                            }
                            out[end..end + REPLACEMENT.len()].copy_from_slice(REPLACEMENT);
                            end += REPLACEMENT.len();
                            let start = consumed as isize - after as isize - length as isize;
                            malformed(start, length as usize);
                        }
                    }
                }
                out.truncate(end);
            }
            DecoderKind::Utf32 {
                big_endian,
                pending,
                pending_len,
            } => {
                let mut index = 0;
                while index < input.len() {
                    pending[*pending_len] = input[index];
                    *pending_len += 1;
                    index += 1;
                    if *pending_len == 4 {
                        *pending_len = 0;
                        let value = if *big_endian {
                            u32::from_be_bytes(*pending)
                        } else {
                            u32::from_le_bytes(*pending)
                        };
                        match char::from_u32(value) {
                            Some(character) => {
                                let mut utf8 = [0u8; 4];
                                out.extend_from_slice(character.encode_utf8(&mut utf8).as_bytes());
                            }
                            None => {
                                out.extend_from_slice(REPLACEMENT);
                                malformed(index as isize - 4, 4);
                            }
                        }
                    }
                }
                if last && *pending_len > 0 {
                    out.extend_from_slice(REPLACEMENT);
                    malformed(input.len() as isize - *pending_len as isize, *pending_len);
                    *pending_len = 0;
                }
            }
            DecoderKind::Dos(page) => {
                for (index, &byte) in input.iter().enumerate() {
                    if byte < 0x80 {
                        out.push(byte);
                        continue;
                    }
                    match page.decode_byte(byte) {
                        Some(character) => {
                            let mut utf8 = [0u8; 4];
                            out.extend_from_slice(character.encode_utf8(&mut utf8).as_bytes());
                        }
                        None => {
                            out.extend_from_slice(REPLACEMENT);
                            malformed(index as isize, 1);
                        }
                    }
                }
            }
        }
    }
}
