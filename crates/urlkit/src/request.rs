//! The JSON request and response shapes of the codec, shared by every front end that
//! speaks JSON (the HTTP API, the WebAssembly module, `urlkit --json`).
//!
//! Requests are JSON objects such as
//! `{"input": "a b", "charset": "shift_jis", "set": "component", "strict": true}`.
//! Parsing is strict about shape: an unknown field, a field of the wrong type or a value
//! that names nothing (an unknown charset, set or newline) is a [`RequestError`] naming
//! the field. `null` counts as absent.
//!
//! A run gives either a [`CodecResponse`] (`{output, charset, diagnostics, …}`) or, when
//! the request is strict and the input has a finding strict mode rejects, a
//! [`Rejection`] (`{error: {code, message, offset}}`).

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::charset::Charset;
use crate::codec::{
    decode_until_stable, CharsetChoice, Codec, DecodeOptions, EncodeOptions, Newline,
};
use crate::detect::Detection;
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::sets::EncodeSet;

/// Findings kept per run; beyond this they are only counted
/// ([`CodecResponse::diagnostics_not_listed`]), so bad input cannot exhaust memory.
pub const KEPT_FINDINGS: usize = 10_000;

/// A request that could not be understood: which field, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RequestError {
    /// The field at fault (`""` when the request as a whole is malformed).
    pub field: String,
    /// What is wrong with it.
    pub message: String,
}

impl RequestError {
    fn new(field: &str, message: impl Into<String>) -> Self {
        RequestError {
            field: field.to_string(),
            message: message.into(),
        }
    }

    /// This error as the JSON error body `{"error": {"code": "invalid-request", "field",
    /// "message"}}`.
    pub fn to_body(&self) -> ErrorBody {
        ErrorBody {
            error: ErrorDetail {
                code: "invalid-request",
                message: self.to_string(),
                offset: None,
                field: Some(self.field.clone()),
            },
        }
    }
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "field `{}`: {}", self.field, self.message)
        }
    }
}

impl std::error::Error for RequestError {}

/// The JSON error body: `{"error": {...}}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ErrorBody {
    /// What went wrong.
    pub error: ErrorDetail,
}

/// The inside of an [`ErrorBody`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ErrorDetail {
    /// A stable code: a [`Code`] name for rejected input (`malformed-escape`, …), or
    /// `invalid-request` for a request that could not be understood.
    pub code: &'static str,
    /// A human-readable explanation.
    pub message: String,
    /// For rejected input: the byte offset of the finding in the input.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// For an invalid request: the field at fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

/// Strict mode rejected the input at this finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection(pub Diagnostic);

impl Rejection {
    /// This rejection as the JSON error body `{"error": {"code", "message", "offset"}}`.
    pub fn to_body(&self) -> ErrorBody {
        ErrorBody {
            error: ErrorDetail {
                code: self.0.code.as_str(),
                message: self.0.message.clone(),
                offset: Some(self.0.offset),
                field: None,
            },
        }
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Rejection {}

/// The result of an encode or decode request.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CodecResponse {
    /// The output as text (bytes that are not UTF-8, possible only in binary mode, are
    /// shown as U+FFFD).
    pub output: String,
    /// The charset used: for encoding the chosen one, for decoding the fixed one or what
    /// `auto` detected for the last entry.
    pub charset: Option<&'static str>,
    /// The findings, at most [`KEPT_FINDINGS`], in the order the codec found them.
    pub diagnostics: Vec<Diagnostic>,
    /// How many findings were found beyond [`KEPT_FINDINGS`] and not listed.
    pub diagnostics_not_listed: u64,
    /// For decoding with `auto`: what was detected (for the last entry in per-line mode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detected: Option<Detected>,
    /// With `until_stable`: how many layers of encoding were removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<usize>,
    /// With `until_stable`: each intermediate layer, outermost first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layers: Option<Vec<String>>,
}

impl CodecResponse {
    /// A response for `output` with the findings kept in `diagnostics`.
    pub fn new(output: &[u8], charset: Option<Charset>, diagnostics: &Diagnostics) -> Self {
        CodecResponse {
            output: String::from_utf8_lossy(output).into_owned(),
            charset: charset.map(|c| c.name()),
            diagnostics: diagnostics.items().to_vec(),
            diagnostics_not_listed: diagnostics.dropped(),
            detected: None,
            depth: None,
            layers: None,
        }
    }
}

/// The charset `auto` chose for a [`CodecResponse`]: the library's [`Detection`],
/// `{charset, confidence, reason, bom_length, runners_up}`.
pub type Detected = Detection;

/// `POST /api/encode`: `{input, charset?, set?, safe?, unsafe?, space_plus?, lowercase?,
/// per_line?, newline?, strict?}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(try_from = "Value")]
pub struct EncodeRequest {
    /// The text to encode (absent: empty).
    pub input: String,
    /// Charset label (default `utf-8`).
    pub charset: Option<String>,
    /// Encode set name (default `unreserved`).
    pub set: Option<String>,
    /// ASCII characters to keep literal too.
    pub safe: Option<String>,
    /// ASCII characters to escape too.
    pub unsafe_chars: Option<String>,
    /// Write space as `+` (implied by the `form` set).
    pub space_plus: bool,
    /// Lower-case hex digits.
    pub lowercase: bool,
    /// One entry per line.
    pub per_line: bool,
    /// `lf` (default) or `crlf`.
    pub newline: Option<String>,
    /// Reject instead of repairing.
    pub strict: bool,
}

/// `POST /api/decode`: `{input, charset? ("auto" allowed), plus_space?, keep_whitespace?,
/// per_line?, newline?, strict?, until_stable?}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(try_from = "Value")]
pub struct DecodeRequest {
    /// The text to decode (absent: empty).
    pub input: String,
    /// Charset label or `auto` (default `utf-8`).
    pub charset: Option<String>,
    /// `+` becomes a space.
    pub plus_space: bool,
    /// Keep unencoded whitespace.
    pub keep_whitespace: bool,
    /// One entry per line.
    pub per_line: bool,
    /// `lf` (default) or `crlf`.
    pub newline: Option<String>,
    /// Reject instead of repairing.
    pub strict: bool,
    /// Peel nested layers of encoding (not with `per_line`).
    pub until_stable: bool,
}

/// Reads the fields of a JSON object one by one, so errors can name the field.
struct Fields {
    map: Map<String, Value>,
}

impl Fields {
    fn new(value: Value, known: &[&str]) -> Result<Self, RequestError> {
        let Value::Object(map) = value else {
            return Err(RequestError::new(
                "",
                format!("the request must be a JSON object, not {}", kind(&value)),
            ));
        };
        if let Some(unknown) = map.keys().find(|k| !known.contains(&k.as_str())) {
            return Err(RequestError::new(
                unknown,
                format!("unknown field; the fields are: {}", known.join(", ")),
            ));
        }
        Ok(Fields { map })
    }

    fn string(&mut self, field: &str) -> Result<Option<String>, RequestError> {
        match self.map.remove(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(RequestError::new(
                field,
                format!("must be a string, not {}", kind(&other)),
            )),
        }
    }

    fn flag(&mut self, field: &str) -> Result<bool, RequestError> {
        match self.map.remove(field) {
            None | Some(Value::Null) => Ok(false),
            Some(Value::Bool(b)) => Ok(b),
            Some(other) => Err(RequestError::new(
                field,
                format!("must be true or false, not {}", kind(&other)),
            )),
        }
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn parse_json(json: &str) -> Result<Value, RequestError> {
    serde_json::from_str::<RequestBody>(json)
        .map(|body| body.0)
        .map_err(|e| RequestError::new("", format!("not valid JSON: {e}")))
}

/// A JSON request body read as a [`Value`], except that an object naming the same key twice
/// (`{"input": "a", "input": "b"}`) is refused rather than resolved silently to one of them.
#[derive(Clone, Debug, PartialEq)]
pub struct RequestBody(pub Value);

impl<'de> Deserialize<'de> for RequestBody {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(BodyVisitor).map(RequestBody)
    }
}

struct BodyVisitor;

impl<'de> serde::de::Visitor<'de> for BodyVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut fields = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value::<Value>()?;
            if fields.contains_key(&key) {
                return Err(serde::de::Error::custom(format!(
                    "the field `{key}` appears twice"
                )));
            }
            fields.insert(key, value);
        }
        Ok(Value::Object(fields))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Value>()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
}

fn newline(field: &str, value: Option<&str>) -> Result<Newline, RequestError> {
    match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        None | Some("lf") => Ok(Newline::Lf),
        Some("crlf") => Ok(Newline::CrLf),
        Some(_) => Err(RequestError::new(field, "must be \"lf\" or \"crlf\"")),
    }
}

const ENCODE_FIELDS: &[&str] = &[
    "input",
    "charset",
    "set",
    "safe",
    "unsafe",
    "space_plus",
    "lowercase",
    "per_line",
    "newline",
    "strict",
];

const DECODE_FIELDS: &[&str] = &[
    "input",
    "charset",
    "plus_space",
    "keep_whitespace",
    "per_line",
    "newline",
    "strict",
    "until_stable",
];

impl TryFrom<Value> for EncodeRequest {
    type Error = RequestError;

    fn try_from(value: Value) -> Result<Self, RequestError> {
        let mut f = Fields::new(value, ENCODE_FIELDS)?;
        Ok(EncodeRequest {
            input: f.string("input")?.unwrap_or_default(),
            charset: f.string("charset")?,
            set: f.string("set")?,
            safe: f.string("safe")?,
            unsafe_chars: f.string("unsafe")?,
            space_plus: f.flag("space_plus")?,
            lowercase: f.flag("lowercase")?,
            per_line: f.flag("per_line")?,
            newline: f.string("newline")?,
            strict: f.flag("strict")?,
        })
    }
}

impl TryFrom<Value> for DecodeRequest {
    type Error = RequestError;

    fn try_from(value: Value) -> Result<Self, RequestError> {
        let mut f = Fields::new(value, DECODE_FIELDS)?;
        Ok(DecodeRequest {
            input: f.string("input")?.unwrap_or_default(),
            charset: f.string("charset")?,
            plus_space: f.flag("plus_space")?,
            keep_whitespace: f.flag("keep_whitespace")?,
            per_line: f.flag("per_line")?,
            newline: f.string("newline")?,
            strict: f.flag("strict")?,
            until_stable: f.flag("until_stable")?,
        })
    }
}

impl EncodeRequest {
    /// Parses a JSON request. Bad JSON, an unknown field or a field of the wrong type is an
    /// error naming the field; values are checked by [`options`](Self::options).
    pub fn from_json(json: &str) -> Result<Self, RequestError> {
        Self::try_from(parse_json(json)?)
    }

    /// The codec options this request asks for (`binary`: bytes in, no charset step).
    ///
    /// An unknown charset, set or newline, or a non-ASCII character in `safe`/`unsafe`,
    /// is an error naming the field.
    pub fn options(&self, binary: bool) -> Result<EncodeOptions, RequestError> {
        let charset = match &self.charset {
            Some(label) => Charset::for_label(label)
                .map_err(|e| RequestError::new("charset", e.to_string()))?,
            None => Charset::UTF_8,
        };
        let mut set = match &self.set {
            Some(name) => {
                EncodeSet::named(name).map_err(|e| RequestError::new("set", e.to_string()))?
            }
            None => EncodeSet::UNRESERVED,
        };
        if let Some(chars) = &self.safe {
            set = set
                .with_safe(chars)
                .map_err(|e| RequestError::new("safe", e.to_string()))?;
        }
        if let Some(chars) = &self.unsafe_chars {
            set = set
                .with_unsafe(chars)
                .map_err(|e| RequestError::new("unsafe", e.to_string()))?;
        }
        Ok(EncodeOptions {
            charset,
            space_plus: self.space_plus || set == EncodeSet::FORM,
            set,
            lowercase: self.lowercase,
            binary,
            per_line: self.per_line,
            newline: newline("newline", self.newline.as_deref())?,
        })
    }

    /// Encodes `self.input`.
    pub fn run(&self) -> Result<Result<CodecResponse, Rejection>, RequestError> {
        self.run_on(self.input.as_bytes())
    }

    /// Encodes `input` (UTF-8 text) with this request's options, ignoring `self.input`.
    ///
    /// Never fails on bad input unless the request is strict: text that is not UTF-8,
    /// unencodable characters and the like are reported in the diagnostics, or, strict,
    /// give a [`Rejection`] at the first of them.
    pub fn run_on(&self, input: &[u8]) -> Result<Result<CodecResponse, Rejection>, RequestError> {
        let options = self.options(false)?;
        let mut stream = Stream::encoder(&options, self.strict);
        Ok(stream.run_whole(input))
    }
}

impl DecodeRequest {
    /// Parses a JSON request. Bad JSON, an unknown field or a field of the wrong type is an
    /// error naming the field; values are checked by [`options`](Self::options).
    pub fn from_json(json: &str) -> Result<Self, RequestError> {
        Self::try_from(parse_json(json)?)
    }

    /// The codec options this request asks for (`binary`: bytes out, no charset step).
    ///
    /// An unknown charset or newline is an error naming the field, and so is
    /// `until_stable` together with `per_line`.
    pub fn options(&self, binary: bool) -> Result<DecodeOptions, RequestError> {
        let charset = match &self.charset {
            Some(label) => CharsetChoice::for_label(label)
                .map_err(|e| RequestError::new("charset", e.to_string()))?,
            None => CharsetChoice::default(),
        };
        if self.until_stable && self.per_line {
            return Err(RequestError::new(
                "until_stable",
                "cannot be combined with per_line",
            ));
        }
        Ok(DecodeOptions {
            charset,
            plus_space: self.plus_space,
            keep_whitespace: self.keep_whitespace,
            binary,
            per_line: self.per_line,
            newline: newline("newline", self.newline.as_deref())?,
        })
    }

    /// Decodes `self.input`.
    pub fn run(&self) -> Result<Result<CodecResponse, Rejection>, RequestError> {
        self.run_on(self.input.as_bytes())
    }

    /// Decodes `input` with this request's options, ignoring `self.input`.
    ///
    /// Never fails on bad input unless the request is strict: malformed escapes are kept,
    /// invalid sequences become U+FFFD, each reported in the diagnostics; strict, the
    /// first of them gives a [`Rejection`].
    pub fn run_on(&self, input: &[u8]) -> Result<Result<CodecResponse, Rejection>, RequestError> {
        let options = self.options(false)?;
        if self.until_stable {
            return Ok(until_stable(input, &options, self.strict));
        }
        let mut stream = Stream::decoder(&options, self.strict);
        Ok(stream.run_whole(input))
    }
}

fn until_stable(
    input: &[u8],
    options: &DecodeOptions,
    strict: bool,
) -> Result<CodecResponse, Rejection> {
    let peeled = decode_until_stable(input, options);
    if strict {
        if let Some(error) = peeled.outcome.strict_error() {
            return Err(Rejection(error.clone()));
        }
    }
    let mut kept = Diagnostics::new();
    for d in &peeled.outcome.diagnostics {
        kept.push(d.clone());
    }
    let mut response = CodecResponse::new(&peeled.outcome.output, peeled.outcome.charset, &kept);
    response.depth = Some(peeled.depth);
    response.layers = Some(
        peeled
            .layers
            .iter()
            .map(|l| String::from_utf8_lossy(l).into_owned())
            .collect(),
    );
    Ok(response)
}

/// A streaming run of either direction that keeps its findings ([`KEPT_FINDINGS`] at
/// most) and, when strict, stops at the first finding strict mode rejects.
pub struct Stream {
    codec: Codec,
    strict: bool,
    diagnostics: Diagnostics,
    rejected: Option<Rejection>,
}

impl Stream {
    /// An encoding stream.
    pub fn encoder(options: &EncodeOptions, strict: bool) -> Self {
        Self::with(Codec::encoder(options), strict)
    }

    /// A decoding stream.
    pub fn decoder(options: &DecodeOptions, strict: bool) -> Self {
        Self::with(Codec::decoder(options), strict)
    }

    fn with(codec: Codec, strict: bool) -> Self {
        Stream {
            codec,
            strict,
            diagnostics: Diagnostics::with_limit(KEPT_FINDINGS),
            rejected: None,
        }
    }

    /// Processes the next chunk, appending to `out`.
    ///
    /// Strict, a finding strict mode rejects ends the stream: this call and every later
    /// one return that [`Rejection`] (what was appended to `out` must then be discarded).
    pub fn feed(&mut self, chunk: &[u8], out: &mut Vec<u8>) -> Result<(), Rejection> {
        self.check()?;
        self.codec.feed(chunk, out, &mut self.diagnostics);
        self.check()
    }

    /// Ends the input, appending what was held back to `out`. Strict, as [`feed`](Self::feed).
    pub fn finish(&mut self, out: &mut Vec<u8>) -> Result<(), Rejection> {
        self.check()?;
        self.codec.finish(out, &mut self.diagnostics);
        self.check()
    }

    fn check(&mut self) -> Result<(), Rejection> {
        if self.rejected.is_none() && self.strict {
            self.rejected = self
                .diagnostics
                .first_strict_error()
                .cloned()
                .map(Rejection);
        }
        match &self.rejected {
            Some(r) => Err(r.clone()),
            None => Ok(()),
        }
    }

    /// The charset in use: for decoding with `auto`, what was detected for the current or
    /// last entry (`None` before any input).
    pub fn charset(&self) -> Option<Charset> {
        self.codec.charset()
    }

    /// The findings so far.
    pub fn diagnostics(&self) -> &Diagnostics {
        &self.diagnostics
    }

    /// What `auto` detected for the current or last entry (`None` for encoding and fixed
    /// charsets).
    pub fn detected(&self) -> Option<Detected> {
        self.codec.detection().cloned()
    }

    /// A response for `output` with this stream's charset, findings and detection.
    pub fn response(&self, output: &[u8]) -> CodecResponse {
        let mut response = CodecResponse::new(output, self.charset(), &self.diagnostics);
        response.detected = self.detected();
        response
    }

    /// Feeds all of `input` and finishes.
    pub fn run_whole(&mut self, input: &[u8]) -> Result<CodecResponse, Rejection> {
        let mut out = Vec::with_capacity(input.len() + input.len() / 2);
        self.feed(input, &mut out)?;
        self.finish(&mut out)?;
        Ok(self.response(&out))
    }
}

/// Percent-decodes `input` to bytes (malformed escapes kept, whitespace removed) and
/// detects their charset, with the top-level domain of a URL in the text as a hint.
/// Never fails: empty input is reported as UTF-8 with low confidence. The result
/// serialises as `urlkit detect --json` prints it.
pub fn detect(input: &[u8]) -> Detection {
    let binary = DecodeOptions {
        binary: true,
        ..DecodeOptions::default()
    };
    let bytes = crate::codec::decode(input, &binary).output;
    crate::detect::detect(&bytes, crate::detect::tld_of_url(&bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_request_runs_with_defaults() {
        let request = EncodeRequest::from_json(r#"{"input": "a b"}"#).unwrap();
        let response = request.run().unwrap().unwrap();
        assert_eq!(response.output, "a%20b");
        assert_eq!(response.charset, Some("UTF-8"));
        assert!(response.diagnostics.is_empty());
    }

    #[test]
    fn unknown_field_is_named() {
        let error = EncodeRequest::from_json(r#"{"input": "a", "sett": "x"}"#).unwrap_err();
        assert_eq!(error.field, "sett");
    }

    #[test]
    fn a_field_given_twice_is_refused() {
        let error = EncodeRequest::from_json(r#"{"input": "a", "input": "b"}"#).unwrap_err();
        assert!(error.message.contains("`input` appears twice"), "{error}");
        let fine = DecodeRequest::from_json(r#"{"input": "%41", "charset": "utf-8"}"#).unwrap();
        assert_eq!(fine.input, "%41");
    }

    #[test]
    fn wrong_type_is_named() {
        let error = DecodeRequest::from_json(r#"{"per_line": "yes"}"#).unwrap_err();
        assert_eq!(error.field, "per_line");
        assert!(error.to_string().contains("true or false"), "{error}");
    }

    #[test]
    fn unknown_values_are_named() {
        for (json, field) in [
            (r#"{"charset": "klingon"}"#, "charset"),
            (r#"{"set": "nope"}"#, "set"),
            (r#"{"safe": "é"}"#, "safe"),
            (r#"{"newline": "cr"}"#, "newline"),
        ] {
            let request = EncodeRequest::from_json(json).unwrap();
            assert_eq!(request.options(false).unwrap_err().field, field, "{json}");
        }
    }

    #[test]
    fn serde_deserialisation_uses_the_same_checks() {
        let request: DecodeRequest =
            serde_json::from_str(r#"{"input": "a+b", "plus_space": true}"#).unwrap();
        assert_eq!(request.run().unwrap().unwrap().output, "a b");
        let error = serde_json::from_str::<EncodeRequest>(r#"{"lowercase": 1}"#).unwrap_err();
        assert!(error.to_string().contains("`lowercase`"), "{error}");
    }

    #[test]
    fn null_counts_as_absent() {
        let request = DecodeRequest::from_json(r#"{"input": "%41", "charset": null}"#).unwrap();
        assert_eq!(request.run().unwrap().unwrap().output, "A");
    }

    #[test]
    fn strict_rejection_names_code_and_offset() {
        let request = DecodeRequest::from_json(r#"{"input": "ab%zz", "strict": true}"#).unwrap();
        let rejection = request.run().unwrap().unwrap_err();
        let body = serde_json::to_value(rejection.to_body()).unwrap();
        assert_eq!(body["error"]["code"], "malformed-escape");
        assert_eq!(body["error"]["offset"], 2);
    }

    #[test]
    fn until_stable_reports_layers() {
        let request =
            DecodeRequest::from_json(r#"{"input": "%2520", "until_stable": true}"#).unwrap();
        let response = request.run().unwrap().unwrap();
        assert_eq!(response.output, " ");
        assert_eq!(response.depth, Some(2));
    }

    #[test]
    fn stream_equals_whole() {
        let options = DecodeRequest::from_json(r#"{"charset": "shift_jis"}"#)
            .unwrap()
            .options(false)
            .unwrap();
        let input = b"%83%89%81%5B%83%81%83%93%zz";
        let whole = Stream::decoder(&options, false).run_whole(input).unwrap();
        let mut stream = Stream::decoder(&options, false);
        let mut out = Vec::new();
        for chunk in input.chunks(1) {
            stream.feed(chunk, &mut out).unwrap();
        }
        stream.finish(&mut out).unwrap();
        assert_eq!(stream.response(&out), whole);
    }
}
