//! The package's exceptions, and the one place library errors become them.

use pyo3::create_exception;
use pyo3::exceptions::{PyBaseException, PyValueError};
use pyo3::prelude::*;
use urlkit::settings::SettingError as LibrarySettingError;
use urlkit::Rejection;

create_exception!(
    pyurlkit,
    UrlkitError,
    PyValueError,
    "Base class of every error the package raises (a ValueError)."
);
create_exception!(
    pyurlkit,
    SettingError,
    UrlkitError,
    "A keyword argument whose value names nothing (`argument` says which), or two that \
     cannot go together."
);
create_exception!(
    pyurlkit,
    RejectedError,
    UrlkitError,
    "Strict mode rejected the input: `code`, `offset` (bytes into the entry), `message`, \
     and `row` for a column (None for a single value)."
);
create_exception!(
    pyurlkit,
    UrlError,
    UrlkitError,
    "A URL or domain name that does not parse: `message` and `position` (bytes into the \
     input)."
);

/// `error`, with the attributes `set` gives its instance (or the error setting them
/// raised).
fn with_attributes(
    py: Python<'_>,
    error: PyErr,
    set: impl FnOnce(&Bound<'_, PyBaseException>) -> PyResult<()>,
) -> PyErr {
    match set(error.value(py)) {
        Ok(()) => error,
        Err(failed) => failed,
    }
}

/// A setting the library refused, as the keyword argument of the same name.
pub fn setting_error(py: Python<'_>, error: &LibrarySettingError) -> PyErr {
    let argument = error.setting.name();
    let raised = SettingError::new_err(format!("{argument}: {}", error.message));
    with_attributes(py, raised, |value| {
        value.setattr("argument", argument)?;
        value.setattr("message", &error.message)
    })
}

/// A strict rejection, in the entry or in row `row` of a column.
pub fn rejected(py: Python<'_>, rejection: &Rejection, row: Option<usize>) -> PyErr {
    let finding = &rejection.0;
    let text = match row {
        Some(row) => format!("row {row}: {finding}"),
        None => finding.to_string(),
    };
    with_attributes(py, RejectedError::new_err(text), |value| {
        value.setattr("code", finding.code.as_str())?;
        value.setattr("offset", finding.offset)?;
        value.setattr("message", &finding.message)?;
        value.setattr("row", row)
    })
}

/// A URL or name that does not parse: what and where.
pub fn url_error(py: Python<'_>, message: &str, position: usize) -> PyErr {
    let raised = UrlError::new_err(format!("byte {position}: {message}"));
    with_attributes(py, raised, |value| {
        value.setattr("message", message)?;
        value.setattr("position", position)
    })
}
