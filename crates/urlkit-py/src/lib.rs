//! `pyurlkit._native`: the Python package's native module. The Python side
//! (`python/pyurlkit/`) adds the plain functions, the pyarrow and Polars conveniences and
//! the type stubs.
//!
//! Every option is read and checked by `urlkit::settings` (keyword arguments are a
//! `Source` of its table), every result comes from the library's public API and is shaped
//! as `urlkit_api::CodecResponse` shapes the command line's `--json`, so results equal
//! those of the command line.
//!
//! | module | what a newcomer finds there |
//! |---|---|
//! | `codec` | `Encoder`, `Decoder` and their base `Coder`; one value into a `Result` |
//! | `columns` | every row of an Arrow column through a `urlkit::settings::Plan`'s entries, or the URL inspector |
//! | `report` | the inspector's report as a dict or a struct column |
//! | `values` | the classes a run returns beside its output: `Diagnostic`, `Detection` |
//! | `builders` | Arrow struct and list-of-struct columns, the findings column, how numbers and text are shown (a leaf) |
//! | `arrow`, `buffers` | the Arrow C data interface; big output buffers kept for the next column |
//! | `errors` | the exceptions, and the one place library errors become them |

mod arrow;
mod buffers;
mod builders;
mod codec;
mod columns;
mod errors;
mod report;
mod values;

use codec::Input;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use urlkit::inspect::{idn as idna, rfc3986};
use values::Detection;

/// Guesses the charset of percent-encoded text (`str` or `bytes`). Never fails: empty
/// input is UTF-8 with low confidence.
#[pyfunction]
fn detect(py: Python<'_>, text: Input) -> Detection {
    let found = py.detach(|| urlkit::codec::detect_charset(text.bytes()));
    Detection::from(&found)
}

/// Takes a URL apart by the URL Standard (against `base` if given): every attribute of the
/// URL API and the inspector's views, as `urlkit parse --json` prints them. A URL that does
/// not parse raises `UrlError` with its position.
#[pyfunction]
#[pyo3(signature = (url, base=None))]
fn parse<'py>(py: Python<'py>, url: &str, base: Option<&str>) -> PyResult<Bound<'py, PyDict>> {
    report::report_dict(py, url, base)
}

/// Resolves `reference` against `base` by RFC 3986 §5.2 (as `urlkit resolve`). A base
/// without a scheme raises `UrlError`.
#[pyfunction]
fn resolve(py: Python<'_>, base: &str, reference: &str) -> PyResult<String> {
    rfc3986::resolve(base, reference).map_err(|e| errors::url_error(py, &e.message, 0))
}

/// Normalizes a URI by RFC 3986 §6.2.2 and §6.2.3 (as `urlkit normalize`); with
/// `sort_query`, query parameters sorted by name too. Never fails.
#[pyfunction]
#[pyo3(signature = (url, *, sort_query=false))]
fn normalize(url: &str, sort_query: bool) -> String {
    rfc3986::normalize(url, &rfc3986::NormalizeOptions { sort_query })
}

/// A domain name to ASCII (`to="ascii"`, UTS #46 ToASCII as the URL Standard uses it) or
/// to Unicode (`to="unicode"`), as `urlkit idn`. A name UTS #46 rejects raises `UrlError`
/// naming the failing label's position.
#[pyfunction]
#[pyo3(signature = (domain, *, to="ascii"))]
fn idn(py: Python<'_>, domain: &str, to: &str) -> PyResult<String> {
    let converted = match to {
        "ascii" => idna::to_ascii(domain),
        "unicode" => idna::to_unicode(domain),
        _ => {
            return Err(errors::SettingError::new_err(format!(
                "to: must be \"ascii\" or \"unicode\", not {to:?}"
            )))
        }
    };
    converted.map_err(|e| errors::url_error(py, &e.message, e.position))
}

/// Each row filled into `template`, as `urlkit parse --get TEMPLATE` prints it: `{host}`,
/// `{path}`, `{query:KEY}`, `{scheme}://{host}:{default:port}` …; null where the row is null or does
/// not parse.
#[pyfunction]
#[pyo3(signature = (array, template, *, base=None))]
fn get_column(
    py: Python<'_>,
    array: &Bound<'_, PyAny>,
    template: &str,
    base: Option<&str>,
) -> PyResult<arrow::ArrowArray> {
    columns::template_column(py, array, template, base)
}

/// Each row's report as a struct column: the fields of `parse()`, then `error` and
/// `position` for a row that does not parse. Never raises for a row.
#[pyfunction]
#[pyo3(signature = (array, *, base=None))]
fn parse_column(
    py: Python<'_>,
    array: &Bound<'_, PyAny>,
    base: Option<&str>,
) -> PyResult<arrow::ArrowArray> {
    columns::parse_column(py, array, base)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<codec::Coder>()?;
    m.add_class::<codec::Encoder>()?;
    m.add_class::<codec::Decoder>()?;
    m.add_class::<codec::CodecResult>()?;
    m.add_class::<values::Diagnostic>()?;
    m.add_class::<values::Detection>()?;
    m.add_class::<arrow::ArrowArray>()?;
    m.add_function(wrap_pyfunction!(detect, m)?)?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(resolve, m)?)?;
    m.add_function(wrap_pyfunction!(normalize, m)?)?;
    m.add_function(wrap_pyfunction!(idn, m)?)?;
    m.add_function(wrap_pyfunction!(get_column, m)?)?;
    m.add_function(wrap_pyfunction!(parse_column, m)?)?;
    m.add("UrlkitError", py.get_type::<errors::UrlkitError>())?;
    m.add("SettingError", py.get_type::<errors::SettingError>())?;
    m.add("RejectedError", py.get_type::<errors::RejectedError>())?;
    m.add("UrlError", py.get_type::<errors::UrlError>())?;
    Ok(())
}
