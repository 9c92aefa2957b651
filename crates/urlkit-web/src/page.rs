//! The page: rendered on the server, so every operation works as a plain form post without
//! JavaScript; `assets/app.js` makes the same page answer as you type through the API.

use crate::api::{inspect_url, process_upload, FileCreated, InspectResponse};
use crate::codec::answer;
use crate::error::ApiError;
use crate::AppState;
use axum::extract::{Multipart, Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::Form;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::OnceLock;
use urlkit::{Charset, EncodeSet};
use urlkit::{DecodeSettings, Diagnostic, EncodeSettings};
use urlkit_api::{form_flag, CodecResponse, DecodeRequest, EncodeRequest};

const TEMPLATE: &str = include_str!("assets/index.html");
const STYLE: &str = include_str!("assets/style.css");
const SCRIPT: &str = include_str!("assets/app.js");
use urlkit_wasm_assets::{URLKIT_MJS, URLKIT_WASM};

/// A stylesheet, script or WebAssembly module embedded in the binary.
struct Asset {
    body: &'static [u8],
    content_type: &'static str,
    /// A hash of the content, put in the URL so a long cache lifetime is safe.
    version: String,
}

fn assets() -> &'static HashMap<&'static str, Asset> {
    static ASSETS: OnceLock<HashMap<&'static str, Asset>> = OnceLock::new();
    ASSETS.get_or_init(|| {
        let asset = |body: &'static [u8], content_type| Asset {
            body,
            content_type,
            version: format!("{:016x}", fnv1a(body)),
        };
        HashMap::from([
            (
                "style.css",
                asset(STYLE.as_bytes(), "text/css; charset=utf-8"),
            ),
            (
                "app.js",
                asset(SCRIPT.as_bytes(), "text/javascript; charset=utf-8"),
            ),
            (
                "urlkit.mjs",
                asset(URLKIT_MJS.as_bytes(), "text/javascript; charset=utf-8"),
            ),
            ("urlkit.wasm", asset(URLKIT_WASM, "application/wasm")),
        ])
    })
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn asset_url(name: &str) -> String {
    let version = assets().get(name).map(|a| a.version.as_str()).unwrap_or("");
    format!("/assets/{name}?v={version}")
}

/// `GET /assets/{name}`: the stylesheet, the script and live mode's WebAssembly module
/// with its loader, cached for a year (their URLs carry a
/// content hash). Unknown names are a 404.
pub async fn asset(Path(name): Path<String>) -> Response {
    match assets().get(name.as_str()) {
        Some(a) => (
            [
                (
                    header::CONTENT_TYPE,
                    HeaderValue::from_static(a.content_type),
                ),
                (
                    header::CACHE_CONTROL,
                    HeaderValue::from_static("public, max-age=31536000, immutable"),
                ),
            ],
            a.body,
        )
            .into_response(),
        None => crate::api::not_found().await.into_response(),
    }
}

/// What the page shows: the submitted fields and the results of the operation.
#[derive(Default)]
pub struct PageState {
    fields: HashMap<String, String>,
    op: Option<String>,
    codec: Option<Result<CodecResponse, ApiError>>,
    inspect: Option<Result<InspectResponse, ApiError>>,
    file: Option<Result<FileCreated, ApiError>>,
}

impl PageState {
    fn field(&self, name: &str) -> &str {
        self.fields.get(name).map(String::as_str).unwrap_or("")
    }

    fn on(&self, name: &str) -> bool {
        form_flag(name, self.field(name)).unwrap_or(false)
    }

    fn optional(&self, name: &str) -> Option<String> {
        Some(self.field(name).to_string()).filter(|v| !v.is_empty())
    }

    fn newline(&self) -> Option<String> {
        (self.field("newline") == "crlf").then(|| "crlf".to_string())
    }

    /// The page's form as an encode request. Its fields are the page's own (one charset
    /// list for both directions, per-line boxes for each), so they are read here rather
    /// than as an API form.
    fn encode_request(&self) -> EncodeRequest {
        let charset = self
            .optional("charset")
            .filter(|c| !c.eq_ignore_ascii_case("auto"));
        EncodeRequest {
            input: self.field("input").to_string(),
            settings: EncodeSettings {
                charset,
                set: self.optional("set"),
                safe: self.optional("safe"),
                unsafe_chars: self.optional("unsafe"),
                space_plus: self.on("space_plus"),
                lowercase: self.on("lowercase"),
                per_line: self.on("encode_per_line"),
                newline: self.newline(),
                strict: self.on("strict"),
                binary: false,
            },
        }
    }

    fn decode_request(&self) -> DecodeRequest {
        DecodeRequest {
            input: self.field("input").to_string(),
            settings: DecodeSettings {
                charset: self.optional("charset"),
                plus_space: self.on("plus_space"),
                keep_whitespace: self.on("keep_whitespace"),
                per_line: self.on("decode_per_line"),
                newline: self.newline(),
                strict: self.on("strict"),
                binary: false,
                until_stable: self.on("until_stable"),
                text: true,
            },
        }
    }
}

/// `GET /`: the page with its defaults.
pub async fn index() -> Html<String> {
    let mut state = PageState::default();
    state.fields.insert("live".into(), "on".into());
    Html(render(&state))
}

/// `POST /` (form post without JavaScript): runs `op` (`encode`, `decode` or `inspect`)
/// and renders the page with the result. Bad options are shown on the page with a 400; a
/// body that is not a form is a JSON 400.
pub async fn submit(
    form: Result<Form<Vec<(String, String)>>, axum::extract::rejection::FormRejection>,
) -> Response {
    let fields = match form {
        Ok(Form(fields)) => fields,
        Err(rejection) => {
            return ApiError::bad_request("bad-form", rejection.body_text()).into_response()
        }
    };
    let mut state = PageState {
        fields: fields.into_iter().collect(),
        ..PageState::default()
    };
    let op = state.field("op").to_string();
    match op.as_str() {
        "encode" => state.codec = Some(answer(state.encode_request().run())),
        "decode" => state.codec = Some(answer(state.decode_request().run())),
        "inspect" => {
            let request = crate::api::InspectRequest {
                url: state.field("url").to_owned(),
                base: state.optional("base"),
                ..Default::default()
            };
            state.inspect = Some(inspect_url(&request));
        }
        _ => {
            state.codec = Some(Err(ApiError::bad_request(
                "bad-op",
                "choose Encode, Decode or Inspect",
            )))
        }
    }
    state.op = Some(op);
    let failed = [
        state.codec.as_ref().map(|r| r.as_ref().err()),
        state.inspect.as_ref().map(|r| r.as_ref().err()),
    ]
    .into_iter()
    .flatten()
    .flatten()
    .map(|e| e.status)
    .next();
    let status = failed.unwrap_or(StatusCode::OK);
    (status, Html(render(&state))).into_response()
}

/// `POST /files` (form post without JavaScript): processes the upload like
/// `POST /api/files` and renders the page with the download link or the error.
pub async fn submit_file(
    State(app): State<AppState>,
    multipart: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Response {
    let result = match multipart {
        Ok(multipart) => process_upload(&app, multipart).await,
        Err(rejection) => Err(ApiError::from(rejection)),
    };
    let status = match &result {
        Ok(_) => StatusCode::CREATED,
        Err(e) => e.status,
    };
    let mut state = PageState::default();
    state.fields.insert("live".into(), "on".into());
    state.file = Some(result);
    (status, Html(render(&state))).into_response()
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

fn option(out: &mut String, value: &str, text: &str, selected: bool) {
    let _ = write!(
        out,
        "<option value=\"{}\"{}>{}</option>",
        escape(value),
        if selected { " selected" } else { "" },
        escape(text)
    );
}

fn charset_options(selected: &str) -> String {
    let selected = if selected.is_empty() {
        "UTF-8"
    } else {
        selected
    };
    let mut out = String::new();
    option(
        &mut out,
        "auto",
        "auto — detect (decoding)",
        selected.eq_ignore_ascii_case("auto"),
    );
    let chosen = Charset::for_label(selected).ok();
    for (charset, labels) in Charset::all() {
        let _ = write!(
            out,
            "<option value=\"{name}\" title=\"labels: {labels}\"{selected}>{name}</option>",
            name = escape(charset.name()),
            labels = escape(&labels.join(", ")),
            selected = if Some(charset) == chosen {
                " selected"
            } else {
                ""
            },
        );
    }
    out
}

fn set_options(selected: &str) -> String {
    let selected = if selected.is_empty() {
        "unreserved"
    } else {
        selected
    };
    let mut out = String::new();
    for (name, description) in EncodeSet::described() {
        option(
            &mut out,
            name,
            &format!("{name} — {description}"),
            name == selected,
        );
    }
    out
}

fn newline_options(selected: &str) -> String {
    let mut out = String::new();
    option(&mut out, "lf", "LF (\\n)", selected != "crlf");
    option(&mut out, "crlf", "CRLF (\\r\\n)", selected == "crlf");
    out
}

fn op_options(selected: &str) -> String {
    let mut out = String::new();
    option(&mut out, "encode", "Encode", selected != "decode");
    option(&mut out, "decode", "Decode", selected == "decode");
    out
}

fn error_html(error: &ApiError) -> String {
    let at = error
        .offset
        .map(|offset| format!(" (byte {offset})"))
        .unwrap_or_default();
    format!(
        "<p class=\"error\" role=\"alert\"><strong>{}</strong>: {}{at}</p>",
        escape(&error.code),
        escape(&error.message)
    )
}

fn diagnostics_html(list: &[Diagnostic], not_listed: u64) -> String {
    if list.is_empty() {
        return "<p class=\"quiet\">No findings.</p>".into();
    }
    let mut out = String::from("<ul class=\"findings\">");
    for d in list {
        let _ = write!(
            out,
            "<li><span class=\"pos\">byte {}</span> <code>{}</code> {}</li>",
            d.offset,
            escape(d.code.as_str()),
            escape(&d.message)
        );
    }
    if not_listed > 0 {
        let _ = write!(out, "<li>… and {not_listed} more</li>");
    }
    out.push_str("</ul>");
    out
}

fn codec_status(response: &CodecResponse) -> String {
    let mut parts = Vec::new();
    if let Some(d) = &response.detected {
        parts.push(format!(
            "Detected {} (confidence {:.0}%, {})",
            d.charset,
            d.confidence * 100.0,
            d.reason
        ));
    } else if let Some(c) = &response.charset {
        parts.push(format!("Character set: {c}"));
    }
    if let Some(layers) = &response.layers {
        parts.push(format!("{} layer(s) peeled", layers.len()));
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
            parts.push(format!("Other readings: {}", others.join(", ")));
        }
    }
    escape(&parts.join(" · "))
}

/// A JSON value as nested definition rows.
fn value_rows(out: &mut String, value: &serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            out.push_str("<table class=\"kv\"><tbody>");
            for (k, v) in map {
                if v.is_null() {
                    continue;
                }
                let _ = write!(out, "<tr><th scope=\"row\">{}</th><td>", escape(k));
                value_rows(out, v);
                out.push_str("</td></tr>");
            }
            out.push_str("</tbody></table>");
        }
        Value::Array(items) if items.is_empty() => {
            out.push_str("<span class=\"quiet\">none</span>")
        }
        Value::Array(items) => {
            out.push_str("<ol>");
            for item in items {
                out.push_str("<li>");
                value_rows(out, item);
                out.push_str("</li>");
            }
            out.push_str("</ol>");
        }
        Value::String(s) => {
            let _ = write!(out, "<code>{}</code>", escape(s));
        }
        other => {
            let _ = write!(out, "<code>{}</code>", escape(&other.to_string()));
        }
    }
}

fn inspect_html(result: &Result<InspectResponse, ApiError>) -> String {
    let r = match result {
        Ok(r) => r,
        Err(e) => return error_html(e),
    };
    let mut out = String::new();
    if let Some(resolved) = &r.resolved {
        let _ = write!(
            out,
            "<p>Resolved (RFC 3986 §5.2): <code>{}</code></p>",
            escape(resolved)
        );
    }
    let whatwg = r.whatwg.as_ref().and_then(|v| serde_json::to_value(v).ok());
    let rfc3986 = r
        .rfc3986
        .as_ref()
        .and_then(|v| serde_json::to_value(v).ok());
    out.push_str("<h3>WHATWG URL Standard (browsers)</h3>");
    view_html(&mut out, whatwg.as_ref(), r.whatwg_error.as_ref());
    out.push_str("<h3>RFC 3986 generic syntax</h3>");
    view_html(&mut out, rfc3986.as_ref(), r.rfc3986_error.as_ref());
    out
}

/// One view of an inspected URL: its components, or why it does not parse.
fn view_html(
    out: &mut String,
    view: Option<&serde_json::Value>,
    error: Option<&crate::api::ParseProblem>,
) {
    match (view, error) {
        (Some(v), _) => value_rows(out, v),
        (None, Some(e)) => {
            let _ = write!(
                out,
                "<p class=\"error\">byte {}: {}</p>",
                e.position,
                escape(&e.message)
            );
        }
        _ => {}
    }
}

fn file_html(result: &Result<FileCreated, ApiError>) -> String {
    match result {
        Err(e) => error_html(e),
        Ok(f) => format!(
            "<p>Result ready ({} bytes). <a class=\"download\" href=\"{}\" download>Download the result</a> \
             — it can be downloaded once, until {}.</p>{}",
            f.size,
            escape(&f.download),
            escape(&f.expires_at),
            diagnostics_html(&f.diagnostics, f.diagnostics_not_listed)
        ),
    }
}

/// The reference tables, built from the characters so the escapes cannot be mistyped.
fn reference_rows(chars: &[(&str, &str)]) -> String {
    let mut out = String::new();
    for (text, note) in chars {
        let escaped: String = text.bytes().map(|b| format!("%{b:02X}")).collect();
        let shown = match *text {
            " " => "space".to_string(),
            "\n" => "line feed".to_string(),
            "\r" => "carriage return".to_string(),
            "\t" => "tab".to_string(),
            t => t.to_string(),
        };
        let _ = write!(
            out,
            "<tr><td><code>{}</code></td><td><code>{}</code></td><td>{}</td></tr>",
            escape(&shown),
            escaped,
            escape(note)
        );
    }
    out
}

const RESERVED: &[(&str, &str)] = &[
    (":", "gen-delim: after the scheme, before the port"),
    ("/", "gen-delim: path segments"),
    ("?", "gen-delim: starts the query"),
    ("#", "gen-delim: starts the fragment"),
    ("[", "gen-delim: around IPv6 literals"),
    ("]", "gen-delim: around IPv6 literals"),
    ("@", "gen-delim: ends the userinfo"),
    ("!", "sub-delim"),
    ("$", "sub-delim"),
    ("&", "sub-delim: separates query parameters"),
    ("'", "sub-delim"),
    ("(", "sub-delim"),
    (")", "sub-delim"),
    ("*", "sub-delim"),
    ("+", "sub-delim: a space in form data"),
    (",", "sub-delim"),
    (";", "sub-delim: parameter separator in some schemes"),
    ("=", "sub-delim: separates name and value"),
];

const COMMON: &[(&str, &str)] = &[
    (" ", "+ in form data (application/x-www-form-urlencoded)"),
    ("\"", "quotation mark"),
    ("%", "the escape character itself"),
    ("<", "less-than"),
    (">", "greater-than"),
    ("\\", "backslash"),
    ("^", "caret"),
    ("`", "grave accent"),
    ("{", "left brace"),
    ("|", "vertical bar"),
    ("}", "right brace"),
    ("\n", "line feed"),
    ("\r", "carriage return"),
    ("\t", "tab"),
    ("é", "UTF-8: two bytes"),
    ("€", "UTF-8: three bytes"),
    ("引", "UTF-8: three bytes"),
    ("😀", "UTF-8: four bytes"),
];

/// Fills the template: `{{name}}` placeholders, `{{value:FIELD}}` (escaped field value) and
/// `{{checked:FIELD}}` (` checked` when the checkbox was on).
pub fn render(state: &PageState) -> String {
    let mut out = String::with_capacity(TEMPLATE.len() + 32 * 1024);
    let mut rest = TEMPLATE;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let Some(len) = rest[start..].find("}}") else {
            break;
        };
        let key = &rest[start + 2..start + len];
        out.push_str(&fill(state, key));
        rest = &rest[start + len + 2..];
    }
    out.push_str(rest);
    out
}

fn fill(state: &PageState, key: &str) -> String {
    if let Some(field) = key.strip_prefix("value:") {
        return escape(state.field(field));
    }
    if let Some(field) = key.strip_prefix("checked:") {
        return if state.on(field) {
            " checked".into()
        } else {
            String::new()
        };
    }
    let codec_ok = state.codec.as_ref().and_then(|r| r.as_ref().ok());
    match key {
        "css" => asset_url("style.css"),
        "js" => asset_url("app.js"),
        "mjs" => asset_url("urlkit.mjs"),
        "wasm" => asset_url("urlkit.wasm"),
        "charset_options" => charset_options(state.field("charset")),
        "set_options" => set_options(state.field("set")),
        "newline_options" => newline_options(state.field("newline")),
        "file_op_options" => op_options(state.field("file_op")),
        "op" => escape(
            state
                .op
                .as_deref()
                .filter(|o| *o == "decode")
                .unwrap_or("encode"),
        ),
        "output" => codec_ok.map(|r| escape(&r.output)).unwrap_or_default(),
        "status" => codec_ok.map(codec_status).unwrap_or_default(),
        "diagnostics" => match &state.codec {
            Some(Ok(r)) => diagnostics_html(&r.diagnostics, r.diagnostics_not_listed),
            Some(Err(e)) => error_html(e),
            None => String::new(),
        },
        "inspect_result" => state.inspect.as_ref().map(inspect_html).unwrap_or_default(),
        "file_result" => state.file.as_ref().map(file_html).unwrap_or_default(),
        "reserved_rows" => reference_rows(RESERVED),
        "common_rows" => reference_rows(COMMON),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_covers_markup_characters() {
        assert_eq!(
            escape("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn template_has_no_unknown_placeholders() {
        let mut state = PageState::default();
        state.fields.insert("live".into(), "on".into());
        let page = render(&state);
        assert!(!page.contains("{{"), "unfilled placeholder");
        assert!(page.contains("Shift_JIS"));
        assert!(page.contains("%E2%82%AC"));
    }
}
