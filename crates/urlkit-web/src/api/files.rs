//! `POST /api/files` and `GET /api/files/{id}`: an upload streamed through the codec into
//! the result store, taking a slot per client and keeping a pace; the result downloaded
//! once under a safe name.

use super::file_options::{FileOptions, Op};
use super::health::method_not_allowed;
use crate::error::{ApiError, ErrorBody};
use crate::ratelimit::Client;
use crate::store::ResultId;
use crate::{AppState, SlotRefused};
use axum::body::Body;
use axum::extract::multipart::MultipartRejection;
use axum::extract::{Multipart, Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use std::net::IpAddr;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use urlkit::Diagnostic;
use urlkit_api::shown::{clean_name, result_name, NAMELESS};
use utoipa::ToSchema;

/// A stored result, downloadable once.
#[derive(Debug, Serialize, ToSchema)]
pub struct FileCreated {
    /// The result's unguessable id.
    pub id: String,
    /// Where to download it, once.
    pub download: String,
    /// When it is deleted if nobody downloads it (RFC 3339, UTC).
    pub expires_at: String,
    /// Size of the result in bytes.
    pub size: u64,
    /// Findings while processing, the first ones (at most 10,000).
    pub diagnostics: Vec<Diagnostic>,
    /// Findings beyond the listed ones, counted only.
    pub diagnostics_not_listed: u64,
    /// How many findings of each code, listed or not, the most frequent first.
    pub diagnostic_counts: Vec<urlkit_api::CodeCount>,
    /// The name the download is saved under: the upload's, marked with what was done
    /// (`report.csv` → `report.decoded.csv`).
    pub name: String,
}

/// The multipart form of `POST /api/files` (for the OpenAPI document).
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct FileUpload {
    /// `encode` or `decode`; must come before `file`.
    op: Op,
    /// A charset (`auto` too, for decoding): encoding reads the file as UTF-8 text and
    /// writes the charset's bytes, decoding reads the decoded bytes in the charset and
    /// writes UTF-8. Without it the file's bytes are escaped or decoded as they are.
    charset: Option<String>,
    /// Encode set (encode).
    set: Option<String>,
    /// Characters to keep literal too (encode).
    safe: Option<String>,
    /// Characters to escape too (encode).
    #[schema(rename = "unsafe")]
    unsafe_chars: Option<String>,
    /// Space as `+` (encode).
    space_plus: Option<bool>,
    /// Lower-case hex (encode).
    lowercase: Option<bool>,
    /// `+` as space (decode).
    plus_space: Option<bool>,
    /// Keep unencoded whitespace (decode).
    keep_whitespace: Option<bool>,
    /// Each line is an entry.
    per_line: Option<bool>,
    /// Separator in per-line mode: `lf` (default) or `crlf`.
    newline: Option<String>,
    /// Reject bad input (422) instead of repairing it.
    strict: Option<bool>,
    /// The file. Must be the last field; its name, marked with what was done, names the
    /// download.
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
}

/// Encodes or decodes an uploaded file as bytes, streaming it to the result store. The
/// upload itself is never stored; the result is downloadable once.
#[utoipa::path(
    post, path = "/api/files", tag = "files",
    request_body(content = FileUpload, content_type = "multipart/form-data"),
    responses(
        (status = 201, description = "Stored; download it once", body = FileCreated),
        (status = 400, description = "Bad form", body = ErrorBody),
        (status = 408, description = "The body sent nothing for the idle timeout, or the file arrived slower than 1 KiB/s; nothing kept", body = ErrorBody),
        (status = 413, description = "Larger than the upload limit; nothing kept", body = ErrorBody),
        (status = 422, description = "Rejected in strict mode; nothing kept", body = ErrorBody),
        (status = 429, description = "This client has a quarter of the server's uploads in progress; `Retry-After`", body = ErrorBody),
        (status = 503, description = "As many uploads in progress as the server takes; `Retry-After`", body = ErrorBody),
        (status = 507, description = "The result store is full; nothing kept", body = ErrorBody),
    )
)]
pub async fn upload_file(
    State(state): State<AppState>,
    Client(client): Client,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<(StatusCode, Json<FileCreated>), ApiError> {
    let created = process_upload(&state, client, multipart?).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// Reads the form, streams the file through the codec into the store. Options must come
/// before the file; a missing file or op is a 400, a file larger than the limit a 413,
/// a strict-mode finding a 422, and in each case nothing is kept. The upload takes one of
/// the server's slots once the file's first bytes arrive: when all are taken it is a 503,
/// when `client` holds its share a 429, both with `Retry-After`; a file that then arrives
/// slower than [`MIN_UPLOAD_RATE`](crate::MIN_UPLOAD_RATE) is a 408.
pub async fn process_upload(
    state: &AppState,
    client: IpAddr,
    mut multipart: Multipart,
) -> Result<FileCreated, ApiError> {
    let mut op = None;
    let mut options = FileOptions::default();
    while let Some(mut field) = multipart.next_field().await? {
        let name = field.name().unwrap_or_default().to_string();
        if name != "file" {
            let value = small_field(&mut field, &name).await?;
            if name == "op" {
                op = Some(Op::parse(&value)?);
            } else {
                options.set(&name, &value)?;
            }
            continue;
        }
        let op = op.ok_or_else(|| {
            ApiError::bad_request(
                "missing-op",
                "the `op` field (encode or decode) must come before `file`",
            )
        })?;
        let name = result_name(&form_file_name(field.file_name().unwrap_or("")), op.done());
        let mut codec = options.codec(op)?;
        let id = ResultId::random().map_err(|e| ApiError::internal("cannot make an id", e))?;
        let store = state.store();
        let stored = |e: std::io::Error| {
            if e.kind() != std::io::ErrorKind::StorageFull {
                state.metrics().store_error("write");
            }
            ApiError::storage(e)
        };
        // The slot is taken once the file's first bytes are in, and held until the result
        // is stored or refused; from then on the file must keep arriving.
        let first = field.chunk().await?;
        let _slot = upload_slot(state, client)?;
        let mut pace = Pace::new(state.upload_window());
        let mut writer = store.create(&id).await.map_err(stored)?;
        let processed: Result<u64, ApiError> = async {
            let mut received: u64 = 0;
            let mut written: u64 = 0;
            let mut out = Vec::with_capacity(256 * 1024);
            let mut next = Some(first);
            loop {
                let chunk = match next.take() {
                    Some(chunk) => chunk,
                    None => pace.next_chunk(&mut field).await?,
                };
                out.clear();
                match &chunk {
                    Some(bytes) => {
                        received += bytes.len() as u64;
                        if received > state.max_upload() {
                            return Err(too_large(state.max_upload()));
                        }
                        codec.feed(bytes, &mut out)
                    }
                    None => codec.finish(&mut out),
                }
                .map_err(|rejection| ApiError::rejected(&rejection.0))?;
                writer.write_all(&out).await.map_err(stored)?;
                written += out.len() as u64;
                if chunk.is_none() {
                    break;
                }
            }
            writer.shutdown().await.map_err(stored)?;
            Ok(written)
        }
        .await;
        drop(writer);
        let size = match processed {
            Ok(size) => size,
            Err(e) => {
                let _ = store.discard(&id).await;
                return Err(e);
            }
        };
        drop(field);
        // A field after the file is refused, so no option is silently ignored.
        let extra = match multipart.next_field().await {
            Ok(None) => None,
            Ok(Some(extra)) => Some(ApiError::bad_request(
                "field-after-file",
                format!(
                    "field {:?} comes after `file`; options must come first",
                    extra.name().unwrap_or_default()
                ),
            )),
            Err(e) => Some(ApiError::from(e)),
        };
        if let Some(error) = extra {
            let _ = store.discard(&id).await;
            return Err(error);
        }
        store.commit(&id).await.map_err(stored)?;
        state.metrics().results_stored.inc();
        let mut diagnostics = codec.diagnostics().items().to_vec();
        diagnostics.sort_by_key(|d| d.offset);
        let query = urlkit::encode(name.as_bytes(), &urlkit::EncodeOptions::default()).text();
        return Ok(FileCreated {
            download: format!("/api/files/{id}?name={query}"),
            id: id.to_string(),
            expires_at: rfc3339(std::time::SystemTime::now() + state.ttl()),
            size,
            diagnostics,
            diagnostics_not_listed: codec.diagnostics().dropped(),
            diagnostic_counts: urlkit_api::code_counts(codec.diagnostics()),
            name,
        });
    }
    Err(ApiError::bad_request(
        "missing-file",
        "the form has no `file` field",
    ))
}

/// A file name as a browser sent it in a form: the HTML Standard's multipart encoding writes
/// `"`, LF and CR as `%22`, `%0A` and `%0D` (and nothing else), which are read back here.
fn form_file_name(sent: &str) -> String {
    sent.replace("%22", "\"")
        .replace("%0A", "\n")
        .replace("%0D", "\r")
}

/// `Content-Disposition` for a download named `name` (RFC 6266): an ASCII `filename` with
/// everything else as `_`, and the name itself as UTF-8 in `filename*` (RFC 8187).
pub fn content_disposition(name: &str) -> HeaderValue {
    let ascii: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' && c != '\\' || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let encoded = urlkit::encode(name.as_bytes(), &urlkit::EncodeOptions::default()).text();
    HeaderValue::from_str(&format!(
        "attachment; filename=\"{ascii}\"; filename*=UTF-8''{encoded}"
    ))
    .unwrap_or_else(|_| HeaderValue::from_static("attachment; filename=\"urlkit-result.txt\""))
}

/// The download name a `GET /api/files/{id}` asks for with `?name=`, made safe as an
/// upload's name is; `urlkit-result.txt` without one.
fn download_name(query: Option<&str>) -> String {
    let asked = query.and_then(|q| {
        urlkit::codec::parse_form(q.as_bytes())
            .into_iter()
            .find(|(key, _)| key == "name")
            .map(|(_, value)| value)
    });
    asked
        .as_deref()
        .and_then(clean_name)
        .unwrap_or_else(|| NAMELESS.to_string())
}

fn too_large(limit: u64) -> ApiError {
    ApiError::too_large(format!(
        "the file is larger than the upload limit of {} bytes ({}); nothing was kept",
        limit,
        urlkit_api::shown::human_size(limit)
    ))
}

/// A slot for `client`'s upload, or the 503 or 429 that says why there is none.
fn upload_slot(state: &AppState, client: IpAddr) -> Result<crate::UploadSlot, ApiError> {
    state.upload_slot(client).map_err(|refused| {
        state.metrics().uploads_refused.inc();
        match refused {
            SlotRefused::ServerFull => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "busy",
                "the server is processing as many uploads as it takes; try again in a few seconds",
            ),
            SlotRefused::ClientHoldsItsShare(held) => ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "uploads-per-client",
                format!(
                    "you have {held} uploads in progress, as many as one client may; \
                     try again when one has finished"
                ),
            ),
        }
        .retry_after(5)
    })
}

/// The pace a file must keep: at least [`MIN_UPLOAD_RATE`](crate::MIN_UPLOAD_RATE) bytes a
/// second over each window.
struct Pace {
    window: Duration,
    window_start: tokio::time::Instant,
    window_bytes: u64,
}

impl Pace {
    fn new(window: Duration) -> Pace {
        Pace {
            window,
            window_start: tokio::time::Instant::now(),
            window_bytes: 0,
        }
    }

    fn needed(&self) -> u64 {
        crate::MIN_UPLOAD_RATE.saturating_mul(self.window.as_secs().max(1))
    }

    /// The field's next chunk, or a 408 once a window ends with less than it needs.
    async fn next_chunk(
        &mut self,
        field: &mut axum::extract::multipart::Field<'_>,
    ) -> Result<Option<axum::body::Bytes>, ApiError> {
        loop {
            let window_end = self.window_start + self.window;
            match tokio::time::timeout_at(window_end, field.chunk()).await {
                Ok(chunk) => {
                    let chunk = chunk?;
                    self.window_bytes += chunk.as_ref().map_or(0, |c| c.len() as u64);
                    if tokio::time::Instant::now() >= window_end {
                        self.end_window()?;
                    }
                    return Ok(chunk);
                }
                Err(_) => self.end_window()?,
            }
        }
    }

    fn end_window(&mut self) -> Result<(), ApiError> {
        if self.window_bytes < self.needed() {
            return Err(ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                "too-slow",
                format!(
                    "only {} bytes of the file arrived in the last {} s; an upload must bring \
                     at least {} bytes a second",
                    self.window_bytes,
                    self.window.as_secs(),
                    crate::MIN_UPLOAD_RATE
                ),
            ));
        }
        self.window_start = tokio::time::Instant::now();
        self.window_bytes = 0;
        Ok(())
    }
}

/// A non-file form field, at most 64 KiB.
async fn small_field(
    field: &mut axum::extract::multipart::Field<'_>,
    name: &str,
) -> Result<String, ApiError> {
    let mut value = Vec::new();
    while let Some(chunk) = field.chunk().await? {
        value.extend_from_slice(&chunk);
        if value.len() > 64 * 1024 {
            return Err(ApiError::bad_request(
                "field-too-large",
                format!("field {name:?} is larger than 64 KiB"),
            ));
        }
    }
    String::from_utf8(value)
        .map_err(|_| ApiError::bad_request("invalid-field", format!("field {name:?} is not UTF-8")))
}

/// Downloads a result, once: the first request takes it (even if the transfer is cut
/// short); every later one is a 404.
#[utoipa::path(
    get, path = "/api/files/{id}", tag = "files",
    params(
        ("id" = String, Path, description = "The id from POST /api/files"),
        ("name" = Option<String>, Query, description = "The name to save the result under (`download` carries the upload's, marked `.encoded` or `.decoded`)"),
    ),
    responses(
        (status = 200, description = "The result, as an attachment", content_type = "application/octet-stream"),
        (status = 404, description = "No such result, already downloaded, or expired", body = ErrorBody),
        (status = 503, description = "The result store cannot be reached; `Retry-After`", body = ErrorBody),
        (status = 405, description = "HEAD, which would use up the download; `Allow: GET`", body = ErrorBody),
    )
)]
pub async fn download_file(
    State(state): State<AppState>,
    method: axum::http::Method,
    id: Result<Path<String>, axum::extract::rejection::PathRejection>,
    axum::extract::RawQuery(query): axum::extract::RawQuery,
) -> Result<Response, ApiError> {
    // A HEAD (link preview, prefetch) must not use up the one download.
    if method == axum::http::Method::HEAD {
        return Err(method_not_allowed().await.allow("GET"));
    }
    let gone = || {
        ApiError::not_found(
            "no such result: it was already downloaded, has expired, or never existed",
        )
    };
    // An id that is not even text (`%ff`) names no result either.
    let Ok(Path(id)) = id else {
        return Err(gone());
    };
    let id = ResultId::parse(&id).ok_or_else(gone)?;
    let (size, reader) = state
        .store()
        .claim(&id, state.ttl())
        .await
        .map_err(|e| {
            state.metrics().store_error("claim");
            ApiError::storage(e)
        })?
        .ok_or_else(gone)?;
    state.metrics().results_claimed.inc();
    let body = Body::from_stream(tokio_util::io::ReaderStream::with_capacity(
        reader,
        64 * 1024,
    ));
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/octet-stream"),
    );
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(size));
    headers.insert(
        header::CONTENT_DISPOSITION,
        content_disposition(&download_name(query.as_deref())),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// A time's date and time of day in UTC, to the second (proleptic Gregorian calendar).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UtcTime {
    /// The year (1970 or later).
    pub year: i64,
    /// 1 to 12.
    pub month: i64,
    /// 1 to 31.
    pub day: i64,
    /// 0 to 23.
    pub hour: u64,
    /// 0 to 59.
    pub minute: u64,
    /// 0 to 59.
    pub second: u64,
}

impl UtcTime {
    /// `time` in UTC; a time before 1970 is taken as 1970-01-01T00:00:00.
    pub fn of(time: std::time::SystemTime) -> UtcTime {
        let secs = time
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let (days, rem) = (secs / 86_400, secs % 86_400);
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let z = days as i64 + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        UtcTime {
            year: yoe + era * 400 + i64::from(month <= 2),
            month,
            day,
            hour: rem / 3600,
            minute: rem / 60 % 60,
            second: rem % 60,
        }
    }
}

/// Formats a time as RFC 3339 in UTC, to the second.
pub fn rfc3339(time: std::time::SystemTime) -> String {
    let t = UtcTime::of(time);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        t.year, t.month, t.day, t.hour, t.minute, t.second
    )
}
