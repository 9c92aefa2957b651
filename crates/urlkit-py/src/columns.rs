//! Column functions: every row of an Arrow array through the codec or the URL inspector,
//! into a new Arrow array, with the interpreter released while they run.

use crate::arrow::{import, ArrowArray};
use crate::buffers;
use crate::builders::{
    confidence, list_of_structs, lossy, structs, CountColumn, Findings, TextColumn, ROWS_A_FINDING,
};
use crate::errors::rejected;
use crate::report::ReportColumns;
use arrow_array::builder::{
    ArrayBuilder, Float64Builder, ListBuilder, StringBuilder, UInt64Builder,
};
use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, GenericBinaryArray, GenericStringArray, OffsetSizeTrait};
use arrow_buffer::{Buffer, NullBuffer, NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_schema::DataType;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use std::sync::Arc;
use urlkit::detect::Ranking;
use urlkit::inspect::template::Template;
use urlkit::inspect::whatwg;
use urlkit::settings::{Entries, Entry, Plan};
use urlkit::Rejection;

/// The rows of a string or binary array, as bytes (`None` for null).
pub struct Rows<'a> {
    array: &'a dyn Array,
    /// The input's offsets are 64-bit: so are the output's.
    pub large: bool,
    /// The rows are strings (text), not binary: decoding into a legacy charset keeps
    /// their literal characters, as the command line does with its arguments.
    pub text: bool,
}

impl<'a> Rows<'a> {
    pub fn of(array: &'a dyn Array) -> PyResult<Self> {
        let large = match array.data_type() {
            DataType::Utf8 | DataType::Utf8View | DataType::Binary | DataType::BinaryView => false,
            DataType::LargeUtf8 | DataType::LargeBinary => true,
            other => {
                return Err(PyTypeError::new_err(format!(
                    "expected a column of strings or binary, not {other}"
                )))
            }
        };
        let text = matches!(
            array.data_type(),
            DataType::Utf8 | DataType::Utf8View | DataType::LargeUtf8
        );
        Ok(Rows { array, large, text })
    }

    pub fn len(&self) -> usize {
        self.array.len()
    }

    /// Calls `f` with each row's index and bytes, in order; stops at the first error.
    pub fn try_for_each<E>(
        &self,
        mut f: impl FnMut(usize, Option<&[u8]>) -> Result<(), E>,
    ) -> Result<(), E> {
        let array = self.array;
        macro_rules! each {
            ($typed:expr, $bytes:expr) => {{
                let typed = $typed;
                for row in 0..typed.len() {
                    let value = typed.is_valid(row).then(|| $bytes(typed.value(row)));
                    f(row, value)?;
                }
            }};
        }
        match array.data_type() {
            DataType::Utf8 => each!(array.as_string::<i32>(), str::as_bytes),
            DataType::LargeUtf8 => each!(array.as_string::<i64>(), str::as_bytes),
            DataType::Utf8View => each!(array.as_string_view(), str::as_bytes),
            DataType::Binary => each!(array.as_binary::<i32>(), std::convert::identity),
            DataType::LargeBinary => each!(array.as_binary::<i64>(), std::convert::identity),
            DataType::BinaryView => each!(array.as_binary_view(), std::convert::identity),
            _ => {}
        }
        Ok(())
    }
}

/// The most rows given to one run of plain rows: enough to make the run's passes long,
/// few enough that the rows stay in the processor's cache between the passes.
const MOST_ROWS_IN_A_RUN: usize = 4096;

/// How an array lays out its rows' bytes, for finding runs of rows that lie end to end.
enum Layout<'a> {
    /// String and binary arrays: all rows end to end in one buffer.
    Narrow(&'a [u8], &'a [i32]),
    Wide(&'a [u8], &'a [i64]),
    /// String and binary views: rows longer than 12 bytes lie in data buffers, usually one
    /// after the other in the order of the rows.
    Views(&'a [u128], &'a [arrow_buffer::Buffer]),
}

impl<'a> Layout<'a> {
    /// Fills `run` with the offsets (one more than the rows) of the rows from `row` on,
    /// at most `most`, that are valid and lie end to end in one buffer, and returns that
    /// buffer and the count of rows (0 when `row` itself is null or, in a view, inline).
    fn run_at(
        &self,
        row: usize,
        most: usize,
        is_valid: impl Fn(usize) -> bool,
        run: &mut Vec<usize>,
    ) -> (&'a [u8], usize) {
        run.clear();
        match *self {
            Layout::Narrow(values, offsets) => {
                (values, valid_run(offsets, row, most, is_valid, run))
            }
            Layout::Wide(values, offsets) => (values, valid_run(offsets, row, most, is_valid, run)),
            Layout::Views(views, buffers) => {
                let stored = |r: usize| {
                    let view = arrow_data::ByteView::from(views[r]);
                    (is_valid(r) && view.length > 12).then_some(view)
                };
                let Some(first) = stored(row) else {
                    return (&[], 0);
                };
                run.push(first.offset as usize);
                let mut end = first.offset as usize + first.length as usize;
                run.push(end);
                for r in row + 1..views.len().min(row + most) {
                    match stored(r) {
                        Some(view)
                            if view.buffer_index == first.buffer_index
                                && view.offset as usize == end =>
                        {
                            end += view.length as usize;
                            run.push(end);
                        }
                        _ => break,
                    }
                }
                (
                    buffers[first.buffer_index as usize].as_slice(),
                    run.len() - 1,
                )
            }
        }
    }
}

/// Fills `run` with the offsets of the valid rows from `row` on, at most `most`, of an
/// array whose rows lie end to end; returns their count.
fn valid_run<O: OffsetSizeTrait>(
    offsets: &[O],
    row: usize,
    most: usize,
    is_valid: impl Fn(usize) -> bool,
    run: &mut Vec<usize>,
) -> usize {
    let rows = (row..(offsets.len() - 1).min(row + most))
        .take_while(|&r| is_valid(r))
        .count();
    run.extend(offsets[row..=row + rows].iter().map(|o| o.as_usize()));
    rows
}

impl<'a> Rows<'a> {
    /// The layout of string and binary arrays and their views.
    fn layout(&self) -> Option<Layout<'a>> {
        let array = self.array;
        macro_rules! end_to_end {
            ($layout:ident, $typed:expr) => {{
                let typed = $typed;
                Layout::$layout(typed.values().as_slice(), typed.value_offsets())
            }};
        }
        Some(match array.data_type() {
            DataType::Utf8 => end_to_end!(Narrow, array.as_string::<i32>()),
            DataType::LargeUtf8 => end_to_end!(Wide, array.as_string::<i64>()),
            DataType::Binary => end_to_end!(Narrow, array.as_binary::<i32>()),
            DataType::LargeBinary => end_to_end!(Wide, array.as_binary::<i64>()),
            DataType::Utf8View => {
                let views = array.as_string_view();
                Layout::Views(views.views(), views.data_buffers())
            }
            DataType::BinaryView => {
                let views = array.as_binary_view();
                Layout::Views(views.views(), views.data_buffers())
            }
            _ => return None,
        })
    }

    /// The bytes of one row (`None` for null).
    fn value(&self, row: usize) -> Option<&'a [u8]> {
        let array = self.array;
        if !array.is_valid(row) {
            return None;
        }
        Some(match array.data_type() {
            DataType::Utf8 => array.as_string::<i32>().value(row).as_bytes(),
            DataType::LargeUtf8 => array.as_string::<i64>().value(row).as_bytes(),
            DataType::Utf8View => array.as_string_view().value(row).as_bytes(),
            DataType::Binary => array.as_binary::<i32>().value(row),
            DataType::LargeBinary => array.as_binary::<i64>().value(row),
            DataType::BinaryView => array.as_binary_view().value(row),
            _ => return None,
        })
    }

    /// Runs every row through `runner` into `sink`, in order; stops at the first
    /// rejection. Runs of plain rows that lie end to end are decoded in one pass each
    /// (`Entries::plain_entries`, or `plain_entries_marking` for a sink that shows
    /// findings, whose runs go on past the rows with findings); a run that stops early
    /// makes the next one shorter, so that a column of rows that need the full decoder
    /// costs little more than running them one by one.
    fn run_into<S: RowSink>(
        &self,
        runner: &mut Entries,
        sink: &mut S,
    ) -> Result<(), (usize, Rejection)> {
        let Some(layout) = self.layout() else {
            return self.try_for_each(|row, value| sink.row(runner, row, value, false));
        };
        let plain_charset = runner.plain_charset();
        let nulls = self.array.nulls();
        let is_valid = |row: usize| nulls.is_none_or(|nulls| nulls.is_valid(row));
        let (mut run, mut out_ends, mut marked) = (Vec::new(), Vec::new(), Vec::new());
        let marking = sink.shows_findings();
        let mut most = MOST_ROWS_IN_A_RUN;
        let mut row = 0;
        while row < self.len() {
            let (values, rows) = layout.run_at(row, most, is_valid, &mut run);
            if rows > 0 {
                let taken = if marking {
                    runner.plain_entries_marking(
                        values,
                        &run,
                        sink.values(),
                        &mut out_ends,
                        &mut marked,
                    )
                } else {
                    runner.plain_entries(values, &run, sink.values(), &mut out_ends)
                };
                // The rows with findings among them get theirs from the runner.
                let mut plain_from = 0;
                for &k in &marked {
                    sink.plain_rows(&out_ends[plain_from..k], plain_charset);
                    let value = &values[run[k]..run[k + 1]];
                    sink.row_decoded(runner, row + k, value, out_ends[k])?;
                    plain_from = k + 1;
                }
                sink.plain_rows(&out_ends[plain_from..], plain_charset);
                out_ends.clear();
                marked.clear();
                row += taken;
                most = (2 * (taken + 1)).min(MOST_ROWS_IN_A_RUN);
                if taken == rows {
                    continue;
                }
            }
            // A row a run stopped before needs the full decoder; any other (null, or a
            // view's inline row) may still be plain.
            let in_full = rows > 0;
            sink.row(runner, row, self.value(row), in_full)?;
            row += 1;
        }
        Ok(())
    }
}

/// Where `Rows::run_into` writes each row's result.
trait RowSink {
    /// The output buffer rows are appended to.
    fn values(&mut self) -> &mut Vec<u8>;
    /// Ends plain rows (no findings, UTF-8) whose outputs end at `ends` in `values()`.
    fn plain_rows(&mut self, ends: &[usize], charset: Option<urlkit::Charset>);
    /// Whether the sink shows findings: its runs go on past the rows that have some, each
    /// ended by [`row_decoded`](Self::row_decoded).
    fn shows_findings(&self) -> bool {
        false
    }
    /// Ends a row (`value`) of a run that may have findings, whose output, UTF-8, ends at
    /// `end` in `values()`: its findings and charset come from the runner on the row alone.
    fn row_decoded(
        &mut self,
        runner: &mut Entries,
        row: usize,
        value: &[u8],
        end: usize,
    ) -> Result<(), (usize, Rejection)>;
    /// Runs one row (`None`: null) through the runner and records its result; `in_full`:
    /// the row is known not to be plain (see `Entries::run_in_full`).
    fn row(
        &mut self,
        runner: &mut Entries,
        row: usize,
        value: Option<&[u8]>,
        in_full: bool,
    ) -> Result<(), (usize, Rejection)>;
}

/// A column of text or bytes written in place: each row's bytes appended to one buffer.
pub struct Bytes {
    pub values: Vec<u8>,
    offsets: Offsets,
    /// Which rows are valid, built only once a null comes.
    nulls: NullBufferBuilder,
    /// Whether every row written so far is UTF-8, when each is checked as it is written
    /// (`checking_rows`); `None` leaves the check to `finish`.
    rows_are_text: Option<bool>,
}

impl Bytes {
    pub fn with_capacity(rows: usize, bytes: usize) -> Self {
        Bytes {
            values: buffers::BYTES.vec(bytes),
            offsets: Offsets::Narrow(buffers::NARROW_OFFSETS.offsets(rows)),
            nulls: NullBufferBuilder::new(rows),
            rows_are_text: None,
        }
    }

    /// Rows are checked to be UTF-8 as they are written (plain rows are known to be),
    /// instead of all at once by `finish`.
    pub fn checking_rows(mut self) -> Self {
        self.rows_are_text = Some(true);
        self
    }

    /// Ends the row whose bytes were appended to `values`.
    pub fn end_row(&mut self) {
        self.offsets.extend(&[self.values.len()]);
        self.nulls.append_non_null();
    }

    pub fn push_null(&mut self) {
        self.offsets.extend(&[self.values.len()]);
        self.nulls.append_null();
    }
}

/// Where the rows of [`Bytes`] end: 32-bit as long as the bytes fit (almost always), so
/// that a column with 32-bit offsets gets its own without a second pass, then 64-bit.
enum Offsets {
    Narrow(Vec<i32>),
    Wide(Vec<i64>),
}

impl Offsets {
    /// Appends `ends` (which do not decrease), the offsets made 64-bit first when the last
    /// does not fit in 32 bits.
    fn extend(&mut self, ends: &[usize]) {
        let fits = |end: usize| i32::try_from(end).is_ok();
        if let (Offsets::Narrow(_), Some(&last)) = (&*self, ends.last()) {
            if !fits(last) {
                self.widen();
            }
        }
        match self {
            Offsets::Narrow(narrow) => narrow.extend(ends.iter().map(|&end| end as i32)),
            Offsets::Wide(wide) => wide.extend(ends.iter().map(|&end| end as i64)),
        }
    }

    /// The offsets as 64-bit ones (the 32-bit ones kept for the next column).
    fn widen(&mut self) {
        if let Offsets::Narrow(narrow) = self {
            let mut wide = buffers::WIDE_OFFSETS.vec(narrow.capacity());
            wide.extend(narrow.iter().map(|&at| i64::from(at)));
            buffers::NARROW_OFFSETS.keep(std::mem::take(narrow));
            *self = Offsets::Wide(wide);
        }
    }

    fn len(&self) -> usize {
        match self {
            Offsets::Narrow(narrow) => narrow.len(),
            Offsets::Wide(wide) => wide.len(),
        }
    }

    /// Whether `check` holds for every offset.
    fn all(&self, check: impl Fn(usize) -> bool) -> bool {
        match self {
            Offsets::Narrow(narrow) => narrow.iter().all(|&at| check(at as usize)),
            Offsets::Wide(wide) => wide.iter().all(|&at| check(at as usize)),
        }
    }
}

impl RowSink for Bytes {
    fn values(&mut self) -> &mut Vec<u8> {
        &mut self.values
    }

    fn plain_rows(&mut self, ends: &[usize], _: Option<urlkit::Charset>) {
        self.offsets.extend(ends);
        self.nulls.append_n_non_nulls(ends.len());
    }

    fn row_decoded(
        &mut self,
        _: &mut Entries,
        _: usize,
        _: &[u8],
        end: usize,
    ) -> Result<(), (usize, Rejection)> {
        // Only the output is kept: the row ends as a plain one does.
        self.plain_rows(&[end], None);
        Ok(())
    }

    fn row(
        &mut self,
        runner: &mut Entries,
        row: usize,
        value: Option<&[u8]>,
        in_full: bool,
    ) -> Result<(), (usize, Rejection)> {
        match value {
            Some(value) => {
                let start = self.values.len();
                let ran = if in_full {
                    runner.run_in_full(value, &mut self.values).map(drop)
                } else {
                    runner.run(value, &mut self.values).map(drop)
                };
                ran.map_err(|r| (row, r))?;
                self.check_row(start);
                self.end_row();
            }
            None => self.push_null(),
        }
        Ok(())
    }
}

impl Bytes {
    /// Notes whether the row being written, from `start`, is UTF-8, when rows are checked
    /// as they are written.
    fn check_row(&mut self, start: usize) {
        if let Some(text) = &mut self.rows_are_text {
            *text &= simdutf8::basic::from_utf8(&self.values[start..]).is_ok();
        }
    }

    /// Whether every row is UTF-8 text: the whole buffer is (checked with SIMD), and no
    /// row starts inside a character.
    fn is_text(&self) -> bool {
        simdutf8::basic::from_utf8(&self.values).is_ok()
            && self.offsets.all(|at| {
                self.values
                    .get(at)
                    .is_none_or(|&byte| (byte as i8) >= -0x40)
            })
    }

    /// The column as `utf8` (or `binary` when `text` is false), `large_` when asked or when
    /// the bytes outgrow 32-bit offsets. Text is checked to be UTF-8, as Arrow requires.
    pub fn finish(mut self, text: bool, large: bool) -> PyResult<ArrayRef> {
        if text && !self.rows_are_text.unwrap_or_else(|| self.is_text()) {
            return Err(crate::errors::UrlkitError::new_err(
                "a result that is not UTF-8 text",
            ));
        }
        let nulls = self.nulls.finish();
        let values = buffers::BYTES.lend_to_arrow(self.values);
        let rows = self.offsets.len();
        if large {
            self.offsets.widen();
        }
        match self.offsets {
            // Made 64-bit when asked, or when the bytes outgrew 32-bit offsets.
            Offsets::Wide(wide) => {
                let wide = buffers::WIDE_OFFSETS.lend_to_arrow(wide);
                byte_array::<i64>(wide, rows, values, nulls, text)
            }
            Offsets::Narrow(narrow) => {
                let narrow = buffers::NARROW_OFFSETS.lend_to_arrow(narrow);
                byte_array::<i32>(narrow, rows, values, nulls, text)
            }
        }
    }
}

/// The string (`text`) or binary array of `rows` offsets (one more than the rows) over
/// `values`, as [`Bytes::finish`] writes them: the offsets start at 0 and never decrease
/// (each is the length of the values when its row ended), the last is the length of
/// `values`, `nulls` has one bit per row, and for text every row is UTF-8.
fn byte_array<O: OffsetSizeTrait>(
    offsets: Buffer,
    rows: usize,
    values: Buffer,
    nulls: Option<NullBuffer>,
    text: bool,
) -> PyResult<ArrayRef> {
    // SAFETY (the `new_unchecked` calls): what the caller guarantees above, which is what
    // `OffsetBuffer::new` and `try_new` would check, each in a pass over the rows.
    let offsets = unsafe { OffsetBuffer::<O>::new_unchecked(ScalarBuffer::new(offsets, 0, rows)) };
    Ok(if text {
        Arc::new(unsafe { GenericStringArray::<O>::new_unchecked(offsets, values, nulls) })
    } else {
        let binary = GenericBinaryArray::<O>::try_new(offsets, values, nulls);
        Arc::new(binary.map_err(|e| PyTypeError::new_err(e.to_string()))?)
    })
}

/// `detected` per row, as `decode --json` prints it: `{charset, confidence, reason,
/// bom_length, runners_up: [{charset, confidence}]}`, null where nothing was detected.
struct DetectedColumns {
    charset: StringBuilder,
    confidence: Float64Builder,
    reason: StringBuilder,
    bom_length: UInt64Builder,
    runner_charset: StringBuilder,
    runner_confidence: Float64Builder,
    runner_offsets: Vec<i32>,
    valid: Vec<bool>,
}

impl DetectedColumns {
    fn new() -> Self {
        DetectedColumns {
            charset: StringBuilder::new(),
            confidence: Float64Builder::new(),
            reason: StringBuilder::new(),
            bom_length: UInt64Builder::new(),
            runner_charset: StringBuilder::new(),
            runner_confidence: Float64Builder::new(),
            runner_offsets: vec![0],
            valid: Vec::new(),
        }
    }

    fn push(&mut self, found: Option<&urlkit::Detection>) {
        self.charset
            .append_option(found.map(|d| d.charset.to_string()));
        self.confidence
            .append_option(found.map(|d| confidence(d.confidence)));
        self.reason.append_option(found.map(|d| d.reason));
        self.bom_length
            .append_option(found.map(|d| d.bom_length as u64));
        for candidate in found.map_or(&[][..], |d| &d.runners_up[..]) {
            self.runner_charset
                .append_value(candidate.charset.to_string());
            self.runner_confidence
                .append_value(confidence(candidate.confidence));
        }
        self.runner_offsets.push(self.runner_charset.len() as i32);
        self.valid.push(found.is_some());
    }

    fn finish(mut self) -> PyResult<ArrayRef> {
        let runners_up = list_of_structs(
            vec![
                (
                    "charset",
                    Arc::new(self.runner_charset.finish()) as ArrayRef,
                ),
                ("confidence", Arc::new(self.runner_confidence.finish())),
            ],
            self.runner_offsets,
            vec![],
        )?;
        structs(
            vec![
                ("charset", Arc::new(self.charset.finish()) as ArrayRef),
                ("confidence", Arc::new(self.confidence.finish())),
                ("reason", Arc::new(self.reason.finish())),
                ("bom_length", Arc::new(self.bom_length.finish())),
                ("runners_up", runners_up),
            ],
            self.valid,
        )
    }
}

/// The columns of `Result.to_dict()`, filled row by row.
struct ResultColumns {
    output: Bytes,
    charset: TextColumn,
    findings: Findings,
    not_listed: CountColumn,
    counts: (StringBuilder, UInt64Builder, Vec<i32>),
    detected: Option<DetectedColumns>,
    peeled: Option<(UInt64Builder, ListBuilder<StringBuilder>)>,
    valid: Vec<bool>,
    /// The output of a row the run decoded, made again with its findings (see
    /// `RowSink::row_decoded`).
    output_again: Vec<u8>,
}

impl ResultColumns {
    fn new(plan: &Plan, rows: usize, bytes: usize) -> Self {
        ResultColumns {
            output: Bytes::with_capacity(rows, bytes).checking_rows(),
            // Most rows name a charset of about this length (`UTF-8`).
            charset: TextColumn::with_capacity(rows, 8 * rows),
            findings: Findings::with_capacity(rows),
            not_listed: CountColumn::with_capacity(rows),
            // Room for a row with findings every `ROWS_A_FINDING` rows, as for the findings.
            counts: (
                StringBuilder::with_capacity(rows / ROWS_A_FINDING, rows),
                UInt64Builder::with_capacity(rows / ROWS_A_FINDING),
                buffers::NARROW_OFFSETS.offsets(rows),
            ),
            detected: plan.auto().then(DetectedColumns::new),
            peeled: plan
                .until_stable()
                .then(|| (UInt64Builder::new(), ListBuilder::new(StringBuilder::new()))),
            valid: Vec::with_capacity(rows),
            output_again: Vec::new(),
        }
    }

    fn push(&mut self, entry: &Entry) {
        self.output.end_row();
        self.push_results(entry);
    }

    /// What `push` records of a row but its output.
    fn push_results(&mut self, entry: &Entry) {
        self.charset
            .append_option(entry.charset().map(|c| c.name()));
        let diagnostics = entry.diagnostics();
        self.findings.push(diagnostics.items());
        self.not_listed.append_n(diagnostics.dropped(), 1);
        let (codes, counts, offsets) = &mut self.counts;
        for (code, count) in diagnostics.counts_most_frequent_first() {
            codes.append_value(code.as_str());
            counts.append_value(count);
        }
        offsets.push(codes.len() as i32);
        if let Some(detected) = &mut self.detected {
            detected.push(entry.detection());
        }
        if let Some((depth, layers)) = &mut self.peeled {
            let peeled = entry.layers();
            depth.append_option(peeled.map(|l| l.depth as u64));
            match peeled {
                Some(l) => {
                    for layer in &l.layers {
                        layers.values().append_value(lossy(layer));
                    }
                    layers.append(true);
                }
                None => layers.append(false),
            }
        }
        self.valid.push(true);
    }

    /// No finding counts, no detection and no layers for the next `rows` rows.
    fn push_nothing_counted_detected_or_peeled(&mut self, rows: usize) {
        let (codes, _, offsets) = &mut self.counts;
        offsets.extend(std::iter::repeat_n(codes.len() as i32, rows));
        if let Some(detected) = &mut self.detected {
            for _ in 0..rows {
                detected.push(None);
            }
        }
        if let Some((depth, layers)) = &mut self.peeled {
            depth.append_nulls(rows);
            for _ in 0..rows {
                layers.append(false);
            }
        }
    }

    fn push_null(&mut self) {
        self.output.push_null();
        self.charset.append_nulls(1);
        self.findings.push_null();
        self.not_listed.append_null();
        self.push_nothing_counted_detected_or_peeled(1);
        self.valid.push(false);
    }

    fn finish(self, text: bool, large: bool) -> PyResult<ArrayRef> {
        let mut columns: Vec<(&str, ArrayRef)> = vec![
            ("output", self.output.finish(text, large)?),
            ("charset", self.charset.finish()?),
            ("diagnostics", self.findings.finish()?),
            ("diagnostics_not_listed", self.not_listed.finish()),
        ];
        let (mut codes, mut counts, offsets) = self.counts;
        let counts = list_of_structs(
            vec![
                ("code", Arc::new(codes.finish()) as ArrayRef),
                ("count", Arc::new(counts.finish())),
            ],
            offsets,
            self.valid.clone(),
        )?;
        columns.push(("diagnostic_counts", counts));
        if let Some(detected) = self.detected {
            columns.push(("detected", detected.finish()?));
        }
        if let Some((mut depth, mut layers)) = self.peeled {
            columns.push(("depth", Arc::new(depth.finish())));
            columns.push(("layers", Arc::new(layers.finish())));
        }
        structs(columns, self.valid)
    }
}

impl RowSink for ResultColumns {
    fn values(&mut self) -> &mut Vec<u8> {
        &mut self.output.values
    }

    fn plain_rows(&mut self, ends: &[usize], charset: Option<urlkit::Charset>) {
        // What every plain row gets, a column at a time for the whole run.
        let rows = ends.len();
        self.output.plain_rows(ends, charset);
        match charset {
            Some(charset) => self.charset.append_n(charset.name(), rows),
            None => self.charset.append_nulls(rows),
        }
        self.findings.push_empty(rows);
        self.not_listed.append_n(0, rows);
        self.push_nothing_counted_detected_or_peeled(rows);
        self.valid.extend(std::iter::repeat_n(true, rows));
    }

    fn shows_findings(&self) -> bool {
        true
    }

    fn row_decoded(
        &mut self,
        runner: &mut Entries,
        row: usize,
        value: &[u8],
        end: usize,
    ) -> Result<(), (usize, Rejection)> {
        // The output is the run's; the runner's second one is dropped.
        let entry = runner
            .run_in_full(value, &mut self.output_again)
            .map_err(|r| (row, r))?;
        self.output.plain_rows(&[end], None);
        self.push_results(&entry);
        self.output_again.clear();
        Ok(())
    }

    fn row(
        &mut self,
        runner: &mut Entries,
        row: usize,
        value: Option<&[u8]>,
        in_full: bool,
    ) -> Result<(), (usize, Rejection)> {
        match value {
            Some(value) => {
                let start = self.output.values.len();
                let entry = if in_full {
                    runner.run_in_full(value, &mut self.output.values)
                } else {
                    runner.run(value, &mut self.output.values)
                }
                .map_err(|r| (row, r))?;
                self.output.check_row(start);
                self.push(&entry);
            }
            None => self.push_null(),
        }
        Ok(())
    }
}

/// Encodes or decodes every row; strict, the first rejection raises `RejectedError` with
/// its row.
pub fn codec_column(
    py: Python<'_>,
    plan: &Plan,
    array: &Bound<'_, PyAny>,
    diagnostics: bool,
) -> PyResult<ArrowArray> {
    let input = import(array)?;
    let rows = Rows::of(input.as_ref())?;
    let text = !plan.bytes_out();
    let bytes = input.to_data().get_slice_memory_size().unwrap_or(0);
    let outcome: Result<PyResult<ArrayRef>, (usize, Rejection)> = py.detach(|| {
        // With diagnostics each row's detection lists the other candidates, as a single
        // value's does; without, a row settled without the statistical model costs little
        // more than a fixed charset.
        let ranking = if diagnostics {
            Ranking::RunnersUp
        } else {
            Ranking::Charset
        };
        let mut runner = plan.clone().for_text(rows.text).ranking(ranking).entries();
        if diagnostics {
            let mut columns = ResultColumns::new(plan, rows.len(), bytes);
            rows.run_into(&mut runner, &mut columns)?;
            Ok(columns.finish(text, rows.large))
        } else {
            let mut output = Bytes::with_capacity(rows.len(), bytes).checking_rows();
            // Only the output is kept: rows whose findings leave it as plain decoding
            // gives it (a malformed escape, a second layer, a control character) stay in
            // the runs.
            let mut runner = runner.counting_findings_only().dropping_findings();
            rows.run_into(&mut runner, &mut output)?;
            Ok(output.finish(text, rows.large))
        }
    });
    match outcome {
        Ok(array) => Ok(ArrowArray::new(array?)),
        Err((row, rejection)) => Err(rejected(py, &rejection, Some(row))),
    }
}

/// Fills `template` (the placeholders of `urlkit parse --get`) from every row parsed by the
/// URL Standard, against `base` when given; a row that is null or does not parse gives
/// null. A template that cannot be used raises `SettingError` naming its position.
pub fn template_column(
    py: Python<'_>,
    array: &Bound<'_, PyAny>,
    template_text: &str,
    base: Option<&str>,
) -> PyResult<ArrowArray> {
    let template = Template::parse(template_text)
        .map_err(|e| crate::errors::SettingError::new_err(format!("template: {e}")))?;
    // The host alone of a URL without a base: most rows need no parser (see `plain_host`).
    let host_only = template_text == "{host}" && base.is_none();
    let base = crate::report::base_url(py, base)?;
    let input = import(array)?;
    let rows = Rows::of(input.as_ref())?;
    let array = py.detach(|| {
        let mut output = Bytes::with_capacity(rows.len(), 0);
        let _ = rows.try_for_each(|_, value| -> Result<(), ()> {
            if let Some(host) = value.filter(|_| host_only).and_then(plain_host) {
                output.values.extend_from_slice(host);
                output.end_row();
                return Ok(());
            }
            let parsed =
                value.and_then(|v| whatwg::parse(&String::from_utf8_lossy(v), base.as_ref()).ok());
            match parsed {
                Some(url) => {
                    template.render(&url, &mut output.values);
                    output.end_row();
                }
                None => output.push_null(),
            }
            Ok(())
        });
        output.finish(true, rows.large)
    })?;
    Ok(ArrowArray::new(array))
}

/// The host of an `http` or `https` URL whose host the URL Standard's parser can only
/// leave as it is, found without parsing: `http://` or `https://`, then a host of lower-case
/// ASCII letters, digits, `-` and `.` up to `/`, `?`, `#` or the end (no userinfo, no port,
/// no escape, no whitespace), with no `xn--` label and not ending in a number (which the
/// parser would read as IPv4). Such a URL always parses, and its host is those bytes; any
/// other row (`None`) goes through the parser.
fn plain_host(url: &[u8]) -> Option<&[u8]> {
    let rest = url
        .strip_prefix(b"https://")
        .or_else(|| url.strip_prefix(b"http://"))?;
    let end = rest
        .iter()
        .position(|&b| matches!(b, b'/' | b'?' | b'#'))
        .unwrap_or(rest.len());
    let host = &rest[..end];
    let plain = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b'.');
    if host.is_empty() || !host.iter().all(plain) {
        return None;
    }
    let labels = host.strip_suffix(b".").unwrap_or(host);
    let last = labels.rsplit(|&b| b == b'.').next().unwrap_or(labels);
    let numeric = last.iter().all(u8::is_ascii_digit) || last.starts_with(b"0x");
    let punycode = host
        .split(|&b| b == b'.')
        .any(|label| label.starts_with(b"xn--"));
    (!numeric && !punycode).then_some(host)
}

/// Every row's full report as a struct column (see `report`).
pub fn parse_column(
    py: Python<'_>,
    array: &Bound<'_, PyAny>,
    base: Option<&str>,
) -> PyResult<ArrowArray> {
    let base = crate::report::base_url(py, base)?;
    let input = import(array)?;
    let rows = Rows::of(input.as_ref())?;
    let array = py.detach(|| {
        let mut columns = ReportColumns::new();
        let _ = rows.try_for_each(|_, value| -> Result<(), ()> {
            match value {
                None => columns.push_null(),
                Some(value) => {
                    let url = String::from_utf8_lossy(value);
                    columns.push(&whatwg::report(&url, base.as_ref()));
                }
            }
            Ok(())
        });
        columns.finish()
    })?;
    Ok(ArrowArray::new(array))
}

#[cfg(test)]
mod tests {
    use super::Offsets;

    #[test]
    fn offsets_become_64_bit_at_the_first_end_past_32_bits() {
        let past = i32::MAX as usize + 1;
        let mut offsets = Offsets::Narrow(vec![0]);
        offsets.extend(&[3, 7]);
        offsets.extend(&[]);
        assert!(matches!(&offsets, Offsets::Narrow(narrow) if narrow == &[0, 3, 7]));
        offsets.extend(&[9, past, past + 5]);
        assert!(matches!(&offsets, Offsets::Wide(wide)
            if wide == &[0, 3, 7, 9, past as i64, past as i64 + 5]));
        offsets.extend(&[past + 6]);
        assert_eq!(offsets.len(), 7);
        assert!(offsets.all(|at| at == 0 || at >= 3));
        let mut asked = Offsets::Narrow(vec![0, 4]);
        asked.widen();
        assert!(matches!(&asked, Offsets::Wide(wide) if wide == &[0, 4]));
    }
}
