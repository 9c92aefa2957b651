//! Where the records commands (`add`, `set`, `show`, `history`, `restore`, `rm`,
//! `search`, `clone`) find the records: the database file, acting as an administrator, or
//! a resolver's JSON API (`--server URL`, the token from `URLKIT_PURL_TOKEN`). Each
//! command is written once against [`Records`]; both ways refuse alike (a stale version
//! names the current one) and exit alike.

use super::{refused, Stop};
use reqwest::header;
use reqwest::{Method, StatusCode};
use serde::de::DeserializeOwned;
use std::time::Duration;
use urlkit::purl::{Action, Name};
use urlkit_purl::checks::chain_check;
use urlkit_purl::model::{Actor, Body, Event, Expect, Version};
use urlkit_purl::server::api::RecordView;
use urlkit_purl::store::{Search, Store, WriteError};

/// The environment variable that holds the token for `--server`.
pub(super) const TOKEN_VAR: &str = "URLKIT_PURL_TOKEN";

/// How long a request to the server may take.
const TIMEOUT: Duration = Duration::from_secs(30);

/// The certificates of the PEM file at `path`, for `--ca-cert`. Bad input: a file that
/// cannot be read, is not PEM, or holds no certificate is refused with its path.
fn trusted_certificates(path: &std::path::Path) -> Result<Vec<reqwest::Certificate>, Stop> {
    let shown = path.display();
    let pem = std::fs::read(path)
        .map_err(|error| refused(format!("--ca-cert {shown}: cannot read it: {error}")))?;
    let certificates = reqwest::Certificate::from_pem_bundle(&pem)
        .map_err(|error| refused(format!("--ca-cert {shown}: not PEM certificates: {error}")))?;
    if certificates.is_empty() {
        return Err(refused(format!(
            "--ca-cert {shown}: no certificate in it (a PEM file with -----BEGIN CERTIFICATE----- blocks)"
        )));
    }
    Ok(certificates)
}

/// The records, on the database file or behind a server.
pub(super) enum Records {
    /// The database file; every change is made as `actor` (an administrator).
    Local { store: Store, actor: Actor },
    /// A resolver's API.
    Remote(Remote),
}

/// A resolver's API: its base URL, a client, and the token if one is set.
pub(super) struct Remote {
    base: String,
    token: Option<String>,
    client: reqwest::Client,
}

/// The `{"error": {…}}` of a refusal.
#[derive(serde::Deserialize)]
struct ErrorBody {
    error: ErrorDetail,
}

#[derive(serde::Deserialize)]
struct ErrorDetail {
    message: String,
    field: Option<String>,
}

impl Remote {
    /// A client of the resolver at `server` (`http://` or `https://`), with the token of
    /// `URLKIT_PURL_TOKEN` if set, trusting the certificates of the PEM file `ca_cert`
    /// beside the system's. Bad input: a URL that is not absolute HTTP(S) is a usage
    /// error naming it; a `ca_cert` that cannot be read or holds no certificate is a
    /// refusal naming the file.
    pub(super) fn new(server: &str, ca_cert: Option<&std::path::Path>) -> Result<Remote, Stop> {
        let url = reqwest::Url::parse(server).map_err(|error| {
            Stop::Usage(format!(
                "--server {server:?}: {error}; give the resolver's URL, such as http://127.0.0.1:8081"
            ))
        })?;
        if !matches!(url.scheme(), "http" | "https") || url.query().is_some() {
            return Err(Stop::Usage(format!(
                "--server {server:?}: give the resolver's http:// or https:// URL, without a query"
            )));
        }
        let token = std::env::var(TOKEN_VAR)
            .ok()
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty());
        let mut builder = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(TIMEOUT)
            .user_agent(concat!("urlkit/", env!("CARGO_PKG_VERSION")));
        if let Some(path) = ca_cert {
            for certificate in trusted_certificates(path)? {
                builder = builder.add_root_certificate(certificate);
            }
        }
        let client = builder
            .build()
            .map_err(|error| refused(format!("cannot make an HTTP client: {error}")))?;
        Ok(Remote {
            base: url.as_str().trim_end_matches('/').to_string(),
            token,
            client,
        })
    }

    /// A request to `path` (the token sent if set, needed if `write`).
    fn request(
        &self,
        method: Method,
        path: &str,
        write: bool,
    ) -> Result<reqwest::RequestBuilder, Stop> {
        let mut request = self.client.request(method, format!("{}{path}", self.base));
        match &self.token {
            Some(token) => request = request.bearer_auth(token),
            None if write => {
                return Err(refused(format!(
                    "a change through --server needs a token: set {TOKEN_VAR} (made with \
                     `urlkit purl token create` on the database file)"
                )))
            }
            None => {}
        }
        Ok(request)
    }

    /// Sends `request`: the status and body, or why the server could not be reached.
    async fn send(
        &self,
        request: reqwest::RequestBuilder,
    ) -> Result<(StatusCode, Vec<u8>, Option<String>), Stop> {
        let unreachable = |error: reqwest::Error| {
            let mut message = format!("cannot reach the resolver at {}: {error}", self.base);
            let mut source = std::error::Error::source(&error);
            while let Some(cause) = source {
                message.push_str(&format!(": {cause}"));
                source = cause.source();
            }
            refused(message)
        };
        let response = request.send().await.map_err(unreachable)?;
        let status = response.status();
        let retry = response
            .headers()
            .get(header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let body = response.bytes().await.map_err(unreachable)?;
        Ok((status, body.to_vec(), retry))
    }

    /// The answer's JSON, or a refusal naming what the server said.
    fn parse<T: DeserializeOwned>(&self, body: &[u8]) -> Result<T, Stop> {
        serde_json::from_slice(body).map_err(|error| {
            refused(format!(
                "the resolver at {} answered what is not this API's JSON ({error}): {}",
                self.base,
                String::from_utf8_lossy(&body[..body.len().min(200)])
            ))
        })
    }

    /// A refusal in words: a stale version names the current one, as on the file.
    fn refusal(&self, name: &Name, status: StatusCode, body: &[u8], retry: Option<String>) -> Stop {
        if status == StatusCode::PRECONDITION_FAILED {
            return match serde_json::from_slice::<RecordView>(body) {
                Ok(current) => stale(name, current.version, current.deleted),
                Err(_) => refused(format!("{name}: refused: there is no record of this name")),
            };
        }
        if status == StatusCode::NOT_FOUND {
            return refused(format!("{name}: no such record or version"));
        }
        let said = match serde_json::from_slice::<ErrorBody>(body) {
            Ok(ErrorBody { error }) => match error.field {
                Some(field) if status == StatusCode::UNPROCESSABLE_ENTITY => {
                    format!("invalid record: {field}: {}", error.message)
                }
                _ => error.message,
            },
            Err(_) => format!(
                "the resolver answered {status}: {}",
                String::from_utf8_lossy(&body[..body.len().min(200)])
            ),
        };
        let mut message = format!("{name}: refused: {said}");
        if status == StatusCode::UNAUTHORIZED {
            message.push_str(&format!(" (the token of {TOKEN_VAR})"));
        }
        if let Some(seconds) = retry {
            message.push_str(&format!(" (try again in {seconds} s)"));
        }
        refused(message)
    }

    /// A write: the record as the server answers it, or why not.
    async fn write(
        &self,
        method: Method,
        path: String,
        name: &Name,
        expect: Expect,
        body: serde_json::Value,
    ) -> Result<RecordView, Stop> {
        let request = self.request(method, &path, true)?;
        let request = match expect {
            Expect::Absent => request.header(header::IF_NONE_MATCH, "*"),
            Expect::Version(v) => request.header(header::IF_MATCH, format!("\"{v}\"")),
        };
        let (status, bytes, retry) = self.send(request.json(&body)).await?;
        if status.is_success() {
            self.parse(&bytes)
        } else {
            Err(self.refusal(name, status, &bytes, retry))
        }
    }
}

/// `name` is not at the version a change expected.
fn stale(name: &Name, version: Version, deleted: bool) -> Stop {
    refused(format!(
        "{name}: refused: the record is at version {version}{}; show it with `urlkit purl show {name}` and try again",
        if deleted { " (deleted)" } else { "" }
    ))
}

/// A refused write on the file, in words.
fn write_refused(name: &Name, error: WriteError) -> Stop {
    match error {
        WriteError::Stale {
            current: Some(current),
        } => stale(name, current.version, current.deleted),
        WriteError::Stale { current: None } => {
            refused(format!("{name}: refused: there is no record of this name"))
        }
        WriteError::NotFound => refused(format!("{name}: no such record or version")),
        other => refused(format!("{name}: refused: {other}")),
    }
}

fn failed(error: urlkit_purl::store::StoreError) -> Stop {
    refused(error.to_string())
}

impl Records {
    /// The record `name`, a tombstone too, or `None`.
    pub(super) async fn get(&self, name: &Name) -> Result<Option<RecordView>, Stop> {
        match self {
            Records::Local { store, .. } => Ok(store
                .get(name)
                .await
                .map_err(failed)?
                .map(|s| RecordView::of(&s))),
            Records::Remote(remote) => {
                let request = remote.request(Method::GET, &format!("/-/api/purls{name}"), false)?;
                let (status, bytes, retry) = remote.send(request).await?;
                match status {
                    StatusCode::OK => remote.parse(&bytes).map(Some),
                    StatusCode::NOT_FOUND => Ok(None),
                    _ => Err(remote.refusal(name, status, &bytes, retry)),
                }
            }
        }
    }

    /// The current version of `name`, or a refusal saying there is no record.
    pub(super) async fn current_version(&self, name: &Name) -> Result<Version, Stop> {
        match self.get(name).await? {
            Some(view) => Ok(view.version),
            None => Err(refused(format!(
                "{name}: no such record (create it with `urlkit purl add`)"
            ))),
        }
    }

    /// Every change of `name`, oldest first (none: no such record).
    pub(super) async fn history(&self, name: &Name) -> Result<Vec<Event>, Stop> {
        match self {
            Records::Local { store, .. } => store.history(name).await.map_err(failed),
            Records::Remote(remote) => {
                let path = format!("/-/api/history{name}");
                let (status, bytes, retry) = remote
                    .send(remote.request(Method::GET, &path, false)?)
                    .await?;
                match status {
                    StatusCode::OK => remote.parse(&bytes),
                    StatusCode::NOT_FOUND => Ok(Vec::new()),
                    _ => Err(remote.refusal(name, status, &bytes, retry)),
                }
            }
        }
    }

    /// Records matching `search` (at most 1,000), by name.
    pub(super) async fn search(&self, search: &Search) -> Result<Vec<RecordView>, Stop> {
        match self {
            Records::Local { store, .. } => Ok(store
                .search(search)
                .await
                .map_err(failed)?
                .iter()
                .map(RecordView::of)
                .collect()),
            Records::Remote(remote) => {
                let mut query: Vec<(&str, String)> = vec![("limit", "1000".into())];
                if let Some(name) = &search.name_prefix {
                    query.push(("name", name.clone()));
                }
                if let Some(target) = &search.target_contains {
                    query.push(("target", target.clone()));
                }
                if let Some(domain) = &search.domain {
                    query.push(("domain", domain.to_string()));
                }
                if search.include_deleted {
                    query.push(("deleted", "true".into()));
                }
                let request = remote
                    .request(Method::GET, "/-/api/purls", false)?
                    .query(&query);
                let (status, bytes, retry) = remote.send(request).await?;
                if status == StatusCode::OK {
                    remote.parse(&bytes)
                } else {
                    let all = Name::parse("/").expect("/ is a name");
                    Err(remote.refusal(&all, status, &bytes, retry))
                }
            }
        }
    }

    /// Checks what `body` makes of `name` before writing it (a bad target is refused with
    /// its byte; on the file, a chain's loop too; the server finds loops itself), and
    /// prints its warnings.
    pub(super) async fn check(&self, name: &Name, body: &Body) -> Result<(), Stop> {
        let record = body
            .clone()
            .into_record(name.clone())
            .map_err(|error| refused(format!("{name}: refused: {error}")))?;
        if let (Records::Local { store, .. }, Action::Chain { .. }) = (self, &record.action) {
            let records = store.records().await.map_err(failed)?;
            chain_check(&records, &record)
                .map_err(|error| refused(format!("{name}: refused: {error}")))?;
        }
        for warning in record.warnings() {
            eprintln!("urlkit: warning: {name}: {warning}");
        }
        Ok(())
    }

    /// Creates (`Expect::Absent`) or changes the record.
    pub(super) async fn put(
        &self,
        name: &Name,
        body: Body,
        expect: Expect,
        reason: Option<&str>,
    ) -> Result<RecordView, Stop> {
        match self {
            Records::Local { store, actor } => store
                .put(actor, name, body, expect, reason)
                .await
                .map(|s| RecordView::of(&s))
                .map_err(|e| write_refused(name, e)),
            Records::Remote(remote) => {
                let mut json = serde_json::to_value(&body).expect("a body is always JSON");
                if let Some(reason) = reason {
                    json["reason"] = reason.into();
                }
                remote
                    .write(
                        Method::PUT,
                        format!("/-/api/purls{name}"),
                        name,
                        expect,
                        json,
                    )
                    .await
            }
        }
    }

    /// Makes the record a tombstone.
    pub(super) async fn delete(
        &self,
        name: &Name,
        expect: Expect,
        message: Option<&str>,
        reason: Option<&str>,
    ) -> Result<RecordView, Stop> {
        match self {
            Records::Local { store, actor } => store
                .delete(actor, name, expect, message, reason)
                .await
                .map(|s| RecordView::of(&s))
                .map_err(|e| write_refused(name, e)),
            Records::Remote(remote) => {
                let json = serde_json::json!({"message": message, "reason": reason});
                remote
                    .write(
                        Method::DELETE,
                        format!("/-/api/purls{name}"),
                        name,
                        expect,
                        json,
                    )
                    .await
            }
        }
    }

    /// Brings back `version` of the record as a new version.
    pub(super) async fn restore(
        &self,
        name: &Name,
        version: Version,
        expect: Expect,
        reason: Option<&str>,
    ) -> Result<RecordView, Stop> {
        match self {
            Records::Local { store, actor } => store
                .restore(actor, name, version, expect, reason)
                .await
                .map(|s| RecordView::of(&s))
                .map_err(|e| write_refused(name, e)),
            Records::Remote(remote) => {
                let json = serde_json::json!({"version": version, "reason": reason});
                remote
                    .write(
                        Method::POST,
                        format!("/-/api/restore{name}"),
                        name,
                        expect,
                        json,
                    )
                    .await
            }
        }
    }
}
