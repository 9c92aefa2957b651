//! Codec settings as a front end receives them, and the one place they become codec
//! options.
//!
//! The command line's flags, the JSON API's fields, the page's form fields, the
//! WebAssembly module's options and the Python package's keyword arguments all name the
//! same settings ([`Setting`]). Each front end fills an [`EncodeSettings`] or
//! [`DecodeSettings`] with what it was given, as given (a charset label, a set name), and
//! calls [`options`](EncodeSettings::options), [`codec`](EncodeSettings::codec) or
//! [`run`](EncodeSettings::run): the names are checked here, once, and a value that names
//! nothing is a [`SettingError`] saying which setting and why, which each front end words
//! in its own vocabulary (`--charset`, the field `charset`).

use crate::charset::Charset;
use crate::codec::{
    decode_until_stable, CharsetChoice, Codec, DecodeOptions, EncodeOptions, Finished, Newline,
    Peeled, Rejection,
};
use crate::detect::Ranking;
use crate::sets::EncodeSet;
use std::fmt;

/// A codec setting, by the name every front end knows it by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Setting {
    /// `charset`: a charset label (decoding: or `auto`).
    Charset,
    /// `set`: an encode set name.
    Set,
    /// `safe`: ASCII characters to keep literal too.
    Safe,
    /// `unsafe`: ASCII characters to escape too.
    Unsafe,
    /// `space_plus`: write space as `+`.
    SpacePlus,
    /// `lowercase`: lower-case hex digits.
    Lowercase,
    /// `plus_space`: decode `+` as a space.
    PlusSpace,
    /// `keep_whitespace`: keep unencoded whitespace.
    KeepWhitespace,
    /// `per_line`: one entry per line.
    PerLine,
    /// `newline`: `lf` or `crlf`.
    Newline,
    /// `strict`: reject instead of repairing.
    Strict,
    /// `binary`: bytes in or out, no charset step.
    Binary,
    /// `until_stable`: peel every layer of encoding.
    UntilStable,
}

impl Setting {
    /// The setting's name in JSON and forms (`charset`, `space_plus`, `until_stable`, …).
    pub fn name(self) -> &'static str {
        match self {
            Setting::Charset => "charset",
            Setting::Set => "set",
            Setting::Safe => "safe",
            Setting::Unsafe => "unsafe",
            Setting::SpacePlus => "space_plus",
            Setting::Lowercase => "lowercase",
            Setting::PlusSpace => "plus_space",
            Setting::KeepWhitespace => "keep_whitespace",
            Setting::PerLine => "per_line",
            Setting::Newline => "newline",
            Setting::Strict => "strict",
            Setting::Binary => "binary",
            Setting::UntilStable => "until_stable",
        }
    }

    /// The setting's command-line flag (`--charset`, `--space-plus`, `--until-stable`, …).
    pub fn flag(self) -> String {
        format!("--{}", self.name().replace('_', "-"))
    }

    /// The settings of encoding, in the order front ends list them.
    pub const ENCODE: &'static [Setting] = &[
        Setting::Charset,
        Setting::Set,
        Setting::Safe,
        Setting::Unsafe,
        Setting::SpacePlus,
        Setting::Lowercase,
        Setting::PerLine,
        Setting::Newline,
        Setting::Strict,
    ];

    /// The settings of decoding, in the order front ends list them.
    pub const DECODE: &'static [Setting] = &[
        Setting::Charset,
        Setting::PlusSpace,
        Setting::KeepWhitespace,
        Setting::PerLine,
        Setting::Newline,
        Setting::Strict,
        Setting::UntilStable,
    ];
}

/// A setting whose value names nothing, or settings that cannot go together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingError {
    /// The setting at fault.
    pub setting: Setting,
    /// What is wrong with it.
    pub message: String,
}

impl SettingError {
    fn new(setting: Setting, message: impl Into<String>) -> Self {
        SettingError {
            setting,
            message: message.into(),
        }
    }
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.setting.name(), self.message)
    }
}

impl std::error::Error for SettingError {}

/// How to encode, as a front end was told: names not yet checked. The default is what
/// every front end does when told nothing: UTF-8, the `unreserved` set, LF.
///
/// With the `serde` feature it serialises with the names of [`Setting::name`] (`binary`,
/// which only files and the command line set, is left out).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct EncodeSettings {
    /// Charset label the text is converted to before escaping: any WHATWG label,
    /// `utf-16le/be`, `utf-32le/be`, DOS code pages (absent: UTF-8).
    #[cfg_attr(feature = "openapi", schema(example = "utf-8"))]
    pub charset: Option<String>,
    /// Encode set: `unreserved` (default), `component`, `uri`, `form`, `path`, `query`,
    /// `special-query`, `fragment`, `userinfo`, `c0`, `iri`, `all`.
    #[cfg_attr(feature = "openapi", schema(example = "unreserved"))]
    pub set: Option<String>,
    /// ASCII characters to keep literal too.
    pub safe: Option<String>,
    /// ASCII characters to escape too.
    #[cfg_attr(feature = "serde", serde(rename = "unsafe"))]
    pub unsafe_chars: Option<String>,
    /// Write space as `+` (the `form` set does so of itself).
    pub space_plus: bool,
    /// Lower-case hex digits.
    pub lowercase: bool,
    /// One entry per line.
    pub per_line: bool,
    /// Separator after each entry in per-line mode: `lf` (default) or `crlf`.
    #[cfg_attr(feature = "openapi", schema(example = "lf"))]
    pub newline: Option<String>,
    /// Reject (an unencodable character, text that is not UTF-8) instead of repairing.
    pub strict: bool,
    /// Escape bytes as they are, with no charset step (files).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub binary: bool,
}

/// How to decode, as a front end was told: names not yet checked.
///
/// With the `serde` feature it serialises as [`EncodeSettings`] does.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct DecodeSettings {
    /// Charset label the decoded bytes are read in, or `auto` to detect it (absent:
    /// UTF-8).
    #[cfg_attr(feature = "openapi", schema(example = "auto"))]
    pub charset: Option<String>,
    /// `+` becomes a space.
    pub plus_space: bool,
    /// Keep unencoded whitespace.
    pub keep_whitespace: bool,
    /// One entry per line.
    pub per_line: bool,
    /// Separator after each entry in per-line mode: `lf` (default) or `crlf`.
    #[cfg_attr(feature = "openapi", schema(example = "lf"))]
    pub newline: Option<String>,
    /// Reject (a malformed escape, an invalid sequence) instead of repairing.
    pub strict: bool,
    /// Return the decoded bytes as they are, with no charset step (files).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub binary: bool,
    /// Peel every layer of encoding, listing each (whole input only; not with `per_line`).
    pub until_stable: bool,
    /// The input is text (typed, or a JSON string), not bytes: literal non-ASCII
    /// characters are kept as they are whatever the charset (see
    /// [`DecodeOptions::text`]).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub text: bool,
}

fn newline(value: Option<&str>) -> Result<Newline, SettingError> {
    match value {
        None => Ok(Newline::Lf),
        Some(name) => Newline::named(name)
            .ok_or_else(|| SettingError::new(Setting::Newline, "must be \"lf\" or \"crlf\"")),
    }
}

impl EncodeSettings {
    /// The codec options these settings ask for.
    ///
    /// An unknown charset or set, a non-ASCII character in `safe`/`unsafe` or a newline
    /// other than `lf`/`crlf` is an error naming the setting.
    pub fn options(&self) -> Result<EncodeOptions, SettingError> {
        let charset = match &self.charset {
            Some(label) => Charset::for_label(label)
                .map_err(|e| SettingError::new(Setting::Charset, e.to_string()))?,
            None => Charset::UTF_8,
        };
        let mut set = match &self.set {
            Some(name) => EncodeSet::named(name)
                .map_err(|e| SettingError::new(Setting::Set, e.to_string()))?,
            None => EncodeSet::UNRESERVED,
        };
        if let Some(chars) = &self.safe {
            set = set
                .with_safe(chars)
                .map_err(|e| SettingError::new(Setting::Safe, e.to_string()))?;
        }
        if let Some(chars) = &self.unsafe_chars {
            set = set
                .with_unsafe(chars)
                .map_err(|e| SettingError::new(Setting::Unsafe, e.to_string()))?;
        }
        Ok(EncodeOptions {
            charset,
            set,
            space_plus: self.space_plus,
            lowercase: self.lowercase,
            binary: self.binary,
            per_line: self.per_line,
            newline: newline(self.newline.as_deref())?,
        })
    }

    /// A streaming [`Codec`] with these options and strictness, keeping
    /// [`KEPT_FINDINGS`](crate::diagnostics::KEPT_FINDINGS) findings. Errors as for [`options`](Self::options).
    pub fn codec(&self) -> Result<Codec, SettingError> {
        Ok(Codec::encoder(&self.options()?).strict(self.strict))
    }

    /// Encodes the whole of `input` (UTF-8 text, or bytes when `binary`).
    ///
    /// The outer error is a setting that names nothing; the inner one a strict rejection.
    /// Lenient, bad input never fails: see [`encode`](crate::encode).
    pub fn run(&self, input: &[u8]) -> Result<Result<Run, Rejection>, SettingError> {
        let codec = self.codec()?;
        Ok(codec.run(input).map(Run::from))
    }
}

impl DecodeSettings {
    /// The codec options these settings ask for. With `auto`, the whole input's
    /// detection lists its runners-up; per line, an entry settled without the
    /// statistical model lists none ([`DecodeOptions::ranking`]; a front end that shows
    /// every line's runners-up sets it).
    ///
    /// An unknown charset or newline is an error naming the setting, and so is
    /// `until_stable` together with `per_line`.
    pub fn options(&self) -> Result<DecodeOptions, SettingError> {
        let charset = match &self.charset {
            Some(label) => CharsetChoice::for_label(label)
                .map_err(|e| SettingError::new(Setting::Charset, e.to_string()))?,
            None => CharsetChoice::default(),
        };
        if self.until_stable && self.per_line {
            return Err(SettingError::new(
                Setting::UntilStable,
                "cannot be combined with per_line",
            ));
        }
        Ok(DecodeOptions {
            charset,
            plus_space: self.plus_space,
            keep_whitespace: self.keep_whitespace,
            binary: self.binary,
            per_line: self.per_line,
            newline: newline(self.newline.as_deref())?,
            text: self.text,
            // One entry's detection is shown whole; per line, where every entry has one,
            // `auto` should cost little more than a fixed charset.
            ranking: if self.per_line {
                Ranking::Charset
            } else {
                Ranking::RunnersUp
            },
        })
    }

    /// A streaming [`Codec`] with these options and strictness, keeping
    /// [`KEPT_FINDINGS`](crate::diagnostics::KEPT_FINDINGS) findings. Errors as for [`options`](Self::options); `until_stable`
    /// is an error too, since peeling layers needs the whole input (use
    /// [`run`](Self::run)).
    pub fn codec(&self) -> Result<Codec, SettingError> {
        let options = self.options()?;
        if self.until_stable {
            return Err(SettingError::new(
                Setting::UntilStable,
                "needs the whole input; not available when streaming",
            ));
        }
        Ok(Codec::decoder(&options).strict(self.strict))
    }

    /// Decodes the whole of `input`, peeling every layer with `until_stable`.
    ///
    /// The outer error is a setting that names nothing; the inner one a strict rejection.
    /// Lenient, bad input never fails: see [`decode`](crate::decode).
    pub fn run(&self, input: &[u8]) -> Result<Result<Run, Rejection>, SettingError> {
        let options = self.options()?;
        if !self.until_stable {
            return Ok(Codec::decoder(&options)
                .strict(self.strict)
                .run(input)
                .map(Run::from));
        }
        let peeled = decode_until_stable(input, &options);
        if self.strict {
            if let Some(error) = peeled.finished.diagnostics.first_strict_error() {
                return Ok(Err(Rejection(error.rejected())));
            }
        }
        Ok(Ok(Run::peeled(peeled)))
    }
}

/// What a whole-input run of a front end's request gives: the output with its charset
/// and findings (at most [`KEPT_FINDINGS`](crate::diagnostics::KEPT_FINDINGS) kept), what `auto` detected, and with
/// `until_stable` the layers peeled.
#[derive(Clone, Debug)]
pub struct Run {
    /// Output, charset, findings and detection.
    pub finished: Finished,
    /// With `until_stable`: the intermediate layers (outermost first) and their count.
    pub layers: Option<Layers>,
}

/// The layers `until_stable` peeled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layers {
    /// How many layers of encoding were removed.
    pub depth: usize,
    /// The intermediate layers listed, outermost first (the input itself and the final
    /// output are not included): as many as fit in
    /// [`LISTED_LAYER_BYTES`](crate::codec::LISTED_LAYER_BYTES).
    pub layers: Vec<Vec<u8>>,
    /// Intermediate layers peeled but not listed, for want of room.
    pub not_listed: usize,
}

impl From<Finished> for Run {
    fn from(finished: Finished) -> Self {
        Run {
            finished,
            layers: None,
        }
    }
}

impl Run {
    fn peeled(peeled: Peeled) -> Self {
        Run {
            finished: peeled.finished,
            layers: Some(Layers {
                depth: peeled.depth,
                layers: peeled.layers,
                not_listed: peeled.layers_not_listed,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::Code;

    #[test]
    fn defaults_are_utf8_unreserved_and_lf() {
        let run = EncodeSettings::default().run(b"a b/").unwrap().unwrap();
        assert_eq!(run.finished.output, b"a%20b%2F");
        assert_eq!(run.finished.charset, Some(Charset::UTF_8));
    }

    #[test]
    fn every_value_that_names_nothing_is_an_error_naming_its_setting() {
        let with = |change: fn(&mut EncodeSettings)| {
            let mut settings = EncodeSettings::default();
            change(&mut settings);
            settings
        };
        let cases = [
            (
                with(|s| s.charset = Some("klingon".into())),
                Setting::Charset,
            ),
            (with(|s| s.set = Some("nope".into())), Setting::Set),
            (with(|s| s.safe = Some("é".into())), Setting::Safe),
            (with(|s| s.unsafe_chars = Some("€".into())), Setting::Unsafe),
            (with(|s| s.newline = Some("cr".into())), Setting::Newline),
        ];
        for (settings, setting) in cases {
            let error = settings.options().unwrap_err();
            assert_eq!(error.setting, setting, "{settings:?}");
            assert!(error.to_string().starts_with(setting.name()), "{error}");
        }
    }

    #[test]
    fn the_form_set_keeps_space_as_plus_when_characters_are_added_or_removed() {
        for (safe, unsafe_chars, expected) in [
            (None, None, "a+b*"),
            (None, Some("*"), "a+b%2A"),
            (Some("/"), Some("*"), "a+b%2A"),
            (None, Some(" "), "a%20b*"),
            (Some(" "), None, "a b*"),
        ] {
            let settings = EncodeSettings {
                set: Some("form".into()),
                safe: safe.map(String::from),
                unsafe_chars: unsafe_chars.map(String::from),
                ..EncodeSettings::default()
            };
            let run = settings.run(b"a b*").unwrap().unwrap();
            assert_eq!(
                String::from_utf8(run.finished.output).unwrap(),
                expected,
                "safe {safe:?} unsafe {unsafe_chars:?}"
            );
        }
    }

    #[test]
    fn until_stable_peels_and_cannot_stream_or_go_per_line() {
        let settings = DecodeSettings {
            until_stable: true,
            ..DecodeSettings::default()
        };
        let run = settings.run(b"%2520").unwrap().unwrap();
        assert_eq!(run.finished.output, b" ");
        assert_eq!(run.layers.as_ref().map(|l| l.depth), Some(2));
        assert_eq!(
            settings.codec().err().map(|e| e.setting),
            Some(Setting::UntilStable)
        );
        let per_line = DecodeSettings {
            per_line: true,
            ..settings
        };
        assert_eq!(
            per_line.options().unwrap_err().setting,
            Setting::UntilStable
        );
    }

    #[test]
    fn strict_runs_give_the_rejection_with_its_offset() {
        for until_stable in [false, true] {
            let settings = DecodeSettings {
                strict: true,
                until_stable,
                ..DecodeSettings::default()
            };
            let rejection = settings.run(b"ab%zz").unwrap().unwrap_err();
            assert_eq!(
                (rejection.0.code, rejection.0.offset),
                (Code::MalformedEscape, 2)
            );
        }
    }

    #[test]
    fn flags_and_names_follow_one_rule() {
        assert_eq!(Setting::UntilStable.name(), "until_stable");
        assert_eq!(Setting::UntilStable.flag(), "--until-stable");
        assert_eq!(Setting::Unsafe.flag(), "--unsafe");
    }
}
