//! The page: rendered on the server in the reader's language, so every operation works as a
//! plain form post without JavaScript; `assets/app.js` makes the same page answer as you
//! type, with live mode's codec in a worker (`assets/worker.js`).
//!
//! | module | concept |
//! |---|---|
//! | this one | the page's handlers: what a visit or a form post runs, and the page's state |
//! | `assets` | the stylesheet, scripts and WebAssembly module, embedded, served with content hashes |
//! | `render` | the template filled in the reader's language: options, reference tables, language switch |
//! | `view` | reports of the library (findings, URL parts) as HTML fragments |

mod assets;
mod render;
pub mod view;

pub use assets::{asset, licenses, THIRD_PARTY_NOTICES};
pub use render::language_links_to;
use render::render;

use crate::api::answer;
use crate::api::{inspect_url, process_upload, FileCreated, InspectRequest, InspectResponse};
use crate::error::ApiError;
use crate::i18n::{language, remember_language, Catalog, Lang};
use crate::ratelimit::Client;
use crate::AppState;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Multipart, RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use std::collections::HashMap;
use std::convert::Infallible;
use urlkit::settings::{Setting, Source};
use urlkit::{DecodeSettings, EncodeSettings};
use urlkit_api::{form_flag, CodecResponse, DecodeRequest, EncodeRequest};

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
