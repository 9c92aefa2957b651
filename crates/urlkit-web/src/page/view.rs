//! The page's HTML fragments, in the reader's language: the status line, the findings
//! summary, errors that say what to do next, the inspector's views and a file's result.
//! The page's script builds the same fragments from the API's JSON (`assets/app.js`), with
//! the same classes and messages.

use crate::api::{FileCreated, InspectResponse, ParseProblem};
use crate::error::ApiError;
use crate::i18n::{Arg, Catalog};
use std::fmt::Write as _;
use urlkit::inspect::whatwg::UrlReport;
use urlkit::{Code, Diagnostic};
use urlkit_api::shown::{ShownParts, COMPONENTS};
use urlkit_api::{CodeCount, CodecResponse};

/// How many findings are listed before "show all" (the page's script reads it from the
/// page's `data-first-findings`).
pub const FIRST_FINDINGS: usize = 50;

/// How many findings the page without JavaScript lists under "show all"; the API lists
/// more, and counts every one.
pub const PAGE_FINDINGS: usize = 1_000;

/// The limit a too-large body ran into, to be named in the message.
#[derive(Clone, Copy, Debug)]
pub enum Limits {
    /// The largest text body, in bytes.
    Text(u64),
    /// The largest upload, in bytes.
    Upload(u64),
}

impl Limits {
    /// The limit on text bodies.
    pub fn text(bytes: u64) -> Self {
        Limits::Text(bytes)
    }

    /// The limit on uploads.
    pub fn upload(bytes: u64) -> Self {
        Limits::Upload(bytes)
    }

    fn message(self, t: &Catalog) -> String {
        let (id, bytes) = match self {
            Limits::Text(bytes) => ("error-too-large-text", bytes),
            Limits::Upload(bytes) => ("error-too-large-file", bytes),
        };
        let size = urlkit_api::shown::human_size(bytes);
        t.format(id, &[("limit", Arg::Text(&size))])
    }
}

/// The status line of a codec answer: the charset used or detected, layers peeled, the
/// other readings of a detection.
pub fn codec_status(response: &CodecResponse, t: &Catalog) -> String {
    let mut parts = Vec::new();
    if let Some(d) = &response.detected {
        let confidence = ((d.confidence * 100.0).round() as u64).to_string();
        parts.push(t.format(
            "status-detected",
            &[
                ("charset", Arg::Text(d.charset.name())),
                ("confidence", Arg::Text(&confidence)),
                ("reason", Arg::Text(d.reason)),
            ],
        ));
    } else if let Some(c) = &response.charset {
        parts.push(t.format("status-charset", &[("charset", Arg::Text(c))]));
    }
    if let Some(layers) = &response.layers {
        parts.push(t.format(
            "status-layers",
            &[("count", Arg::Number(layers.len() as u64))],
        ));
    }
    // Last, as the page's script shows them (there, each is a button).
    if let Some(d) = &response.detected {
        let others: Vec<String> = d
            .runners_up
            .iter()
            .filter(|c| c.confidence >= 0.01)
            .map(|c| format!("{} ({:.0}%)", c.charset, c.confidence * 100.0))
            .collect();
        if !others.is_empty() {
            parts.push(format!(
                "{} {}",
                t.text("status-other-readings"),
                others.join(", ")
            ));
        }
    }
    escape(&parts.join(" · "))
}

/// Where a finding is: its line and column in per-line mode, else its byte.
fn position(d: &Diagnostic, t: &Catalog) -> String {
    match (d.line, d.column) {
        (Some(line), Some(column)) => t.format(
            "at-line",
            &[("line", Arg::Number(line)), ("column", Arg::Number(column))],
        ),
        _ => t.format("at-byte", &[("offset", Arg::Number(d.offset))]),
    }
}

/// What a finding says: the library's message where the page speaks its language, else
/// what the code means in the page's language with the message beside it.
fn explained(code: &str, message: &str, t: &Catalog) -> String {
    if t.text("library-language") == t.lang().tag() {
        return format!("<span class=\"what\">{}</span>", escape(message));
    }
    format!(
        "<span class=\"what\">{}</span> <span class=\"detail\" lang=\"en\" dir=\"ltr\">{}</span>",
        escape(&t.text(&format!("code-{code}"))),
        escape(message)
    )
}

fn finding_item(out: &mut String, d: &Diagnostic, t: &Catalog) {
    let _ = write!(
        out,
        "<li><span class=\"pos\">{}</span> <code class=\"code\">{}</code> {}</li>",
        escape(&position(d, t)),
        d.code,
        explained(d.code.as_str(), &d.message, t)
    );
}

/// The findings: how many of each code, the first [`FIRST_FINDINGS`] with their position,
/// the rest (up to [`PAGE_FINDINGS`]) under "show all", and what was counted but not
/// listed. Entries joined by a removed line break come with a button that decodes each
/// line on its own.
pub fn findings(list: &[Diagnostic], not_listed: u64, counts: &[CodeCount], t: &Catalog) -> String {
    if list.is_empty() && not_listed == 0 {
        return format!(
            "<p class=\"quiet\">{}</p>",
            escape(&t.text("findings-none"))
        );
    }
    let total = list.len() as u64 + not_listed;
    let mut out = format!(
        "<div class=\"findings-head\"><h3 class=\"findings-title\">{}</h3> <span class=\"total\">{}</span></div><ul class=\"counts\">",
        escape(&t.text("findings-title")),
        escape(&t.format("findings-total", &[("count", Arg::Number(total))]))
    );
    for c in counts {
        let _ = write!(
            out,
            "<li><code class=\"code\">{}</code> <span class=\"n\">{}</span></li>",
            c.code, c.count
        );
    }
    out.push_str("</ul>");
    if counts.iter().any(|c| c.code == Code::EntriesJoined) {
        let _ = write!(
            out,
            "<div class=\"offer\" id=\"per-line-offer\"><p>{}</p><button type=\"submit\" name=\"op\" value=\"decode-per-line\" class=\"secondary\">{}</button></div>",
            escape(&t.text("per-line-offer")),
            escape(&t.text("per-line-action"))
        );
    }
    out.push_str("<ul class=\"findings\">");
    for d in list.iter().take(FIRST_FINDINGS) {
        finding_item(&mut out, d, t);
    }
    out.push_str("</ul>");
    let shown = list.len().min(PAGE_FINDINGS);
    if shown > FIRST_FINDINGS {
        let _ = write!(
            out,
            "<p class=\"quiet\">{}</p><details class=\"all-findings\"><summary>{}</summary><ul class=\"findings scroll\">",
            escape(&t.format("findings-first", &[("shown", Arg::Number(FIRST_FINDINGS as u64))])),
            escape(&t.format("findings-show-all", &[("count", Arg::Number(total))]))
        );
        for d in &list[FIRST_FINDINGS..shown] {
            finding_item(&mut out, d, t);
        }
        out.push_str("</ul></details>");
    }
    let unlisted = total - shown as u64;
    if unlisted > 0 {
        let _ = write!(
            out,
            "<p class=\"quiet\">{}</p>",
            escape(&t.format("findings-not-listed", &[("count", Arg::Number(unlisted))]))
        );
    }
    out
}

/// An error that says what happened and what to do next: a body over `limits` names the
/// limit and the way around it, a strict rejection its place and what the code means, a
/// bad option the option.
pub fn error(e: &ApiError, t: &Catalog, limits: Limits) -> String {
    let mut out = String::from("<div class=\"error\" role=\"alert\">");
    let known = t.text(&format!("code-{}", e.code));
    match (e.code.as_str(), e.offset, &e.field) {
        ("too-large", _, _) => {
            let _ = write!(out, "<p>{}</p>", escape(&limits.message(t)));
        }
        (code, Some(offset), _) if e.status == axum::http::StatusCode::UNPROCESSABLE_ENTITY => {
            let problem = format!("{known} ({code})");
            let _ = write!(
                out,
                "<p>{}</p><p>{}</p>",
                escape(&t.format(
                    "error-rejected",
                    &[
                        ("offset", Arg::Number(offset)),
                        ("problem", Arg::Text(&problem))
                    ]
                )),
                escape(&t.text("error-rejected-next"))
            );
        }
        (_, _, Some(field)) => {
            let _ = write!(
                out,
                "<p>{}</p>",
                escape(&t.format(
                    "error-invalid-request",
                    &[
                        ("field", Arg::Text(field)),
                        ("message", Arg::Text(&e.message))
                    ]
                ))
            );
            out.push_str("</div>");
            return out;
        }
        ("store-full", _, _) => {
            let _ = write!(out, "<p>{}</p>", escape(&t.text("error-store-full")));
        }
        ("busy", _, _) => {
            let _ = write!(out, "<p>{}</p>", escape(&t.text("error-busy")));
        }
        (code, _, _) => {
            let _ = write!(
                out,
                "<p><code class=\"code\">{}</code> {}</p>",
                escape(code),
                escape(&e.message)
            );
            out.push_str("</div>");
            return out;
        }
    }
    let _ = write!(
        out,
        "<p class=\"detail\" lang=\"en\" dir=\"ltr\"><code class=\"code\">{}</code> {}</p></div>",
        escape(&e.code),
        escape(&e.message)
    );
    out
}

/// A file's result: the download link (named as the download will be) and its findings.
pub fn file(result: &Result<FileCreated, ApiError>, t: &Catalog, limits: Limits) -> String {
    match result {
        Err(e) => error(e, t, limits),
        Ok(f) => format!(
            "<p>{} <a class=\"download\" href=\"{}\" download>{}</a> {}</p>{}",
            escape(&t.format("file-ready", &[("size", Arg::Number(f.size))])),
            escape(&f.download),
            escape(&t.text("file-download")),
            escape(&t.format("file-once", &[("expires", Arg::Text(&f.expires_at))])),
            findings(
                &f.diagnostics,
                f.diagnostics_not_listed,
                &f.diagnostic_counts,
                t
            )
        ),
    }
}

fn row(out: &mut String, label: &str, class: &str, value: &str) {
    let _ = write!(
        out,
        "<tr class=\"{class}\"><th scope=\"row\">{}</th><td>{value}</td></tr>",
        escape(label)
    );
}

fn code_text(text: &str) -> String {
    format!("<code dir=\"ltr\">{}</code>", escape(text))
}

/// The components as a table in reading order, the query as a table of its pairs.
fn parts_table(out: &mut String, p: &ShownParts, t: &Catalog) {
    out.push_str("<table class=\"parts\"><tbody>");
    if let Some(href) = &p.href {
        row(out, &t.text("field-href"), "href", &code_text(href));
    }
    for name in COMPONENTS {
        let label = t.text(&format!("part-{name}"));
        let class = format!("part-{name}");
        let value = match name {
            "scheme" => p.scheme.as_deref().map(code_text),
            "user" => p.user.as_deref().map(code_text),
            "password" => p.password.as_deref().map(code_text),
            "host" => p.host.as_deref().map(|h| {
                let mut cell = code_text(h);
                if let Some(u) = p.host_unicode.as_deref().filter(|u| *u != h) {
                    let _ = write!(cell, " <span class=\"aside\">{} {}</span>", escape(&t.text("host-unicode")), code_text(u));
                }
                if let Some(kind) = &p.host_type {
                    let _ = write!(cell, " <span class=\"aside\">{}: {}</span>", escape(&t.text("host-type")), code_text(kind));
                }
                cell
            }),
            "port" => match (&p.port, &p.default_port) {
                (Some(port), _) => Some(code_text(port)),
                (None, Some(default)) => Some(format!(
                    "<span class=\"quiet\">{}</span>",
                    escape(&t.format("port-default", &[("port", Arg::Text(default))]))
                )),
                _ => None,
            },
            "path" => p.path.as_deref().map(|path| {
                let mut cell = code_text(path);
                if p.segments.len() > 1 {
                    let _ = write!(cell, "<ol class=\"segments\" dir=\"ltr\">");
                    for s in &p.segments {
                        let _ = write!(cell, "<li><code>{}</code></li>", escape(s));
                    }
                    cell.push_str("</ol>");
                }
                cell
            }),
            "query" => p.query.as_deref().map(|q| {
                let mut cell = code_text(q);
                if !p.pairs.is_empty() {
                    let _ = write!(
                        cell,
                        "<table class=\"pairs\"><thead><tr><th scope=\"col\">{}</th><th scope=\"col\">{}</th></tr></thead><tbody>",
                        escape(&t.text("query-name")),
                        escape(&t.text("query-value"))
                    );
                    for (name, value) in &p.pairs {
                        let _ = write!(cell, "<tr><td>{}</td><td>{}</td></tr>", code_text(name), code_text(value));
                    }
                    cell.push_str("</tbody></table>");
                }
                let more = p.pairs_not_listed;
                if more > 0 {
                    let _ = write!(cell, "<p class=\"quiet\">{}</p>", escape(&t.format("query-not-listed", &[("count", Arg::Number(more))])));
                }
                cell
            }),
            _ => p.fragment.as_deref().map(|f| {
                let mut cell = code_text(f);
                if let Some(d) = p.fragment_decoded.as_deref().filter(|d| *d != f) {
                    let _ = write!(cell, " <span class=\"aside\">{} {}</span>", escape(&t.text("fragment-decoded")), code_text(d));
                }
                cell
            }),
        };
        let value = value
            .unwrap_or_else(|| format!("<span class=\"quiet\">{}</span>", escape(&t.text("none"))));
        row(out, &label, &class, &value);
    }
    if let Some(origin) = &p.origin {
        row(out, &t.text("field-origin"), "origin", &code_text(origin));
    }
    out.push_str("</tbody></table>");
}

/// The URL drawn with its parts marked: each part's text over its name, the delimiters
/// between them unmarked. Needs the view's `spans`; without them nothing is drawn.
fn drawing(out: &mut String, view: &UrlReport, t: &Catalog) {
    let href = view.href.as_str();
    let mut marks: Vec<(usize, usize, &str)> = view
        .spans
        .iter()
        .map(|s| (s.start, s.end, s.component))
        .filter(|(start, end, _)| {
            start < end
                && *end <= href.len()
                && href.is_char_boundary(*start)
                && href.is_char_boundary(*end)
        })
        .collect();
    marks.sort_by_key(|m| m.0);
    if marks.is_empty() || marks.windows(2).any(|w| w[0].1 > w[1].0) {
        return;
    }
    let _ = write!(
        out,
        "<figure class=\"drawn\"><figcaption>{}</figcaption><div class=\"drawn-url\" dir=\"ltr\">",
        escape(&t.text("drawn-url"))
    );
    let mut at = 0;
    for (i, (start, end, component)) in marks.into_iter().enumerate() {
        if start > at {
            let _ = write!(
                out,
                "<span class=\"sep\">{}</span>",
                escape(&href[at..start])
            );
        }
        let _ = write!(
            out,
            "<span class=\"mark mark-{c}{lower}\"><span class=\"text\">{}</span><span class=\"label\" dir=\"auto\">{}</span></span>",
            escape(&href[start..end]),
            escape(&t.text(&format!("part-{component}"))),
            c = escape(component),
            // Every other name a line lower, as the page's script draws it.
            lower = if i % 2 == 1 { " lower" } else { "" },
        );
        at = end;
    }
    if at < href.len() {
        let _ = write!(out, "<span class=\"sep\">{}</span>", escape(&href[at..]));
    }
    out.push_str("</div></figure>");
}

/// The warnings as a list that wraps on a phone: each code over its message.
fn warnings(out: &mut String, view: &UrlReport, t: &Catalog) {
    let _ = write!(out, "<h4>{}</h4>", escape(&t.text("warnings")));
    if view.warnings.is_empty() {
        let _ = write!(
            out,
            "<p class=\"quiet\">{}</p>",
            escape(&t.text("warnings-none"))
        );
        return;
    }
    out.push_str("<ul class=\"warnings\">");
    for w in &view.warnings {
        let code = w.code.as_str();
        let _ = write!(
            out,
            "<li><span class=\"pos\">{}</span> <code class=\"code\">{}</code> {}</li>",
            escape(&t.format("at-byte", &[("offset", Arg::Number(w.offset))])),
            escape(code),
            explained(code, &w.message, t)
        );
    }
    out.push_str("</ul>");
    let more = view.warnings_not_listed as u64;
    if more > 0 {
        let _ = write!(
            out,
            "<p class=\"quiet\">{}</p>",
            escape(&t.format("warnings-not-listed", &[("count", Arg::Number(more))]))
        );
    }
}

/// Why a view could not take the URL.
fn problem(out: &mut String, problem: &ParseProblem, t: &Catalog) {
    let _ = write!(
        out,
        "<p class=\"error\">{}</p>",
        escape(&t.format(
            "parse-failed",
            &[
                ("position", Arg::Number(problem.position as u64)),
                ("message", Arg::Text(&problem.message))
            ]
        ))
    );
}

/// Both views of an inspected URL: the browser's drawn, in reading order, with its query
/// pairs and warnings; the generic syntax beneath, folded.
pub fn inspected(result: &Result<InspectResponse, ApiError>, t: &Catalog) -> String {
    let r = match result {
        Ok(r) => r,
        Err(e) => return error(e, t, Limits::text(crate::limits::TEXT_LIMIT as u64)),
    };
    let mut out = String::new();
    if let Some(resolved) = &r.resolved {
        let _ = write!(
            out,
            "<p class=\"resolved\">{}: {}</p>",
            escape(&t.text("resolved")),
            code_text(resolved)
        );
    }
    let _ = write!(out, "<h3>{}</h3>", escape(&t.text("view-whatwg")));
    match (&r.whatwg, &r.whatwg_error) {
        (Some(view), _) => {
            drawing(&mut out, view, t);
            parts_table(&mut out, &ShownParts::of_report(view), t);
            warnings(&mut out, view, t);
        }
        (None, Some(p)) => problem(&mut out, p, t),
        _ => {}
    }
    let _ = write!(
        out,
        "<details class=\"generic\"><summary>{}</summary>",
        escape(&t.text("view-rfc3986"))
    );
    match (&r.rfc3986, &r.rfc3986_error) {
        (Some(view), _) => parts_table(&mut out, &ShownParts::of_report(view), t),
        (None, Some(p)) => problem(&mut out, p, t),
        _ => {}
    }
    out.push_str("</details>");
    out
}

/// Escapes text for HTML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}
