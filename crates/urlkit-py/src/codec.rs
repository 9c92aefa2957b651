//! `Encoder` and `Decoder`: keyword arguments checked once by `urlkit::settings`, then run
//! on single values (a `Result`) or on Arrow columns (see `columns`).

use crate::errors::{rejected, setting_error};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString};
use pyo3::PyClassInitializer;
use urlkit::detect::Ranking;
use urlkit::diagnostics::Diagnostics;
use urlkit::settings::{DecodeSettings, EncodeSettings, Layers, Run};
use urlkit::{Charset, Codec, DecodeOptions, EncodeOptions, Rejection};

/// One finding: its stable `code`, its byte `offset` in the entry and a `message`.
#[pyclass(module = "pyurlkit", frozen, eq, get_all)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The stable code (`malformed-escape`, `invalid-sequence`, …).
    pub code: String,
    /// Byte offset in the entry.
    pub offset: u64,
    /// With `per_line=True`: the line the finding is on, counted from 1.
    pub line: Option<u64>,
    /// With `per_line=True`: the byte of that line the finding is at, counted from 1.
    pub column: Option<u64>,
    /// What was found and what was done.
    pub message: String,
}

#[pymethods]
impl Diagnostic {
    fn __repr__(&self) -> String {
        format!(
            "Diagnostic(code={:?}, offset={}, message={:?})",
            self.code, self.offset, self.message
        )
    }

    /// `{"code", "offset", "message"}` (with `line` and `column` in per-line mode), as
    /// `urlkit --json` prints it.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("code", &self.code)?;
        dict.set_item("offset", self.offset)?;
        if let Some(line) = self.line {
            dict.set_item("line", line)?;
        }
        if let Some(column) = self.column {
            dict.set_item("column", column)?;
        }
        dict.set_item("message", &self.message)?;
        Ok(dict)
    }
}

impl From<&urlkit::Diagnostic> for Diagnostic {
    fn from(finding: &urlkit::Diagnostic) -> Self {
        Diagnostic {
            code: finding.code.as_str().to_string(),
            offset: finding.offset,
            line: finding.line,
            column: finding.column,
            message: finding.message.clone(),
        }
    }
}

/// A confidence as the JSON of the command line shows it: the shortest decimal that reads
/// back as the same `f32`, as a Python float.
pub fn confidence(value: f32) -> f64 {
    format!("{value}").parse().unwrap_or(f64::from(value))
}

/// What charset detection found (`detect()`, and `Result.detected` with `charset="auto"`):
/// the charset, how sure, why, the byte order mark's length and the runners-up.
#[pyclass(module = "pyurlkit", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct Detection {
    /// WHATWG name of the charset (`"Shift_JIS"`, `"windows-1251"`, …).
    pub charset: String,
    /// How sure, 0.0 to 1.0.
    pub confidence: f64,
    /// Why (`"valid UTF-8"`, `"statistical guess"`, …).
    pub reason: String,
    /// Bytes of byte order mark.
    pub bom_length: usize,
    /// Other candidates, best first: `(charset, confidence)`.
    pub runners_up: Vec<(String, f64)>,
}

#[pymethods]
impl Detection {
    fn __repr__(&self) -> String {
        format!(
            "Detection(charset={:?}, confidence={}, reason={:?})",
            self.charset, self.confidence, self.reason
        )
    }

    /// As `urlkit detect --json` prints it (and `detected` in `decode --json`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("charset", &self.charset)?;
        dict.set_item("confidence", self.confidence)?;
        dict.set_item("reason", &self.reason)?;
        dict.set_item("bom_length", self.bom_length)?;
        dict.set_item(
            "runners_up",
            list_of_pairs(py, ["charset", "confidence"], &self.runners_up)?,
        )?;
        Ok(dict)
    }
}

/// `[{keys[0]: name, keys[1]: value}, …]`: pairs as the JSON output lists them.
fn list_of_pairs<'py, T: IntoPyObject<'py> + Copy>(
    py: Python<'py>,
    keys: [&str; 2],
    pairs: &[(String, T)],
) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for (name, value) in pairs {
        let item = PyDict::new(py);
        item.set_item(keys[0], name)?;
        item.set_item(keys[1], *value)?;
        list.append(item)?;
    }
    Ok(list)
}

impl From<&urlkit::Detection> for Detection {
    fn from(found: &urlkit::Detection) -> Self {
        Detection {
            charset: found.charset.to_string(),
            confidence: confidence(found.confidence),
            reason: found.reason.to_string(),
            bom_length: found.bom_length,
            runners_up: found
                .runners_up
                .iter()
                .map(|c| (c.charset.to_string(), confidence(c.confidence)))
                .collect(),
        }
    }
}

/// The result of encoding or decoding one entry. Lenient mode always gives one, with every
/// repair listed in `diagnostics`.
#[pyclass(module = "pyurlkit", frozen, get_all)]
pub struct Result {
    /// The output: `str`, or `bytes` with `binary=True`.
    pub output: Py<PyAny>,
    /// The charset used (for `auto`, the one detected).
    pub charset: Option<String>,
    /// The findings in the order found, at most 10,000.
    pub diagnostics: Vec<Diagnostic>,
    /// How many findings were found beyond those listed.
    pub diagnostics_not_listed: u64,
    /// How many findings of each code were made, listed or not, as `(code, count)`, the
    /// most frequent first.
    pub diagnostic_counts: Vec<(String, u64)>,
    /// With `charset="auto"`: what was detected.
    pub detected: Option<Detection>,
    /// With `until_stable=True`: how many layers of encoding were removed.
    pub depth: Option<usize>,
    /// With `until_stable=True`: each intermediate layer, outermost first.
    pub layers: Option<Vec<String>>,
}

#[pymethods]
impl Result {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Result(output={}, charset={:?}, diagnostics={})",
            self.output.bind(py).repr()?,
            self.charset,
            self.diagnostics.len()
        ))
    }

    fn __str__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(self.output.bind(py).str()?.to_string())
    }

    /// The result as `urlkit encode|decode --json` prints it: `output`, `charset`,
    /// `diagnostics`, `diagnostics_not_listed`, `diagnostic_counts` (`[{code, count}]`), and
    /// `detected`, `depth`, `layers` when set.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("output", self.output.bind(py))?;
        dict.set_item("charset", &self.charset)?;
        let findings = PyList::empty(py);
        for finding in &self.diagnostics {
            findings.append(finding.to_dict(py)?)?;
        }
        dict.set_item("diagnostics", findings)?;
        dict.set_item("diagnostics_not_listed", self.diagnostics_not_listed)?;
        dict.set_item(
            "diagnostic_counts",
            list_of_pairs(py, ["code", "count"], &self.diagnostic_counts)?,
        )?;
        if let Some(detected) = &self.detected {
            dict.set_item("detected", detected.to_dict(py)?)?;
        }
        if let Some(depth) = self.depth {
            dict.set_item("depth", depth)?;
        }
        if let Some(layers) = &self.layers {
            dict.set_item("layers", layers)?;
        }
        Ok(dict)
    }
}

/// What one entry left besides its output: the codec that ran it, or the run of
/// `until_stable`.
pub enum Entry<'a> {
    Streamed(&'a Codec),
    Peeled(Box<Run>),
}

impl Entry<'_> {
    pub fn charset(&self) -> Option<Charset> {
        match self {
            Entry::Streamed(codec) => codec.charset(),
            Entry::Peeled(run) => run.finished.charset,
        }
    }

    pub fn diagnostics(&self) -> &Diagnostics {
        match self {
            Entry::Streamed(codec) => codec.diagnostics(),
            Entry::Peeled(run) => &run.finished.diagnostics,
        }
    }

    pub fn detection(&self) -> Option<&urlkit::Detection> {
        match self {
            Entry::Streamed(codec) => codec.detection(),
            Entry::Peeled(run) => run.finished.detection.as_ref(),
        }
    }

    pub fn layers(&self) -> Option<&Layers> {
        match self {
            Entry::Streamed(_) => None,
            Entry::Peeled(run) => run.layers.as_ref(),
        }
    }
}

/// Lossy text of bytes that are UTF-8 except in binary mode.
pub fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Either direction, its settings checked: what both classes share.
pub enum Direction {
    Encode(EncodeSettings, EncodeOptions),
    Decode(DecodeSettings, DecodeOptions),
}

impl Direction {
    pub fn binary(&self) -> bool {
        match self {
            Direction::Encode(settings, _) => settings.binary,
            Direction::Decode(settings, _) => settings.binary,
        }
    }

    /// Output is bytes rather than text: decoding with `binary` (encoded output is ASCII).
    pub fn bytes_out(&self) -> bool {
        matches!(self, Direction::Decode(settings, _) if settings.binary)
    }

    pub fn auto(&self) -> bool {
        matches!(self, Direction::Decode(_, options) if options.charset == urlkit::CharsetChoice::Auto)
    }

    pub fn until_stable(&self) -> bool {
        matches!(self, Direction::Decode(settings, _) if settings.until_stable)
    }

    /// A runner of entries with these settings. `text`: the entries are text (Python
    /// `str`, Arrow strings) rather than bytes, so that decoding into a legacy charset
    /// keeps their literal characters, as the command line does with its arguments
    /// (`urlkit::DecodeOptions::text`). `runners_up`: each entry's detection (with
    /// `auto`) lists the other candidates, for a caller that shows them; without it an
    /// entry settled without the statistical model lists none, and costs little more
    /// than a fixed charset.
    pub fn runner(&self, text: bool, runners_up: bool) -> Runner {
        let codec = match self {
            Direction::Encode(settings, options) => Codec::encoder(options).strict(settings.strict),
            Direction::Decode(settings, options) => {
                let options = DecodeOptions {
                    text,
                    ranking: if runners_up {
                        Ranking::RunnersUp
                    } else {
                        Ranking::Charset
                    },
                    ..options.clone()
                };
                Codec::decoder(&options).strict(settings.strict)
            }
        };
        // Peeling runs the settings whole, per entry: made once here, with the kind of input.
        let peel = match self {
            Direction::Decode(settings, _) if settings.until_stable => Some(DecodeSettings {
                text,
                ..settings.clone()
            }),
            _ => None,
        };
        Runner { codec, peel }
    }

    /// One entry as a `Result`.
    fn result(&self, py: Python<'_>, input: &Input) -> PyResult<Result> {
        let (input, text) = (input.bytes(), input.text);
        let mut output = Vec::with_capacity(input.len() + input.len() / 2);
        // One entry's result shows its detection whole; per line, each line's note names
        // its charset only, as the JSON API's do.
        let per_line = matches!(self, Direction::Decode(settings, _) if settings.per_line);
        let mut runner = self.runner(text, !per_line);
        let entry = py
            .detach(|| runner.run(input, &mut output))
            .map_err(|rejection| rejected(py, &rejection, None))?;
        let diagnostics = entry.diagnostics();
        Ok(Result {
            output: if self.bytes_out() {
                PyBytes::new(py, &output).into_any().unbind()
            } else {
                lossy(&output).into_pyobject(py)?.into_any().unbind()
            },
            charset: entry.charset().map(|c| c.name().to_string()),
            diagnostics: diagnostics.items().iter().map(Diagnostic::from).collect(),
            diagnostics_not_listed: diagnostics.dropped(),
            diagnostic_counts: diagnostics
                .counts_most_frequent_first()
                .into_iter()
                .map(|(code, count)| (code.as_str().to_string(), count))
                .collect(),
            detected: entry.detection().map(Detection::from),
            depth: entry.layers().map(|l| l.depth),
            layers: entry
                .layers()
                .map(|l| l.layers.iter().map(|layer| lossy(layer)).collect()),
        })
    }
}

/// Runs entries one after the other through one codec, reset between them.
pub struct Runner {
    codec: Codec,
    /// With `until_stable`: the settings each entry is peeled with.
    peel: Option<DecodeSettings>,
}

impl Runner {
    /// Runs one entry, appending its output to `out`. A strict rejection leaves `out` as it
    /// was.
    pub fn run(
        &mut self,
        input: &[u8],
        out: &mut Vec<u8>,
    ) -> std::result::Result<Entry<'_>, Rejection> {
        if let Some(settings) = &self.peel {
            return match settings.run(input) {
                Ok(Ok(run)) => {
                    out.extend_from_slice(&run.finished.output);
                    Ok(Entry::Peeled(Box::new(run)))
                }
                Ok(Err(rejection)) => Err(rejection),
                // The settings were checked when the decoder was made.
                Err(_) => unreachable!("settings checked at construction"),
            };
        }
        self.codec.entry(input, out)?;
        Ok(Entry::Streamed(&self.codec))
    }

    /// [`run`](Self::run) for an entry `plain_entries` stopped before, which is known to
    /// need repair or a report: the full decoder at once, without trying the fast path
    /// again (`urlkit::Codec::entry_in_full`).
    pub fn run_in_full(
        &mut self,
        input: &[u8],
        out: &mut Vec<u8>,
    ) -> std::result::Result<Entry<'_>, Rejection> {
        if self.peel.is_some() {
            return self.run(input, out);
        }
        self.codec.entry_in_full(input, out)?;
        Ok(Entry::Streamed(&self.codec))
    }

    /// This runner, counting findings without keeping them (their messages are never
    /// written), for a caller that shows only the output; strict mode still rejects at
    /// the first finding it rejects.
    pub fn counting_findings_only(mut self) -> Self {
        self.codec = self.codec.keep_findings(0);
        self
    }

    /// Decodes the leading plain entries laid end to end in `values`, in one pass (see
    /// `urlkit::Codec::plain_entries`); none when peeling layers.
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
        self.codec.plain_entries(values, offsets, out, out_ends)
    }

    /// The charset of a plain entry's output.
    pub fn plain_charset(&self) -> Option<Charset> {
        self.codec.charset()
    }
}

/// An entry as Python gives it: `str` (as UTF-8; lone surrogates kept as their
/// three bytes, which the codec reports as not UTF-8), `bytes` or `bytearray`.
pub struct Input {
    bytes: Vec<u8>,
    /// Whether it came as `str`.
    text: bool,
}

impl<'a, 'py> FromPyObject<'a, 'py> for Input {
    type Error = PyErr;

    fn extract(value: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(text) = value.cast::<PyString>() {
            return Ok(match text.to_cow() {
                Ok(text) => Input {
                    bytes: text.into_owned().into_bytes(),
                    text: true,
                },
                Err(_) => {
                    let bytes = text.call_method1("encode", ("utf-8", "surrogatepass"))?;
                    Input {
                        bytes: bytes.cast::<PyBytes>()?.as_bytes().to_vec(),
                        text: true,
                    }
                }
            });
        }
        if let Ok(bytes) = value.cast::<PyBytes>() {
            return Ok(Input {
                bytes: bytes.as_bytes().to_vec(),
                text: false,
            });
        }
        if let Ok(bytes) = value.cast::<PyByteArray>() {
            return Ok(Input {
                bytes: bytes.to_vec(),
                text: false,
            });
        }
        Err(PyTypeError::new_err(format!(
            "expected str or bytes, not {}",
            value.get_type().name()?
        )))
    }
}

impl Input {
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

/// What `Encoder` and `Decoder` share: run on one entry (`coder(text)`) or on a column
/// (`coder.column(array)`), with the options checked when the coder was made.
#[pyclass(module = "pyurlkit", name = "Coder", frozen, subclass)]
pub struct Coder {
    pub direction: Direction,
}

#[pymethods]
impl Coder {
    /// Runs one entry (`str` or `bytes`) into a `Result`. Strict, raises `RejectedError`
    /// at the first finding strict mode rejects (a malformed escape, an invalid sequence,
    /// an unencodable character, text that is not UTF-8), with its offset.
    fn __call__(&self, py: Python<'_>, text: Input) -> PyResult<Result> {
        self.direction.result(py, &text)
    }

    /// Runs every row of an Arrow string or binary array (anything with
    /// `__arrow_c_array__`); nulls stay null. Returns an Arrow array: strings (binary when
    /// decoding with `binary=True`), or with `diagnostics=True` structs shaped as
    /// `Result.to_dict()`. Strict, the first rejection raises `RejectedError` with its
    /// `row`.
    #[pyo3(signature = (array, *, diagnostics=false))]
    fn column(
        &self,
        py: Python<'_>,
        array: &Bound<'_, PyAny>,
        diagnostics: bool,
    ) -> PyResult<crate::arrow::ArrowArray> {
        crate::columns::codec_column(py, &self.direction, array, diagnostics)
    }
}

/// Percent-encodes text or bytes with the options given once.
///
/// Keyword arguments are those of `urlkit encode` and the JSON API: `charset` (any label;
/// default UTF-8), `set` (`unreserved`, `component`, `uri`, `form`, `path`, `query`,
/// `special-query`, `fragment`, `userinfo`, `c0`, `iri`, `all`), `safe`, `unsafe`,
/// `space_plus`, `lowercase`, `per_line`, `newline` (`lf`/`crlf`), `strict`, `binary`.
/// A value that names nothing raises `SettingError` naming the argument.
#[pyclass(module = "pyurlkit", frozen, extends = Coder)]
pub struct Encoder;

#[pymethods]
impl Encoder {
    #[new]
    #[pyo3(signature = (*, charset=None, set=None, safe=None, r#unsafe=None, space_plus=false,
        lowercase=false, per_line=false, newline=None, strict=false, binary=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        charset: Option<String>,
        set: Option<String>,
        safe: Option<String>,
        r#unsafe: Option<String>,
        space_plus: bool,
        lowercase: bool,
        per_line: bool,
        newline: Option<String>,
        strict: bool,
        binary: bool,
    ) -> PyResult<PyClassInitializer<Self>> {
        // As for decoding: the settings Python names, the others as by default.
        #[allow(clippy::needless_update)]
        let settings = EncodeSettings {
            charset,
            set,
            safe,
            unsafe_chars: r#unsafe,
            space_plus,
            lowercase,
            per_line,
            newline,
            strict,
            binary,
            ..EncodeSettings::default()
        };
        let options = settings.options().map_err(|e| setting_error(py, &e))?;
        Ok(PyClassInitializer::from(Coder {
            direction: Direction::Encode(settings, options),
        })
        .add_subclass(Encoder))
    }
}

/// Percent-decodes text or bytes with the options given once.
///
/// Keyword arguments are those of `urlkit decode` and the JSON API: `charset` (any label, or
/// `auto`; default UTF-8), `plus_space`, `keep_whitespace`, `per_line`, `newline`, `strict`,
/// `binary` (output as bytes), `until_stable`. A value that names nothing raises
/// `SettingError` naming the argument.
#[pyclass(module = "pyurlkit", frozen, extends = Coder)]
pub struct Decoder;

#[pymethods]
impl Decoder {
    #[new]
    #[pyo3(signature = (*, charset=None, plus_space=false, keep_whitespace=false,
        per_line=false, newline=None, strict=false, binary=false, until_stable=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        charset: Option<String>,
        plus_space: bool,
        keep_whitespace: bool,
        per_line: bool,
        newline: Option<String>,
        strict: bool,
        binary: bool,
        until_stable: bool,
    ) -> PyResult<PyClassInitializer<Self>> {
        // The settings Python names; any other keeps its default (the struct gains
        // settings as front ends do).
        #[allow(clippy::needless_update)]
        let settings = DecodeSettings {
            charset,
            plus_space,
            keep_whitespace,
            per_line,
            newline,
            strict,
            binary,
            until_stable,
            ..DecodeSettings::default()
        };
        let options = settings.options().map_err(|e| setting_error(py, &e))?;
        Ok(PyClassInitializer::from(Coder {
            direction: Direction::Decode(settings, options),
        })
        .add_subclass(Decoder))
    }
}
