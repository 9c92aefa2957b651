//! The page: rendered on the server in the reader's language, so every operation works as a
//! plain form post without JavaScript; `assets/app.js` makes the same page answer as you
//! type, with live mode's codec in a worker (`assets/worker.js`).

use crate::api::answer;
use crate::api::{inspect_url, process_upload, FileCreated, InspectRequest, InspectResponse};
use crate::error::ApiError;
use crate::i18n::{Catalog, Lang};
use crate::ratelimit::Client;
use crate::view::{self, escape};
use crate::AppState;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Multipart, Path, RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use std::collections::HashMap;
use std::convert::Infallible;
use std::fmt::Write as _;
use std::sync::OnceLock;
use urlkit::settings::{Setting, Source};
use urlkit::{Charset, EncodeSet};
use urlkit::{DecodeSettings, EncodeSettings};
use urlkit_api::shown::{human_size, COMPONENTS};
use urlkit_api::{form_flag, CodecResponse, DecodeRequest, EncodeRequest};

const TEMPLATE: &str = include_str!("assets/index.html");
const STYLE: &str = include_str!("assets/style.css");
const SCRIPT: &str = include_str!("assets/app.js");
const WORKER: &str = include_str!("assets/worker.js");
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
        let script = "text/javascript; charset=utf-8";
        HashMap::from([
            (
                "style.css",
                asset(STYLE.as_bytes(), "text/css; charset=utf-8"),
            ),
            ("app.js", asset(SCRIPT.as_bytes(), script)),
            ("worker.js", asset(WORKER.as_bytes(), script)),
            ("urlkit.mjs", asset(URLKIT_MJS.as_bytes(), script)),
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

/// `GET /assets/{name}`: the stylesheet, the script, live mode's worker and WebAssembly
/// module with its loader, cached for a year (their URLs carry a content hash). Unknown
/// names are a 404.
pub async fn asset(
    name: Result<Path<String>, axum::extract::rejection::PathRejection>,
) -> Response {
    // A name that is not even text (`%ff`) names no asset either.
    let name = name.map(|Path(name)| name).unwrap_or_default();
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

/// The direction the codec form ran, or will run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Direction {
    /// Nothing chosen yet: the page's script picks one from the input.
    #[default]
    Auto,
    Encode,
    Decode,
}

impl Direction {
    fn named(name: &str) -> Direction {
        match name {
            "encode" => Direction::Encode,
            "decode" => Direction::Decode,
            _ => Direction::Auto,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Direction::Auto => "auto",
            Direction::Encode => "encode",
            Direction::Decode => "decode",
        }
    }
}

/// The codec form's fields read as the settings of one direction. A box that is not a
/// yes or no counts as off, and a newline other than `crlf` as the default, as the page
/// offers no other values.
struct FormSettings<'a> {
    page: &'a PageState,
    direction: Direction,
}

impl Source for FormSettings<'_> {
    type Error = Infallible;

    fn text(&mut self, setting: Setting) -> Result<Option<String>, Infallible> {
        let value = self.page.optional(setting.name());
        Ok(match setting {
            Setting::Newline => value.filter(|v| v == "crlf"),
            // The list offers `auto` for decoding; text to encode is UTF-8 then.
            Setting::Charset if self.direction == Direction::Encode => {
                value.filter(|c| !c.eq_ignore_ascii_case("auto"))
            }
            _ => value,
        })
    }

    fn switch(&mut self, setting: Setting) -> Result<bool, Infallible> {
        Ok(match (setting, self.direction) {
            (Setting::PerLine, Direction::Encode) => self.page.on("encode_per_line"),
            (Setting::PerLine, _) => self.page.on("decode_per_line"),
            _ => self.page.on(setting.name()),
        })
    }
}

/// What the page shows: the submitted fields and the results of the operation.
pub struct PageState {
    fields: HashMap<String, String>,
    lang: Lang,
    direction: Direction,
    /// The largest text body and the largest upload the server takes, in bytes.
    text_limit: u64,
    upload_limit: u64,
    codec: Option<Result<CodecResponse, ApiError>>,
    inspect: Option<Result<InspectResponse, ApiError>>,
    file: Option<Result<FileCreated, ApiError>>,
}

impl PageState {
    fn new(lang: Lang, upload_limit: u64) -> Self {
        PageState {
            fields: HashMap::new(),
            lang,
            direction: Direction::Auto,
            text_limit: crate::limits::TEXT_LIMIT as u64,
            upload_limit,
            codec: None,
            inspect: None,
            file: None,
        }
    }

    fn catalog(&self) -> &'static Catalog {
        self.lang.catalog()
    }

    fn field(&self, name: &str) -> &str {
        self.fields.get(name).map(String::as_str).unwrap_or("")
    }

    fn on(&self, name: &str) -> bool {
        form_flag(name, self.field(name)).unwrap_or(false)
    }

    fn optional(&self, name: &str) -> Option<String> {
        Some(self.field(name).to_string()).filter(|v| !v.is_empty())
    }

    /// The page's form as an encode request. Its fields are the settings' own names but
    /// for one charset list for both directions and a per-line box for each.
    fn encode_request(&self) -> EncodeRequest {
        let Ok(settings) = EncodeSettings::read(&mut FormSettings {
            page: self,
            direction: Direction::Encode,
        });
        EncodeRequest {
            input: self.field("input").to_string(),
            settings,
        }
    }

    fn decode_request(&self) -> DecodeRequest {
        let Ok(settings) = DecodeSettings::read(&mut FormSettings {
            page: self,
            direction: Direction::Decode,
        });
        DecodeRequest {
            input: self.field("input").to_string(),
            // Typed characters: literal ones stay as they are.
            settings: DecodeSettings {
                text: true,
                ..settings
            },
        }
    }

    /// Runs the codec form in `direction`.
    fn run(&mut self, direction: Direction) {
        self.direction = direction;
        self.codec = Some(match direction {
            Direction::Decode => answer(self.decode_request().run()),
            _ => answer(self.encode_request().run()),
        });
    }

    /// The inspect form as a request: the URL and base, and for `inspect-set`,
    /// `inspect-clear` and `inspect-query` the edit asked for.
    fn inspect_request(&self, op: &str) -> InspectRequest {
        let mut request = InspectRequest {
            url: self.field("url").to_string(),
            base: self.optional("base"),
            ..InspectRequest::default()
        };
        let component = self.field("edit_component").to_string();
        match op {
            "inspect-set" => request.set = vec![(component, self.field("edit_value").to_string())],
            "inspect-clear" => request.clear = vec![component],
            "inspect-query" => {
                request.append_query = self.optional("append_query").into_iter().collect();
                request.trim_query = self.optional("trim_query").into_iter().collect();
                request.sort_query = self.on("sort_query");
            }
            _ => {}
        }
        request
    }

    /// Runs the inspect form: the library through the API's checks, as `POST /api/inspect`
    /// does, without a request of its own.
    fn run_inspect(&mut self, op: &str) {
        self.inspect = Some(inspect_url(&self.inspect_request(op)));
    }
}

/// The language of a request, and whether it was chosen with the switch (`?lang=`), which
/// the answer then remembers in a cookie ([`remember_language`]).
pub fn language(query: Option<&str>, headers: &HeaderMap) -> (Lang, Option<Lang>) {
    let asked = query.and_then(|q| {
        urlkit::codec::parse_form(q.as_bytes())
            .into_iter()
            .find(|(name, _)| name == "lang")
            .and_then(|(_, value)| Lang::from_tag(&value))
    });
    let cookie = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == crate::i18n::COOKIE)
        .map(|(_, value)| value);
    let accept = headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok());
    let lang = Lang::choose(asked.map(Lang::tag), cookie, accept);
    (lang, asked)
}

/// The page as an answer: its language named, cached per language, and a language chosen
/// with the switch remembered for a year.
fn page_response(
    status: StatusCode,
    state: &PageState,
    chosen: Option<Lang>,
    tls: bool,
) -> Response {
    let mut response = (status, Html(render(state))).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_LANGUAGE,
        HeaderValue::from_static(state.lang.tag()),
    );
    headers.insert(
        header::VARY,
        HeaderValue::from_static("accept-language, cookie"),
    );
    remember_language(headers, chosen, tls);
    response
}

/// Remembers a language chosen with the switch for a year (nothing when none was chosen).
pub fn remember_language(headers: &mut HeaderMap, chosen: Option<Lang>, tls: bool) {
    if let Some(lang) = chosen {
        let cookie = format!(
            "{}={}; Path=/; Max-Age=31536000; SameSite=Lax{}",
            crate::i18n::COOKIE,
            lang.tag(),
            if tls { "; Secure" } else { "" }
        );
        if let Ok(value) = HeaderValue::from_str(&cookie) {
            headers.append(header::SET_COOKIE, value);
        }
    }
}

/// `GET /`: the page with its defaults, in the language of `?lang=`, the remembered choice
/// or `Accept-Language`.
pub async fn index(
    State(app): State<AppState>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let (lang, chosen) = language(query.as_deref(), &headers);
    let mut state = PageState::new(lang, app.max_upload());
    state.fields.insert("live".into(), "on".into());
    page_response(StatusCode::OK, &state, chosen, app.tls())
}

/// `POST /` (form post without JavaScript): runs `op` (`encode`, `decode`, `swap`, which
/// decodes or encodes the last output the other way, `decode-per-line`, `inspect` and the
/// inspector's edits) and renders the page with the result. Bad options are shown on the
/// page with a 400, a body over the limit with a 413; a body that is not a form is a JSON
/// 400.
pub async fn submit(
    State(app): State<AppState>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let (lang, _) = language(query.as_deref(), &headers);
    let mut state = PageState::new(lang, app.max_upload());
    let body = match body {
        Ok(body) => body,
        Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            state.codec = Some(Err(ApiError::too_large(rejection.body_text())));
            return page_response(StatusCode::PAYLOAD_TOO_LARGE, &state, None, app.tls());
        }
        Err(rejection) => {
            return ApiError::bad_request("bad-form", rejection.body_text()).into_response()
        }
    };
    state.fields = match form_fields(&headers, &body) {
        Ok(fields) => fields,
        Err(error) => return error.into_response(),
    };
    let op = state.field("op").to_string();
    match op.as_str() {
        "encode" => state.run(Direction::Encode),
        "decode" => state.run(Direction::Decode),
        "swap" => {
            let output = state.field("output").to_string();
            state.fields.insert("input".into(), output);
            let reverse = match Direction::named(state.field("direction")) {
                Direction::Encode => Direction::Decode,
                _ => Direction::Encode,
            };
            state.run(reverse);
        }
        "decode-per-line" => {
            state.fields.insert("decode_per_line".into(), "on".into());
            state.run(Direction::Decode);
        }
        "inspect" | "inspect-set" | "inspect-clear" | "inspect-query" => state.run_inspect(&op),
        _ => {
            state.codec = Some(Err(ApiError::bad_request(
                "bad-op",
                "choose Encode, Decode or Inspect",
            )))
        }
    }
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
    page_response(status, &state, None, app.tls())
}

/// The most fields a page form may carry; the page's own forms send about thirty.
pub const MAX_FORM_FIELDS: usize = 256;

/// The fields of a form post, the last of a name winning. A body that is not
/// `application/x-www-form-urlencoded`, or that has more than [`MAX_FORM_FIELDS`] fields,
/// is a `bad-form` 400; the fields are counted as they are read, so a form of millions of
/// empty fields costs no more memory than its bytes.
fn form_fields(headers: &HeaderMap, body: &[u8]) -> Result<HashMap<String, String>, ApiError> {
    let media_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .map(|value| value.split(';').next().unwrap_or("").trim());
    if !media_type.is_some_and(|m| m.eq_ignore_ascii_case("application/x-www-form-urlencoded")) {
        return Err(ApiError::bad_request(
            "bad-form",
            "the page takes a form: send `Content-Type: application/x-www-form-urlencoded`",
        ));
    }
    let mut fields = HashMap::new();
    for (count, (name, value)) in form_urlencoded::parse(body).enumerate() {
        if count == MAX_FORM_FIELDS {
            return Err(ApiError::bad_request(
                "bad-form",
                format!("the form has more than {MAX_FORM_FIELDS} fields; the page sends about 30"),
            ));
        }
        fields.insert(name.into_owned(), value.into_owned());
    }
    Ok(fields)
}

/// `POST /files` (form post without JavaScript): processes the upload like
/// `POST /api/files` and renders the page with the download link or the error.
pub async fn submit_file(
    State(app): State<AppState>,
    Client(client): Client,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    multipart: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Response {
    let (lang, _) = language(query.as_deref(), &headers);
    let result = match multipart {
        Ok(multipart) => process_upload(&app, client, multipart).await,
        Err(rejection) => Err(ApiError::from(rejection)),
    };
    let status = match &result {
        Ok(_) => StatusCode::CREATED,
        Err(e) => e.status,
    };
    let mut state = PageState::new(lang, app.max_upload());
    state.fields.insert("live".into(), "on".into());
    state.file = Some(result);
    page_response(status, &state, None, app.tls())
}

/// The page's answer to a form (`POST /`) or a file (`POST /files`) whose
/// `Content-Length` is over the route's limit, given before any of the body is read: the
/// page in the reader's language with the limit named and the way around it (Files for
/// text, live mode for a file). `message` is the detail kept for the JSON body's readers.
pub fn refuse_too_large(
    app: &AppState,
    query: Option<&str>,
    headers: &HeaderMap,
    file: bool,
    message: String,
) -> Response {
    let (lang, _) = language(query, headers);
    let mut state = PageState::new(lang, app.max_upload());
    state.fields.insert("live".into(), "on".into());
    if file {
        state.file = Some(Err(ApiError::too_large(message)));
    } else {
        state.codec = Some(Err(ApiError::too_large(message)));
    }
    page_response(StatusCode::PAYLOAD_TOO_LARGE, &state, None, app.tls())
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

/// The charset list. `first`, when given, is an extra first entry (value and label): files
/// offer "bytes as they are" there.
fn charset_options(selected: &str, t: &Catalog, first: Option<(&str, &str)>) -> String {
    let mut out = String::new();
    let selected = match (selected, first) {
        ("", Some((value, _))) => value,
        ("", None) => "UTF-8",
        (s, _) => s,
    };
    if let Some((value, label)) = first {
        option(&mut out, value, label, selected == value);
    }
    option(
        &mut out,
        "auto",
        &t.text("charset-auto"),
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

fn op_options(selected: &str, t: &Catalog) -> String {
    let mut out = String::new();
    option(&mut out, "encode", &t.text("encode"), selected != "decode");
    option(&mut out, "decode", &t.text("decode"), selected == "decode");
    out
}

fn component_options(selected: &str, t: &Catalog) -> String {
    let mut out = String::new();
    for name in COMPONENTS {
        option(
            &mut out,
            name,
            &t.text(&format!("part-{name}")),
            name == selected || (selected.is_empty() && name == "host"),
        );
    }
    out
}

/// The switch: each language named in itself, the current one marked.
fn language_links(current: Lang) -> String {
    language_links_to("/", current)
}

/// The switch on the page at `path`.
pub fn language_links_to(path: &str, current: Lang) -> String {
    let path = escape(path);
    let mut out = String::new();
    for lang in Lang::ALL {
        let _ = write!(
            out,
            "<a href=\"{path}?lang={tag}\" hreflang=\"{tag}\" lang=\"{tag}\" dir=\"{dir}\"{current}>{name}</a>",
            tag = lang.tag(),
            dir = lang.dir(),
            current = if lang == current {
                " aria-current=\"true\""
            } else {
                ""
            },
            name = escape(&lang.catalog().text("language-name")),
        );
    }
    out
}

/// The reference tables, built from the characters so the escapes cannot be mistyped.
fn reference_rows(chars: &[(&str, &str)], t: &Catalog) -> String {
    let mut out = String::new();
    for (text, note) in chars {
        let escaped: String = text.bytes().map(|b| format!("%{b:02X}")).collect();
        let shown = match *text {
            " " => t.text("ref-space"),
            "\n" => t.text("ref-line-feed"),
            "\r" => t.text("ref-carriage-return"),
            "\t" => t.text("ref-tab"),
            c => c.to_string(),
        };
        let literal = text.chars().all(|c| !c.is_whitespace());
        let _ = write!(
            out,
            "<tr><td{dir}><code class=\"char\">{}</code></td><td dir=\"ltr\"><code>{}</code></td><td>{}</td></tr>",
            escape(&shown),
            escaped,
            escape(&t.text(note)),
            dir = if literal { " dir=\"ltr\"" } else { "" },
        );
    }
    out
}

const RESERVED: &[(&str, &str)] = &[
    (":", "ref-after-scheme"),
    ("/", "ref-path-segments"),
    ("?", "ref-starts-query"),
    ("#", "ref-starts-fragment"),
    ("[", "ref-ipv6"),
    ("]", "ref-ipv6"),
    ("@", "ref-ends-userinfo"),
    ("!", "ref-sub-delim"),
    ("$", "ref-sub-delim"),
    ("&", "ref-separates-parameters"),
    ("'", "ref-sub-delim"),
    ("(", "ref-sub-delim"),
    (")", "ref-sub-delim"),
    ("*", "ref-sub-delim"),
    ("+", "ref-space-in-form"),
    (",", "ref-sub-delim"),
    (";", "ref-parameter-separator"),
    ("=", "ref-name-value"),
];

const COMMON: &[(&str, &str)] = &[
    (" ", "ref-plus-in-form"),
    ("\"", "ref-quotation-mark"),
    ("%", "ref-escape-character"),
    ("<", "ref-less-than"),
    (">", "ref-greater-than"),
    ("\\", "ref-backslash"),
    ("^", "ref-caret"),
    ("`", "ref-grave"),
    ("{", "ref-left-brace"),
    ("|", "ref-vertical-bar"),
    ("}", "ref-right-brace"),
    ("\n", "ref-line-feed"),
    ("\r", "ref-carriage-return"),
    ("\t", "ref-tab"),
    ("é", "ref-utf8-two"),
    ("€", "ref-utf8-three"),
    ("引", "ref-utf8-three"),
    ("😀", "ref-utf8-four"),
];

/// Fills the template: `{{name}}` placeholders, `{{t:ID}}` (a message, escaped),
/// `{{html:ID}}` (a message holding markup, as it is), `{{value:FIELD}}` (escaped field
/// value), `{{checked:FIELD}}` (` checked` when the checkbox was on) and
/// `{{pressed:DIRECTION}}`.
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
    let t = state.catalog();
    if let Some(id) = key.strip_prefix("t:") {
        return escape(&t.text(id));
    }
    if let Some(id) = key.strip_prefix("html:") {
        return t.text(id);
    }
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
    if let Some(direction) = key.strip_prefix("pressed:") {
        return (state.direction.name() == direction).to_string();
    }
    let codec_ok = state.codec.as_ref().and_then(|r| r.as_ref().ok());
    let lang_query = format!("?lang={}", state.lang.tag());
    match key {
        "lang" => state.lang.tag().into(),
        "dir" => state.lang.dir().into(),
        "css" => asset_url("style.css"),
        "js" => asset_url("app.js"),
        "mjs" => asset_url("urlkit.mjs"),
        "wasm" => asset_url("urlkit.wasm"),
        "worker" => asset_url("worker.js"),
        "messages" => t.for_script().to_string(),
        // What the page's script shows without asking the WebAssembly module: the limits
        // as the server names them, the URL's components, how many findings come first.
        "text_limit_shown" => human_size(state.text_limit),
        "upload_limit_shown" => human_size(state.upload_limit),
        "components" => COMPONENTS.join(" "),
        "first_findings" => view::FIRST_FINDINGS.to_string(),
        "language_links" => language_links(state.lang),
        "form_action" => format!("/{lang_query}"),
        "lang_query" => lang_query,
        "op" => state.direction.name().into(),
        "direction_note" => escape(&t.text(match state.direction {
            Direction::Auto => "direction-auto",
            Direction::Encode => "direction-encode",
            Direction::Decode => "direction-decode",
        })),
        "input_kind" | "output_kind" => {
            let encoded = (key == "input_kind") == (state.direction == Direction::Decode);
            match state.direction {
                Direction::Auto => String::new(),
                _ => escape(&t.text(if encoded { "kind-encoded" } else { "kind-text" })),
            }
        }
        "charset_options" => charset_options(state.field("charset"), t, None),
        "file_charset_options" => {
            let bytes = t.text("file-charset-bytes");
            charset_options("", t, Some(("", &bytes)))
        }
        "set_options" => set_options(state.field("set")),
        "newline_options" => newline_options(state.field("newline")),
        "file_op_options" => op_options(state.field("file_op"), t),
        "component_options" => component_options(state.field("edit_component"), t),
        "output" => codec_ok.map(|r| escape(&r.output)).unwrap_or_default(),
        "status" => codec_ok
            .map(|r| view::codec_status(r, t))
            .unwrap_or_default(),
        "diagnostics" => match &state.codec {
            Some(Ok(r)) => view::findings(
                &r.diagnostics,
                r.diagnostics_not_listed,
                &r.diagnostic_counts,
                t,
            ),
            Some(Err(e)) => view::error(e, t, view::Limits::text(state.text_limit)),
            None => String::new(),
        },
        "inspect_result" => state
            .inspect
            .as_ref()
            .map(|r| view::inspected(r, t))
            .unwrap_or_default(),
        "file_result" => state
            .file
            .as_ref()
            .map(|r| view::file(r, t, view::Limits::upload(state.upload_limit)))
            .unwrap_or_default(),
        "reserved_rows" => reference_rows(RESERVED, t),
        "common_rows" => reference_rows(COMMON, t),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(lang: Lang) -> PageState {
        let mut state = PageState::new(lang, 1 << 20);
        state.fields.insert("live".into(), "on".into());
        state
    }

    #[test]
    fn escape_covers_markup_characters() {
        assert_eq!(
            escape("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn the_template_is_filled_in_every_language() {
        for lang in Lang::ALL {
            let page = render(&state(lang));
            assert!(!page.contains("{{"), "unfilled placeholder ({lang:?})");
            assert!(page.contains("Shift_JIS"));
            assert!(page.contains("%E2%82%AC"));
            assert!(page.contains(&format!(
                "<html lang=\"{}\" dir=\"{}\">",
                lang.tag(),
                lang.dir()
            )));
        }
    }

    #[test]
    fn every_message_the_template_names_is_in_the_catalog() {
        let ids = Lang::En.catalog().ids();
        let mut rest = TEMPLATE;
        let mut named = 0;
        while let Some(start) = rest.find("{{") {
            let end = rest[start..].find("}}").expect("closed placeholder") + start;
            let key = &rest[start + 2..end];
            if let Some(id) = key.strip_prefix("t:") {
                assert!(ids.contains(&id) && !id.ends_with("-html"), "{key}");
                named += 1;
            } else if let Some(id) = key.strip_prefix("html:") {
                assert!(ids.contains(&id) && id.ends_with("-html"), "{key}");
            }
            rest = &rest[end..];
        }
        assert!(named > 40, "{named}");
    }

    #[test]
    fn every_message_the_scripts_name_is_in_the_catalog() {
        let ids = Lang::En.catalog().ids();
        let mut named = 0;
        for script in [SCRIPT, WORKER] {
            // Calls `t("id"` (not the ends of longer names such as `select("`).
            for (at, _) in script.match_indices("t(\"") {
                if script[..at]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == '$')
                {
                    continue;
                }
                let rest = &script[at + 3..];
                let id = &rest[..rest.find('"').expect("closed string")];
                assert!(ids.contains(&id), "{id}");
                named += 1;
            }
        }
        assert!(named > 20, "{named}");
    }
}
