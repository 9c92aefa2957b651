//! The codec as the API, the page and the file upload use it.
//!
//! `/api/encode`, `/api/decode` and the page parse and run their requests with
//! [`urlkit::request`], as the WebAssembly module of live mode does, so the JSON shapes are
//! the same by construction. The request and response structs here only describe those
//! shapes for the OpenAPI document (a test checks them against the library's answers).

use crate::error::ApiError;
use serde::{Deserialize, Serialize};
use urlkit::codec::Codec;
use urlkit::request::{self, CodecResponse, Rejection, RequestError};
use urlkit::{Diagnostic, Newline};
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

/// `POST /api/encode`: text to percent-encode and how (the schema of
/// [`urlkit::request::EncodeRequest`]).
#[derive(Clone, Debug, Default, ToSchema)]
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
    #[schema(rename = "unsafe")]
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

/// `POST /api/decode`: percent-encoded text to decode and how (the schema of
/// [`urlkit::request::DecodeRequest`]).
#[derive(Clone, Debug, Default, ToSchema)]
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
    /// Bytes of byte order mark skipped.
    pub bom_length: u64,
    /// The other readings, best first, each `{charset, confidence}`.
    pub runners_up: Vec<CandidateBody>,
}

/// Another charset `auto` weighed, and how likely its reading is right.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct CandidateBody {
    /// The charset.
    pub charset: String,
    /// How likely, from 0 to 1.
    pub confidence: f32,
}

/// The answer of `/api/encode` and `/api/decode` (the schema of
/// [`urlkit::request::CodecResponse`]).
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = CodecResponse)]
pub struct CodecResponseSchema {
    /// The result (decoded bytes that are not UTF-8 appear as U+FFFD).
    pub output: String,
    /// The charset used (for `auto`, the one detected).
    pub charset: Option<String>,
    /// Findings in the order the codec found them (at most 10,000).
    pub diagnostics: Vec<DiagnosticBody>,
    /// Findings beyond the listed ones, counted only.
    pub diagnostics_not_listed: u64,
    /// For `auto`: what was detected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detected: Option<DetectedBody>,
    /// For `until_stable`: how many layers of encoding were removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u64>,
    /// For `until_stable`: the text after each layer was peeled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layers: Option<Vec<String>>,
}

/// Runs an API or page request: a request the library cannot understand is a 400 naming
/// the field, a strict rejection a 422 with the finding's offset.
pub fn answer(
    result: Result<Result<CodecResponse, Rejection>, RequestError>,
) -> Result<CodecResponse, ApiError> {
    match result {
        Ok(Ok(response)) => Ok(response),
        Ok(Err(rejection)) => Err(ApiError::rejected(&rejection.0)),
        Err(error) => Err(ApiError::from(error)),
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
    /// The encode options (fields named as in `POST /api/encode`).
    pub encode: request::EncodeRequest,
    /// The decode options (fields named as in `POST /api/decode`).
    pub decode: request::DecodeRequest,
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
        let text = || Some(value.to_string()).filter(|v| !v.is_empty());
        let newline = || match value.trim() {
            "crlf" => Ok(Some("crlf".to_string())),
            "lf" | "" => Ok(None),
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
            "space_plus" => e.space_plus = form_flag(name, value)?,
            "lowercase" => e.lowercase = form_flag(name, value)?,
            "plus_space" => d.plus_space = form_flag(name, value)?,
            "keep_whitespace" => d.keep_whitespace = form_flag(name, value)?,
            "per_line" => {
                e.per_line = form_flag(name, value)?;
                d.per_line = e.per_line;
            }
            "newline" => {
                e.newline = newline()?;
                d.newline.clone_from(&e.newline);
            }
            "strict" => {
                e.strict = form_flag(name, value)?;
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
            Op::Encode => Codec::encoder(&self.encode.options(true)?),
            Op::Decode => Codec::decoder(&self.decode.options(true)?),
        })
    }

    /// Whether strict mode is on for this operation.
    pub fn strict(&self, op: Op) -> bool {
        match op {
            Op::Encode => self.encode.strict,
            Op::Decode => self.decode.strict,
        }
    }
}
