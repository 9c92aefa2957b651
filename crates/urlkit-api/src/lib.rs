//! The JSON requests and responses of urlkit's front ends: `POST /api/encode` and
//! `/api/decode`, the WebAssembly module's calls, `urlkit encode|decode --json` and
//! `urlkit detect --json`. The shapes are defined once, here, so every front end answers
//! the same bytes for the same request.
//!
//! Requests are JSON objects such as
//! `{"input": "a b", "charset": "shift_jis", "set": "component", "strict": true}`, or form
//! fields of the same names. Parsing is strict about shape: an unknown field, a field of
//! the wrong type, a field given twice or a value that names nothing (an unknown charset,
//! set or newline) is a [`RequestError`] naming the field. `null` counts as absent. The
//! settings themselves are checked by [`urlkit::settings`], the one place every front end
//! shares.
//!
//! A run gives a [`CodecResponse`] (`{output, charset, diagnostics, …}`) or a [`Failure`]:
//! the request was not understood (`{error: {code: "invalid-request", field, message}}`)
//! or strict mode rejected the input (`{error: {code, message, offset}}`).
//!
//! With the `openapi` feature every shape derives `utoipa::ToSchema`, so the server's
//! OpenAPI document is generated from these types. The `inspect` feature adds the
//! inspector's request and answer (`POST /api/inspect`). [`shown`] holds what the front
//! ends show people (sizes, result names, the URL's component list), for the server and,
//! through the WebAssembly module, the page's script.

#![deny(missing_docs)]

mod fields;
#[cfg(feature = "inspect")]
pub mod inspect;
pub mod shown;

use fields::Fields;
pub use fields::{form_flag, RequestBody};
use serde::Serialize;
use serde_json::Value;
use std::fmt;
use urlkit::settings::{DecodeSettings, EncodeSettings, Entry, Plan, Setting, SettingError};
use urlkit::Outcome;
use urlkit::{Detection, Diagnostic, Diagnostics, Rejection};

/// A request that could not be understood: which field, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RequestError {
    /// The field at fault (`""` when the request as a whole is malformed).
    pub field: String,
    /// What is wrong with it.
    pub message: String,
}

impl RequestError {
    /// An error about `field`.
    pub fn new(field: &str, message: impl Into<String>) -> Self {
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
                code: "invalid-request".to_string(),
                message: self.to_string(),
                offset: None,
                field: Some(self.field.clone()),
            },
        }
    }
}

impl From<SettingError> for RequestError {
    fn from(error: SettingError) -> Self {
        RequestError::new(error.setting.name(), error.message)
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

/// The JSON body of every error: `{"error": {...}}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorBody {
    /// What went wrong.
    pub error: ErrorDetail,
}

/// What went wrong, inside an [`ErrorBody`].
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorDetail {
    /// A stable kebab-case code: a finding's code for rejected input (`malformed-escape`,
    /// …), `invalid-request` for a request that could not be understood, or the server's
    /// own (`too-large`, `not-found`, …).
    pub code: String,
    /// A short explanation naming the problem.
    pub message: String,
    /// For rejected input: the byte offset of the finding in the input.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// For a request that could not be understood: the field at fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

/// The error body of a strict rejection: `{"error": {"code", "message", "offset"}}`.
pub fn rejection_body(rejection: &Rejection) -> ErrorBody {
    let finding = &rejection.0;
    ErrorBody {
        error: ErrorDetail {
            code: finding.code.as_str().to_string(),
            message: finding.message.clone(),
            offset: Some(finding.offset),
            field: None,
        },
    }
}

/// Why a request gave no response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The request could not be understood (HTTP 400).
    Invalid(RequestError),
    /// Strict mode rejected the input (HTTP 422).
    Rejected(Rejection),
}

impl Failure {
    /// The JSON error body.
    pub fn to_body(&self) -> ErrorBody {
        match self {
            Failure::Invalid(error) => error.to_body(),
            Failure::Rejected(rejection) => rejection_body(rejection),
        }
    }
}

impl From<RequestError> for Failure {
    fn from(error: RequestError) -> Self {
        Failure::Invalid(error)
    }
}

impl From<SettingError> for Failure {
    fn from(error: SettingError) -> Self {
        Failure::Invalid(error.into())
    }
}

/// `POST /api/encode`: `{input, charset?, set?, safe?, unsafe?, space_plus?, lowercase?,
/// per_line?, newline?, strict?}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EncodeRequest {
    /// The text to encode (absent: empty).
    pub input: String,
    /// How to encode.
    #[serde(flatten)]
    pub settings: EncodeSettings,
}

/// `POST /api/decode`: `{input, charset? ("auto" allowed), plus_space?, keep_whitespace?,
/// per_line?, newline?, strict?, until_stable?}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DecodeRequest {
    /// The text to decode (absent: empty).
    pub input: String,
    /// How to decode.
    #[serde(flatten)]
    pub settings: DecodeSettings,
}

/// The field names of a request: `input` and the settings'.
fn known(settings: &[Setting]) -> Vec<&'static str> {
    std::iter::once("input")
        .chain(settings.iter().map(|s| s.name()))
        .collect()
}

fn decode_settings(fields: &mut Fields) -> Result<DecodeSettings, RequestError> {
    Ok(DecodeSettings {
        // A JSON string or a form field holds characters: literal ones stay as they are.
        text: true,
        ..DecodeSettings::read(fields)?
    })
}

impl EncodeRequest {
    /// Parses a JSON request. Bad JSON, a field given twice, an unknown field or a field of
    /// the wrong type is an error naming the field; values are checked when it runs.
    pub fn from_json(json: &str) -> Result<Self, RequestError> {
        Self::from_value(RequestBody::parse(json)?.0)
    }

    /// Reads a parsed JSON value, as [`from_json`](Self::from_json).
    pub fn from_value(value: Value) -> Result<Self, RequestError> {
        let mut fields = Fields::from_json(value, &known(Setting::ENCODE))?;
        Ok(EncodeRequest {
            input: fields.string("input")?.unwrap_or_default(),
            settings: EncodeSettings::read(&mut fields)?,
        })
    }

    /// Reads form fields (`name`, `value`) with the names of the JSON fields; booleans are
    /// `on`/`true`/`1`/`yes` or `off`/`false`/`0`/`no`/empty, an empty text field is absent.
    /// Unknown names are an error naming them.
    pub fn from_form<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Self, RequestError> {
        let mut fields = Fields::from_form(pairs, &known(Setting::ENCODE))?;
        Ok(EncodeRequest {
            input: fields.string("input")?.unwrap_or_default(),
            settings: EncodeSettings::read(&mut fields)?,
        })
    }

    /// Encodes `self.input`.
    pub fn run(&self) -> Result<CodecResponse, Failure> {
        self.run_on(self.input.as_bytes())
    }

    /// Encodes `input` (UTF-8 text) with this request's settings, ignoring `self.input`.
    ///
    /// Fails only on a setting that names nothing, or, strict, at the first finding strict
    /// mode rejects: otherwise text that is not UTF-8, unencodable characters and the like
    /// are reported in the response's diagnostics.
    pub fn run_on(&self, input: &[u8]) -> Result<CodecResponse, Failure> {
        respond(self.settings.check(), input)
    }
}

impl DecodeRequest {
    /// Parses a JSON request. Bad JSON, a field given twice, an unknown field or a field of
    /// the wrong type is an error naming the field; values are checked when it runs.
    pub fn from_json(json: &str) -> Result<Self, RequestError> {
        Self::from_value(RequestBody::parse(json)?.0)
    }

    /// Reads a parsed JSON value, as [`from_json`](Self::from_json).
    pub fn from_value(value: Value) -> Result<Self, RequestError> {
        let mut fields = Fields::from_json(value, &known(Setting::DECODE))?;
        Ok(DecodeRequest {
            input: fields.string("input")?.unwrap_or_default(),
            settings: decode_settings(&mut fields)?,
        })
    }

    /// Reads form fields, as [`EncodeRequest::from_form`].
    pub fn from_form<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Self, RequestError> {
        let mut fields = Fields::from_form(pairs, &known(Setting::DECODE))?;
        Ok(DecodeRequest {
            input: fields.string("input")?.unwrap_or_default(),
            settings: decode_settings(&mut fields)?,
        })
    }

    /// Decodes `self.input`.
    pub fn run(&self) -> Result<CodecResponse, Failure> {
        self.run_on(self.input.as_bytes())
    }

    /// Decodes `input` with this request's settings, ignoring `self.input`.
    ///
    /// Fails only on a setting that names nothing, or, strict, at the first finding strict
    /// mode rejects: otherwise malformed escapes are kept and invalid sequences become
    /// U+FFFD, each reported in the response's diagnostics.
    pub fn run_on(&self, input: &[u8]) -> Result<CodecResponse, Failure> {
        respond(self.settings.check(), input)
    }
}

/// Runs `input` with checked settings into the answer every front end gives.
fn respond(plan: Result<Plan, SettingError>, input: &[u8]) -> Result<CodecResponse, Failure> {
    let outcome = plan?.run(input).map_err(Failure::Rejected)?;
    Ok(CodecResponse::from_outcome(&outcome))
}

/// The answer to an encode or decode request.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CodecResponse {
    /// The output as text (bytes that are not UTF-8, possible only in binary mode, are
    /// shown as U+FFFD).
    pub output: String,
    /// The charset used: for encoding the chosen one, for decoding the fixed one or what
    /// `auto` detected for the last entry.
    pub charset: Option<String>,
    /// The findings in the order the codec found them, at most
    /// [`KEPT_FINDINGS`](urlkit::diagnostics::KEPT_FINDINGS); in per-line mode each with
    /// its `line` and `column`.
    pub diagnostics: Vec<Diagnostic>,
    /// How many findings were found beyond the listed ones and only counted.
    pub diagnostics_not_listed: u64,
    /// How many findings of each code were made, listed or not, the most frequent first:
    /// the summary to show before the list.
    pub diagnostic_counts: Vec<CodeCount>,
    /// For decoding with `auto`: what was detected (for the last entry in per-line mode),
    /// the library's [`Detection`]: `{charset, confidence, reason, bom_length, runners_up}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detected: Option<Detection>,
    /// With `until_stable`: how many layers of encoding were removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<usize>,
    /// With `until_stable`: each intermediate layer, outermost first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layers: Option<Vec<String>>,
}

/// How many findings of one code a run made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CodeCount {
    /// The findings' code.
    pub code: urlkit::Code,
    /// How many, listed in `diagnostics` or not.
    pub count: u64,
}

/// The counts of a sink, the most frequent code first (codes seen first before others as
/// frequent).
pub fn code_counts(diagnostics: &Diagnostics) -> Vec<CodeCount> {
    diagnostics
        .counts_most_frequent_first()
        .into_iter()
        .map(|(code, count)| CodeCount { code, count })
        .collect()
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

impl CodecResponse {
    /// The response for a whole-input run.
    pub fn from_outcome(outcome: &Outcome) -> Self {
        Self::of(
            &outcome.output,
            outcome.charset,
            &outcome.diagnostics,
            outcome.detection.as_ref(),
            outcome.layers.as_ref(),
        )
    }

    /// The response for one entry of a runner ([`urlkit::settings::Entries`]) or a stream
    /// so far ([`Entry::Streamed`]), with `output` as the output.
    pub fn from_entry(entry: &Entry<'_>, output: &[u8]) -> Self {
        Self::of(
            output,
            entry.charset(),
            entry.diagnostics(),
            entry.detection(),
            entry.layers(),
        )
    }

    fn of(
        output: &[u8],
        charset: Option<urlkit::Charset>,
        diagnostics: &Diagnostics,
        detected: Option<&Detection>,
        layers: Option<&urlkit::codec::Layers>,
    ) -> Self {
        CodecResponse {
            output: lossy(output),
            charset: charset.map(|c| c.name().to_string()),
            diagnostics: diagnostics.items().to_vec(),
            diagnostics_not_listed: diagnostics.dropped(),
            diagnostic_counts: code_counts(diagnostics),
            detected: detected.cloned(),
            depth: layers.map(|l| l.depth),
            layers: layers.map(|l| l.layers.iter().map(|layer| lossy(layer)).collect()),
        }
    }
}

/// Detects the charset of percent-encoded text ([`urlkit::codec::detect_charset`]), as
/// `urlkit detect --json` prints it. Never fails: empty input is reported as UTF-8 with low
/// confidence.
pub fn detect(input: &[u8]) -> Detection {
    urlkit::codec::detect_charset(input)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_request_runs_with_defaults() {
        let request = EncodeRequest::from_json(r#"{"input": "a b"}"#).unwrap();
        let response = request.run().unwrap();
        assert_eq!(response.output, "a%20b");
        assert_eq!(response.charset.as_deref(), Some("UTF-8"));
        assert!(response.diagnostics.is_empty());
    }

    #[test]
    fn unknown_field_is_named() {
        let error = EncodeRequest::from_json(r#"{"input": "a", "sett": "x"}"#).unwrap_err();
        assert_eq!(error.field, "sett");
        // A decode-only setting is unknown to encoding.
        let error = EncodeRequest::from_json(r#"{"plus_space": true}"#).unwrap_err();
        assert_eq!(error.field, "plus_space");
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
        let error = DecodeRequest::from_json(r#"[1]"#).unwrap_err();
        assert_eq!(error.field, "");
    }

    #[test]
    fn values_that_name_nothing_are_named_when_run() {
        for (json, field) in [
            (r#"{"charset": "klingon"}"#, "charset"),
            (r#"{"set": "nope"}"#, "set"),
            (r#"{"safe": "é"}"#, "safe"),
            (r#"{"newline": "cr"}"#, "newline"),
        ] {
            let request = EncodeRequest::from_json(json).unwrap();
            match request.run() {
                Err(Failure::Invalid(error)) => assert_eq!(error.field, field, "{json}"),
                other => panic!("{json}: {other:?}"),
            }
        }
    }

    #[test]
    fn form_fields_follow_the_json_rules() {
        let request =
            DecodeRequest::from_form([("input", "a+b"), ("plus_space", "on"), ("charset", "")])
                .unwrap();
        assert_eq!(request.settings.charset, None);
        assert_eq!(request.run().unwrap().output, "a b");
        let error = DecodeRequest::from_form([("plus_space", "maybe")]).unwrap_err();
        assert_eq!(error.field, "plus_space");
        let error = EncodeRequest::from_form([("sett", "x")]).unwrap_err();
        assert_eq!(error.field, "sett");
    }

    #[test]
    fn json_input_is_text_whose_characters_stay_in_a_legacy_charset() {
        let request =
            DecodeRequest::from_json(r#"{"input": "漢%FC", "charset": "latin1"}"#).unwrap();
        let response = request.run().unwrap();
        assert_eq!(response.output, "漢ü");
        assert!(response.diagnostics.is_empty());
    }

    #[test]
    fn null_counts_as_absent() {
        let request = DecodeRequest::from_json(r#"{"input": "%41", "charset": null}"#).unwrap();
        assert_eq!(request.run().unwrap().output, "A");
    }

    #[test]
    fn strict_rejection_names_code_and_offset() {
        let request = DecodeRequest::from_json(r#"{"input": "ab%zz", "strict": true}"#).unwrap();
        let failure = request.run().unwrap_err();
        let body = serde_json::to_value(failure.to_body()).unwrap();
        assert_eq!(body["error"]["code"], "malformed-escape");
        assert_eq!(body["error"]["offset"], 2);
    }

    #[test]
    fn strict_rejection_says_it_rejected_and_where() {
        let request =
            DecodeRequest::from_json(r#"{"input": "ok\nab%zz", "strict": true, "per_line": true}"#)
                .unwrap();
        let body = serde_json::to_value(request.run().unwrap_err().to_body()).unwrap();
        let error = &body["error"];
        assert_eq!(error["offset"], 5);
        let message = error["message"].as_str().unwrap();
        assert!(message.contains("rejected"), "{message}");
        assert!(!message.contains("kept as it is"), "{message}");
    }

    #[test]
    fn findings_are_counted_by_code_beyond_the_listed_ones() {
        let input = "%zz".repeat(urlkit::diagnostics::KEPT_FINDINGS + 5) + "%01";
        let request = DecodeRequest {
            input,
            ..DecodeRequest::default()
        };
        let response = request.run().unwrap();
        assert_eq!(response.diagnostics_not_listed, 6);
        let written = serde_json::to_value(&response).unwrap();
        assert_eq!(
            written["diagnostic_counts"],
            serde_json::json!([
                {"code": "malformed-escape", "count": urlkit::diagnostics::KEPT_FINDINGS + 5},
                {"code": "control-character", "count": 1},
            ])
        );
    }

    #[test]
    fn per_line_findings_carry_line_and_column_and_others_do_not() {
        let per_line =
            DecodeRequest::from_json(r#"{"input": "%41\r\nb%zz\n%", "per_line": true}"#).unwrap();
        let written = serde_json::to_value(per_line.run().unwrap()).unwrap();
        let positions: Vec<(u64, u64, u64)> = written["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                let n = |k: &str| d[k].as_u64().unwrap();
                (n("offset"), n("line"), n("column"))
            })
            .collect();
        assert_eq!(positions, [(6, 2, 2), (10, 3, 1)]);
        let whole = DecodeRequest::from_json(r#"{"input": "a\n%zz"}"#).unwrap();
        let written = serde_json::to_value(whole.run().unwrap()).unwrap();
        assert!(written["diagnostics"][0].get("line").is_none(), "{written}");
    }

    #[test]
    fn until_stable_reports_layers() {
        let request =
            DecodeRequest::from_json(r#"{"input": "%2520", "until_stable": true}"#).unwrap();
        let response = request.run().unwrap();
        assert_eq!(response.output, " ");
        assert_eq!(response.depth, Some(2));
        assert_eq!(response.layers, Some(vec!["%20".to_string()]));
    }

    #[test]
    fn requests_serialise_with_the_field_names_they_are_read_by() {
        let json = r#"{"input":"a b","set":"form","unsafe":"*","strict":true}"#;
        let request = EncodeRequest::from_json(json).unwrap();
        let written = serde_json::to_value(&request).unwrap();
        assert_eq!(written["unsafe"], "*");
        assert_eq!(written["set"], "form");
        assert!(written.get("binary").is_none(), "{written}");
        assert_eq!(EncodeRequest::from_value(written).unwrap(), request);
    }

    #[test]
    fn detect_names_the_charset() {
        let response = detect(b"%83%89%81%5B%83%81%83%93");
        let written = serde_json::to_value(&response).unwrap();
        assert_eq!(written["charset"], "Shift_JIS");
        assert!(written["runners_up"].is_array());
    }
}
