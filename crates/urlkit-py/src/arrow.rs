//! Arrow arrays across the boundary through the Arrow C data interface and its PyCapsule
//! protocol (`__arrow_c_array__`): pyarrow, Polars, DuckDB and others hand over a column
//! as two pointers, and take the result back the same way, without a copy per row.

use arrow_array::ffi::{from_ffi, to_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{make_array, Array, ArrayRef};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyTuple};
use std::ffi::CStr;

const SCHEMA: &CStr = c"arrow_schema";
const ARRAY: &CStr = c"arrow_array";

fn arrow_error(error: arrow_schema::ArrowError) -> PyErr {
    crate::errors::UrlkitError::new_err(format!("Arrow: {error}"))
}

/// The array an object exports through `__arrow_c_array__` (a pyarrow `Array`, or any
/// other implementation of the protocol).
pub fn import(object: &Bound<'_, PyAny>) -> PyResult<ArrayRef> {
    if !object.hasattr("__arrow_c_array__")? {
        return Err(PyTypeError::new_err(format!(
            "expected an Arrow array (an object with __arrow_c_array__, such as a \
             pyarrow.Array), not {}",
            object.get_type().name()?
        )));
    }
    let pair = object.call_method0("__arrow_c_array__")?;
    let pair = pair.cast::<PyTuple>()?;
    if pair.len() != 2 {
        return Err(PyTypeError::new_err(
            "__arrow_c_array__ must return a (schema, array) pair of capsules",
        ));
    }
    let schema_capsule = pair.get_item(0)?;
    let schema_capsule = schema_capsule.cast::<PyCapsule>()?;
    let array_capsule = pair.get_item(1)?;
    let array_capsule = array_capsule.cast::<PyCapsule>()?;
    let schema = schema_capsule.pointer_checked(Some(SCHEMA))?;
    let array = array_capsule.pointer_checked(Some(ARRAY))?;
    // SAFETY: the capsules are named as the protocol requires, so they point at a C data
    // interface schema and array. The schema is only borrowed (its capsule releases it);
    // the array is moved out, leaving a released one behind for the capsule's destructor,
    // as the protocol asks of a consumer.
    let data = unsafe {
        let schema = &*(schema.as_ptr() as *const FFI_ArrowSchema);
        let array = FFI_ArrowArray::from_raw(array.as_ptr() as *mut FFI_ArrowArray);
        from_ffi(array, schema)
    }
    .map_err(arrow_error)?;
    Ok(make_array(data))
}

/// An Arrow array made by the package, handed to any consumer of `__arrow_c_array__`
/// (`pyarrow.array(result)`, `polars.Series(result)`, …).
#[pyclass(module = "pyurlkit", frozen)]
pub struct ArrowArray {
    array: ArrayRef,
}

impl ArrowArray {
    pub fn new(array: ArrayRef) -> Self {
        ArrowArray { array }
    }
}

#[pymethods]
impl ArrowArray {
    /// The array and its type as two PyCapsules (Arrow PyCapsule interface). A requested
    /// schema is not honoured: the consumer casts if it must.
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let _ = requested_schema;
        let (array, schema) = to_ffi(&self.array.to_data()).map_err(arrow_error)?;
        let schema = PyCapsule::new_with_value(py, schema, SCHEMA)?;
        let array = PyCapsule::new_with_value(py, array, ARRAY)?;
        PyTuple::new(py, [schema.into_any(), array.into_any()])
    }

    fn __len__(&self) -> usize {
        self.array.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "ArrowArray(type={}, length={})",
            self.array.data_type(),
            self.array.len()
        )
    }
}
