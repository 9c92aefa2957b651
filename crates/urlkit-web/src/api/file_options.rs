//! A file upload's options: which way it goes, and the codec settings its form fields
//! give, checked as they come.

use crate::error::ApiError;
use serde::{Deserialize, Serialize};
use urlkit::settings::Setting;
use urlkit::Codec;
use urlkit_api::shown::Done;
use urlkit_api::{DecodeRequest, EncodeRequest};
use utoipa::ToSchema;

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

    /// What a result's name says was done ([`result_name`](urlkit_api::shown::result_name)).
    pub fn done(self) -> Done {
        match self {
            Op::Encode => Done::Encoded,
            Op::Decode => Done::Decoded,
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
/// form serves both. Without `charset` a file is bytes in, bytes out; with one, encoding
/// reads the file as UTF-8 text and writes it in the charset, and decoding reads the
/// decoded bytes in the charset (`auto` too) and writes UTF-8, literal non-ASCII bytes
/// included (as `urlkit decode -c` does with a file). `until_stable` does not apply to
/// files (they are streamed).
#[derive(Clone, Debug, Default)]
pub struct FileOptions {
    fields: Vec<(String, String)>,
}

/// Options a file upload does not take: files are streamed, so layers cannot be peeled.
const NOT_FOR_FILES: [Setting; 1] = [Setting::UntilStable];

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

    /// The codec for the file, strict if asked: binary without a charset, else reading
    /// the file as described on [`FileOptions`]. Bad values are a 400 naming the field.
    pub fn codec(&self, op: Op) -> Result<Codec, ApiError> {
        let own = op.settings();
        let pairs = self
            .fields
            .iter()
            .filter(|(name, _)| own.iter().any(|s| s.name() == name))
            // Detection applies to decoding: text to encode is UTF-8, as on the page.
            .filter(|(name, value)| {
                !(op == Op::Encode
                    && name == Setting::Charset.name()
                    && value.trim().eq_ignore_ascii_case("auto"))
            })
            .map(|(name, value)| (name.as_str(), value.as_str()));
        let codec = match op {
            Op::Encode => {
                let mut settings = EncodeRequest::from_form(pairs)?.settings;
                settings.binary = settings.charset.is_none();
                settings.check().and_then(|plan| plan.codec())
            }
            Op::Decode => {
                let mut settings = DecodeRequest::from_form(pairs)?.settings;
                settings.binary = settings.charset.is_none();
                // A file holds bytes, not the characters of a form field.
                settings.text = false;
                settings.check().and_then(|plan| plan.codec())
            }
        };
        Ok(codec.map_err(urlkit_api::RequestError::from)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(op: Op, fields: &[(&str, &str)], input: &[u8]) -> Result<Vec<u8>, ApiError> {
        let mut options = FileOptions::default();
        for (name, value) in fields {
            options.set(name, value)?;
        }
        let mut codec = options.codec(op)?;
        let mut out = Vec::new();
        codec
            .feed(input, &mut out)
            .map_err(|r| ApiError::rejected(&r.0))?;
        codec
            .finish(&mut out)
            .map_err(|r| ApiError::rejected(&r.0))?;
        Ok(out)
    }

    #[test]
    fn files_are_bytes_unless_a_charset_is_given() {
        assert_eq!(run(Op::Decode, &[], b"%E9%20\xff").unwrap(), b"\xe9 \xff");
        let latin1 = [("charset", "latin1")];
        assert_eq!(run(Op::Decode, &latin1, b"%E9").unwrap(), "é".as_bytes());
        // Literal bytes of a file are read in the charset too.
        assert_eq!(
            run(Op::Decode, &latin1, b"\xe9%E9").unwrap(),
            "éé".as_bytes()
        );
        assert_eq!(run(Op::Encode, &latin1, "é".as_bytes()).unwrap(), b"%E9");
        assert_eq!(
            run(
                Op::Encode,
                &[("charset", "auto"), ("set", "component")],
                "é (".as_bytes()
            )
            .unwrap(),
            b"%C3%A9%20("
        );
        let sjis = run(
            Op::Decode,
            &[("charset", "auto")],
            b"%83%89%81%5B%83%81%83%93",
        )
        .unwrap();
        assert_eq!(String::from_utf8(sjis).unwrap(), "ラーメン");
    }

    #[test]
    fn an_unknown_charset_or_field_is_named() {
        let error = run(Op::Decode, &[("charset", "klingon")], b"").unwrap_err();
        assert_eq!(error.field.as_deref(), Some("charset"));
        let error = run(Op::Decode, &[("until_stable", "on")], b"").unwrap_err();
        assert_eq!(error.code, "unknown-field");
    }
}
