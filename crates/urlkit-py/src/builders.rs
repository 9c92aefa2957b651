//! Values as the package shows them, and the Arrow builders the column functions share:
//! a confidence as the command line's JSON prints it, lossy text, struct and list-of-struct
//! columns, and the findings column. A leaf: it uses nothing else of this crate.

use arrow_array::builder::{ArrayBuilder, StringBuilder, UInt64Builder};
use arrow_array::{ArrayRef, StructArray};
use arrow_buffer::{NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{Field, Fields};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use std::sync::Arc;

/// A confidence as the JSON of the command line shows it: the shortest decimal that reads
/// back as the same `f32`, as a Python float.
pub fn confidence(value: f32) -> f64 {
    format!("{value}").parse().unwrap_or(f64::from(value))
}

/// Lossy text of bytes that are UTF-8 except in binary mode.
pub fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn field(name: &str, array: &ArrayRef) -> Field {
    Field::new(name, array.data_type().clone(), true)
}

/// A struct column of the named child columns, null where `valid` is false.
pub fn structs(columns: Vec<(&str, ArrayRef)>, valid: Vec<bool>) -> PyResult<ArrayRef> {
    let fields: Fields = columns.iter().map(|(name, a)| field(name, a)).collect();
    let arrays = columns.into_iter().map(|(_, a)| a).collect();
    let nulls = valid.contains(&false).then(|| NullBuffer::from(valid));
    let array = StructArray::try_new(fields, arrays, nulls)
        .map_err(|e| PyTypeError::new_err(e.to_string()))?;
    Ok(Arc::new(array))
}

/// A list column whose items are structs of the named child columns: row `i` holds the
/// items `offsets[i]..offsets[i + 1]`, and is null where `valid` is false (no nulls when
/// `valid` is empty or all true).
pub fn list_of_structs(
    items: Vec<(&str, ArrayRef)>,
    offsets: Vec<i32>,
    valid: Vec<bool>,
) -> PyResult<ArrayRef> {
    let items = structs(items, vec![])?;
    let item = Arc::new(field("item", &items));
    let nulls = valid.contains(&false).then(|| NullBuffer::from(valid));
    let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
    let list = arrow_array::ListArray::try_new(item, offsets, items, nulls)
        .map_err(|e| PyTypeError::new_err(e.to_string()))?;
    Ok(Arc::new(list))
}

/// Findings per row: a list of `{code, offset, message}` structs.
pub struct Findings {
    code: StringBuilder,
    offset: UInt64Builder,
    message: StringBuilder,
    offsets: Vec<i32>,
    valid: Vec<bool>,
}

impl Findings {
    pub fn new() -> Self {
        Findings {
            code: StringBuilder::new(),
            offset: UInt64Builder::new(),
            message: StringBuilder::new(),
            offsets: vec![0],
            valid: Vec::new(),
        }
    }

    pub fn push<'a>(&mut self, findings: impl IntoIterator<Item = &'a urlkit::Diagnostic>) {
        for finding in findings {
            self.code.append_value(finding.code.as_str());
            self.offset.append_value(finding.offset);
            self.message.append_value(&finding.message);
        }
        self.offsets.push(self.code.len() as i32);
        self.valid.push(true);
    }

    /// `rows` rows without findings.
    pub fn push_empty(&mut self, rows: usize) {
        let end = self.code.len() as i32;
        self.offsets.extend(std::iter::repeat_n(end, rows));
        self.valid.extend(std::iter::repeat_n(true, rows));
    }

    pub fn push_null(&mut self) {
        self.offsets.push(self.code.len() as i32);
        self.valid.push(false);
    }

    pub fn finish(mut self) -> PyResult<ArrayRef> {
        list_of_structs(
            vec![
                ("code", Arc::new(self.code.finish()) as ArrayRef),
                ("offset", Arc::new(self.offset.finish())),
                ("message", Arc::new(self.message.finish())),
            ],
            self.offsets,
            self.valid,
        )
    }
}
