//! The inspector's commands: `parse`, `resolve`, `relativize`, `normalize`, `compare`, `idn`
//! and `base58`. Each turns its arguments into calls on `urlkit::inspect` and prints.

use clap::{Args, Subcommand};
use serde_json::json;
use std::io::{self, BufRead, BufWriter, Read, Write};
use std::process::ExitCode;
use urlkit::inspect::rfc3986::{
    self, compare, normalize, relativize, resolve, Components, NormalizeOptions,
};
use urlkit::inspect::template::Template;
use urlkit::inspect::whatwg::{diagram, parse_with_warnings, UrlReport};
use urlkit::inspect::{base58, idn, iri, whatwg, Position, Url};

/// The inspector's subcommands.
#[derive(Subcommand, Debug)]
pub enum InspectCommand {
    /// Take URLs apart (WHATWG URL Standard, or RFC 3986 with --rfc3986).
    #[command(after_help = PARSE_HELP)]
    Parse(ParseArgs),
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

const PARSE_HELP: &str = "Examples:
  urlkit parse 'https://john.doe@www.example.com:123/forum/questions/?tag=networking&order=newest#top'
  urlkit parse --json 'http://例子.卷筒纸/引き割り.html'
  urlkit parse --rfc3986 'ldap://[2001:db8::7]/c=GB?objectClass?one'
  urlkit parse --base https://example.com/a/b '../c?x=1'
  cat urls.txt | urlkit parse --get '{host}'
  cat urls.txt | urlkit parse --get '{scheme}://{host}:{port} {query:utm_source}'

--get placeholders: {url} {scheme} {user} {password} {host} {host:unicode} {port} {path}
{query} {fragment} {query:KEY} {query-all:KEY}. Values are decoded; {:path} or {path:raw} gives the
encoded form. Exit status 1 if any URL failed to parse (its line is left empty).";

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

/// Arguments of `urlkit parse`.
#[derive(Args, Debug)]
pub struct ParseArgs {
    /// One JSON object per line for every URL (errors as {\"input\",\"error\",\"position\"}).
    #[arg(long)]
    json: bool,
    /// Split by the RFC 3986 generic syntax instead of the WHATWG URL Standard.
    #[arg(long, conflicts_with = "get")]
    rfc3986: bool,
    /// Resolve each URL against this base URL first.
    #[arg(long, value_name = "URL")]
    base: Option<String>,
    /// Print one line per URL from this template (see below).
    #[arg(long, value_name = "FORMAT", conflicts_with = "json")]
    get: Option<String>,
    /// URLs to parse; none: one per line on stdin.
    urls: Vec<String>,
}

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
        InspectCommand::Parse(a) => run_parse(a),
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

/// Calls `f` for each URL: the arguments, or each stdin line (LF or CRLF), with its number.
fn for_each_input(
    urls: &[String],
    mut f: impl FnMut(usize, &str) -> io::Result<()>,
) -> io::Result<()> {
    if !urls.is_empty() {
        for (i, u) in urls.iter().enumerate() {
            f(i + 1, u)?;
        }
        return Ok(());
    }
    let mut reader = io::BufReader::with_capacity(1 << 20, io::stdin().lock());
    let mut line = Vec::with_capacity(4096);
    let mut n = 0;
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        n += 1;
        let mut l = line.as_slice();
        if n == 1 {
            // A byte order mark opens many files saved on Windows; it is not part of the URL.
            l = l.strip_prefix("\u{FEFF}".as_bytes()).unwrap_or(l);
        }
        if let Some(rest) = l.strip_suffix(b"\n") {
            l = rest.strip_suffix(b"\r").unwrap_or(rest);
        }
        match std::str::from_utf8(l) {
            Ok(s) => f(n, s)?,
            Err(_) => f(n, &String::from_utf8_lossy(l))?,
        }
    }
}

fn run_parse(a: ParseArgs) -> io::Result<ExitCode> {
    let base = match a
        .base
        .as_deref()
        .map(|b| whatwg::parse(b, None))
        .transpose()
    {
        Ok(b) => b,
        Err(e) => return usage(format!("--base is not a valid URL: {e}")),
    };
    let from_stdin = a.urls.is_empty();
    if let Some(format) = &a.get {
        let template = match Template::parse(format) {
            Ok(t) => t,
            Err(e) => return usage(format!("--get: {e}")),
        };
        return run_get(&template, base.as_ref(), &a.urls);
    }
    let mut out = BufWriter::new(io::stdout().lock());
    let mut ok = true;
    let mut first = true;
    for_each_input(&a.urls, |n, input| {
        let at = |p: usize| {
            if from_stdin {
                format!("line {n}, byte {p}")
            } else {
                format!("byte {p}")
            }
        };
        let failed = if a.rfc3986 {
            match Components::of(input) {
                Ok(c) if a.json => {
                    writeln!(out, "{}", serde_json::to_string(&c)?)?;
                    None
                }
                Ok(c) => {
                    if !first {
                        writeln!(out)?;
                    }
                    write_rfc3986_table(&mut out, &c)?;
                    None
                }
                Err(e) => Some((e.message, e.position)),
            }
        } else {
            match whatwg::report(input, base.as_ref()) {
                Ok(r) if a.json => {
                    writeln!(out, "{}", serde_json::to_string(&r)?)?;
                    None
                }
                Ok(r) => {
                    if !first {
                        writeln!(out)?;
                    }
                    write_table(&mut out, &r, base.as_ref())?;
                    None
                }
                Err(e) => Some((e.message, e.position)),
            }
        };
        if let Some((message, position)) = failed {
            ok = false;
            if a.json {
                let j = json!({"input": input, "error": message, "position": position});
                writeln!(out, "{j}")?;
            }
            eprintln!("urlkit: {input:?}: {}: {}", at(position), message);
        }
        first = false;
        Ok(())
    })?;
    out.flush()?;
    Ok(status(ok))
}

/// The batch path: no per-URL allocation beyond `Url::parse` itself.
fn run_get(template: &Template, base: Option<&Url>, urls: &[String]) -> io::Result<ExitCode> {
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut buf: Vec<u8> = Vec::with_capacity(1 << 16);
    let mut ok = true;
    for_each_input(urls, |n, line| {
        match whatwg::parse(line, base) {
            Ok(url) => template.render(&url, &mut buf),
            Err(_) => {
                ok = false;
                if let Err(e) = parse_with_warnings(line, base) {
                    eprintln!(
                        "urlkit: line {n}: {line:?}: byte {}: {}",
                        e.position, e.message
                    );
                }
            }
        }
        buf.push(b'\n');
        if buf.len() >= 1 << 15 {
            out.write_all(&buf)?;
            buf.clear();
        }
        Ok(())
    })?;
    out.write_all(&buf)?;
    out.flush()?;
    Ok(status(ok))
}

fn write_table(out: &mut impl Write, r: &UrlReport, base: Option<&Url>) -> io::Result<()> {
    if let Ok(url) = whatwg::parse(&r.input, base) {
        for line in diagram(&url).lines() {
            writeln!(out, "  {line}")?;
        }
        writeln!(out)?;
    }
    let row = |out: &mut dyn Write, k: &str, v: &str| writeln!(out, "{k:<14}{v}");
    row(out, "href", &r.href)?;
    let display = iri::uri_to_iri_display(&r.href);
    let display = match &r.host_unicode {
        Some(u) if *u != r.hostname => display.replacen(&r.hostname, u, 1),
        _ => display,
    };
    if display != r.href {
        row(out, "display", &display)?;
    }
    row(out, "scheme", &r.scheme)?;
    if !r.username.is_empty() {
        row(out, "username", &r.username)?;
    }
    if !r.password.is_empty() {
        row(out, "password", &r.password)?;
    }
    let host = match &r.host_unicode {
        Some(u) if *u != r.hostname => format!("{}  ({}, Unicode: {u})", r.hostname, r.host_type),
        _ => format!("{}  ({})", r.hostname, r.host_type),
    };
    if r.host_type != "none" || !r.hostname.is_empty() {
        row(out, "host", &host)?;
    }
    let port = match (r.port.as_str(), r.default_port) {
        ("", Some(d)) => format!("{d}  (default)"),
        ("", None) => String::new(),
        (p, Some(d)) => format!("{p}  ({}: default {d})", r.scheme),
        (p, None) => p.to_owned(),
    };
    if !port.is_empty() {
        row(out, "port", &port)?;
    }
    row(out, "path", &r.pathname)?;
    if let Some(segments) = &r.path_segments {
        for (i, s) in segments.iter().enumerate() {
            writeln!(out, "  [{i}]         {s:?}")?;
        }
    }
    if !r.search.is_empty() {
        row(out, "query", &r.search[1..])?;
        for (k, v) in &r.query_pairs {
            writeln!(out, "  {k:?} = {v:?}")?;
        }
    }
    if let Some(f) = &r.fragment {
        row(out, "fragment", f)?;
    }
    row(out, "origin", &r.origin)?;
    for w in &r.warnings {
        writeln!(out, "warning       {w}")?;
    }
    Ok(())
}

fn write_rfc3986_table(out: &mut impl Write, c: &Components) -> io::Result<()> {
    let row = |out: &mut dyn Write, k: &str, v: Option<&str>| match v {
        Some(v) => writeln!(out, "{k:<14}{v}"),
        None => Ok(()),
    };
    if let Ok(drawing) = rfc3986::diagram(&c.input) {
        for line in drawing.lines() {
            writeln!(out, "  {line}")?;
        }
        writeln!(out)?;
    }
    row(out, "uri", Some(&c.input))?;
    row(out, "kind", Some(c.kind))?;
    row(out, "scheme", c.scheme.as_deref())?;
    row(out, "authority", c.authority.as_deref())?;
    row(out, "userinfo", c.userinfo.as_deref())?;
    if let (Some(h), Some(t)) = (&c.host, c.host_type) {
        let t = serde_json::to_value(t).ok();
        let kind = t.as_ref().and_then(|v| v.as_str()).unwrap_or("");
        row(out, "host", Some(&format!("{h}  ({kind})")))?;
    }
    row(out, "port", c.port.as_deref())?;
    row(out, "path", Some(&c.path))?;
    row(out, "query", c.query.as_deref())?;
    // Only queries that look like name=value lists are shown as pairs (LDAP's is not one).
    let looks_like_pairs = c.query.as_deref().is_some_and(|q| q.contains('='));
    for (k, v) in c.query_pairs.iter().filter(|_| looks_like_pairs) {
        writeln!(out, "  {k:?} = {v:?}")?;
    }
    row(out, "fragment", c.fragment.as_deref())
}

fn run_resolve(a: ResolveArgs) -> io::Result<ExitCode> {
    let mut out = io::stdout().lock();
    if a.whatwg {
        let base = match whatwg::parse(&a.base, None) {
            Ok(b) => b,
            Err(e) => return usage(format!("base {:?} is not a valid URL: {e}", a.base)),
        };
        let mut ok = true;
        for r in &a.refs {
            match whatwg::parse(r, Some(&base)) {
                Ok(u) => writeln!(out, "{u}")?,
                Err(_) => {
                    ok = false;
                    let e = parse_with_warnings(r, Some(&base)).err();
                    let why = e.map_or_else(|| "does not resolve".into(), |e| e.to_string());
                    eprintln!("urlkit: {r:?}: {why}");
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
                    eprintln!("urlkit: warning: {name}: {}", w.message);
                }
            }
            Err(e) => {
                ok = false;
                eprintln!("urlkit: {name:?}: {e}");
            }
        }
    }
    Ok(status(ok))
}

/// A whole URL through the WHATWG parser; for Unicode, the host shown in Unicode and the
/// rest decoded for display (RFC 3987 §3.2).
fn idn_url(input: &str, to_ascii: bool) -> Result<String, String> {
    let url = parse_with_warnings(input, None)
        .map_err(|e| e.to_string())?
        .0;
    if to_ascii {
        return Ok(url.to_string());
    }
    let host = url.host_str().unwrap_or("");
    let start = url[..Position::BeforeHost].len();
    let end = url[..Position::AfterHost].len();
    let unicode = idn::to_unicode(host).map_err(|e| e.to_string())?;
    let href = url.as_str();
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
