//! Values as the package shows them, and the Arrow builders the column functions share:
//! a confidence as the command line's JSON prints it, lossy text, struct and list-of-struct
//! columns, text and count columns with room for their rows, and the findings column. It
//! uses only `buffers` of this crate.

use arrow_array::builder::{ArrayBuilder, StringBuilder, UInt64Builder};
use arrow_array::{ArrayRef, StringArray, StructArray, UInt64Array};
use arrow_buffer::{NullBuffer, NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_schema::{Field, Fields};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use std::sync::Arc;

use crate::buffers;

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
    let rows = offsets.len();
    let offsets = buffers::NARROW_OFFSETS.lend_to_arrow(offsets);
    let offsets = OffsetBuffer::new(ScalarBuffer::new(offsets, 0, rows));
    let list = arrow_array::ListArray::try_new(item, offsets, items, nulls)
        .map_err(|e| PyTypeError::new_err(e.to_string()))?;
    Ok(Arc::new(list))
}

/// Columns of findings start with room for one finding every this many rows (past that
/// they grow by copies): memory asked for and never written costs nothing, and most rows
/// have no finding.
pub const ROWS_A_FINDING: usize = 16;

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
        Findings::with_capacity(0)
    }

    /// Findings with room for `rows` rows (and their offsets in a kept buffer), and for
    /// a finding every [`ROWS_A_FINDING`] rows.
    pub fn with_capacity(rows: usize) -> Self {
        let findings = rows / ROWS_A_FINDING;
        Findings {
            code: StringBuilder::with_capacity(findings, rows),
            offset: UInt64Builder::with_capacity(findings),
            message: StringBuilder::with_capacity(findings, 4 * rows),
            offsets: buffers::NARROW_OFFSETS.offsets(rows),
            valid: Vec::with_capacity(rows),
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

/// A text column written row by row, with room for its rows made at the start and its
/// buffers kept for the next column (see `buffers`): a `StringBuilder` that neither grows
/// by copies nor writes into fresh memory batch after batch.
pub struct TextColumn {
    offsets: Vec<i32>,
    values: Vec<u8>,
    nulls: NullBufferBuilder,
}

impl TextColumn {
    /// An empty column with room for `rows` rows of `bytes` bytes in all.
    pub fn with_capacity(rows: usize, bytes: usize) -> Self {
        TextColumn {
            offsets: buffers::NARROW_OFFSETS.offsets(rows),
            values: buffers::BYTES.vec(bytes),
            nulls: NullBufferBuilder::new(rows),
        }
    }

    /// `rows` rows of `text`.
    pub fn append_n(&mut self, text: &str, rows: usize) {
        self.values.reserve(text.len() * rows);
        for _ in 0..rows {
            self.values.extend_from_slice(text.as_bytes());
            self.offsets.push(self.values.len() as i32);
        }
        self.nulls.append_n_non_nulls(rows);
    }

    /// `rows` null rows.
    pub fn append_nulls(&mut self, rows: usize) {
        let end = self.values.len() as i32;
        self.offsets.extend(std::iter::repeat_n(end, rows));
        self.nulls.append_n_nulls(rows);
    }

    pub fn append_option(&mut self, text: Option<&str>) {
        match text {
            Some(text) => self.append_n(text, 1),
            None => self.append_nulls(1),
        }
    }

    /// The column; an error when its text outgrows the 32-bit offsets of `utf8` (more than
    /// 2 GiB of it), where a `StringBuilder` would panic.
    pub fn finish(mut self) -> PyResult<ArrayRef> {
        if i32::try_from(self.values.len()).is_err() {
            return Err(PyTypeError::new_err(
                "a text column of more than 2 GiB in one batch: split the batch",
            ));
        }
        let rows = self.offsets.len();
        let offsets = buffers::NARROW_OFFSETS.lend_to_arrow(self.offsets);
        // SAFETY (both `new_unchecked` calls, which skip a pass over the rows each): the
        // offsets start at 0 and never decrease (each is the length of the values after a
        // row, which fits 32 bits as checked above), the last is the length of the values,
        // every row's bytes are a `&str`, and the nulls have a bit a row.
        let offsets = unsafe { OffsetBuffer::new_unchecked(ScalarBuffer::new(offsets, 0, rows)) };
        let values = buffers::BYTES.lend_to_arrow(self.values);
        let array = unsafe { StringArray::new_unchecked(offsets, values, self.nulls.finish()) };
        Ok(Arc::new(array))
    }
}

/// A column of counts written row by row, with room for its rows made at the start and its
/// buffer kept for the next column (see [`TextColumn`]).
pub struct CountColumn {
    values: Vec<u64>,
    nulls: NullBufferBuilder,
}

impl CountColumn {
    pub fn with_capacity(rows: usize) -> Self {
        CountColumn {
            values: buffers::COUNTS.vec(rows),
            nulls: NullBufferBuilder::new(rows),
        }
    }

    /// `rows` rows of `count`.
    pub fn append_n(&mut self, count: u64, rows: usize) {
        self.values.extend(std::iter::repeat_n(count, rows));
        self.nulls.append_n_non_nulls(rows);
    }

    pub fn append_null(&mut self) {
        self.values.push(0);
        self.nulls.append_null();
    }

    pub fn finish(mut self) -> ArrayRef {
        let rows = self.values.len();
        let values = ScalarBuffer::new(buffers::COUNTS.lend_to_arrow(self.values), 0, rows);
        Arc::new(UInt64Array::new(values, self.nulls.finish()))
    }
}
