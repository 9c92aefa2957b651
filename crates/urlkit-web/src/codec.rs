//! The codec as the API, the page and the file upload use it.
//!
//! `/api/encode`, `/api/decode` and the page read and run their requests with
//! [`urlkit_api`], as the WebAssembly module of live mode does, so the JSON shapes are the
//! same by construction, and the OpenAPI document describes those very types.

use crate::error::ApiError;
use serde::{Deserialize, Serialize};
use urlkit::settings::Setting;
use urlkit::Codec;
use urlkit_api::{CodecResponse, DecodeRequest, EncodeRequest, Failure};
use utoipa::ToSchema;

/// Answers an API or page request: a request the library cannot understand is a 400 naming
/// the field, a strict rejection a 422 with the finding's offset.
pub fn answer(result: Result<CodecResponse, Failure>) -> Result<CodecResponse, ApiError> {
    result.map_err(ApiError::from)
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

    /// The settings this direction takes.
    fn settings(self) -> &'static [Setting] {
        match self {
            Op::Encode => Setting::ENCODE,
            Op::Decode => Setting::DECODE,
        }
    }
}

/// The option fields of a file upload, collected before the file. They are named as in
/// `POST /api/encode` and `/api/decode`; a field of the other direction is ignored, so one
/// form serves both, and the charset and `until_stable` do not apply to files (bytes in,
/// bytes out).
#[derive(Clone, Debug, Default)]
pub struct FileOptions {
    fields: Vec<(String, String)>,
}

/// Options a file upload does not take: files are bytes, with no charset step, and are
/// streamed, so layers cannot be peeled.
const NOT_FOR_FILES: [Setting; 2] = [Setting::Charset, Setting::UntilStable];

impl FileOptions {
    /// Takes one form field. A name that is no option of either direction, or one given
    /// before, is a 400 naming it, so typos and contradictions do not pass silently (and a
    /// form of many fields is refused at the first repeat).
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), ApiError> {
        if self.fields.iter().any(|(given, _)| given == name) {
            return Err(ApiError::bad_request(
                "repeated-field",
                format!("field {name:?} is given twice"),
            ));
        }
        let known = |s: &Setting| s.name() == name && !NOT_FOR_FILES.contains(s);
        if !Op::Encode
            .settings()
            .iter()
            .chain(Op::Decode.settings())
            .any(known)
        {
            return Err(ApiError::bad_request(
                "unknown-field",
                format!("unknown field {name:?}"),
            ));
        }
        self.fields.push((name.to_string(), value.to_string()));
        Ok(())
    }

    /// A binary-mode codec for the file, strict if asked. Bad values are a 400 naming the
    /// field.
    pub fn codec(&self, op: Op) -> Result<Codec, ApiError> {
        let own = op.settings();
        let pairs = self
            .fields
            .iter()
            .filter(|(name, _)| own.iter().any(|s| s.name() == name))
            .map(|(name, value)| (name.as_str(), value.as_str()));
        let codec = match op {
            Op::Encode => {
                let mut settings = EncodeRequest::from_form(pairs)?.settings;
                settings.binary = true;
                settings.codec()
            }
            Op::Decode => {
                let mut settings = DecodeRequest::from_form(pairs)?.settings;
                settings.binary = true;
                settings.codec()
            }
        };
        Ok(codec.map_err(urlkit_api::RequestError::from)?)
    }
}
