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
mod entry_paths;
mod joined;
pub(crate) mod kernel;
mod layers;
mod lines;
mod percent;
mod plain;
mod stream;
pub(crate) mod utf8;
mod whole;

pub use layers::{decode_until_stable, Layers, LISTED_LAYER_BYTES, MAX_LAYERS};
pub use stream::{Codec, Rejection};

use crate::charset::Charset;
use crate::detect::{Detection, Ranking};
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

    /// `lf` or `crlf` (any case, surrounding spaces ignored); anything else is `None`.
    pub fn named(name: &str) -> Option<Newline> {
        match name.trim().to_ascii_lowercase().as_str() {
            "lf" => Some(Newline::Lf),
            "crlf" => Some(Newline::CrLf),
            _ => None,
        }
    }

    /// `lf` or `crlf`.
    pub fn name(self) -> &'static str {
        match self {
            Newline::Lf => "lf",
            Newline::CrLf => "crlf",
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
    /// Write space as `+` (the `form` set does so of itself; see
    /// [`EncodeSet::writes_space_as_plus`]).
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
    /// The input is text (UTF-8 of the characters a user typed or a JSON string held)
    /// rather than bytes: a literal non-ASCII character then stays the character it is,
    /// and only the escapes are read in the charset, as Python's
    /// `unquote(s, encoding=…)` does. Without it (bytes from a file or stdin) literal
    /// non-ASCII bytes are read in the charset like the escapes, which a legacy charset
    /// reports as `literal-non-ascii`. Text is expected to be UTF-8; literal bytes that are
    /// not become U+FFFD, each reported as `invalid-sequence`, so the output is always
    /// UTF-8. See the crate's documentation, *Text and bytes*.
    pub text: bool,
    /// With `auto`, how much of each entry's [`Detection`] to work out. The default,
    /// [`Ranking::Charset`], settles an entry with a byte order mark, ASCII or valid UTF-8
    /// without the statistical model, at about the cost of a pass over its bytes, lists no
    /// runners-up (its `charset-detected` finding names none), and spares a statistical
    /// guess the work that only the runners-up need (see [`Ranking`]); front ends
    /// that show the other candidates (`--json`, a diagnostics view) ask for
    /// [`Ranking::RunnersUp`], which ranks them with the model for every such entry. The
    /// charset chosen, and so the output, is the same either way.
    pub ranking: Ranking,
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

/// One direction's streaming codec with its entry framing; [`Codec`] is the public face.
pub(crate) struct Encoder {
    framing: Framing<EntryEncoder>,
}

impl Encoder {
    pub(crate) fn new(options: &EncodeOptions) -> Self {
        Encoder {
            framing: Framing::new(
                EntryEncoder::new(options),
                options.per_line,
                options.newline,
            ),
        }
    }

    /// Text that is not valid UTF-8 is reported (`invalid-input`); with the UTF-8 charset
    /// its bytes are escaped as they are, otherwise it is encoded as U+FFFD.
    pub(crate) fn feed(&mut self, chunk: &[u8], out: &mut Vec<u8>, diagnostics: &mut Diagnostics) {
        self.framing.feed(chunk, out, diagnostics);
    }

    pub(crate) fn finish(&mut self, out: &mut Vec<u8>, diagnostics: &mut Diagnostics) {
        self.framing.finish(out, diagnostics);
    }

    pub(crate) fn reset(&mut self) {
        self.framing.reset();
    }
}

/// The decoding direction of [`Codec`].
pub(crate) struct Decoder {
    framing: Framing<EntryDecoder>,
    /// The fast path for plain entries, when the options allow one.
    pub(crate) plain: Option<plain::PlainUtf8>,
    /// With `auto`: the fast path for plain entries whose detection settles as UTF-8, when
    /// the options allow one (runs of entries only: see `Codec::plain_entries`).
    pub(crate) plain_auto: Option<plain::PlainAuto>,
    /// Per line: the fast path for lines that are plain entries, when the options allow one.
    lines: Option<plain::PlainLines>,
    /// Whole entries: the fast path for those with findings, when the options allow one.
    whole: Option<whole::WholeUtf8>,
}

impl Decoder {
    pub(crate) fn new(options: &DecodeOptions) -> Self {
        Decoder {
            framing: Framing::new(
                EntryDecoder::new(options),
                options.per_line,
                options.newline,
            ),
            plain: plain::PlainUtf8::for_options(options),
            plain_auto: plain::PlainAuto::for_options(options),
            lines: plain::PlainLines::for_options(options),
            whole: whole::WholeUtf8::for_options(options).filter(|_| !options.per_line),
        }
    }

    /// Decodes a whole entry of its own onto `out`, its findings onto `diagnostics`, as
    /// feeding it and finishing does, when the fast path for entries with findings takes
    /// it, and returns true; otherwise returns false having done nothing. The decoder's own
    /// state is not touched.
    pub(crate) fn decode_whole_entry(
        &mut self,
        input: &[u8],
        out: &mut Vec<u8>,
        diagnostics: &mut Diagnostics,
    ) -> bool {
        self.whole
            .as_mut()
            .is_some_and(|whole| whole.decode(input, 0, out, diagnostics))
    }

    /// Decodes a whole entry of its own onto `out` when it is plain (see [`plain`]) and
    /// returns true; otherwise leaves `out` as it was and returns false. The decoder's own
    /// state is not touched.
    pub(crate) fn decode_plain_entry(&mut self, input: &[u8], out: &mut Vec<u8>) -> bool {
        self.plain.as_mut().is_some_and(|p| p.decode(input, out))
    }

    /// A malformed escape is written as it is (`malformed-escape`); an invalid sequence for
    /// the charset becomes U+FFFD (`invalid-sequence`).
    pub(crate) fn feed(&mut self, chunk: &[u8], out: &mut Vec<u8>, diagnostics: &mut Diagnostics) {
        match &mut self.lines {
            Some(lines) => lines.feed(&mut self.framing, chunk, out, diagnostics),
            None => self.framing.feed(chunk, out, diagnostics),
        }
    }

    pub(crate) fn finish(&mut self, out: &mut Vec<u8>, diagnostics: &mut Diagnostics) {
        self.framing.finish(out, diagnostics);
    }

    pub(crate) fn reset(&mut self) {
        self.framing.reset();
    }

    pub(crate) fn charset(&self) -> Option<Charset> {
        self.framing.entry().charset()
    }

    pub(crate) fn detection(&self) -> Option<&Detection> {
        self.framing.entry().detection()
    }
}

/// What running a whole input gives, by every route: [`encode`] and [`decode`],
/// [`Codec::run`], [`decode_until_stable`] and a checked
/// [`Plan`](crate::settings::Plan). The findings are in `diagnostics`: every one for
/// [`encode`] and [`decode`] (in input order), the first
/// [`KEPT_FINDINGS`](crate::diagnostics::KEPT_FINDINGS) for the others (in the order
/// found), the rest counted.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The output bytes (UTF-8 text unless binary).
    pub output: Vec<u8>,
    /// The charset used (for `auto`: the one detected for the last entry).
    pub charset: Option<Charset>,
    /// The findings kept and the count of the others.
    pub diagnostics: Diagnostics,
    /// What `auto` detected for the last entry; `None` with a fixed charset.
    pub detection: Option<Detection>,
    /// With [`decode_until_stable`]: the layers peeled; `None` otherwise.
    pub layers: Option<Layers>,
}

impl Outcome {
    /// The earliest finding in the input that strict mode rejects: a malformed escape, an
    /// invalid sequence, an unencodable character or text that is not UTF-8.
    pub fn strict_error(&self) -> Option<&Diagnostic> {
        self.diagnostics
            .items()
            .iter()
            .filter(|d| d.code.is_error_in_strict_mode())
            .chain(self.diagnostics.first_strict_error())
            .min_by_key(|d| d.offset)
    }

    /// The output as text (lossy for binary output).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.output).into_owned()
    }
}

/// Encodes the whole of `input` (UTF-8 text, or bytes with `binary`): the text in the
/// charset, then every byte the set does not keep as `%XX` (RFC 3986 §2.1).
///
/// Never fails: text that is not UTF-8 is reported (`invalid-input`) and, in the UTF-8
/// charset, its bytes are escaped as they are; a character the charset cannot represent
/// becomes `&#N;`, escaped (`unencodable-character`). Every finding is in the outcome.
///
/// ```
/// use urlkit::{encode, Charset, EncodeOptions, EncodeSet};
///
/// let options = EncodeOptions { set: EncodeSet::FORM, ..EncodeOptions::default() };
/// assert_eq!(encode("a b&c".as_bytes(), &options).text(), "a+b%26c");
///
/// let options = EncodeOptions { charset: Charset::for_label("latin1").unwrap(), ..EncodeOptions::default() };
/// let outcome = encode("é€😀".as_bytes(), &options);
/// assert_eq!(outcome.text(), "%E9%80%26%23128512%3B"); // 😀 is not in windows-1252
/// assert_eq!(outcome.diagnostics.items()[0].code, urlkit::Code::UnencodableCharacter);
/// ```
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
        detection: None,
        layers: None,
    }
}

/// Decodes the whole of `input`: unencoded whitespace removed (unless
/// [`keep_whitespace`](DecodeOptions::keep_whitespace)), `%XX` to bytes, the bytes read in the
/// charset (URL Standard §1.3 *percent-decode*, Encoding Standard *decode*).
///
/// Never fails: a `%` not followed by two hex digits is kept as it is (`malformed-escape`);
/// bytes invalid in the charset become U+FFFD (`invalid-sequence`); a removed line break
/// followed by the start of a URL (`scheme://`) is reported once (`entries-joined`), since
/// per-line decoding would have kept the two apart; each finding is in the outcome with its
/// byte offset in `input`.
///
/// ```
/// use urlkit::{decode, CharsetChoice, DecodeOptions};
///
/// let outcome = decode(b"%E5%BC%95%E3%81%8D %zz", &DecodeOptions::default());
/// assert_eq!(outcome.text(), "引き%zz");
/// assert_eq!(outcome.diagnostics.items()[0].offset, 19);
///
/// let auto = DecodeOptions { charset: CharsetChoice::Auto, ..DecodeOptions::default() };
/// assert_eq!(decode(b"%83%89%81%5B%83%81%83%93", &auto).text(), "ラーメン");
/// ```
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
        detection: decoder.detection().cloned(),
        layers: None,
    }
}

/// Findings sorted by offset (stable: findings at one offset keep the order found).
fn in_input_order(mut diagnostics: Diagnostics) -> Diagnostics {
    diagnostics.sort_by_offset();
    diagnostics
}

/// Detects the charset of percent-encoded text: the escapes are decoded to bytes (malformed
/// ones kept, unencoded whitespace removed) and those bytes given to [`detect::detect`],
/// with the top-level domain of a URL in them as a hint.
///
/// Never fails: empty input is reported as UTF-8 with low confidence.
///
/// [`detect::detect`]: crate::detect::detect
pub fn detect_charset(input: &[u8]) -> Detection {
    let binary = DecodeOptions {
        binary: true,
        ..DecodeOptions::default()
    };
    let bytes = decode(input, &binary).output;
    crate::detect::detect(&bytes, crate::detect::tld_of_url(&bytes))
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
