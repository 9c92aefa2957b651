//! The Python classes that describe a run: `Diagnostic` (one finding) and `Detection`
//! (what charset detection found), made from the library's values. A leaf beside
//! `builders`.

use crate::builders::confidence;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

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
    pub fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
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
    pub fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
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
pub fn list_of_pairs<'py, T: IntoPyObject<'py> + Copy>(
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
