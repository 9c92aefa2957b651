//! The package's exceptions, and the one place library errors become them.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
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

/// Sets each `(name, value)` as an attribute of the exception's instance.
fn with_attributes<'py>(
    py: Python<'py>,
    error: PyErr,
    attributes: &[(&str, Bound<'py, PyAny>)],
) -> PyErr {
    let value = error.value(py);
    for (name, attribute) in attributes {
        if let Err(failed) = value.setattr(*name, attribute) {
            return failed;
        }
    }
    error
}

/// A setting the library refused, as the keyword argument of the same name.
pub fn setting_error(py: Python<'_>, error: &LibrarySettingError) -> PyErr {
    let argument = error.setting.name();
    with_attributes(
        py,
        SettingError::new_err(format!("{argument}: {}", error.message)),
        &[
            ("argument", argument.into_pyobject(py).unwrap().into_any()),
            (
                "message",
                error.message.as_str().into_pyobject(py).unwrap().into_any(),
            ),
        ],
    )
}

/// A strict rejection, in the entry or in row `row` of a column.
pub fn rejected(py: Python<'_>, rejection: &Rejection, row: Option<usize>) -> PyErr {
    let finding = &rejection.0;
    let text = match row {
        Some(row) => format!("row {row}: {}", finding),
        None => finding.to_string(),
    };
    with_attributes(
        py,
        RejectedError::new_err(text),
        &[
            (
                "code",
                finding.code.as_str().into_pyobject(py).unwrap().into_any(),
            ),
            (
                "offset",
                finding.offset.into_pyobject(py).unwrap().into_any(),
            ),
            (
                "message",
                finding
                    .message
                    .as_str()
                    .into_pyobject(py)
                    .unwrap()
                    .into_any(),
            ),
            ("row", row.into_pyobject(py).unwrap().into_any()),
        ],
    )
}

/// A URL or name that does not parse: what and where.
pub fn url_error(py: Python<'_>, message: &str, position: usize) -> PyErr {
    with_attributes(
        py,
        UrlError::new_err(format!("byte {position}: {message}")),
        &[
            ("message", message.into_pyobject(py).unwrap().into_any()),
            ("position", position.into_pyobject(py).unwrap().into_any()),
        ],
    )
}
