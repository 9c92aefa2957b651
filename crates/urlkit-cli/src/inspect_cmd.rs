//! The inspector's commands: `parse`, `resolve`, `relativize`, `normalize`, `compare`, `idn`
//! and `base58`. Each turns its arguments into calls on `urlkit::inspect` and prints.

mod url_cmd;

use clap::{Args, Subcommand};
use std::io::{self, Read, Write};
use std::process::ExitCode;
pub(crate) use urlkit::inspect::excerpt;
use urlkit::inspect::rfc3986::{compare, normalize, relativize, resolve, NormalizeOptions};
use urlkit::inspect::{base58, idn, iri, whatwg};

/// The inspector's subcommands.
#[derive(Subcommand, Debug)]
pub enum InspectCommand {
    /// Take URLs apart (WHATWG URL Standard, or RFC 3986 with --rfc3986).
    #[command(after_help = url_cmd::PARSE_HELP)]
    Parse(url_cmd::UrlArgs),
    /// Edit URLs in batch: set, clear, append, trim, sort, redirect, expand (as trurl).
    #[command(after_help = url_cmd::EDIT_HELP)]
    Edit(url_cmd::UrlArgs),
    /// Answer inspector requests (the JSON of POST /api/inspect), one per line.
    #[command(after_help = url_cmd::INSPECT_HELP)]
    Inspect(url_cmd::InspectArgs),
    /// Resolve references against a base URI (RFC 3986 §5.2, or WHATWG with --whatwg).
    #[command(after_help = RESOLVE_HELP)]
    Resolve(ResolveArgs),
    /// Find the shortest reference that resolves against BASE to URL.
    #[command(after_help = RELATIVIZE_HELP)]
    Relativize(RelativizeArgs),
    /// Normalize URIs (RFC 3986 §6.2.2 and §6.2.3).
    #[command(after_help = NORMALIZE_HELP)]
    Normalize(NormalizeArgs),
    /// Say whether two URIs are equivalent (exit 0) or not (exit 1), and what differs.
    #[command(after_help = COMPARE_HELP)]
    Compare(CompareArgs),
    /// Convert internationalized domain names (UTS #46) to ASCII or Unicode.
    #[command(after_help = IDN_HELP)]
    Idn(IdnArgs),
    /// Base58 (Bitcoin alphabet) encoding and decoding.
    #[command(after_help = BASE58_HELP)]
    Base58(Base58Args),
}

const RESOLVE_HELP: &str = "Examples:
  urlkit resolve 'http://a/b/c/d;p?q' '../g' '?y' '#s'    # http://a/b/g  http://a/b/c/d;p?y  http://a/b/c/d;p?q#s
  urlkit resolve --whatwg 'http://a/b/c' '..\\x'           # browser behaviour";

const RELATIVIZE_HELP: &str = "Examples:
  urlkit relativize 'http://a/b/c/d;p?q' 'http://a/b/g'     # ../g
  urlkit relativize 'http://a/b/c/d' 'http://a/b/c/d#frag'  # #frag";

const NORMALIZE_HELP: &str = "Examples:
  urlkit normalize 'HTTP://Example.COM:80/%7euser/./a/../b'   # http://example.com/~user/b
  urlkit normalize --sort-query 'http://a/?b=2&a=1'            # http://a/?a=1&b=2";

const COMPARE_HELP: &str = "Examples:
  urlkit compare 'http://A:80/%7euser/./x' 'http://a/~user/x'   # equivalent, exit 0
  urlkit compare 'http://a/x?q=1' 'https://a/x?q=2'           # lists scheme and query, exit 1";

const IDN_HELP: &str = "Examples:
  urlkit idn --to-ascii '例子.卷筒纸'                       # xn--fsqu00a.xn--3lr804guic
  urlkit idn --to-ascii 'http://例子.卷筒纸'                # http://xn--fsqu00a.xn--3lr804guic/
  urlkit idn --to-unicode 'http://xn--fsqu00a.xn--3lr804guic/'
Warnings about mixed-script or confusable labels go to stderr.";

const BASE58_HELP: &str = "Examples:
  urlkit base58 encode 'hello world'          # StV1DL6CwTryKyV
  urlkit base58 decode StV1DL6CwTryKyV        # hello world
  urlkit base58 decode --hex 1BoatSLRHtKNngkdXEeobR76b53LETtpyT
Without TEXT, stdin is the one entry (encode: its bytes; decode: its text, trimmed).";

/// Arguments of `urlkit resolve`.
#[derive(Args, Debug)]
pub struct ResolveArgs {
    /// Resolve as browsers do (WHATWG URL Standard) instead of RFC 3986 §5.2.
    #[arg(long)]
    whatwg: bool,
    /// The base URI (must have a scheme).
    base: String,
    /// References to resolve.
    #[arg(required = true)]
    refs: Vec<String>,
}

/// Arguments of `urlkit relativize`.
#[derive(Args, Debug)]
pub struct RelativizeArgs {
    /// The base URI.
    base: String,
    /// The URI to express relative to BASE.
    url: String,
}

/// Arguments of `urlkit normalize`.
#[derive(Args, Debug)]
pub struct NormalizeArgs {
    /// Also sort query parameters by name.
    #[arg(long)]
    sort_query: bool,
    /// URIs to normalize.
    #[arg(required = true)]
    urls: Vec<String>,
}

/// Arguments of `urlkit compare`.
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Also sort query parameters by name before comparing.
    #[arg(long)]
    sort_query: bool,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
    /// The first URI.
    left: String,
    /// The second URI.
    right: String,
}

/// Arguments of `urlkit idn`.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("direction").required(true).args(["to_ascii", "to_unicode"])))]
pub struct IdnArgs {
    /// Unicode → Punycode (UTS #46 ToASCII, as the URL Standard uses it).
    #[arg(long)]
    to_ascii: bool,
    /// Punycode → Unicode (UTS #46 ToUnicode).
    #[arg(long)]
    to_unicode: bool,
    /// Domain names, or whole URLs (containing "://").
    #[arg(required = true)]
    names: Vec<String>,
}

/// Arguments of `urlkit base58`.
#[derive(Args, Debug)]
pub struct Base58Args {
    /// encode or decode.
    #[arg(value_enum)]
    direction: Base58Direction,
    /// Bytes given and shown as hexadecimal (encode input, decode output).
    #[arg(long)]
    hex: bool,
    /// Entries; none: stdin is one entry.
    texts: Vec<String>,
}

/// Which way `urlkit base58` goes.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base58Direction {
    /// Bytes to Base58.
    Encode,
    /// Base58 to bytes.
    Decode,
}

/// Runs one inspector command, printing to stdout and stderr. Exit status: 0 success,
/// 1 input rejected (or, for `compare`, not equivalent), 2 wrong usage.
pub fn run(cmd: InspectCommand) -> ExitCode {
    let result = match cmd {
        InspectCommand::Parse(a) => url_cmd::run(a, false),
        InspectCommand::Edit(a) => url_cmd::run(a, true),
        InspectCommand::Inspect(a) => url_cmd::run_inspect(a),
        InspectCommand::Resolve(a) => run_resolve(a),
        InspectCommand::Relativize(a) => run_relativize(a),
        InspectCommand::Normalize(a) => run_normalize(a),
        InspectCommand::Compare(a) => run_compare(a),
        InspectCommand::Idn(a) => run_idn(a),
        InspectCommand::Base58(a) => run_base58(a),
    };
    match result {
        Ok(code) => code,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("urlkit: {e}");
            ExitCode::from(1)
        }
    }
}

fn usage(message: impl std::fmt::Display) -> io::Result<ExitCode> {
    eprintln!("urlkit: {message}");
    Ok(ExitCode::from(2))
}

fn rejected(message: impl std::fmt::Display) -> io::Result<ExitCode> {
    eprintln!("urlkit: {message}");
    Ok(ExitCode::from(1))
}

fn status(ok: bool) -> ExitCode {
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn run_resolve(a: ResolveArgs) -> io::Result<ExitCode> {
    let mut out = io::stdout().lock();
    if a.whatwg {
        let base = match whatwg::parse(&a.base, None) {
            Ok(b) => b,
            Err(e) => return usage(format!("base {} is not a valid URL: {e}", excerpt(&a.base))),
        };
        let mut ok = true;
        for r in &a.refs {
            match whatwg::parse(r, Some(&base)) {
                Ok(u) => writeln!(out, "{u}")?,
                Err(e) => {
                    ok = false;
                    eprintln!("urlkit: {}: {e}", excerpt(r));
                }
            }
        }
        return Ok(status(ok));
    }
    for r in &a.refs {
        match resolve(&a.base, r) {
            Ok(s) => writeln!(out, "{s}")?,
            Err(e) => return rejected(e),
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn run_relativize(a: RelativizeArgs) -> io::Result<ExitCode> {
    match relativize(&a.base, &a.url) {
        Ok(s) => {
            println!("{s}");
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => rejected(e),
    }
}

fn run_normalize(a: NormalizeArgs) -> io::Result<ExitCode> {
    let options = NormalizeOptions {
        sort_query: a.sort_query,
    };
    let mut out = io::stdout().lock();
    for u in &a.urls {
        writeln!(out, "{}", normalize(u, &options))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn run_compare(a: CompareArgs) -> io::Result<ExitCode> {
    let options = NormalizeOptions {
        sort_query: a.sort_query,
    };
    let c = compare(&a.left, &a.right, &options);
    let mut out = io::stdout().lock();
    if a.json {
        writeln!(out, "{}", serde_json::to_string(&c)?)?;
    } else if c.equivalent {
        writeln!(out, "equivalent: both normalize to {}", c.left)?;
    } else {
        writeln!(out, "not equivalent")?;
        writeln!(out, "  left   {}", c.left)?;
        writeln!(out, "  right  {}", c.right)?;
        for d in &c.differences {
            let show = |v: &Option<String>| {
                v.as_deref()
                    .map_or("(none)".to_owned(), |s| format!("{s:?}"))
            };
            writeln!(
                out,
                "  {:<9} {} ≠ {}",
                d.component,
                show(&d.left),
                show(&d.right)
            )?;
        }
    }
    Ok(status(c.equivalent))
}

fn run_idn(a: IdnArgs) -> io::Result<ExitCode> {
    let mut out = io::stdout().lock();
    let mut ok = true;
    for name in &a.names {
        let result = if name.contains("://") {
            idn_url(name, a.to_ascii)
        } else if a.to_ascii {
            idn::to_ascii(name).map_err(|e| e.to_string())
        } else {
            idn::to_unicode(name).map_err(|e| e.to_string())
        };
        match result {
            Ok(s) => {
                writeln!(out, "{s}")?;
                let host = if name.contains("://") {
                    whatwg::parse(name, None)
                        .ok()
                        .and_then(|u| u.host_str().map(idn::to_unicode_lossy))
                } else {
                    Some(idn::to_unicode_lossy(name))
                };
                for w in host
                    .map(|h: String| idn::host_warnings(&h, 0))
                    .unwrap_or_default()
                {
                    eprintln!("urlkit: warning: {}: {}", excerpt(name), w.message);
                }
            }
            Err(e) => {
                ok = false;
                eprintln!("urlkit: {}: {e}", excerpt(name));
            }
        }
    }
    Ok(status(ok))
}

/// A whole URL through the WHATWG parser; for Unicode, the host shown in Unicode and the
/// rest decoded for display (RFC 3987 §3.2).
fn idn_url(input: &str, to_ascii: bool) -> Result<String, String> {
    let url = whatwg::parse(input, None).map_err(|e| e.to_string())?;
    if to_ascii {
        return Ok(url.to_string());
    }
    let host = url.layout().host.unwrap_or(0..0);
    let (start, end) = (host.start, host.end);
    let href = url.as_str();
    let unicode = idn::to_unicode(&href[start..end]).map_err(|e| e.to_string())?;
    Ok(format!(
        "{}{unicode}{}",
        &href[..start],
        iri::uri_to_iri_display(&href[end..])
    ))
}

fn run_base58(a: Base58Args) -> io::Result<ExitCode> {
    let mut entries: Vec<Vec<u8>> = a.texts.iter().map(|t| t.as_bytes().to_vec()).collect();
    if entries.is_empty() {
        let mut all = Vec::new();
        io::stdin().lock().read_to_end(&mut all)?;
        entries.push(all);
    }
    let mut out = io::stdout().lock();
    let mut ok = true;
    for entry in entries {
        match a.direction {
            Base58Direction::Encode => {
                let bytes = if a.hex {
                    match parse_hex(String::from_utf8_lossy(&entry).trim()) {
                        Ok(b) => b,
                        Err(e) => {
                            ok = false;
                            eprintln!("urlkit: {e}");
                            continue;
                        }
                    }
                } else {
                    entry
                };
                writeln!(out, "{}", base58::encode(&bytes))?;
            }
            Base58Direction::Decode => {
                let text = String::from_utf8_lossy(&entry);
                match base58::decode(text.trim()) {
                    Ok(bytes) if a.hex => {
                        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
                        writeln!(out, "{hex}")?;
                    }
                    Ok(bytes) => {
                        out.write_all(&bytes)?;
                        out.write_all(b"\n")?;
                    }
                    Err(e) => {
                        ok = false;
                        eprintln!("urlkit: {e}");
                    }
                }
            }
        }
    }
    Ok(status(ok))
}

fn parse_hex(s: &str) -> Result<Vec<u8>, String> {
    if !s.len().is_multiple_of(2) {
        return Err(format!(
            "hex input has an odd number of digits ({})",
            s.len()
        ));
    }
    (0..s.len())
        .step_by(2)
        .map(|i| {
            s.get(i..i + 2)
                .and_then(|p| u8::from_str_radix(p, 16).ok())
                .ok_or_else(|| {
                    format!(
                        "byte {i}: {:?} is not a hex byte",
                        s.get(i..i + 2).unwrap_or("?")
                    )
                })
        })
        .collect()
}
