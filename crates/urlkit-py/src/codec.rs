//! `Encoder` and `Decoder`: keyword arguments checked once by `urlkit::settings`, then run
//! on single values (a `Result`) or on Arrow columns (see `columns`).

use crate::builders::lossy;
use crate::errors::{rejected, setting_error};
use crate::values::{list_of_pairs, Detection, Diagnostic};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString};
use pyo3::PyClassInitializer;
use urlkit::detect::Ranking;
use urlkit::settings::{DecodeSettings, EncodeSettings, Plan, Setting, Source};
use urlkit_api::CodecResponse;

/// The result of encoding or decoding one entry. Lenient mode always gives one, with every
/// repair listed in `diagnostics`.
#[pyclass(module = "pyurlkit", name = "Result", frozen, get_all)]
pub struct CodecResult {
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
impl CodecResult {
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

/// Runs one entry into a `Result`, the way the command line's `--json` and the API
/// answer it (`urlkit_api::CodecResponse`), with the output as bytes when `plan` gives
/// bytes.
fn run_one(py: Python<'_>, plan: &Plan, input: &Input) -> PyResult<CodecResult> {
    let (input, text) = (input.bytes(), input.text);
    let mut output = Vec::with_capacity(input.len() + input.len() / 2);
    // One entry's result shows its detection whole; per line, each line's note names its
    // charset only, as the JSON API's do.
    let ranking = if plan.per_line() {
        Ranking::Charset
    } else {
        Ranking::RunnersUp
    };
    let mut entries = plan.clone().for_text(text).ranking(ranking).entries();
    let answer = py
        .detach(|| {
            entries
                .run(input, &mut output)
                .map(|entry| CodecResponse::from_entry(&entry, &[]))
        })
        .map_err(|rejection| rejected(py, &rejection, None))?;
    Ok(CodecResult {
        output: if plan.bytes_out() {
            PyBytes::new(py, &output).into_any().unbind()
        } else {
            lossy(&output).into_pyobject(py)?.into_any().unbind()
        },
        charset: answer.charset,
        diagnostics: answer.diagnostics.iter().map(Diagnostic::from).collect(),
        diagnostics_not_listed: answer.diagnostics_not_listed,
        diagnostic_counts: answer
            .diagnostic_counts
            .into_iter()
            .map(|count| (count.code.as_str().to_string(), count.count))
            .collect(),
        detected: answer.detected.as_ref().map(Detection::from),
        depth: answer.depth,
        layers: answer.layers,
    })
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
    pub plan: Plan,
}

#[pymethods]
impl Coder {
    /// Runs one entry (`str` or `bytes`) into a `Result`. Strict, raises `RejectedError`
    /// at the first finding strict mode rejects (a malformed escape, an invalid sequence,
    /// an unencodable character, text that is not UTF-8), with its offset.
    fn __call__(&self, py: Python<'_>, text: Input) -> PyResult<CodecResult> {
        run_one(py, &self.plan, &text)
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
        crate::columns::codec_column(py, &self.plan, array, diagnostics)
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
    #[pyo3(signature = (**keywords))]
    fn new(
        py: Python<'_>,
        keywords: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let mut given = Keywords::of("Encoder", keywords, Setting::ENCODE)?;
        let settings = EncodeSettings {
            binary: given.binary()?,
            ..EncodeSettings::read(&mut given)?
        };
        let plan = settings.check().map_err(|e| setting_error(py, &e))?;
        Ok(PyClassInitializer::from(Coder { plan }).add_subclass(Encoder))
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
    #[pyo3(signature = (**keywords))]
    fn new(
        py: Python<'_>,
        keywords: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let mut given = Keywords::of("Decoder", keywords, Setting::DECODE)?;
        let settings = DecodeSettings {
            binary: given.binary()?,
            ..DecodeSettings::read(&mut given)?
        };
        let plan = settings.check().map_err(|e| setting_error(py, &e))?;
        Ok(PyClassInitializer::from(Coder { plan }).add_subclass(Decoder))
    }
}

/// Keyword arguments read as settings through the library's table (`urlkit::settings`):
/// a text setting takes `str` or `None`, a switch `bool`; `binary`, which Python offers
/// and JSON does not, is read beside them.
struct Keywords<'a, 'py> {
    given: Option<&'a Bound<'py, PyDict>>,
}

impl<'a, 'py> Keywords<'a, 'py> {
    /// The keywords given to `class`, each one of `settings` or `binary`; another is a
    /// `TypeError` naming it, as Python words an unexpected keyword argument.
    fn of(
        class: &str,
        given: Option<&'a Bound<'py, PyDict>>,
        settings: &[Setting],
    ) -> PyResult<Self> {
        for key in given.iter().flat_map(|d| d.keys()) {
            let name = key.str()?.to_string();
            if name != "binary" && !settings.iter().any(|s| s.name() == name) {
                return Err(PyTypeError::new_err(format!(
                    "{class}() got an unexpected keyword argument '{name}'"
                )));
            }
        }
        Ok(Keywords { given })
    }

    fn value(&self, name: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
        match self.given {
            Some(dict) => dict.get_item(name),
            None => Ok(None),
        }
    }

    fn flag(&self, name: &str) -> PyResult<bool> {
        match self.value(name)? {
            None => Ok(false),
            Some(value) => value.extract::<bool>().map_err(|_| {
                PyTypeError::new_err(format!(
                    "{name} must be True or False, not {}",
                    type_name(&value)
                ))
            }),
        }
    }

    fn binary(&self) -> PyResult<bool> {
        self.flag("binary")
    }
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

impl Source for Keywords<'_, '_> {
    type Error = PyErr;

    fn text(&mut self, setting: Setting) -> PyResult<Option<String>> {
        match self.value(setting.name())? {
            None => Ok(None),
            Some(value) => value.extract::<Option<String>>().map_err(|_| {
                PyTypeError::new_err(format!(
                    "{} must be a str or None, not {}",
                    setting.name(),
                    type_name(&value)
                ))
            }),
        }
    }

    fn switch(&mut self, setting: Setting) -> PyResult<bool> {
        self.flag(setting.name())
    }
}
