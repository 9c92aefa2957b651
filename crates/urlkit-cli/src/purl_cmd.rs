//! `urlkit purl …`: the persistent-URL resolver's records, owners and tokens on the local
//! database file, and `urlkit purl serve`. Acting on the file is acting as an
//! administrator, under the OS user's name (or `--user`), which the history records.

use clap::{Args, Subcommand};
use std::io::BufRead;
use std::process::ExitCode;
use urlkit::purl::{Action, Name, Offer};
use urlkit_purl::model::{Actor, Body, Event, Expect, Grant, Right};
use urlkit_purl::store::{Search, Store, WriteError};

/// Prints a line on standard output; a closed pipe (`urlkit purl search | head`) ends the
/// program quietly with status 0, as the other commands do, and any other failure to write
/// with status 1 — never a panic.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::purl_cmd::write_line(format_args!($($arg)*))
    };
}

mod records;
mod transfer;

use records::{Records, Remote};
use urlkit_purl::server::api::RecordView;

/// Options and subcommands of `urlkit purl`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  urlkit purl user add alice --admin --password-stdin < password.txt
  urlkit purl domain add /net/ --maintainer alice
  urlkit purl add /net/docs https://docs.example.net/ --partial
  urlkit purl set /net/docs https://docs.example.org/ --partial --reason 'moved host'
  urlkit purl add /net/vocab --offer 'text/html=https://example.net/v.html' \\
      --offer 'text/turtle=https://example.net/v.ttl' --fallback https://example.net/v.html
  urlkit purl history /net/docs
  urlkit purl export --out records.jsonl
  urlkit purl import records.jsonl --dry-run
  urlkit purl import .htaccess --prefix /w3id/
  urlkit purl restore /net/docs 1
  urlkit purl token create alice --domain /net/=write --label deploy
  urlkit purl serve --addr 127.0.0.1:8081

The database is the file of --db (created and migrated when missing), or a PostgreSQL
database (--db postgres://USER@HOST:PORT/NAME, migrated when behind) that any number of
resolvers may serve. Writes on it act as
an administrator, recorded in the history under your OS user's name or --user.
With --server URL the records commands work through a resolver's API instead, as the user
of the token in URLKIT_PURL_TOKEN:
  URLKIT_PURL_TOKEN=upt_… urlkit purl set /net/docs https://docs.example.org/ --server http://127.0.0.1:8081")]
pub struct PurlCommand {
    /// The database: sqlite:PATH (created if missing) or postgres://USER@HOST:PORT/NAME.
    #[arg(
        long,
        global = true,
        value_name = "URL",
        default_value = "sqlite:urlkit-purl.db"
    )]
    db: String,
    /// The name the history records for changes [default: the OS user].
    #[arg(long, global = true, value_name = "NAME")]
    user: Option<String>,
    /// Work on the records of the resolver at URL through its API instead of the
    /// database file (add, set, show, history, restore, rm, search, clone); changes need
    /// a token in URLKIT_PURL_TOKEN and are made as its user.
    #[arg(long, global = true, value_name = "URL", conflicts_with = "user")]
    server: Option<String>,
    /// With --server https://…: trust the certificates of this PEM file (a private CA's,
    /// or the resolver's own) beside the system's. Not used without --server.
    #[arg(long, global = true, value_name = "FILE", env = "URLKIT_PURL_CA_CERT")]
    ca_cert: Option<std::path::PathBuf>,
    #[command(subcommand)]
    command: PurlSub,
}

#[derive(Subcommand, Debug)]
enum PurlSub {
    /// Start the resolver.
    Serve(ServeArgs),
    #[command(flatten)]
    Records(RecordSub),
    /// Import records: an export (histories and all), JSON Lines, CSV, an .htaccess or
    /// PURLZ's batch XML; new names are created, changed records get a new version.
    Import(ImportArgs),
    /// Export every record with its whole history as JSON Lines, in order of name.
    Export(ExportArgs),
    /// Check every target of the records now (the link checker): prints each broken or
    /// moved one and a summary; exit status 1 when one is broken.
    Check(CheckArgs),
    /// Users.
    #[command(subcommand)]
    User(UserSub),
    /// Domains: path prefixes and their maintainers.
    #[command(subcommand)]
    Domain(DomainSub),
    /// Groups of users (maintainers as @NAME).
    #[command(subcommand)]
    Group(GroupSub),
    /// API tokens.
    #[command(subcommand)]
    Token(TokenSub),
}

/// The records commands: on the database file, or through a resolver's API with
/// `--server`.
#[derive(Subcommand, Debug)]
enum RecordSub {
    /// Create a record (refused if the name has one).
    Add(AddArgs),
    /// Change a record (at its current version, or the one --version names).
    Set(SetArgs),
    /// Show a record.
    Show(ShowArgs),
    /// Show a record's history, oldest first.
    History(ShowArgs),
    /// Bring back a record as it was at VERSION (a new version).
    Restore(RestoreArgs),
    /// Delete a record: it becomes a tombstone answering 410.
    Rm(RmArgs),
    /// Find records by name prefix, target text or domain.
    Search(SearchArgs),
    /// Create a record TO answering as FROM does.
    Clone(CloneArgs),
}

/// Options of `urlkit purl serve` (names and defaults as `urlkit serve`'s).
#[derive(Args, Debug)]
struct ServeArgs {
    /// Address to listen on (port 0: any free port); a container sets it with
    /// URLKIT_PURL_ADDR=0.0.0.0:PORT.
    #[arg(long, env = "URLKIT_PURL_ADDR", default_value = "127.0.0.1:8081")]
    addr: std::net::SocketAddr,
    /// `Cache-Control: max-age` in seconds of redirects whose record sets none.
    #[arg(long, value_name = "SECONDS", default_value = "300")]
    default_max_age: u32,
    /// Time between runs of the link checker over every target (0: never).
    #[arg(long, value_name = "DURATION", default_value = "24h", value_parser = parse_every)]
    check_every: std::time::Duration,
    #[command(flatten)]
    checker: CheckerArgs,
    #[command(flatten)]
    connection: crate::serve_cmd::ConnectionArgs,
}

/// How the link checker goes about it (`urlkit purl check`, and `serve`'s runs).
#[derive(Args, Debug, Clone)]
struct CheckerArgs {
    /// Link checker: requests to one host at once.
    #[arg(long, value_name = "N", default_value = "1", value_parser = clap::value_parser!(u32).range(1..))]
    concurrency_per_host: u32,
    /// Link checker: milliseconds between one request's end and the next one's start on
    /// one host (a longer Crawl-delay in the host's robots.txt wins).
    #[arg(long, value_name = "MS", default_value = "1000")]
    delay_ms: u64,
    /// Link checker: seconds one request may take, connecting included.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = clap::value_parser!(u64).range(1..))]
    timeout: u64,
}

impl CheckerArgs {
    fn options(&self) -> urlkit_purl::checker::CheckerOptions {
        urlkit_purl::checker::CheckerOptions {
            per_host: self.concurrency_per_host as usize,
            delay: std::time::Duration::from_millis(self.delay_ms),
            timeout: std::time::Duration::from_secs(self.timeout),
            ..Default::default()
        }
    }
}

/// `--check-every`: a duration (`24h`, `90m`), or 0 for never.
fn parse_every(text: &str) -> Result<std::time::Duration, String> {
    if text.trim() == "0" {
        return Ok(std::time::Duration::ZERO);
    }
    urlkit_web::parse_duration(text)
}

#[derive(Args, Debug)]
struct CheckArgs {
    /// Only the records of this domain.
    #[arg(long, value_name = "PREFIX")]
    domain: Option<String>,
    #[command(flatten)]
    checker: CheckerArgs,
    /// Every check as a JSON line rather than the broken and moved ones as text.
    #[arg(long)]
    json: bool,
}

/// What a record answers: a TARGET (302, or --status), or one of --partial, --chain,
/// --gone, --not-found, --offer.
#[derive(Args, Debug)]
struct RecordArgs {
    /// The absolute URL redirected to.
    target: Option<String>,
    /// The redirect status: 301, 302 (default), 303, 307, 308 (303 for --offer).
    #[arg(long, value_name = "N")]
    status: Option<u16>,
    /// The name is a prefix: the rest of a request's path and its query are appended to
    /// TARGET.
    #[arg(long, requires = "target")]
    partial: bool,
    /// Answer as the record TO of this resolver does.
    #[arg(long, value_name = "TO", conflicts_with_all = ["target", "partial", "gone", "not_found", "offer", "status"])]
    chain: Option<String>,
    /// Answer 410 Gone with this message.
    #[arg(long, value_name = "MESSAGE", conflicts_with_all = ["target", "partial", "not_found", "offer", "status"])]
    gone: Option<String>,
    /// Answer 404 Not Found with this message.
    #[arg(long, value_name = "MESSAGE", conflicts_with_all = ["target", "partial", "offer", "status"])]
    not_found: Option<String>,
    /// A negotiated target: TYPE=URL or TYPE;lang=TAG=URL (repeat; the request's Accept
    /// and Accept-Language choose).
    #[arg(long, value_name = "TYPE[;lang=TAG]=URL", conflicts_with_all = ["target", "partial"])]
    offer: Vec<String>,
    /// Where a negotiated record sends requests no offer fits (without it: 406).
    #[arg(long, value_name = "URL", requires = "offer")]
    fallback: Option<String>,
    /// Cache-Control max-age of the redirect, in seconds [default: the server's].
    #[arg(long, value_name = "SECONDS")]
    max_age: Option<u32>,
    /// Why, for the history.
    #[arg(long, value_name = "TEXT")]
    reason: Option<String>,
}

#[derive(Args, Debug)]
struct AddArgs {
    /// The name (a path such as /net/docs).
    name: String,
    #[command(flatten)]
    record: RecordArgs,
}

#[derive(Args, Debug)]
struct SetArgs {
    /// The name.
    name: String,
    #[command(flatten)]
    record: RecordArgs,
    /// The version this change replaces (refused if the record is at another one)
    /// [default: the current one].
    #[arg(long, value_name = "V")]
    version: Option<i64>,
}

#[derive(Args, Debug)]
struct ShowArgs {
    /// The name.
    name: String,
    /// As JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct RestoreArgs {
    /// The name.
    name: String,
    /// The version brought back.
    version: i64,
    /// Why, for the history.
    #[arg(long, value_name = "TEXT")]
    reason: Option<String>,
}

#[derive(Args, Debug)]
struct RmArgs {
    /// The name.
    name: String,
    /// What the tombstone answers with its 410.
    #[arg(long, value_name = "TEXT")]
    message: Option<String>,
    /// The version deleted (refused if the record is at another one) [default: the
    /// current one].
    #[arg(long, value_name = "V")]
    version: Option<i64>,
    /// Why, for the history.
    #[arg(long, value_name = "TEXT")]
    reason: Option<String>,
}

#[derive(Args, Debug)]
struct SearchArgs {
    /// Names starting with this (in normal form).
    #[arg(long, value_name = "PREFIX")]
    name: Option<String>,
    /// Targets containing this text.
    #[arg(long, value_name = "TEXT")]
    target: Option<String>,
    /// Records of this domain.
    #[arg(long, value_name = "PREFIX")]
    domain: Option<String>,
    /// Tombstones too.
    #[arg(long)]
    deleted: bool,
    /// As JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct CloneArgs {
    /// The record copied.
    from: String,
    /// The new name.
    to: String,
    /// Why, for the history.
    #[arg(long, value_name = "TEXT")]
    reason: Option<String>,
}

#[derive(Args, Debug)]
#[command(
    after_help = "Formats (--format, or from the file's name: .jsonl .csv .xml .htaccess):
  export     a line of `urlkit purl export` a record: versions, history, tombstones, domains
  jsonl      {\"name\": \"/net/a\", \"record\": {\"type\": \"redirect\", \"target\": \"https://…\"}}
  csv        name,type,target[,status] with that header; type redirect, partial, chain, gone,
             not_found (or 301 302 303 307 308 404 410)
  htaccess   RewriteRule ^a$ https://… [R=303,L]; ^a/(.*)$ https://…/$1 as a partial
             record; RewriteCond %{HTTP_ACCEPT} … as negotiated offers (needs --prefix)
  purlz-xml  <purls><purl id=\"/a\" type=\"302\"><target url=\"https://…\"/></purl></purls>

A name without a record is created; a record as the file has it is left alone; any other
becomes a new version (reason \"import\" unless --reason). What is not understood is shown
as FILE:LINE: …; then nothing is written (status 1) unless --skip-unknown."
)]
struct ImportArgs {
    /// The file (- for standard input, JSON Lines or an export unless --format says).
    file: std::path::PathBuf,
    /// export, jsonl, csv, htaccess or purlz-xml [default: from the file's name].
    #[arg(long, value_name = "FORMAT")]
    format: Option<String>,
    /// For an .htaccess: the names of its directory (/w3id/), put before each rule's.
    #[arg(long, value_name = "PREFIX")]
    prefix: Option<String>,
    /// Show what would be created, changed, left unchanged or skipped; write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Import what is understood even when some of the file is not (said on standard
    /// error; the status stays 0).
    #[arg(long)]
    skip_unknown: bool,
    /// Why, for the history of every record created or changed [default: import].
    #[arg(long, value_name = "TEXT")]
    reason: Option<String>,
}

#[derive(Args, Debug)]
struct ExportArgs {
    /// Write to FILE instead of standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<std::path::PathBuf>,
}

#[derive(Subcommand, Debug)]
enum UserSub {
    /// Add a user (a password from the first line of standard input with
    /// --password-stdin).
    Add {
        /// The user's name.
        name: String,
        /// An administrator: manages domains, users and every record.
        #[arg(long)]
        admin: bool,
        /// Read the password from standard input's first line.
        #[arg(long)]
        password_stdin: bool,
    },
    /// List users.
    List,
}

#[derive(Subcommand, Debug)]
enum DomainSub {
    /// Add a domain, or maintainers to it.
    Add {
        /// The path prefix (/net/).
        prefix: String,
        /// A user, or @GROUP, who maintains it (repeat for several).
        #[arg(long, value_name = "USER|@GROUP")]
        maintainer: Vec<String>,
    },
    /// Send people to an archived copy once a record's target failed N checks in a row
    /// (plain redirect records), or (--off) no longer.
    Archive {
        /// The path prefix (/net/).
        prefix: String,
        /// The archived copy's URL: {url} is the target, {timestamp} the time of its last
        /// good check (YYYYMMDDhhmmss), as https://web.archive.org/web/{timestamp}/{url}.
        #[arg(long, value_name = "TEMPLATE", required_unless_present = "off")]
        template: Option<String>,
        /// After this many failed checks in a row (1 to 1000).
        #[arg(long, value_name = "N", required_unless_present = "off")]
        after: Option<u32>,
        /// Turn the domain's archive fallback off.
        #[arg(long, conflicts_with_all = ["template", "after"])]
        off: bool,
    },
    /// List domains.
    List,
}

#[derive(Subcommand, Debug)]
enum GroupSub {
    /// Add a group, or members to it.
    Add {
        /// The group's name.
        name: String,
        /// A user in it (repeat for several).
        #[arg(long, value_name = "USER")]
        member: Vec<String>,
    },
}

#[derive(Subcommand, Debug)]
enum TokenSub {
    /// Create a token and print its secret (shown this once only).
    Create {
        /// Whose.
        #[arg(value_name = "USER")]
        owner: String,
        /// A domain it may act in, with read or write rights (write if not said;
        /// repeat for several). An administrator's token without any acts as the
        /// administrator.
        #[arg(long, value_name = "PREFIX[=read|write]")]
        domain: Vec<String>,
        /// What it is for.
        #[arg(long, value_name = "TEXT")]
        label: Option<String>,
    },
    /// Revoke a token: its secret stops working.
    Revoke {
        /// The token's id (the part after upt_).
        id: String,
    },
    /// List tokens (without secrets).
    List {
        /// Of this user only.
        #[arg(value_name = "USER")]
        owner: Option<String>,
    },
}

/// Why a command stopped: a usage error (status 2) or a refusal or failure (status 1).
#[derive(Debug)]
enum Stop {
    Usage(String),
    Refused(String),
}

type Outcome = Result<(), Stop>;

fn refused(message: impl Into<String>) -> Stop {
    Stop::Refused(message.into())
}

/// Runs `urlkit purl …`.
pub fn run(command: PurlCommand) -> ExitCode {
    if let PurlSub::Serve(args) = command.command {
        return serve(command.db, args);
    }
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("urlkit: cannot start: {error}");
            return ExitCode::from(1);
        }
    };
    let outcome = runtime.block_on(local(command));
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(Stop::Usage(message)) => {
            eprintln!("urlkit: {message}");
            ExitCode::from(2)
        }
        Err(Stop::Refused(message)) => {
            eprintln!("urlkit: {message}");
            ExitCode::from(1)
        }
    }
}

/// Writes a line on standard output (see `out!`).
pub(crate) fn write_line(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let written = stdout
        .write_fmt(line)
        .and_then(|()| stdout.write_all(b"\n"))
        .and_then(|()| stdout.flush());
    match written {
        Ok(()) => {}
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(error) => {
            eprintln!("urlkit: cannot write the output: {error}");
            std::process::exit(1)
        }
    }
}

/// The OS user's name, for the history.
fn os_user() -> String {
    ["USER", "LOGNAME", "USERNAME"]
        .iter()
        .find_map(|var| std::env::var(var).ok().filter(|v| !v.is_empty()))
        .unwrap_or_else(|| "local".to_string())
}

/// A name given on the command line, or a usage error naming the byte at fault.
fn parse_name(what: &str, text: &str) -> Result<Name, Stop> {
    Name::parse(text).map_err(|error| {
        Stop::Usage(format!(
            "{what} {text:?}: at byte {}: {}",
            error.position, error.message
        ))
    })
}

/// Whether `text` starts with a URL scheme and its colon.
fn starts_with_scheme(text: &str) -> bool {
    let Some(colon) = text.find(':') else {
        return false;
    };
    let scheme = &text[..colon];
    scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// `TYPE[;lang=TAG]=URL`: the URL starts after the first `=` followed by a scheme.
fn parse_offer(text: &str) -> Result<Offer, Stop> {
    let split = text
        .match_indices('=')
        .map(|(at, _)| at)
        .find(|&at| starts_with_scheme(&text[at + 1..]))
        .ok_or_else(|| {
            Stop::Usage(format!(
                "--offer {text:?}: give TYPE=URL or TYPE;lang=TAG=URL (an absolute URL after \"=\")"
            ))
        })?;
    let (kind, target) = (&text[..split], &text[split + 1..]);
    let mut language = None;
    let mut media_type = Vec::new();
    for (i, part) in kind.split(';').enumerate() {
        match part.trim().split_once('=') {
            Some((key, value)) if i > 0 && key.trim().eq_ignore_ascii_case("lang") => {
                language = Some(value.trim().to_string());
            }
            _ => media_type.push(part.trim()),
        }
    }
    Ok(Offer {
        media_type: media_type.join(";"),
        language,
        target: target.to_string(),
    })
}

/// The body the record options describe.
fn body_of(args: &RecordArgs) -> Result<Body, Stop> {
    let action = if let Some(to) = &args.chain {
        Action::Chain {
            to: parse_name("--chain", to)?,
        }
    } else if let Some(message) = &args.gone {
        Action::Gone {
            message: message.clone(),
        }
    } else if let Some(message) = &args.not_found {
        Action::NotFound {
            message: message.clone(),
        }
    } else if !args.offer.is_empty() {
        Action::Negotiate {
            status: args
                .status
                .unwrap_or(urlkit::purl::DEFAULT_NEGOTIATED_STATUS),
            offers: args
                .offer
                .iter()
                .map(|o| parse_offer(o))
                .collect::<Result<_, _>>()?,
            fallback: args.fallback.clone(),
        }
    } else if let Some(target) = &args.target {
        let status = args.status.unwrap_or(urlkit::purl::DEFAULT_STATUS);
        if args.partial {
            Action::Partial {
                status,
                target: target.clone(),
            }
        } else {
            Action::Redirect {
                status,
                target: target.clone(),
            }
        }
    } else {
        return Err(Stop::Usage(
            "what should the record answer? give a TARGET, or --chain, --gone, --not-found or --offer"
                .into(),
        ));
    };
    Ok(Body {
        action,
        max_age: args.max_age,
    })
}

fn print_written(verb: &str, view: &RecordView) {
    out!("{verb} {} (version {})", view.name, view.version);
}

/// One line saying what a body answers.
fn summary(body: &Body) -> String {
    let answer = match &body.action {
        Action::Redirect { status, target } => format!("{status} {target}"),
        Action::Partial { status, target } => format!("{status} {target}… (partial)"),
        Action::Chain { to } => format!("chain to {to}"),
        Action::Negotiate {
            status,
            offers,
            fallback,
        } => {
            let mut text = format!("{status} negotiated:");
            for offer in offers {
                text.push_str(&format!(" {}", offer.media_type));
                if let Some(language) = &offer.language {
                    text.push_str(&format!(";lang={language}"));
                }
                text.push_str(&format!("={}", offer.target));
            }
            if let Some(fallback) = fallback {
                text.push_str(&format!(" else {fallback}"));
            }
            text
        }
        Action::NotFound { message } => format!("404 {message}"),
        Action::Gone { message } => format!("410 {message}"),
    };
    match body.max_age {
        Some(age) => format!("{answer} (max-age {age})"),
        None => answer,
    }
}

fn show_view(view: &RecordView) {
    out!("{}  {}", view.name, summary(&view.record));
    out!(
        "  version {}{}, domain {}, changed {} by {}",
        view.version,
        if view.deleted { " (deleted)" } else { "" },
        view.domain
            .as_ref()
            .map_or("(none)".to_string(), |d| d.to_string()),
        view.changed_at,
        view.changed_by
    );
}

fn show_event(event: &Event) {
    let kind = serde_json::to_value(event.kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    let mut line = format!(
        "version {}  {}  {kind} by {}",
        event.version,
        urlkit_purl::server::api::rfc3339(event.at),
        event.user
    );
    if let Some(token) = &event.token {
        line.push_str(&format!(" (token {token})"));
    }
    if let Some(reason) = &event.reason {
        line.push_str(&format!(": {reason}"));
    }
    out!("{line}");
    if let Some(before) = &event.before {
        out!("  - {}", summary(before));
    }
    out!("  + {}", summary(&event.after));
}

fn json_out<T: serde::Serialize>(value: &T) {
    out!(
        "{}",
        serde_json::to_string_pretty(value).expect("records are always JSON")
    );
}

/// A `--domain PREFIX[=read|write]` of `token create`.
fn parse_grant(text: &str) -> Result<Grant, Stop> {
    let (prefix, right) = match text.rsplit_once('=') {
        Some((prefix, "read")) => (prefix, Right::Read),
        Some((prefix, "write")) => (prefix, Right::Write),
        Some((_, other)) => {
            return Err(Stop::Usage(format!(
                "--domain {text:?}: the right {other:?} is neither read nor write"
            )))
        }
        None => (text, Right::Write),
    };
    Ok(Grant {
        domain: parse_name("--domain", prefix)?,
        right,
    })
}

/// Keeps a change of owners in the database's append-only list (a failure to keep it is
/// a warning: the change itself was made).
async fn record_change(
    store: &Store,
    actor: &Actor,
    kind: &str,
    subject: &str,
    detail: serde_json::Value,
) {
    if let Err(error) = store
        .record_owner_change(actor, kind, subject, &detail)
        .await
    {
        eprintln!("urlkit: warning: {kind} {subject} was made but not recorded: {error}");
    }
}

/// A records command, on the file or through a server alike.
async fn records(records: &Records, command: RecordSub) -> Outcome {
    match command {
        RecordSub::Add(args) => {
            let name = parse_name("name", &args.name)?;
            let body = body_of(&args.record)?;
            records.check(&name, &body).await?;
            let reason = args.record.reason.as_deref();
            let view = records.put(&name, body, Expect::Absent, reason).await?;
            print_written("created", &view);
        }
        RecordSub::Set(args) => {
            let name = parse_name("name", &args.name)?;
            let body = body_of(&args.record)?;
            records.check(&name, &body).await?;
            let version = match args.version {
                Some(version) => version,
                None => records.current_version(&name).await?,
            };
            let reason = args.record.reason.as_deref();
            let view = records
                .put(&name, body, Expect::Version(version), reason)
                .await?;
            print_written("changed", &view);
        }
        RecordSub::Show(args) => {
            let name = parse_name("name", &args.name)?;
            let view = records
                .get(&name)
                .await?
                .ok_or_else(|| refused(format!("{name}: no such record")))?;
            if args.json {
                json_out(&view);
            } else {
                show_view(&view);
            }
        }
        RecordSub::History(args) => {
            let name = parse_name("name", &args.name)?;
            let events = records.history(&name).await?;
            if events.is_empty() {
                return Err(refused(format!("{name}: no such record")));
            }
            if args.json {
                json_out(&events);
            } else {
                events.iter().for_each(show_event);
            }
        }
        RecordSub::Restore(args) => {
            let name = parse_name("name", &args.name)?;
            let current = records.current_version(&name).await?;
            let view = records
                .restore(
                    &name,
                    args.version,
                    Expect::Version(current),
                    args.reason.as_deref(),
                )
                .await?;
            print_written(&format!("restored version {} of", args.version), &view);
        }
        RecordSub::Rm(args) => {
            let name = parse_name("name", &args.name)?;
            let version = match args.version {
                Some(version) => version,
                None => records.current_version(&name).await?,
            };
            let view = records
                .delete(
                    &name,
                    Expect::Version(version),
                    args.message.as_deref(),
                    args.reason.as_deref(),
                )
                .await?;
            print_written("deleted", &view);
        }
        RecordSub::Search(args) => {
            // A prefix that reads as a name is matched in its normal form, as names are.
            let name_prefix = args
                .name
                .map(|prefix| Name::parse(&prefix).map_or(prefix, |name| name.to_string()));
            let search = Search {
                name_prefix,
                target_contains: args.target,
                domain: args
                    .domain
                    .as_deref()
                    .map(|d| parse_name("--domain", d))
                    .transpose()?,
                include_deleted: args.deleted,
                limit: 0,
                after: None,
            };
            let found = records.search(&search).await?;
            if args.json {
                json_out(&found);
            } else {
                for view in &found {
                    out!(
                        "{}  v{}{}  {}",
                        view.name,
                        view.version,
                        if view.deleted { " (deleted)" } else { "" },
                        summary(&view.record)
                    );
                }
            }
        }
        RecordSub::Clone(args) => {
            let from = parse_name("FROM", &args.from)?;
            let to = parse_name("TO", &args.to)?;
            let source = records
                .get(&from)
                .await?
                .filter(|view| !view.deleted)
                .ok_or_else(|| refused(format!("{from}: no such record")))?;
            records.check(&to, &source.record).await?;
            let reason = args
                .reason
                .unwrap_or_else(|| format!("cloned from {from} version {}", source.version));
            let view = records
                .put(&to, source.record, Expect::Absent, Some(&reason))
                .await?;
            print_written("created", &view);
        }
    }
    Ok(())
}

async fn local(command: PurlCommand) -> Outcome {
    if let Some(server) = &command.server {
        let PurlSub::Records(sub) = command.command else {
            return Err(Stop::Usage(format!(
                "--server {server}: only the records commands (add, set, show, history, \
                 restore, rm, search, clone) work through a server; the others work on the \
                 database file (--db)"
            )));
        };
        return records(
            &Records::Remote(Remote::new(server, command.ca_cert.as_deref())?),
            sub,
        )
        .await;
    }
    let store = Store::open(&command.db)
        .await
        .map_err(|error| refused(error.to_string()))?;
    let actor = Actor {
        user: command.user.unwrap_or_else(os_user),
        token: None,
        admin: true,
        grants: Vec::new(),
    };
    let failed = |error: urlkit_purl::store::StoreError| refused(error.to_string());
    match command.command {
        PurlSub::Serve(_) => unreachable!("served before the database is opened here"),
        PurlSub::Records(sub) => {
            let file = Records::Local { store, actor };
            return records(&file, sub).await;
        }
        PurlSub::Check(args) => check(store, args).await?,
        PurlSub::Import(args) => {
            let args = transfer::ImportArgs {
                file: &args.file,
                format: args.format.as_deref(),
                prefix: args.prefix.as_deref(),
                reason: args.reason.as_deref(),
                dry_run: args.dry_run,
                skip_unknown: args.skip_unknown,
            };
            transfer::import(&store, &actor, args).await?;
        }
        PurlSub::Export(args) => transfer::export(&store, args.out.as_deref()).await?,
        PurlSub::User(UserSub::Add {
            name,
            admin,
            password_stdin,
        }) => {
            let password = if password_stdin {
                let mut line = String::new();
                std::io::stdin()
                    .lock()
                    .read_line(&mut line)
                    .map_err(|e| refused(format!("reading the password: {e}")))?;
                let line = line.trim_end_matches(['\r', '\n']).to_string();
                if line.is_empty() {
                    return Err(Stop::Usage(
                        "--password-stdin: standard input's first line is empty".into(),
                    ));
                }
                Some(line)
            } else {
                None
            };
            let user = store
                .add_user(&name, password.as_deref(), admin)
                .await
                .map_err(failed)?;
            let detail = serde_json::json!({"admin": admin, "password": password.is_some()});
            record_change(&store, &actor, "user-add", &user.name, detail).await;
            out!(
                "added user {}{}",
                user.name,
                if user.admin { " (administrator)" } else { "" }
            );
        }
        PurlSub::User(UserSub::List) => {
            for user in store.users().await.map_err(failed)? {
                out!(
                    "{}{}{}",
                    user.name,
                    if user.admin { " (administrator)" } else { "" },
                    if user.groups.is_empty() {
                        String::new()
                    } else {
                        format!(" in {}", user.groups.join(", "))
                    }
                );
            }
        }
        PurlSub::Domain(DomainSub::Add { prefix, maintainer }) => {
            let prefix = parse_name("domain", &prefix)?;
            let domain = store
                .add_domain(&actor, &prefix, &maintainer)
                .await
                .map_err(|error| match error {
                    WriteError::NotFound => refused(format!(
                        "domain {prefix}: a maintainer is no user or group: {}",
                        maintainer.join(", ")
                    )),
                    other => refused(format!("domain {prefix}: {other}")),
                })?;
            let detail = serde_json::json!({"maintainers": maintainer});
            record_change(&store, &actor, "domain-add", prefix.as_str(), detail).await;
            out!(
                "domain {} maintained by {}",
                domain.prefix,
                if domain.maintainers.is_empty() {
                    "administrators only".to_string()
                } else {
                    domain.maintainers.join(", ")
                }
            );
        }
        PurlSub::Domain(DomainSub::Archive {
            prefix,
            template,
            after,
            off,
        }) => {
            let prefix = parse_name("domain", &prefix)?;
            let fallback = match (off, template, after) {
                (false, Some(template), Some(after)) => {
                    Some(urlkit_purl::store::ArchiveFallback { template, after })
                }
                _ => None,
            };
            let domain = store
                .set_archive(&actor, &prefix, fallback.as_ref())
                .await
                .map_err(|error| match error {
                    WriteError::NotFound => refused(format!("domain {prefix}: no such domain")),
                    other => refused(format!("domain {prefix}: {other}")),
                })?;
            match &domain.archive {
                Some(f) => out!(
                    "domain {} sends people to {} after {} failed checks in a row",
                    domain.prefix,
                    f.template,
                    f.after
                ),
                None => out!("domain {}: no archive fallback", domain.prefix),
            }
        }
        PurlSub::Domain(DomainSub::List) => {
            for domain in store.domains().await.map_err(failed)? {
                match &domain.archive {
                    Some(f) => out!(
                        "{}  {}  archive after {}: {}",
                        domain.prefix,
                        domain.maintainers.join(", "),
                        f.after,
                        f.template
                    ),
                    None => out!("{}  {}", domain.prefix, domain.maintainers.join(", ")),
                }
            }
        }
        PurlSub::Group(GroupSub::Add { name, member }) => {
            store
                .add_group(&actor, &name, &member)
                .await
                .map_err(|error| match error {
                    WriteError::NotFound => refused(format!(
                        "group {name}: a member is no user: {}",
                        member.join(", ")
                    )),
                    other => refused(format!("group {name}: {other}")),
                })?;
            let detail = serde_json::json!({"members": member});
            record_change(&store, &actor, "group-add", &name, detail).await;
            out!("group {name}: {}", member.join(", "));
        }
        PurlSub::Token(TokenSub::Create {
            owner: user,
            domain,
            label,
        }) => {
            let grants = domain
                .iter()
                .map(|d| parse_grant(d))
                .collect::<Result<Vec<_>, _>>()?;
            if grants.is_empty() {
                let admin = store
                    .actor(&user)
                    .await
                    .map_err(failed)?
                    .is_some_and(|actor| actor.admin);
                if !admin {
                    return Err(Stop::Usage(format!(
                        "a token of {user:?}, who is no administrator, needs --domain PREFIX[=read|write]"
                    )));
                }
            }
            let (info, secret) = store
                .create_token(&user, &grants, label.as_deref())
                .await
                .map_err(|error| match error {
                    WriteError::NotFound => refused(format!("no user {user:?}")),
                    WriteError::Forbidden {
                        domain: Some(domain),
                    } => refused(format!("{user} does not maintain {domain}")),
                    other => refused(other.to_string()),
                })?;
            let detail = serde_json::json!({"user": info.user, "grants": info.grants});
            record_change(&store, &actor, "token-create", &info.id, detail).await;
            eprintln!(
                "token {} for {}: the secret below is shown this once only",
                info.id, info.user
            );
            out!("{secret}");
        }
        PurlSub::Token(TokenSub::Revoke { id }) => {
            if !store.revoke_token(&id).await.map_err(failed)? {
                return Err(refused(format!("no token {id} that is not revoked")));
            }
            record_change(&store, &actor, "token-revoke", &id, serde_json::json!({})).await;
            out!("revoked token {id}");
        }
        PurlSub::Token(TokenSub::List { owner }) => {
            for token in store.tokens(owner.as_deref()).await.map_err(failed)? {
                let grants: Vec<String> = token
                    .grants
                    .iter()
                    .map(|g| {
                        format!(
                            "{}={}",
                            g.domain,
                            if g.right == Right::Write {
                                "write"
                            } else {
                                "read"
                            }
                        )
                    })
                    .collect();
                out!(
                    "{}  {}  {}  created {}{}{}",
                    token.id,
                    token.user,
                    grants.join(" "),
                    urlkit_purl::server::api::rfc3339(token.created_at),
                    token.revoked_at.map_or(String::new(), |at| format!(
                        ", revoked {}",
                        urlkit_purl::server::api::rfc3339(at)
                    )),
                    token
                        .label
                        .map_or(String::new(), |label| format!("  ({label})")),
                );
            }
        }
    }
    Ok(())
}

/// `urlkit purl check`: one run of the link checker; status 1 when a target is broken.
async fn check(store: Store, args: CheckArgs) -> Outcome {
    use urlkit_purl::checker::{self, Checker, OutcomeKind};
    let domain = args
        .domain
        .as_deref()
        .map(|d| parse_name("--domain", d))
        .transpose()?;
    let registry = urlkit_purl::registry::Registry::load(store)
        .await
        .map_err(|e| refused(e.to_string()))?;
    let checker = std::sync::Arc::new(Checker::new(args.checker.options()).map_err(refused)?);
    let started = std::time::Instant::now();
    let json = args.json;
    let checks = checker::run(&registry, &checker, domain.as_ref(), |c| {
        if json {
            match serde_json::to_string(&urlkit_purl::server::checks::CheckView::of(c)) {
                Ok(line) => out!("{line}"),
                Err(e) => eprintln!("urlkit: {e}"),
            }
        } else if c.outcome.kind.is_broken() || c.outcome.kind == OutcomeKind::Moved {
            let suggestion = c
                .outcome
                .suggestion
                .as_ref()
                .map_or(String::new(), |s| format!(" → {s}"));
            out!(
                "{}  {}  {}{suggestion}  ({})",
                c.name,
                c.outcome.kind,
                c.target,
                c.outcome.detail
            );
        }
    })
    .await
    .map_err(|e| refused(format!("the results were not stored: {e}")))?;
    let tally: Vec<String> = checker::tally(&checks)
        .iter()
        .map(|(kind, n)| format!("{n} {kind}"))
        .collect();
    let broken = checks.iter().filter(|c| c.outcome.kind.is_broken()).count();
    eprintln!(
        "checked {} targets in {:.1} s: {}",
        checks.len(),
        started.elapsed().as_secs_f64(),
        if tally.is_empty() {
            "nothing to check".to_string()
        } else {
            tally.join(", ")
        }
    );
    if broken > 0 {
        return Err(refused(format!("{broken} broken targets")));
    }
    Ok(())
}

/// `urlkit purl serve`.
fn serve(db: String, args: ServeArgs) -> ExitCode {
    let c = args.connection;
    let json_logs = c.json_logs();
    let config = urlkit_purl::server::PurlConfig {
        addr: args.addr,
        db,
        tls: c.tls(),
        default_max_age: args.default_max_age,
        header_timeout: c.header_timeout,
        idle_timeout: c.idle_timeout,
        max_connections: c.max_connections.map(|n| n as usize),
        rate_limit: c.rate_limit,
        trusted_proxies: c.trusted_proxy,
        shutdown_grace: c.shutdown_timeout,
        json_logs,
        checks: urlkit_purl::server::checks::CheckSchedule {
            every: Some(args.check_every).filter(|d| !d.is_zero()),
            options: args.checker.options(),
        },
    };
    crate::serve_cmd::start_logging(json_logs, c.verbose, &["urlkit_web", "urlkit_purl"]);
    crate::serve_cmd::run_server(urlkit_purl::server::serve(config))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offers_split_at_the_url() {
        let offer = parse_offer("text/turtle;lang=en=https://example.org/v.ttl?a=b").unwrap();
        assert_eq!(offer.media_type, "text/turtle");
        assert_eq!(offer.language.as_deref(), Some("en"));
        assert_eq!(offer.target, "https://example.org/v.ttl?a=b");
        let offer = parse_offer("application/ld+json;charset=utf-8=urn:x:y").unwrap();
        assert_eq!(offer.media_type, "application/ld+json;charset=utf-8");
        assert_eq!(offer.language, None);
        assert_eq!(offer.target, "urn:x:y");
        assert!(parse_offer("text/html").is_err());
        assert!(parse_offer("text/html=/relative").is_err());
    }

    #[test]
    fn grants_default_to_write() {
        let grant = parse_grant("/net/").unwrap();
        assert_eq!(grant.right, Right::Write);
        assert_eq!(parse_grant("/org/=read").unwrap().right, Right::Read);
        assert!(parse_grant("/org/=admin").is_err());
    }
}
