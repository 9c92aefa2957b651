//! Requests to the codec as the API, the page and the file upload receive them, and the
//! answers: one conversion from request fields to [`urlkit`] options serves all three.

use crate::error::ApiError;
use serde::{Deserialize, Serialize};
use urlkit::{
    Charset, CharsetChoice, DecodeOptions, Decoder, Diagnostic, Diagnostics, EncodeOptions,
    EncodeSet, Encoder, Newline,
};
use utoipa::ToSchema;

/// Findings listed in an answer; beyond this they are only counted.
pub const LISTED_FINDINGS: usize = 1000;

/// The line separator in per-line mode.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum NewlineName {
    /// `\n`
    #[default]
    Lf,
    /// `\r\n`
    Crlf,
}

impl From<NewlineName> for Newline {
    fn from(value: NewlineName) -> Self {
        match value {
            NewlineName::Lf => Newline::Lf,
            NewlineName::Crlf => Newline::CrLf,
        }
    }
}

/// `POST /api/encode`: text to percent-encode and how.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EncodeRequest {
    /// The text to encode.
    pub input: String,
    /// Charset label the text is converted to before escaping (default `utf-8`).
    #[schema(example = "utf-8")]
    pub charset: Option<String>,
    /// Encode set: `unreserved` (default), `component`, `uri`, `form`, `path`, `query`,
    /// `special-query`, `fragment`, `userinfo`, `c0`, `iri`, `all`.
    #[schema(example = "unreserved")]
    pub set: Option<String>,
    /// ASCII characters to keep literal too.
    pub safe: Option<String>,
    /// ASCII characters to escape too.
    #[serde(rename = "unsafe")]
    pub unsafe_chars: Option<String>,
    /// Write space as `+` (implied by the `form` set).
    pub space_plus: Option<bool>,
    /// Lower-case hex digits.
    pub lowercase: Option<bool>,
    /// Each line is its own entry.
    pub per_line: Option<bool>,
    /// Separator after each entry in per-line mode.
    pub newline: Option<NewlineName>,
    /// Reject (422) an unencodable character instead of writing `&#N;`.
    pub strict: Option<bool>,
}

/// `POST /api/decode`: percent-encoded text to decode and how.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DecodeRequest {
    /// The percent-encoded text.
    pub input: String,
    /// Charset label the decoded bytes are read in (default `utf-8`), or `auto`.
    #[schema(example = "auto")]
    pub charset: Option<String>,
    /// `+` becomes a space.
    pub plus_space: Option<bool>,
    /// Keep unencoded whitespace instead of removing it.
    pub keep_whitespace: Option<bool>,
    /// Each line is its own entry.
    pub per_line: Option<bool>,
    /// Separator after each entry in per-line mode.
    pub newline: Option<NewlineName>,
    /// Reject (422) a malformed escape or invalid sequence instead of repairing it.
    pub strict: Option<bool>,
    /// Decode again until no escapes are left, listing each layer.
    pub until_stable: Option<bool>,
}

/// One finding of the codec.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct DiagnosticBody {
    /// Stable code (`malformed-escape`, `invalid-sequence`, …).
    pub code: String,
    /// Byte offset into the input.
    pub offset: u64,
    /// Short explanation.
    pub message: String,
}

impl From<&Diagnostic> for DiagnosticBody {
    fn from(d: &Diagnostic) -> Self {
        DiagnosticBody {
            code: d.code.as_str().to_string(),
            offset: d.offset,
            message: d.message.clone(),
        }
    }
}

/// What `auto` detected.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct DetectedBody {
    /// The charset chosen.
    pub charset: String,
    /// How sure, from 0 to 1.
    pub confidence: f32,
    /// Why (byte order mark, ASCII, valid UTF-8, statistics).
    pub reason: String,
}

/// The answer of `/api/encode` and `/api/decode`.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct CodecResponse {
    /// The result (decoded bytes that are not UTF-8 appear as U+FFFD).
    pub output: String,
    /// The charset used (for `auto`, the one detected).
    pub charset: Option<String>,
    /// Findings in input order.
    pub diagnostics: Vec<DiagnosticBody>,
    /// Findings beyond the listed ones, counted only.
    pub diagnostics_not_listed: u64,
    /// For `auto`: what was detected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detected: Option<DetectedBody>,
    /// For `until_stable`: the text after each layer was peeled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layers: Option<Vec<String>>,
}

fn flag(value: Option<bool>) -> bool {
    value.unwrap_or(false)
}

/// The charset for encoding; `auto` and unknown labels are 400s.
fn encode_charset(label: Option<&str>) -> Result<Charset, ApiError> {
    match label.map(str::trim).filter(|l| !l.is_empty()) {
        None => Ok(Charset::UTF_8),
        Some(l) if l.eq_ignore_ascii_case("auto") => Err(ApiError::bad_request(
            "unknown-charset",
            "`auto` detects the charset of encoded text; it applies to decoding only",
        )),
        Some(l) => Charset::for_label(l)
            .map_err(|e| ApiError::bad_request("unknown-charset", e.to_string())),
    }
}

impl EncodeRequest {
    /// The codec options; an unknown charset or set, or a non-ASCII safe/unsafe character,
    /// is a 400 naming it. `binary` skips the charset step (files).
    pub fn options(&self, binary: bool) -> Result<EncodeOptions, ApiError> {
        let charset = encode_charset(self.charset.as_deref())?;
        let set_name = self.set.as_deref().filter(|s| !s.trim().is_empty());
        let mut set = EncodeSet::named(set_name.unwrap_or("unreserved"))
            .map_err(|e| ApiError::bad_request("unknown-set", e.to_string()))?;
        if let Some(chars) = self.safe.as_deref().filter(|s| !s.is_empty()) {
            set = set
                .with_safe(chars)
                .map_err(|e| ApiError::bad_request("bad-safe", e.to_string()))?;
        }
        if let Some(chars) = self.unsafe_chars.as_deref().filter(|s| !s.is_empty()) {
            set = set
                .with_unsafe(chars)
                .map_err(|e| ApiError::bad_request("bad-unsafe", e.to_string()))?;
        }
        Ok(EncodeOptions {
            charset,
            space_plus: flag(self.space_plus) || set.name() == EncodeSet::FORM.name(),
            set,
            lowercase: flag(self.lowercase),
            binary,
            per_line: flag(self.per_line),
            newline: self.newline.unwrap_or_default().into(),
        })
    }

    /// Encodes the input. Never fails on the text itself except in strict mode (422).
    pub fn run(&self) -> Result<CodecResponse, ApiError> {
        let options = self.options(false)?;
        let mut codec = Codec::Encode(Box::new(Encoder::new(&options)));
        let mut out = Vec::with_capacity(self.input.len() * 3 / 2 + 16);
        let mut diagnostics = Diagnostics::with_limit(LISTED_FINDINGS);
        codec.feed(self.input.as_bytes(), &mut out, &mut diagnostics);
        codec.finish(&mut out, &mut diagnostics);
        answer(
            &codec,
            out,
            diagnostics,
            flag(self.strict),
            Some(options.charset),
        )
    }
}

impl DecodeRequest {
    /// The codec options; an unknown charset is a 400 naming it. `binary` skips the
    /// charset step (files).
    pub fn options(&self, binary: bool) -> Result<DecodeOptions, ApiError> {
        let label = self.charset.as_deref().filter(|l| !l.trim().is_empty());
        let charset = CharsetChoice::for_label(label.unwrap_or("utf-8"))
            .map_err(|e| ApiError::bad_request("unknown-charset", e.to_string()))?;
        Ok(DecodeOptions {
            charset,
            plus_space: flag(self.plus_space),
            keep_whitespace: flag(self.keep_whitespace),
            binary,
            per_line: flag(self.per_line),
            newline: self.newline.unwrap_or_default().into(),
        })
    }

    /// Decodes the input. Never fails on the text itself except in strict mode (422).
    /// `until_stable` with `per_line` is a 400 (peeling is per entry of the whole input).
    pub fn run(&self) -> Result<CodecResponse, ApiError> {
        let options = self.options(false)?;
        if flag(self.until_stable) {
            if options.per_line {
                return Err(ApiError::bad_request(
                    "unsupported-combination",
                    "until_stable peels the whole input; it cannot be combined with per_line",
                ));
            }
            return self.peel(&options);
        }
        let fixed = match options.charset {
            CharsetChoice::Fixed(c) => Some(c),
            CharsetChoice::Auto => None,
        };
        let mut codec = Codec::Decode(Box::new(Decoder::new(&options)));
        let mut out = Vec::with_capacity(self.input.len());
        let mut diagnostics = Diagnostics::with_limit(LISTED_FINDINGS);
        codec.feed(self.input.as_bytes(), &mut out, &mut diagnostics);
        codec.finish(&mut out, &mut diagnostics);
        answer(&codec, out, diagnostics, flag(self.strict), fixed)
    }

    fn peel(&self, options: &DecodeOptions) -> Result<CodecResponse, ApiError> {
        let peeled = urlkit::decode_until_stable(self.input.as_bytes(), options);
        if flag(self.strict) {
            if let Some(error) = peeled.outcome.strict_error() {
                return Err(ApiError::rejected(error));
            }
        }
        let listed = peeled.outcome.diagnostics.len().min(LISTED_FINDINGS);
        Ok(CodecResponse {
            output: String::from_utf8_lossy(&peeled.outcome.output).into_owned(),
            charset: peeled.outcome.charset.map(|c| c.name().to_string()),
            diagnostics: peeled.outcome.diagnostics[..listed]
                .iter()
                .map(DiagnosticBody::from)
                .collect(),
            diagnostics_not_listed: (peeled.outcome.diagnostics.len() - listed) as u64,
            detected: None,
            layers: Some(
                peeled
                    .layers
                    .iter()
                    .map(|l| String::from_utf8_lossy(l).into_owned())
                    .collect(),
            ),
        })
    }
}

fn answer(
    codec: &Codec,
    out: Vec<u8>,
    diagnostics: Diagnostics,
    strict: bool,
    fixed: Option<Charset>,
) -> Result<CodecResponse, ApiError> {
    if strict {
        if let Some(error) = diagnostics.first_strict_error() {
            return Err(ApiError::rejected(error));
        }
    }
    let not_listed = diagnostics.dropped();
    let mut items = diagnostics.into_vec();
    items.sort_by_key(|d| d.offset);
    let output = match String::from_utf8(out) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
    Ok(CodecResponse {
        output,
        charset: codec.charset(fixed).map(|c| c.name().to_string()),
        diagnostics: items.iter().map(DiagnosticBody::from).collect(),
        diagnostics_not_listed: not_listed,
        detected: codec.detected(),
        layers: None,
    })
}

/// A streaming codec of either direction, fed chunk by chunk.
pub enum Codec {
    /// Percent-encoding.
    Encode(Box<Encoder>),
    /// Percent-decoding.
    Decode(Box<Decoder>),
}

impl Codec {
    /// Processes the next chunk; findings go to `diagnostics`. Never fails.
    pub fn feed(&mut self, chunk: &[u8], out: &mut Vec<u8>, diagnostics: &mut Diagnostics) {
        match self {
            Codec::Encode(e) => e.feed(chunk, out, diagnostics),
            Codec::Decode(d) => d.feed(chunk, out, diagnostics),
        }
    }

    /// Flushes what is held back at the end of the input.
    pub fn finish(&mut self, out: &mut Vec<u8>, diagnostics: &mut Diagnostics) {
        match self {
            Codec::Encode(e) => e.finish(out, diagnostics),
            Codec::Decode(d) => d.finish(out, diagnostics),
        }
    }

    fn charset(&self, fixed: Option<Charset>) -> Option<Charset> {
        match self {
            Codec::Encode(_) => fixed,
            Codec::Decode(d) => d.charset().or(fixed),
        }
    }

    fn detected(&self) -> Option<DetectedBody> {
        match self {
            Codec::Encode(_) => None,
            Codec::Decode(d) => d.detection().map(|x| DetectedBody {
                charset: x.charset.to_string(),
                confidence: x.confidence,
                reason: x.reason.to_string(),
            }),
        }
    }
}

/// Which way a file goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Op {
    /// Percent-encode.
    Encode,
    /// Percent-decode.
    Decode,
}

impl Op {
    /// `encode` or `decode`; anything else is a 400.
    pub fn parse(value: &str) -> Result<Op, ApiError> {
        match value.trim() {
            "encode" => Ok(Op::Encode),
            "decode" => Ok(Op::Decode),
            other => Err(ApiError::bad_request(
                "bad-op",
                format!("op must be `encode` or `decode`, not {other:?}"),
            )),
        }
    }
}

/// Options of a file upload, collected from form fields before the file.
#[derive(Clone, Debug, Default)]
pub struct FileOptions {
    /// The encode options (fields named as in [`EncodeRequest`]).
    pub encode: EncodeRequest,
    /// The decode options (fields named as in [`DecodeRequest`]).
    pub decode: DecodeRequest,
}

/// Reads a form checkbox or boolean field: `on`, `true`, `1`, `yes` are true; empty,
/// `off`, `false`, `0`, `no` false; anything else is a 400.
pub fn form_flag(name: &str, value: &str) -> Result<bool, ApiError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "on" | "true" | "1" | "yes" => Ok(true),
        "" | "off" | "false" | "0" | "no" => Ok(false),
        _ => Err(ApiError::bad_request(
            "invalid-field",
            format!("{name} must be true or false, not {value:?}"),
        )),
    }
}

impl FileOptions {
    /// Takes one form field. Unknown names are a 400 naming them, so typos do not pass
    /// silently.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), ApiError> {
        let text = || Some(value.to_string());
        let newline = || match value.trim() {
            "crlf" => Ok(Some(NewlineName::Crlf)),
            "lf" | "" => Ok(Some(NewlineName::Lf)),
            other => Err(ApiError::bad_request(
                "invalid-field",
                format!("newline must be lf or crlf, not {other:?}"),
            )),
        };
        let (e, d) = (&mut self.encode, &mut self.decode);
        match name {
            "set" => e.set = text(),
            "safe" => e.safe = text(),
            "unsafe" => e.unsafe_chars = text(),
            "space_plus" => e.space_plus = Some(form_flag(name, value)?),
            "lowercase" => e.lowercase = Some(form_flag(name, value)?),
            "plus_space" => d.plus_space = Some(form_flag(name, value)?),
            "keep_whitespace" => d.keep_whitespace = Some(form_flag(name, value)?),
            "per_line" => {
                e.per_line = Some(form_flag(name, value)?);
                d.per_line = e.per_line;
            }
            "newline" => {
                e.newline = newline()?;
                d.newline = e.newline;
            }
            "strict" => {
                e.strict = Some(form_flag(name, value)?);
                d.strict = e.strict;
            }
            _ => {
                return Err(ApiError::bad_request(
                    "unknown-field",
                    format!("unknown field {name:?}"),
                ))
            }
        }
        Ok(())
    }

    /// A binary-mode codec for the file.
    pub fn codec(&self, op: Op) -> Result<Codec, ApiError> {
        Ok(match op {
            Op::Encode => Codec::Encode(Box::new(Encoder::new(&self.encode.options(true)?))),
            Op::Decode => Codec::Decode(Box::new(Decoder::new(&self.decode.options(true)?))),
        })
    }

    /// Whether strict mode is on for this operation.
    pub fn strict(&self, op: Op) -> bool {
        match op {
            Op::Encode => flag(self.encode.strict),
            Op::Decode => flag(self.decode.strict),
        }
    }
}
