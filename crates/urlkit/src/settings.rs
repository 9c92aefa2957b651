//! Codec settings as a front end receives them, checked once into a [`Plan`] that runs.
//!
//! The command line's flags, the JSON API's fields, the page's form fields, the
//! WebAssembly module's options and the Python package's keyword arguments all name the
//! same settings ([`Setting`]). A front end reads them through one table
//! ([`EncodeSettings::read`], [`DecodeSettings::read`] over [`Setting::ENCODE`] and
//! [`Setting::DECODE`]) from whatever it holds, by implementing [`Source`]; the values are
//! kept as given (a charset label, a set name). [`check`](EncodeSettings::check) then
//! turns them, once, into a [`Plan`]: the codec options and strictness, ready to run a
//! whole input ([`Plan::run`]), a stream ([`Plan::codec`]) or entry after entry, peeling
//! layers where asked ([`Plan::entries`]). A value that names nothing is a
//! [`SettingError`] saying which setting and why, which each front end words in its own
//! vocabulary (`--charset`, the field `charset`, the keyword `charset`).

use crate::charset::Charset;
use crate::codec::{
    decode_until_stable, CharsetChoice, Codec, DecodeOptions, EncodeOptions, Layers, Newline,
    Outcome, Rejection,
};
use crate::detect::{Detection, Ranking};
use crate::diagnostics::Diagnostics;
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

    /// Whether the setting is on or off (`space_plus`, `strict`, …) rather than a text
    /// (`charset`, `set`, `safe`, `unsafe`, `newline`).
    pub fn is_switch(self) -> bool {
        !matches!(
            self,
            Setting::Charset | Setting::Set | Setting::Safe | Setting::Unsafe | Setting::Newline
        )
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
#[non_exhaustive]
pub struct SettingError {
    /// The setting at fault.
    pub setting: Setting,
    /// What kind of fault, for a caller that words it itself.
    pub kind: SettingProblem,
    /// What is wrong with it, in words.
    pub message: String,
}

/// The kinds of [`SettingError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SettingProblem {
    /// A name that names nothing: a charset label, an encode set.
    UnknownName,
    /// A value the setting cannot take: a non-ASCII character in `safe`/`unsafe`, a
    /// newline other than `lf`/`crlf`.
    InvalidValue,
    /// Two settings that cannot go together (`until_stable` with `per_line`).
    Conflict,
    /// A setting that needs the whole input, asked of a stream (`until_stable`).
    NeedsWholeInput,
}

impl SettingError {
    fn new(setting: Setting, kind: SettingProblem, message: impl Into<String>) -> Self {
        SettingError {
            setting,
            kind,
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

/// Where a front end holds the settings it was given: JSON fields, form fields, keyword
/// arguments, command-line flags. [`EncodeSettings::read`] and [`DecodeSettings::read`] ask
/// it for each setting of the table, a text setting with [`text`](Source::text) and a
/// switch with [`switch`](Source::switch); a value of the wrong kind is the source's own
/// error (it knows how to word it).
pub trait Source {
    /// What the source says of a value it cannot read.
    type Error;
    /// The text given for `setting`, or `None` when it was not given.
    fn text(&mut self, setting: Setting) -> Result<Option<String>, Self::Error>;
    /// Whether `setting` was turned on.
    fn switch(&mut self, setting: Setting) -> Result<bool, Self::Error>;
}

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
        Some(name) => Newline::named(name).ok_or_else(|| {
            SettingError::new(
                Setting::Newline,
                SettingProblem::InvalidValue,
                "must be \"lf\" or \"crlf\"",
            )
        }),
    }
}

impl EncodeSettings {
    /// Reads every setting of [`Setting::ENCODE`] from `source`; `binary` stays off (a
    /// front end that offers it sets it). Only the source's own errors fail here: the
    /// values are checked by [`check`](Self::check).
    pub fn read<S: Source>(source: &mut S) -> Result<Self, S::Error> {
        let mut settings = EncodeSettings::default();
        for &setting in Setting::ENCODE {
            if setting.is_switch() {
                let on = source.switch(setting)?;
                *match setting {
                    Setting::SpacePlus => &mut settings.space_plus,
                    Setting::Lowercase => &mut settings.lowercase,
                    Setting::PerLine => &mut settings.per_line,
                    _ => &mut settings.strict,
                } = on;
            } else {
                let text = source.text(setting)?;
                *match setting {
                    Setting::Charset => &mut settings.charset,
                    Setting::Set => &mut settings.set,
                    Setting::Safe => &mut settings.safe,
                    Setting::Unsafe => &mut settings.unsafe_chars,
                    _ => &mut settings.newline,
                } = text;
            }
        }
        Ok(settings)
    }

    /// Checks the settings into a [`Plan`] that encodes.
    ///
    /// An unknown charset or set, a non-ASCII character in `safe`/`unsafe` or a newline
    /// other than `lf`/`crlf` is an error naming the setting.
    pub fn check(&self) -> Result<Plan, SettingError> {
        Ok(Plan {
            work: Work::Encode(self.options()?),
            strict: self.strict,
        })
    }

    fn options(&self) -> Result<EncodeOptions, SettingError> {
        let charset = match &self.charset {
            Some(label) => Charset::for_label(label).map_err(|e| {
                SettingError::new(Setting::Charset, SettingProblem::UnknownName, e.to_string())
            })?,
            None => Charset::UTF_8,
        };
        let mut set = match &self.set {
            Some(name) => EncodeSet::named(name).map_err(|e| {
                SettingError::new(Setting::Set, SettingProblem::UnknownName, e.to_string())
            })?,
            None => EncodeSet::UNRESERVED,
        };
        if let Some(chars) = &self.safe {
            set = set.with_safe(chars).map_err(|e| {
                SettingError::new(Setting::Safe, SettingProblem::InvalidValue, e.to_string())
            })?;
        }
        if let Some(chars) = &self.unsafe_chars {
            set = set.with_unsafe(chars).map_err(|e| {
                SettingError::new(Setting::Unsafe, SettingProblem::InvalidValue, e.to_string())
            })?;
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
}

impl DecodeSettings {
    /// Reads every setting of [`Setting::DECODE`] from `source`; `binary` and `text` stay
    /// off (a front end that knows them sets them). Only the source's own errors fail
    /// here: the values are checked by [`check`](Self::check).
    pub fn read<S: Source>(source: &mut S) -> Result<Self, S::Error> {
        let mut settings = DecodeSettings::default();
        for &setting in Setting::DECODE {
            if setting.is_switch() {
                let on = source.switch(setting)?;
                *match setting {
                    Setting::PlusSpace => &mut settings.plus_space,
                    Setting::KeepWhitespace => &mut settings.keep_whitespace,
                    Setting::PerLine => &mut settings.per_line,
                    Setting::UntilStable => &mut settings.until_stable,
                    _ => &mut settings.strict,
                } = on;
            } else {
                let text = source.text(setting)?;
                *match setting {
                    Setting::Charset => &mut settings.charset,
                    _ => &mut settings.newline,
                } = text;
            }
        }
        Ok(settings)
    }

    /// Checks the settings into a [`Plan`] that decodes. With `auto`, a whole input's
    /// detection lists its runners-up; per line, an entry settled without the
    /// statistical model lists none ([`DecodeOptions::ranking`]; a front end that shows
    /// every line's runners-up asks for them with [`Plan::ranking`]).
    ///
    /// An unknown charset or newline is an error naming the setting, and so is
    /// `until_stable` together with `per_line`.
    pub fn check(&self) -> Result<Plan, SettingError> {
        let charset = match &self.charset {
            Some(label) => CharsetChoice::for_label(label).map_err(|e| {
                SettingError::new(Setting::Charset, SettingProblem::UnknownName, e.to_string())
            })?,
            None => CharsetChoice::default(),
        };
        if self.until_stable && self.per_line {
            return Err(SettingError::new(
                Setting::UntilStable,
                SettingProblem::Conflict,
                "cannot be combined with per_line",
            ));
        }
        let options = DecodeOptions {
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
        };
        Ok(Plan {
            work: Work::Decode {
                options,
                until_stable: self.until_stable,
            },
            strict: self.strict,
        })
    }
}

/// Settings checked: encoding or decoding options and strictness, ready to run whole
/// inputs ([`run`](Self::run)), streams ([`codec`](Self::codec)) and entries one after
/// the other ([`entries`](Self::entries)), peeling layers of encoding where the settings
/// ask (`until_stable`). Made by [`EncodeSettings::check`] and [`DecodeSettings::check`].
#[derive(Clone, Debug)]
pub struct Plan {
    work: Work,
    strict: bool,
}

#[derive(Clone, Debug)]
enum Work {
    Encode(EncodeOptions),
    Decode {
        options: DecodeOptions,
        until_stable: bool,
    },
}

impl Plan {
    /// Whether this plan decodes (rather than encodes).
    pub fn decodes(&self) -> bool {
        matches!(self.work, Work::Decode { .. })
    }

    /// Whether bytes are escaped or returned as they are, with no charset step.
    pub fn binary(&self) -> bool {
        match &self.work {
            Work::Encode(options) => options.binary,
            Work::Decode { options, .. } => options.binary,
        }
    }

    /// Whether the output is bytes rather than text: decoding with `binary` (encoded
    /// output is always ASCII).
    pub fn bytes_out(&self) -> bool {
        self.decodes() && self.binary()
    }

    /// Whether each line is an entry of its own.
    pub fn per_line(&self) -> bool {
        match &self.work {
            Work::Encode(options) => options.per_line,
            Work::Decode { options, .. } => options.per_line,
        }
    }

    /// The separator written after each entry in per-line mode.
    pub fn newline(&self) -> Newline {
        match &self.work {
            Work::Encode(options) => options.newline,
            Work::Decode { options, .. } => options.newline,
        }
    }

    /// Whether the first finding strict mode rejects stops the run.
    pub fn strict(&self) -> bool {
        self.strict
    }

    /// Whether decoding detects the charset (`auto`).
    pub fn auto(&self) -> bool {
        matches!(&self.work, Work::Decode { options, .. } if options.charset == CharsetChoice::Auto)
    }

    /// Whether every layer of encoding is peeled (`until_stable`).
    pub fn until_stable(&self) -> bool {
        matches!(
            self.work,
            Work::Decode {
                until_stable: true,
                ..
            }
        )
    }

    /// This plan for input that is text (typed, a JSON string, a Python `str`) rather
    /// than bytes: decoding into a legacy charset keeps its literal non-ASCII characters
    /// ([`DecodeOptions::text`]). Encoding is the same either way.
    pub fn for_text(mut self, text: bool) -> Self {
        if let Work::Decode { options, .. } = &mut self.work {
            options.text = text;
        }
        self
    }

    /// This plan with `auto`'s detections listing runners-up or not ([`Ranking`]); the
    /// default lists them for a whole input and not per line.
    pub fn ranking(mut self, ranking: Ranking) -> Self {
        if let Work::Decode { options, .. } = &mut self.work {
            options.ranking = ranking;
        }
        self
    }

    /// A streaming [`Codec`] for this plan, keeping
    /// [`KEPT_FINDINGS`](crate::diagnostics::KEPT_FINDINGS) findings.
    ///
    /// `until_stable` is an error: peeling layers needs the whole input (use
    /// [`run`](Self::run) or [`entries`](Self::entries)).
    pub fn codec(&self) -> Result<Codec, SettingError> {
        match &self.work {
            Work::Encode(options) => Ok(Codec::encoder(options).strict(self.strict)),
            Work::Decode {
                until_stable: true, ..
            } => Err(SettingError::new(
                Setting::UntilStable,
                SettingProblem::NeedsWholeInput,
                "needs the whole input; not available when streaming",
            )),
            Work::Decode { options, .. } => Ok(Codec::decoder(options).strict(self.strict)),
        }
    }

    /// Runs the whole of `input` (text as UTF-8, or bytes when `binary`), peeling every
    /// layer with `until_stable`.
    ///
    /// Lenient, bad input never fails (see [`encode`](crate::encode) and
    /// [`decode`](crate::decode)): every finding is reported in the outcome. Strict, the
    /// first finding strict mode rejects is the [`Rejection`], with its offset.
    pub fn run(&self, input: &[u8]) -> Result<Outcome, Rejection> {
        match &self.work {
            Work::Decode {
                options,
                until_stable: true,
            } => {
                let peeled = decode_until_stable(input, options);
                match peeled.diagnostics.first_strict_error() {
                    Some(error) if self.strict => Err(Rejection(error.rejected())),
                    _ => Ok(peeled),
                }
            }
            Work::Encode(options) => Codec::encoder(options).strict(self.strict).run(input),
            Work::Decode { options, .. } => Codec::decoder(options).strict(self.strict).run(input),
        }
    }

    /// A runner of entries one after the other (Python values, Arrow rows, lines held
    /// whole), each entry run as by [`run`](Self::run) but with one codec, reset between
    /// entries, so nothing is allocated per entry on the fast path.
    pub fn entries(&self) -> Entries {
        let codec = match &self.work {
            Work::Encode(options) => Codec::encoder(options),
            Work::Decode { options, .. } => Codec::decoder(options),
        };
        Entries {
            codec: codec.strict(self.strict),
            peel: self.until_stable().then(|| self.clone()),
        }
    }
}

/// Runs entries one after the other with one [`Plan`]; made by [`Plan::entries`].
pub struct Entries {
    codec: Codec,
    /// With `until_stable`: each entry is peeled whole, by the plan.
    peel: Option<Plan>,
}

/// What running one entry gave, beside its output: its charset, findings, detection and
/// (peeling) layers. Borrowed from the [`Entries`] that ran it, until the next entry.
pub enum Entry<'a> {
    /// Run by the runner's codec, which holds what it found.
    Streamed(&'a Codec),
    /// Peeled whole (`until_stable`).
    Peeled(Box<Outcome>),
}

impl Entry<'_> {
    /// The findings kept (in the order found) and the count of the others.
    pub fn diagnostics(&self) -> &Diagnostics {
        match self {
            Entry::Streamed(codec) => codec.diagnostics(),
            Entry::Peeled(outcome) => &outcome.diagnostics,
        }
    }

    /// The charset used (for `auto`, the one detected).
    pub fn charset(&self) -> Option<Charset> {
        match self {
            Entry::Streamed(codec) => codec.charset(),
            Entry::Peeled(outcome) => outcome.charset,
        }
    }

    /// What `auto` detected; `None` with a fixed charset.
    pub fn detection(&self) -> Option<&Detection> {
        match self {
            Entry::Streamed(codec) => codec.detection(),
            Entry::Peeled(outcome) => outcome.detection.as_ref(),
        }
    }

    /// With `until_stable`: the layers peeled.
    pub fn layers(&self) -> Option<&Layers> {
        match self {
            Entry::Streamed(_) => None,
            Entry::Peeled(outcome) => outcome.layers.as_ref(),
        }
    }
}

impl Entries {
    /// Runs one entry, appending its output to `out`. Strict, the first finding strict
    /// mode rejects is the [`Rejection`] (with its offset in the entry) and `out` is left
    /// as it was.
    pub fn run(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<Entry<'_>, Rejection> {
        if let Some(plan) = &self.peel {
            let outcome = plan.run(input)?;
            out.extend_from_slice(&outcome.output);
            return Ok(Entry::Peeled(Box::new(outcome)));
        }
        self.codec.entry(input, out)?;
        Ok(Entry::Streamed(&self.codec))
    }

    /// [`run`](Self::run) for an entry [`plain_entries`](Self::plain_entries) stopped
    /// before, which is known to need repair or a report: the full decoder at once,
    /// without trying the fast path for plain entries again ([`Codec::entry_in_full`],
    /// which takes a short UTF-8 entry in a single pass, findings and all).
    pub fn run_in_full(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<Entry<'_>, Rejection> {
        if self.peel.is_some() {
            return self.run(input, out);
        }
        self.codec.entry_in_full(input, out)?;
        Ok(Entry::Streamed(&self.codec))
    }

    /// This runner, counting findings without keeping them (their messages are never
    /// made), for a caller that shows only the output; strict mode still rejects at the
    /// first finding it rejects.
    pub fn counting_findings_only(mut self) -> Self {
        self.codec = self.codec.keep_findings(0);
        self
    }

    /// This runner, for a caller that keeps only the output and no findings (not even
    /// their count): when lenient, with a fixed UTF-8 charset (or `auto`, for entries whose
    /// bytes are UTF-8 without an escaped NUL or ESC, which detection settles as UTF-8),
    /// [`plain_entries`](Self::plain_entries) also takes the entries whose findings leave
    /// the output as decoding every escape gives it: a `%` that starts no escape (kept as
    /// it is), a second layer of encoding (one layer decoded), a control or bidi character
    /// (decoded), bytes that are not UTF-8 (each maximal broken part made U+FFFD). Their
    /// outputs are what [`run`](Self::run) gives them; whitespace to remove still stops a
    /// run. Strict runners are not changed.
    pub fn dropping_findings(mut self) -> Self {
        self.codec = self.codec.drop_findings();
        self
    }

    /// Decodes entries laid end to end in `values` (entry `i` is
    /// `values[offsets[i]..offsets[i + 1]]`, as in an Arrow column), as many of the leading
    /// ones as [`run`](Self::run) would decode with nothing to report, in one pass over
    /// all of them rather than one entry at a time. Their outputs, each of them UTF-8, are
    /// appended to `out`, and the length of `out` after each to `out_ends`; the count of
    /// entries decoded is returned. The entry after them (if any) needs repair or a
    /// report: nothing of it is in `out`, and it is best given to
    /// [`run_in_full`](Self::run_in_full), which does not try the fast path again.
    ///
    /// A call costs about as much as decoding the entries it takes: the entries are
    /// decoded and checked a group of about 1,024 input bytes at a time, so the entry it
    /// stops before costs at most the rest of its group, however many entries were given.
    /// Only decoding to UTF-8 text without `binary`, `per_line` or `until_stable` has this
    /// fast path, and decoding with `auto` ranking the charset alone
    /// ([`Plan::ranking`] with [`Ranking::Charset`](crate::detect::Ranking); a plan of whole
    /// entries ranks runners-up unless told): otherwise it returns 0 and appends nothing. With `auto` it
    /// takes the entries that decode as plain UTF-8 and whose detection settles as UTF-8
    /// without the statistical model (ASCII, valid UTF-8, no byte order mark; with `text`,
    /// no literal non-ASCII character): their output is what [`run`](Self::run) gives,
    /// and their one finding there, the `charset-detected` note naming UTF-8, is not made
    /// (a caller that shows findings runs each entry with [`run`](Self::run), or ranks
    /// runners-up, which this path does not take).
    ///
    /// # Panics
    /// When the offsets of the entries it looks at (those it decodes, and those of the
    /// group it stops in) decrease or pass the end of `values`.
    ///
    /// ```
    /// use urlkit::DecodeSettings;
    ///
    /// let mut entries = DecodeSettings::default().check().unwrap().entries();
    /// let (values, offsets) = (b"caf%C3%A9a%zz%41".as_slice(), [0, 9, 10, 13, 16]);
    /// let (mut out, mut out_ends) = (Vec::new(), Vec::new());
    /// // The third entry, "%zz", has a malformed escape: the run stops before it.
    /// assert_eq!(entries.plain_entries(values, &offsets, &mut out, &mut out_ends), 2);
    /// assert_eq!((out.as_slice(), out_ends.as_slice()), ("caféa".as_bytes(), &[5, 6][..]));
    /// let entry = entries.run_in_full(&values[10..13], &mut out).unwrap();
    /// assert_eq!(entry.diagnostics().items()[0].code.as_str(), "malformed-escape");
    /// // The run goes on after it.
    /// assert_eq!(entries.plain_entries(values, &offsets[3..], &mut out, &mut out_ends), 1);
    /// assert_eq!(out, "caféa%zzA".as_bytes());
    /// ```
    pub fn plain_entries(
        &mut self,
        values: &[u8],
        offsets: &[usize],
        out: &mut Vec<u8>,
        out_ends: &mut Vec<usize>,
    ) -> usize {
        if self.peel.is_some() {
            return 0;
        }
        self.codec
            .plain_entries(values, offsets, out, out_ends, None)
    }

    /// [`plain_entries`](Self::plain_entries) for a caller that shows findings, without
    /// stopping at the entries that have some: a lenient runner with a fixed UTF-8 charset
    /// also takes the entries whose findings leave the output as decoding every escape
    /// gives it (those [`dropping_findings`](Self::dropping_findings) lists), their outputs
    /// as [`run`](Self::run) gives them, and pushes the index (among the entries given) of
    /// each one that may have findings onto `marked`, in order. Every entry with a finding
    /// is marked; [`run_in_full`](Self::run_in_full) on a marked entry alone gives its
    /// findings (and its output again). Any other runner marks nothing and stops as
    /// [`plain_entries`](Self::plain_entries) does.
    ///
    /// # Panics
    /// As [`plain_entries`](Self::plain_entries).
    ///
    /// ```
    /// use urlkit::DecodeSettings;
    ///
    /// let mut entries = DecodeSettings::default().check().unwrap().entries();
    /// let (values, offsets) = (b"caf%C3%A9a%zz%41".as_slice(), [0, 9, 10, 13, 16]);
    /// let (mut out, mut out_ends, mut marked) = (Vec::new(), Vec::new(), Vec::new());
    /// // "%zz" (a malformed escape, kept as it is) stays in the run, marked.
    /// let taken = entries.plain_entries_marking(values, &offsets, &mut out, &mut out_ends, &mut marked);
    /// assert_eq!((taken, out.as_slice(), marked.as_slice()), (4, "caféa%zzA".as_bytes(), &[2][..]));
    /// let entry = entries.run_in_full(&values[10..13], &mut Vec::new()).unwrap();
    /// assert_eq!(entry.diagnostics().items()[0].code.as_str(), "malformed-escape");
    /// ```
    pub fn plain_entries_marking(
        &mut self,
        values: &[u8],
        offsets: &[usize],
        out: &mut Vec<u8>,
        out_ends: &mut Vec<usize>,
        marked: &mut Vec<usize>,
    ) -> usize {
        if self.peel.is_some() {
            return 0;
        }
        self.codec
            .plain_entries(values, offsets, out, out_ends, Some(marked))
    }

    /// The charset of a plain entry's output (UTF-8 with `auto`); `None` when
    /// [`plain_entries`](Self::plain_entries) takes none.
    pub fn plain_charset(&self) -> Option<Charset> {
        self.codec.plain_charset()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::Code;

    #[test]
    fn defaults_are_utf8_unreserved_and_lf() {
        let run = EncodeSettings::default()
            .check()
            .unwrap()
            .run(b"a b/")
            .unwrap();
        assert_eq!(run.output, b"a%20b%2F");
        assert_eq!(run.charset, Some(Charset::UTF_8));
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
            let error = settings.check().unwrap_err();
            assert_eq!(error.setting, setting, "{settings:?}");
            let kind = match setting {
                Setting::Charset | Setting::Set => SettingProblem::UnknownName,
                _ => SettingProblem::InvalidValue,
            };
            assert_eq!(error.kind, kind, "{settings:?}");
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
            let run = settings.check().unwrap().run(b"a b*").unwrap();
            assert_eq!(
                String::from_utf8(run.output).unwrap(),
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
        let run = settings.check().unwrap().run(b"%2520").unwrap();
        assert_eq!(run.output, b" ");
        assert_eq!(run.layers.as_ref().map(|l| l.depth), Some(2));
        assert_eq!(
            settings
                .check()
                .unwrap()
                .codec()
                .err()
                .map(|e| (e.setting, e.kind)),
            Some((Setting::UntilStable, SettingProblem::NeedsWholeInput))
        );
        let per_line = DecodeSettings {
            per_line: true,
            ..settings
        };
        assert_eq!(per_line.check().unwrap_err().setting, Setting::UntilStable);
    }

    #[test]
    fn strict_runs_give_the_rejection_with_its_offset() {
        for until_stable in [false, true] {
            let settings = DecodeSettings {
                strict: true,
                until_stable,
                ..DecodeSettings::default()
            };
            let rejection = settings.check().unwrap().run(b"ab%zz").unwrap_err();
            assert_eq!(
                (rejection.0.code, rejection.0.offset),
                (Code::MalformedEscape, 2)
            );
        }
    }

    /// Settings held as name–value pairs, as a form or a keyword list holds them.
    struct Pairs(Vec<(&'static str, &'static str)>);

    impl Source for Pairs {
        type Error = String;
        fn text(&mut self, setting: Setting) -> Result<Option<String>, String> {
            Ok(self
                .0
                .iter()
                .find(|(name, _)| *name == setting.name())
                .map(|(_, value)| value.to_string()))
        }
        fn switch(&mut self, setting: Setting) -> Result<bool, String> {
            match self.text(setting)?.as_deref() {
                None | Some("off") => Ok(false),
                Some("on") => Ok(true),
                Some(other) => Err(format!("{}: not a switch: {other}", setting.name())),
            }
        }
    }

    #[test]
    fn every_setting_of_the_table_is_read_into_its_own_field() {
        let encode = EncodeSettings::read(&mut Pairs(vec![
            ("charset", "latin1"),
            ("set", "path"),
            ("safe", "@"),
            ("unsafe", "/"),
            ("space_plus", "on"),
            ("lowercase", "on"),
            ("per_line", "on"),
            ("newline", "crlf"),
            ("strict", "on"),
        ]))
        .unwrap();
        assert_eq!(
            encode,
            EncodeSettings {
                charset: Some("latin1".into()),
                set: Some("path".into()),
                safe: Some("@".into()),
                unsafe_chars: Some("/".into()),
                space_plus: true,
                lowercase: true,
                per_line: true,
                newline: Some("crlf".into()),
                strict: true,
                binary: false,
            }
        );
        let decode = DecodeSettings::read(&mut Pairs(vec![
            ("charset", "auto"),
            ("plus_space", "on"),
            ("keep_whitespace", "on"),
            ("newline", "crlf"),
            ("strict", "on"),
            ("until_stable", "on"),
        ]))
        .unwrap();
        assert_eq!(
            decode,
            DecodeSettings {
                charset: Some("auto".into()),
                plus_space: true,
                keep_whitespace: true,
                per_line: false,
                newline: Some("crlf".into()),
                strict: true,
                binary: false,
                until_stable: true,
                text: false,
            }
        );
        let error = DecodeSettings::read(&mut Pairs(vec![("strict", "maybe")])).unwrap_err();
        assert_eq!(error, "strict: not a switch: maybe");
    }

    #[test]
    fn entries_peel_each_entry_whole_and_stream_otherwise() {
        let peeling = DecodeSettings {
            until_stable: true,
            ..DecodeSettings::default()
        };
        let mut entries = peeling.check().unwrap().entries();
        let mut out = Vec::new();
        let entry = entries.run(b"%2541", &mut out).unwrap();
        assert_eq!(entry.layers().map(|l| l.depth), Some(2));
        assert_eq!(out, b"A");
        let mut plain = DecodeSettings::default().check().unwrap().entries();
        let entry = plain.run(b"%41%zz", &mut out).unwrap();
        assert!(entry.layers().is_none());
        assert_eq!(entry.diagnostics().items()[0].code, Code::MalformedEscape);
        assert_eq!(out, b"AA%zz");
    }

    #[test]
    fn flags_and_names_follow_one_rule() {
        assert_eq!(Setting::UntilStable.name(), "until_stable");
        assert_eq!(Setting::UntilStable.flag(), "--until-stable");
        assert_eq!(Setting::Unsafe.flag(), "--unsafe");
    }
}
