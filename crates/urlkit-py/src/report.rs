//! The inspector's report of a URL (`urlkit::inspect::whatwg::report`), field by field: as
//! a dict for one URL, as a struct column for many. Fields are read by name, so the
//! report may gain or reorder fields without changing either shape.

use crate::builders::{list_of_structs, structs, Findings};
use crate::errors::url_error;
use arrow_array::builder::{
    ArrayBuilder, ListBuilder, StringBuilder, UInt16Builder, UInt64Builder,
};
use arrow_array::ArrayRef;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::Arc;
use urlkit::inspect::whatwg::{self, ParseFailure, UrlReport};
use urlkit::inspect::Url;

/// The kind of value a field holds, which fixes its Arrow type.
#[derive(Clone, Copy)]
enum Kind {
    /// `string`
    Text,
    /// `string`, may be null
    MaybeText,
    /// `uint16`, may be null
    Port,
    /// `uint64`
    Count,
    /// `list<string>`, may be null
    Segments,
    /// `list<struct<name, value>>`
    Pairs,
    /// `list<struct<code, offset, message>>`
    Findings,
}

/// The fields of a report as the package shows them, in the order and under the names of
/// `urlkit parse --json`. The drawing of the URL (`spans`, `diagram`) is for a reader's
/// eyes: the dict has it, the struct column leaves it out.
const FIELDS: [(&str, Kind); 20] = [
    ("href", Kind::Text),
    ("scheme", Kind::Text),
    ("user", Kind::Text),
    ("password", Kind::Text),
    ("host", Kind::MaybeText),
    ("host_type", Kind::Text),
    ("host_unicode", Kind::MaybeText),
    ("port", Kind::Port),
    ("default_port", Kind::Port),
    ("path", Kind::Text),
    ("path_segments", Kind::Segments),
    ("path_segments_not_listed", Kind::Count),
    ("query", Kind::MaybeText),
    ("query_pairs", Kind::Pairs),
    ("query_pairs_not_listed", Kind::Count),
    ("fragment", Kind::MaybeText),
    ("fragment_decoded", Kind::MaybeText),
    ("origin", Kind::Text),
    ("warnings", Kind::Findings),
    ("warnings_not_listed", Kind::Count),
];

/// One field's value.
enum Value<'a> {
    Text(Option<&'a str>),
    Port(Option<u16>),
    Count(u64),
    Segments(Option<&'a [String]>),
    Pairs(&'a [(String, String)]),
    Findings(&'a [urlkit::Diagnostic]),
}

/// The field called `name` of `report`.
fn value<'a>(report: &'a UrlReport, name: &str) -> Value<'a> {
    let text = |s: &'a String| Value::Text(Some(s.as_str()));
    let maybe = |s: &'a Option<String>| Value::Text(s.as_deref());
    match name {
        "href" => text(&report.href),
        "scheme" => text(&report.scheme),
        "user" => text(&report.user),
        "password" => text(&report.password),
        "host" => maybe(&report.host),
        "host_type" => Value::Text(Some(report.host_type)),
        "host_unicode" => maybe(&report.host_unicode),
        "port" => Value::Port(report.port),
        "default_port" => Value::Port(report.default_port),
        "path" => text(&report.path),
        "path_segments" => Value::Segments(report.path_segments.as_deref()),
        "path_segments_not_listed" => Value::Count(report.path_segments_not_listed as u64),
        "query" => maybe(&report.query),
        "query_pairs" => Value::Pairs(&report.query_pairs),
        "query_pairs_not_listed" => Value::Count(report.query_pairs_not_listed as u64),
        "fragment" => maybe(&report.fragment),
        "fragment_decoded" => maybe(&report.fragment_decoded),
        "origin" => text(&report.origin),
        "warnings" => Value::Findings(&report.warnings),
        "warnings_not_listed" => Value::Count(report.warnings_not_listed as u64),
        _ => Value::Text(None),
    }
}

/// The base URL to parse against, if any; one that does not parse raises `UrlError`.
pub fn base_url(py: Python<'_>, base: Option<&str>) -> PyResult<Option<Url>> {
    base.map(|b| whatwg::parse_with_warnings(b, None).map(|(url, _)| url))
        .transpose()
        .map_err(|e| url_error(py, &format!("base: {}", e.message), e.position))
}

/// The report of one URL as a dict of the fields above (`query_pairs` as `(name, value)`
/// tuples, `warnings` as `Diagnostic`s); one that does not parse raises `UrlError`.
pub fn report_dict<'py>(
    py: Python<'py>,
    url: &str,
    base: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let base = base_url(py, base)?;
    let report = py
        .detach(|| whatwg::report(url, base.as_ref()))
        .map_err(|e| url_error(py, &e.message, e.position))?;
    let dict = PyDict::new(py);
    dict.set_item("input", url)?;
    for (name, _) in FIELDS {
        if name == "warnings" {
            // The drawing, where `parse --json` puts it.
            let spans = PyList::empty(py);
            for span in &report.spans {
                let item = PyDict::new(py);
                item.set_item("component", span.component)?;
                item.set_item("start", span.start)?;
                item.set_item("end", span.end)?;
                spans.append(item)?;
            }
            dict.set_item("spans", spans)?;
            dict.set_item("diagram", report.diagram.as_deref())?;
        }
        match value(&report, name) {
            Value::Text(text) => dict.set_item(name, text)?,
            Value::Port(port) => dict.set_item(name, port)?,
            Value::Count(count) => dict.set_item(name, count)?,
            Value::Segments(segments) => dict.set_item(name, segments)?,
            Value::Pairs(pairs) => dict.set_item(name, pairs.to_vec())?,
            Value::Findings(findings) => {
                let list = PyList::empty(py);
                for finding in findings {
                    list.append(crate::values::Diagnostic::from(finding))?;
                }
                dict.set_item(name, list)?
            }
        }
    }
    Ok(dict)
}

/// `list<struct<name, value>>`, filled row by row.
struct Pairs {
    names: StringBuilder,
    values: StringBuilder,
    offsets: Vec<i32>,
}

impl Pairs {
    fn new() -> Self {
        Pairs {
            names: StringBuilder::new(),
            values: StringBuilder::new(),
            offsets: vec![0],
        }
    }

    fn push(&mut self, pairs: &[(String, String)]) {
        for (name, value) in pairs {
            self.names.append_value(name);
            self.values.append_value(value);
        }
        self.offsets.push(self.names.len() as i32);
    }

    fn finish(mut self, valid: Vec<bool>) -> PyResult<ArrayRef> {
        list_of_structs(
            vec![
                ("name", Arc::new(self.names.finish()) as ArrayRef),
                ("value", Arc::new(self.values.finish())),
            ],
            self.offsets,
            valid,
        )
    }
}

/// One field's column.
enum Builder {
    Text(StringBuilder),
    Port(UInt16Builder),
    Count(UInt64Builder),
    Segments(ListBuilder<StringBuilder>),
    Pairs(Pairs, Vec<bool>),
    Findings(Findings),
}

impl Builder {
    fn new(kind: Kind) -> Self {
        match kind {
            Kind::Text | Kind::MaybeText => Builder::Text(StringBuilder::new()),
            Kind::Port => Builder::Port(UInt16Builder::new()),
            Kind::Count => Builder::Count(UInt64Builder::new()),
            Kind::Segments => Builder::Segments(ListBuilder::new(StringBuilder::new())),
            Kind::Pairs => Builder::Pairs(Pairs::new(), Vec::new()),
            Kind::Findings => Builder::Findings(Findings::new()),
        }
    }

    /// Appends `value`, or null when there is none or it is not of this column's kind.
    fn push(&mut self, value: Option<Value<'_>>) {
        match (self, value) {
            (Builder::Text(b), Some(Value::Text(text))) => b.append_option(text),
            (Builder::Text(b), _) => b.append_null(),
            (Builder::Port(b), Some(Value::Port(port))) => b.append_option(port),
            (Builder::Port(b), _) => b.append_null(),
            (Builder::Count(b), Some(Value::Count(count))) => b.append_value(count),
            (Builder::Count(b), _) => b.append_null(),
            (Builder::Segments(b), Some(Value::Segments(Some(segments)))) => {
                for segment in segments {
                    b.values().append_value(segment);
                }
                b.append(true);
            }
            (Builder::Segments(b), _) => b.append(false),
            (Builder::Pairs(b, valid), Some(Value::Pairs(pairs))) => {
                b.push(pairs);
                valid.push(true);
            }
            (Builder::Pairs(b, valid), _) => {
                b.push(&[]);
                valid.push(false);
            }
            (Builder::Findings(b), Some(Value::Findings(findings))) => b.push(findings),
            (Builder::Findings(b), _) => b.push_null(),
        }
    }

    fn finish(self) -> PyResult<ArrayRef> {
        Ok(match self {
            Builder::Text(mut b) => Arc::new(b.finish()),
            Builder::Port(mut b) => Arc::new(b.finish()),
            Builder::Count(mut b) => Arc::new(b.finish()),
            Builder::Segments(mut b) => Arc::new(b.finish()),
            Builder::Pairs(b, valid) => b.finish(valid)?,
            Builder::Findings(b) => b.finish()?,
        })
    }
}

/// Reports as a struct column: the fields above, then `error` and `position` for a row
/// that does not parse (its other fields null); null rows stay null.
pub struct ReportColumns {
    fields: Vec<Builder>,
    error: StringBuilder,
    position: UInt64Builder,
    valid: Vec<bool>,
}

impl ReportColumns {
    pub fn new() -> Self {
        ReportColumns {
            fields: FIELDS.iter().map(|(_, kind)| Builder::new(*kind)).collect(),
            error: StringBuilder::new(),
            position: UInt64Builder::new(),
            valid: Vec::new(),
        }
    }

    pub fn push(&mut self, report: &Result<UrlReport, ParseFailure>) {
        for (builder, (name, _)) in self.fields.iter_mut().zip(FIELDS) {
            builder.push(report.as_ref().ok().map(|r| value(r, name)));
        }
        match report {
            Ok(_) => {
                self.error.append_null();
                self.position.append_null();
            }
            Err(failure) => {
                self.error.append_value(&failure.message);
                self.position.append_value(failure.position as u64);
            }
        }
        self.valid.push(true);
    }

    pub fn push_null(&mut self) {
        for builder in &mut self.fields {
            builder.push(None);
        }
        self.error.append_null();
        self.position.append_null();
        self.valid.push(false);
    }

    pub fn finish(mut self) -> PyResult<ArrayRef> {
        let mut columns = Vec::with_capacity(FIELDS.len() + 2);
        for (builder, (name, _)) in self.fields.into_iter().zip(FIELDS) {
            columns.push((name, builder.finish()?));
        }
        columns.push(("error", Arc::new(self.error.finish()) as ArrayRef));
        columns.push(("position", Arc::new(self.position.finish())));
        structs(columns, self.valid)
    }
}
