//! The percent codec: encoding text to `%XX` escapes in any charset and decoding them
//! back, whole or as a stream of chunks, one entry or one entry per line.
//!
//! Encoding: text → bytes in the charset → every byte the encode set does not keep becomes
//! `%XX` (RFC 3986 §2.1). Decoding: unencoded whitespace removed, `%XX` → byte, the bytes
//! read in the charset (WHATWG URL Standard §1.3 *percent-decode*; Encoding Standard
//! *decode*).
//!
//! Bad input never stops the codec: a malformed escape is kept as it is, an invalid
//! sequence becomes U+FFFD, an unencodable character becomes `&#N;`; each is reported as a
//! [`Diagnostic`] with its byte offset. Strict mode (the caller's choice) treats those
//! findings as errors: see [`Outcome::strict_error`].

mod decoder;
mod encoder;
pub mod kernel;
mod layers;
mod lines;
mod percent;
mod utf8;

pub use layers::{decode_until_stable, Peeled};

use crate::charset::Charset;
use crate::detect::Detection;
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::sets::EncodeSet;
use decoder::EntryDecoder;
use encoder::EntryEncoder;
use lines::Framing;

/// The line separator written after each entry in per-line mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Newline {
    /// `\n`
    #[default]
    Lf,
    /// `\r\n`
    CrLf,
}

impl Newline {
    /// The separator's bytes.
    pub fn as_bytes(self) -> &'static [u8] {
        match self {
            Newline::Lf => b"\n",
            Newline::CrLf => b"\r\n",
        }
    }
}

/// How to encode.
#[derive(Clone, Debug, Default)]
pub struct EncodeOptions {
    /// The charset text is converted to before escaping (default UTF-8).
    pub charset: Charset,
    /// Which ASCII bytes stay literal (default `unreserved`).
    pub set: EncodeSet,
    /// Write space as `+`.
    pub space_plus: bool,
    /// Lower-case hex digits in escapes.
    pub lowercase: bool,
    /// Escape the input bytes as they are, with no charset step.
    pub binary: bool,
    /// Each line is an entry; each result is followed by `newline`.
    pub per_line: bool,
    /// The separator written after each entry in per-line mode.
    pub newline: Newline,
}

/// Which charset decoded bytes are read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CharsetChoice {
    /// This charset.
    Fixed(Charset),
    /// Detect it per entry: byte order mark, ASCII, UTF-8, then a statistical guess.
    Auto,
}

impl Default for CharsetChoice {
    fn default() -> Self {
        CharsetChoice::Fixed(Charset::UTF_8)
    }
}

impl CharsetChoice {
    /// `auto` or any charset label (see [`Charset::for_label`]); unknown labels are errors.
    pub fn for_label(label: &str) -> Result<Self, crate::charset::UnknownCharset> {
        if label.trim().eq_ignore_ascii_case("auto") {
            Ok(CharsetChoice::Auto)
        } else {
            Charset::for_label(label).map(CharsetChoice::Fixed)
        }
    }
}

/// How to decode.
#[derive(Clone, Debug, Default)]
pub struct DecodeOptions {
    /// The charset the decoded bytes are read in (default UTF-8), or `Auto`.
    pub charset: CharsetChoice,
    /// `+` becomes a space (`application/x-www-form-urlencoded`).
    pub plus_space: bool,
    /// Keep unencoded whitespace instead of removing it.
    pub keep_whitespace: bool,
    /// Return the decoded bytes as they are, with no charset step.
    pub binary: bool,
    /// Each line is an entry; each result is followed by `newline`.
    pub per_line: bool,
    /// The separator written after each entry in per-line mode.
    pub newline: Newline,
}

/// One entry's codec, fed in chunks.
pub(crate) trait Entry {
    /// Processes the next chunk of the entry.
    fn feed(&mut self, input: &[u8], out: &mut Vec<u8>, diagnostics: &mut Diagnostics);
    /// Ends the entry, flushing whatever is held back.
    fn finish(&mut self, out: &mut Vec<u8>, diagnostics: &mut Diagnostics);
    /// Prepares for a new entry starting at input offset `offset`.
    fn reset(&mut self, offset: u64);
}

/// A streaming encoder: feed chunks, then finish. The output for any chunking equals the
/// output for the whole input.
pub struct Encoder {
    framing: Framing<EntryEncoder>,
}

impl Encoder {
    /// An encoder with these options.
    pub fn new(options: &EncodeOptions) -> Self {
        Encoder {
            framing: Framing::new(
                EntryEncoder::new(options),
                options.per_line,
                options.newline,
            ),
        }
    }

    /// Encodes the next chunk, appending to `out` and reporting to `diagnostics`.
    ///
    /// Text that is not valid UTF-8 is reported (`invalid-input`); with the UTF-8 charset
    /// its bytes are escaped as they are, otherwise it is encoded as U+FFFD.
    pub fn feed(&mut self, chunk: &[u8], out: &mut Vec<u8>, diagnostics: &mut Diagnostics) {
        self.framing.feed(chunk, out, diagnostics);
    }

    /// Ends the input.
    pub fn finish(&mut self, out: &mut Vec<u8>, diagnostics: &mut Diagnostics) {
        self.framing.finish(out, diagnostics);
    }
}

/// A streaming decoder: feed chunks, then finish. The output for any chunking equals the
/// output for the whole input.
pub struct Decoder {
    framing: Framing<EntryDecoder>,
}

impl Decoder {
    /// A decoder with these options.
    pub fn new(options: &DecodeOptions) -> Self {
        Decoder {
            framing: Framing::new(
                EntryDecoder::new(options),
                options.per_line,
                options.newline,
            ),
        }
    }

    /// Decodes the next chunk, appending to `out` and reporting to `diagnostics`.
    ///
    /// A malformed escape is written as it is (`malformed-escape`); an invalid sequence for
    /// the charset becomes U+FFFD (`invalid-sequence`).
    pub fn feed(&mut self, chunk: &[u8], out: &mut Vec<u8>, diagnostics: &mut Diagnostics) {
        self.framing.feed(chunk, out, diagnostics);
    }

    /// Ends the input.
    pub fn finish(&mut self, out: &mut Vec<u8>, diagnostics: &mut Diagnostics) {
        self.framing.finish(out, diagnostics);
    }

    /// The charset of the current (or last) entry: the fixed one, or what `auto` chose.
    pub fn charset(&self) -> Option<Charset> {
        self.framing.entry().charset()
    }

    /// What `auto` found for the current (or last) entry.
    pub fn detection(&self) -> Option<&Detection> {
        self.framing.entry().detection()
    }
}

/// A streaming codec of either direction, for callers that choose the direction at run
/// time (a file upload, a `--json` run). Bad input is handled as by [`Encoder`] and
/// [`Decoder`]: reported, never fatal.
pub struct Codec {
    direction: Direction,
}

enum Direction {
    Encode(Box<Encoder>, Charset),
    /// The decoder and the charset it was given (`None` for `auto`).
    Decode(Box<Decoder>, Option<Charset>),
}

impl Codec {
    /// An encoding codec.
    pub fn encoder(options: &EncodeOptions) -> Self {
        Codec {
            direction: Direction::Encode(Box::new(Encoder::new(options)), options.charset),
        }
    }

    /// A decoding codec.
    pub fn decoder(options: &DecodeOptions) -> Self {
        let fixed = match options.charset {
            CharsetChoice::Fixed(c) => Some(c),
            CharsetChoice::Auto => None,
        };
        Codec {
            direction: Direction::Decode(Box::new(Decoder::new(options)), fixed),
        }
    }

    /// Processes the next chunk, appending to `out`; findings go to `diagnostics`.
    pub fn feed(&mut self, chunk: &[u8], out: &mut Vec<u8>, diagnostics: &mut Diagnostics) {
        match &mut self.direction {
            Direction::Encode(e, _) => e.feed(chunk, out, diagnostics),
            Direction::Decode(d, _) => d.feed(chunk, out, diagnostics),
        }
    }

    /// Ends the input, appending what was held back.
    pub fn finish(&mut self, out: &mut Vec<u8>, diagnostics: &mut Diagnostics) {
        match &mut self.direction {
            Direction::Encode(e, _) => e.finish(out, diagnostics),
            Direction::Decode(d, _) => d.finish(out, diagnostics),
        }
    }

    /// The charset in use: for decoding with `auto`, what was detected for the current or
    /// last entry (`None` before any input).
    pub fn charset(&self) -> Option<Charset> {
        match &self.direction {
            Direction::Encode(_, c) => Some(*c),
            Direction::Decode(d, fixed) => d.charset().or(*fixed),
        }
    }

    /// What `auto` found for the current (or last) entry; `None` when encoding.
    pub fn detection(&self) -> Option<&Detection> {
        match &self.direction {
            Direction::Encode(..) => None,
            Direction::Decode(d, _) => d.detection(),
        }
    }
}

/// The result of a whole-input operation.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The output bytes (UTF-8 text unless binary).
    pub output: Vec<u8>,
    /// The charset used (for `auto`: the one detected for the last entry).
    pub charset: Option<Charset>,
    /// Every finding, in input order per stage.
    pub diagnostics: Vec<Diagnostic>,
}

impl Outcome {
    /// The first finding strict mode rejects: a malformed escape, an invalid sequence, an
    /// unencodable character or text that is not UTF-8.
    pub fn strict_error(&self) -> Option<&Diagnostic> {
        self.diagnostics
            .iter()
            .find(|d| d.code.is_error_in_strict_mode())
    }

    /// The output as text (lossy for binary output).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.output).into_owned()
    }
}

/// Encodes the whole of `input` (UTF-8 text, or bytes with `binary`).
///
/// Never fails: findings are in the outcome's diagnostics.
pub fn encode(input: &[u8], options: &EncodeOptions) -> Outcome {
    let mut encoder = Encoder::new(options);
    let mut output = Vec::with_capacity(input.len() * 3 / 2);
    let mut diagnostics = Diagnostics::new();
    encoder.feed(input, &mut output, &mut diagnostics);
    encoder.finish(&mut output, &mut diagnostics);
    Outcome {
        output,
        charset: Some(options.charset),
        diagnostics: in_input_order(diagnostics),
    }
}

/// Decodes the whole of `input`.
///
/// Never fails: findings are in the outcome's diagnostics.
pub fn decode(input: &[u8], options: &DecodeOptions) -> Outcome {
    let mut decoder = Decoder::new(options);
    let mut output = Vec::with_capacity(input.len());
    let mut diagnostics = Diagnostics::new();
    decoder.feed(input, &mut output, &mut diagnostics);
    decoder.finish(&mut output, &mut diagnostics);
    Outcome {
        output,
        charset: decoder.charset(),
        diagnostics: in_input_order(diagnostics),
    }
}

/// Findings sorted by offset (stable: findings at one offset keep the order found).
fn in_input_order(diagnostics: Diagnostics) -> Vec<Diagnostic> {
    let mut list = diagnostics.into_vec();
    list.sort_by_key(|d| d.offset);
    list
}

/// Parses `application/x-www-form-urlencoded` bytes into name/value pairs (WHATWG URL
/// Standard §5.1): split on `&`, then on the first `=`, `+` as space, percent-decoded and
/// read as UTF-8 without BOM handling. Empty sequences are skipped; invalid UTF-8 becomes
/// U+FFFD.
pub fn parse_form(input: &[u8]) -> Vec<(String, String)> {
    let options = DecodeOptions {
        plus_space: true,
        keep_whitespace: true,
        ..DecodeOptions::default()
    };
    input
        .split(|&b| b == b'&')
        .filter(|sequence| !sequence.is_empty())
        .map(|sequence| {
            let (name, value) = match sequence.iter().position(|&b| b == b'=') {
                Some(i) => (&sequence[..i], &sequence[i + 1..]),
                None => (sequence, &[][..]),
            };
            (
                decode(name, &options).text(),
                decode(value, &options).text(),
            )
        })
        .collect()
}
