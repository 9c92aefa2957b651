//! `urlkit parse` and `urlkit edit`: URLs from the arguments or stdin (one per line), taken
//! apart or edited in one pass, printed as a table, one JSON object per line, a `--get`
//! template or the edited URL. Each becomes calls on `urlkit::inspect`.

use super::{excerpt, status, usage};
use clap::Args;
use serde_json::json;
use std::borrow::Cow;
use std::io::{self, BufWriter, Read, Write};
use std::path::Path;
use std::process::ExitCode;
use urlkit::inspect::edit::{
    combinations, count_text, Alternatives, Component, EditError, Edits, MAX_EXPANSIONS,
};
use urlkit::inspect::rfc3986::{self, Components};
use urlkit::inspect::template::{href_with, Reference, RenderError, Source, Style, Template};
use urlkit::inspect::whatwg::{self, UrlReport};
use urlkit::inspect::{iri, Url};
use urlkit_api::inspect::{InspectError, InspectRequest};
use urlkit_api::RequestError;

/// What `urlkit parse` prints without `--json` or `--get`: a table per URL.
pub const PARSE_HELP: &str = "Examples:
  urlkit parse 'https://john.doe@www.example.com:123/forum/questions/?tag=networking&order=newest#top'
  urlkit parse --json 'http://例子.卷筒纸/引き割り.html'
  urlkit parse --rfc3986 'ldap://[2001:db8::7]/c=GB?objectClass?one'
  urlkit parse --base https://example.com/a/b '../c?x=1'
  cat urls.txt | urlkit parse --get '{host}'
  cat urls.txt | urlkit parse --get '{scheme}://{host}:{default:port} {query:utm_source}'

Every option of `urlkit edit` works here too; the table or JSON then shows the edited URL.

--get placeholders (trurl's): {url} {scheme} {user} {password} {host} {hostport} {port}
{path} {query} {fragment} {query:KEY} {query-all:KEY}. Values are decoded; {:path} gives
the encoded form. {port} is the port written in the URL (the URL Standard leaves a default
port out); {default:port} falls back to the scheme's. Qualifiers go before the name and
combine: default: (the default port, also in {default:url}), puny: and idn: (the host in
Punycode or Unicode: {idn:host}, {puny:url}), must: (a missing component or parameter fails
the URL: {must:query:id}), strict: (a value with an escape of a control character fails
the URL), url: (encoded). [host] works as {host} when the template's first bracket is [;
{{ and [[ are literal brackets, and so are \\{ and \\[; \\n \\t \\r are newline, tab and CR.
A URL that fails to parse, to take an edit or to fill a must: or strict: placeholder
leaves its line empty (one output line per URL), is named on stderr with its line, byte
and component, and makes the exit status 1.

The JSON (and POST /api/inspect) lists at most 1,000 query pairs, 1,000 path segments and
100 warnings per URL, with the count of those left out, and draws URLs up to 2,048 bytes.";

/// What `urlkit edit` prints: one URL per line.
pub const EDIT_HELP: &str = "Examples:
  urlkit edit --set host=example.org --set port= 'http://a.example:8080/x'
  urlkit edit --append query=lang=en --qtrim 'utm_*' --sort-query < urls.txt
  urlkit edit --replace id=7 --replace-append lang=en 'https://a.example/?id=1&id=2'
  urlkit edit --set 'port?=8080' 'http://a.example/'       # only where there is no port
  urlkit edit -s scheme=https -s host=example.org -s path=/x   # https://example.org/x
  urlkit edit --redirect ../here.html 'https://curl.se/we/are.html'   # https://curl.se/here.html
  urlkit edit --expand 'https://{www,api}.example.com/{a,b}'
  urlkit edit --iterate 'scheme=http https' --iterate 'port=80 8080' http://example.com/x
  urlkit edit --keep-port --as-idn 'https://xn--rksmrgs-5wao1o.se:443/'
  urlkit edit --get '{host} {default:port} {must:query:id}' < urls.txt
  urlkit edit --rfc3986 --set host=ldap.example 'ldap://[2001:db8::7]/c=GB?objectClass?one'
  urlkit edit --json --clear query 'https://a.example/?q=1#f'

Components (trurl's names; the URL API's in brackets): scheme (protocol), user (username),
password, host (hostname), hostport (host: host and port), port, path (pathname),
query (search), fragment (hash), url (href). Setting follows the URL Standard's setters,
as `new URL()` in a browser: `--set port=` clears the port, `--set path=a b` gives `/a%20b`,
and a value a setter refuses is an error naming the URL's line and the component.
COMPONENT?=VALUE sets only a component the URL lacks; COMPONENT:=VALUE is COMPONENT=VALUE.
With --set and no URL, and stdin a terminal or /dev/null (not a pipe or a file of URLs),
the URL is made of the values: it needs a scheme and a host, or a url.

Order of edits (trurl's): --redirect, each --set in the order given, each --clear, path
appends, then on the query: --qtrim/--trim, --replace, query appends, --sort-query. A query
an edit touches loses its empty pieces (`?a=b&&c=d&`). With --rfc3986 the edits follow
RFC 3986 instead (for ldap:, urn: and other URIs a browser would rewrite).

Where trurl (libcurl) and the URL Standard read a URL differently, urlkit keeps the
standard: no scheme guessing (write `http://`), a space in a query is %20 not +, `\\` in a
path is `/`, escapes are kept as written; the README lists each difference.

Exit status 1 if any URL failed (its line is left empty; --verify stops at the first), 2
for wrong usage, including options that contradict each other (a component set twice, by
--set or by --set and --iterate; --punycode with --as-idn), named in the message. --json
lists at most 1,000 query pairs, 1,000 path segments and 100 warnings per URL, with the
count of those left out.";

/// What `urlkit inspect` does.
pub const INSPECT_HELP: &str = "Examples:
  urlkit inspect '{\"url\": \"https://a.example/?q=1\", \"set\": {\"port\": \"8080\"}, \"sort_query\": true}'
  urlkit inspect < requests.jsonl > answers.jsonl

Each request is the JSON body of POST /api/inspect: {url, base?, set?: {component: value},
clear?: [component], append_query?: [\"name=value\"], trim_query?: [\"name or pattern\"],
sort_query?: bool}. Each answer is the server's, on one line: {whatwg, whatwg_error, rfc3986,
rfc3986_error, resolved}, or its error body {error: {code, message, field, offset}}.
Requests carry at most 64 KiB of text and 100 edits; answers list at most 1,000 query
pairs, 1,000 path segments and 100 warnings per view. Exit status 1 if any request failed.";

/// The options of `urlkit inspect`.
#[derive(Args, Debug)]
pub struct InspectArgs {
    /// Requests (JSON objects); none: one per line on stdin.
    requests: Vec<String>,
}

/// Runs `urlkit inspect`: each request through `urlkit_api::inspect`, the server's own code.
pub fn run_inspect(a: InspectArgs) -> io::Result<ExitCode> {
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut ok = true;
    for_each_input(&a.requests, None, |_, line| {
        let answer = serde_json::from_slice::<InspectRequest>(line)
            .map_err(|e| {
                InspectError::Invalid(RequestError::new(
                    "",
                    format!("not an inspect request: {e}"),
                ))
            })
            .and_then(|request| urlkit_api::inspect::inspect(&request));
        match answer {
            Ok(response) => writeln!(out, "{}", serde_json::to_string(&response)?),
            Err(e) => {
                ok = false;
                writeln!(out, "{}", serde_json::to_string(&e.to_body())?)
            }
        }
    })?;
    out.flush()?;
    Ok(status(ok))
}

/// The options of `urlkit parse` and `urlkit edit`.
#[derive(Args, Debug)]
pub struct UrlArgs {
    /// One JSON object per line for every URL (errors as {"input", "error", "component",
    /// "position"}).
    #[arg(long)]
    json: bool,
    /// Read the URLs by the RFC 3986 generic syntax instead of the WHATWG URL Standard.
    #[arg(long)]
    rfc3986: bool,
    /// Resolve each URL against this base URL first.
    #[arg(long, value_name = "URL")]
    base: Option<String>,
    /// Print one line per URL from this template (see below).
    #[arg(short = 'g', long, value_name = "FORMAT", conflicts_with = "json")]
    get: Option<String>,
    #[command(flatten)]
    edits: EditArgs,
    #[command(flatten)]
    style: StyleArgs,
    /// Stop at the first URL that fails, with exit status 1 (its line is not written).
    #[arg(long)]
    verify: bool,
    /// A URL to work with (as an argument; may be given several times, before the others).
    #[arg(long = "url", value_name = "URL")]
    url_option: Vec<String>,
    /// Read the URLs from this file, one per line (`-`: stdin), after those given as
    /// arguments.
    #[arg(short = 'f', long, value_name = "FILE")]
    url_file: Option<std::path::PathBuf>,
    /// Accepted for trurl's scripts: spaces are taken as the URL Standard takes them
    /// (percent-encoded, and leading and trailing ones dropped).
    #[arg(long)]
    accept_space: bool,
    /// Accepted for trurl's scripts: a URL always needs its scheme here.
    #[arg(long)]
    no_guess_scheme: bool,
    /// Accepted for trurl's scripts: urlkit writes only errors to stderr.
    #[arg(long)]
    quiet: bool,
    /// URLs; none (and no --url or --url-file): one per line on stdin, or with --set and
    /// stdin a terminal or /dev/null, the URL the --set options make.
    urls: Vec<String>,
}

/// How URLs are shown (trurl's output options).
#[derive(Args, Debug)]
pub struct StyleArgs {
    /// Keep an explicit default port (`https://h:443/`), which the URL Standard leaves out,
    /// in the URL printed and in --get.
    #[arg(long)]
    keep_port: bool,
    /// Write the scheme's default port wherever the URL has none.
    #[arg(long)]
    default_port: bool,
    /// Hosts in Punycode (the URL Standard's form, which special schemes always have).
    #[arg(long, conflicts_with = "as_idn")]
    punycode: bool,
    /// Hosts in Unicode (UTS #46 ToUnicode) in the URL printed and in --get.
    #[arg(long)]
    as_idn: bool,
    /// --get values as they appear in the URL, percent-encoded (every placeholder as
    /// {:name}).
    #[arg(long)]
    urlencode: bool,
}

/// The edits, with trurl's option names.
#[derive(Args, Debug)]
pub struct EditArgs {
    /// Set a component: COMPONENT=VALUE (also COMPONENT:=VALUE); COMPONENT?=VALUE sets it
    /// only where the URL has none. An empty value clears the port, query, fragment, user
    /// or password. A component is set once: twice is a usage error.
    #[arg(short = 's', long = "set", value_name = "COMPONENT=VALUE")]
    set: Vec<String>,
    /// Remove a component (user, password, port, query, fragment; the path becomes empty,
    /// the host empty where the scheme allows it).
    #[arg(long, value_name = "COMPONENT")]
    clear: Vec<String>,
    /// Append a path segment (path=SEGMENT) or a query parameter (query=NAME=VALUE), each
    /// percent-encoded as text.
    #[arg(short = 'a', long, value_name = "path=SEGMENT|query=NAME=VALUE")]
    append: Vec<String>,
    /// Remove the query parameters named NAME; `*` matches any run of characters (utm_*).
    #[arg(long, value_name = "NAME")]
    qtrim: Vec<String>,
    /// Like --qtrim, written query=NAME (trurl's older form).
    #[arg(long, value_name = "query=NAME")]
    trim: Vec<String>,
    /// Replace the value of the query parameter NAME (the first of that name; the others
    /// go), encoded as --append's; nothing happens where there is none.
    #[arg(long, value_name = "NAME=VALUE")]
    replace: Vec<String>,
    /// Like --replace, and append NAME=VALUE where there is no parameter of that name.
    #[arg(long, visible_alias = "force-replace", value_name = "NAME=VALUE")]
    replace_append: Vec<String>,
    /// Sort the query parameters by name (stable, as URLSearchParams.sort()).
    #[arg(long)]
    sort_query: bool,
    /// Resolve this reference against each URL (follow a redirect or a link).
    #[arg(long, value_name = "URL")]
    redirect: Option<String>,
    /// Set a component to each of several values in turn: COMPONENT="A B C" prints one URL
    /// per value; several --iterate give every combination.
    #[arg(long, value_name = "COMPONENT=VALUES")]
    iterate: Vec<String>,
    /// Expand {a,b} alternatives in the URLs and in --set values into one URL each (a
    /// literal brace is \{ or %7B).
    #[arg(long)]
    expand: bool,
    /// The character between query parameters for --append query, --qtrim, --replace and
    /// --sort-query.
    #[arg(long, value_name = "CHAR", default_value = "&")]
    query_separator: char,
}

/// What to print for each URL.
enum Output {
    Table,
    Json,
    Get(Template),
    Href,
}

/// A URL read from the input and about to be printed, with the port to show where the URL
/// has none (`--keep-port`'s, which the URL Standard leaves out).
enum Parsed {
    Whatwg(Url, Vec<urlkit::Diagnostic>, Option<u16>),
    Generic(String),
}

/// Why one input gave no URL: the component at fault, the byte of the URL when the URL
/// itself is at fault (not an edit's value), and the message.
struct Failed {
    component: &'static str,
    position: Option<usize>,
    message: String,
    /// Whether the message needs the component before it to be read alone (the URL
    /// Standard's failures name only what failed; JSON gives the component beside it).
    name_component: bool,
}

impl From<whatwg::ParseFailure> for Failed {
    fn from(e: whatwg::ParseFailure) -> Self {
        Failed {
            component: e.component,
            message: e.message,
            position: Some(e.position),
            name_component: true,
        }
    }
}

impl From<EditError> for Failed {
    fn from(e: EditError) -> Self {
        Failed {
            name_component: false,
            component: e.component,
            position: None,
            message: e.to_string(),
        }
    }
}

/// The error that ends the input early: `--verify` met a URL that failed.
#[derive(Debug)]
struct Stopped;

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stopped at the first failure (--verify)")
    }
}

impl std::error::Error for Stopped {}

/// Runs `urlkit parse` (`edit` false: a table by default) or `urlkit edit` (the URL).
pub fn run(mut a: UrlArgs, edit: bool) -> io::Result<ExitCode> {
    let variants = match edits_of(&a.edits) {
        Ok(v) => v,
        Err(message) => return usage(message),
    };
    let base = match a.base.as_deref() {
        Some(b) if a.rfc3986 => match rfc3986::parse(b) {
            Ok(r) if r.scheme.is_some() => None,
            _ => {
                return usage(format!(
                    "--base {} is not an absolute RFC 3986 URI",
                    excerpt(b)
                ))
            }
        },
        Some(b) => match whatwg::parse(b, None) {
            Ok(u) => Some(u),
            Err(e) => return usage(format!("--base is not a valid URL: {e}")),
        },
        None => None,
    };
    let output = match (&a.get, a.json) {
        (Some(format), _) => match Template::parse(format) {
            Ok(t) => Output::Get(t),
            Err(e) => return usage(format!("--get: {e}")),
        },
        (None, true) => Output::Json,
        (None, false) if edit => Output::Href,
        (None, false) => Output::Table,
    };
    let style = Style {
        encoded: a.style.urlencode,
        idn: a.style.as_idn,
        default_port: a.style.default_port,
        port: None,
    };
    // URLs given with --url come first.
    let mut urls = std::mem::take(&mut a.url_option);
    urls.append(&mut a.urls);
    if let Output::Get(template) = &output {
        let plain = variants.is_empty()
            && !a.edits.expand
            && !a.rfc3986
            && !a.verify
            && !a.style.keep_port
            && style == Style::default()
            && !template.checks();
        if plain {
            return run_get(template, base.as_ref(), &urls, a.url_file.as_deref());
        }
    }
    let may_build = urls.is_empty()
        && a.url_file.is_none()
        && (!a.edits.set.is_empty() || !a.edits.iterate.is_empty());
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut ok = true;
    let mut printed = 0usize;
    let mut line = Vec::new();
    let keep_port = a.style.keep_port;
    let warn = matches!(output, Output::Table | Output::Json);
    let mut one_line = |n: Option<usize>, text: &str, building: bool| -> io::Result<()> {
        let at = |p: Option<usize>| match (n, p) {
            (Some(n), Some(p)) => format!("line {n}, byte {p}: "),
            (Some(n), None) => format!("line {n}: "),
            (None, Some(p)) => format!("byte {p}: "),
            (None, None) => String::new(),
        };
        let mut failed = |input: &str, f: Failed, out: &mut BufWriter<_>| -> io::Result<()> {
            ok = false;
            eprintln!(
                "urlkit: {}: {}{}{}",
                excerpt(input),
                at(f.position),
                if f.name_component {
                    format!("{}: ", f.component)
                } else {
                    String::new()
                },
                f.message
            );
            if a.verify {
                out.flush()?;
                return Err(io::Error::other(Stopped));
            }
            fail_line(out, &output, input, f.component, f.position, &f.message)
        };
        // With --expand, the line's alternatives are read, and their count times the
        // options' combinations checked, before any URL is made.
        let alternatives = if a.edits.expand {
            let refused = match Alternatives::parse(text) {
                Ok(alternatives) => {
                    let count = alternatives
                        .count()
                        .and_then(|urls| combinations([urls, variants.count]));
                    match count {
                        Some(c) if c <= MAX_EXPANSIONS => Ok(alternatives),
                        _ => Err((None, too_many(&alternatives, &variants))),
                    }
                }
                Err(e) => Err((Some(e.position), e.message)),
            };
            match refused {
                Ok(alternatives) => Some(alternatives),
                Err((position, message)) => {
                    let f = Failed {
                        name_component: false,
                        component: "url",
                        position,
                        message,
                    };
                    return failed(text, f, &mut out);
                }
            }
        } else {
            None
        };
        let mut each = |input: &str| -> io::Result<()> {
            for k in 0..variants.count {
                let variant = variants.get(k);
                let result = match (building, a.rfc3986) {
                    (true, _) => built(&variant, a.rfc3986, keep_port, warn),
                    (false, true) => generic(input, a.base.as_deref(), &variant),
                    (false, false) => browser(input, base.as_ref(), &variant, keep_port, warn),
                };
                // The URL is shown whole into one buffer (reused), then written: a
                // --get that fails halfway writes nothing of it.
                line.clear();
                let shown =
                    result.and_then(|parsed| show(&mut line, &output, &style, input, &parsed));
                match shown {
                    Ok(()) => {
                        if printed > 0 && matches!(output, Output::Table) {
                            writeln!(out)?;
                        }
                        out.write_all(&line)?;
                    }
                    Err(f) => failed(input, f, &mut out)?,
                }
                printed += 1;
            }
            Ok(())
        };
        match &alternatives {
            Some(alternatives) => alternatives.iter().try_for_each(|input| each(&input)),
            None => each(text),
        }
    };
    // With --set (or --iterate) and no URL anywhere, and stdin a device (a terminal,
    // /dev/null) rather than a pipe or a file of URLs, the URL is made of the values.
    let build = may_build && stdin_is_a_device();
    if build && !variants.makes_a_url() {
        return usage(
            "not enough input for a URL: give one, or --set scheme=… and --set host=… (or --set url=…)",
        );
    }
    let result = if build {
        one_line(None, "(--set)", true)
    } else {
        for_each_input(&urls, a.url_file.as_deref(), |n, line| {
            one_line(n, &String::from_utf8_lossy(line), false)
        })
    };
    match result {
        Err(e) if e.get_ref().is_some_and(|r| r.is::<Stopped>()) => {}
        other => other?,
    }
    out.flush()?;
    Ok(status(ok))
}

/// Whether stdin is a device (a terminal, `/dev/null`) rather than a pipe or a file: then
/// it brings no list of URLs.
fn stdin_is_a_device() -> bool {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use std::os::unix::fs::FileTypeExt;
        let stdin = io::stdin();
        let Ok(fd) = stdin.as_fd().try_clone_to_owned() else {
            return false;
        };
        std::fs::File::from(fd)
            .metadata()
            .is_ok_and(|m| m.file_type().is_char_device())
    }
    #[cfg(not(unix))]
    {
        use std::io::IsTerminal;
        io::stdin().is_terminal()
    }
}

/// What a failed URL leaves in the output: an empty line (so lines still match the input's),
/// or its JSON error, or nothing in a table.
fn fail_line(
    out: &mut impl Write,
    output: &Output,
    input: &str,
    component: &str,
    position: Option<usize>,
    message: &str,
) -> io::Result<()> {
    match output {
        Output::Table => Ok(()),
        Output::Json => {
            let j = json!({"input": input, "error": message, "component": component, "position": position});
            writeln!(out, "{j}")
        }
        Output::Get(_) | Output::Href => writeln!(out),
    }
}

/// One `--set`: the component, the value, and whether it sets only an absent component
/// (`COMPONENT?=VALUE`).
fn set_option(item: &str) -> Result<(&str, &str, bool), String> {
    let Some((name, value)) = item.split_once('=') else {
        return Err(format!("--set {}: write COMPONENT=VALUE", excerpt(item)));
    };
    // trurl's suffixes, in either order: `:` (the value as it is, which the URL
    // Standard's setters take anyway) and `?` (only where the URL has none).
    let mut name = name;
    let mut conditional = false;
    while let Some(last) = name.chars().last().filter(|c| matches!(c, ':' | '?')) {
        conditional |= last == '?';
        name = &name[..name.len() - 1];
    }
    Ok((name, value, conditional))
}

/// The edits of the options, with each combination of `--iterate` values and of `--set`
/// alternatives (with `--expand`) counted, not made.
///
/// Bad input: a malformed option, a component set twice (by two `--set`, or by `--set` and
/// `--iterate`; the message names both), or more than [`MAX_EXPANSIONS`] combinations, is
/// a message for a usage error (naming the options and the count).
fn edits_of(a: &EditArgs) -> Result<Variants, String> {
    let mut edits = Edits {
        redirect: a.redirect.clone(),
        sort_query: a.sort_query,
        query_separator: a.query_separator,
        ..Edits::default()
    };
    let component = |name: &str, option: &str| {
        Component::named(name).map_err(|e| format!("{option} {name}: {}", e.message))
    };
    // Each component set, and the option that sets it, to refuse a second one.
    let mut setters: Vec<(Component, String)> = Vec::new();
    let mut claim = |c: Component, option: String| match setters.iter().find(|(d, _)| *d == c) {
        Some((_, first)) => Err(format!(
            "{first} and {option} both set the {c}: give one (trurl refuses this too)"
        )),
        None => {
            setters.push((c, option));
            Ok(())
        }
    };
    // Each (component, values): one value, or several to iterate over.
    let mut iterated: Vec<(Component, Values)> = Vec::new();
    for item in &a.set {
        let (name, value, conditional) = set_option(item)?;
        let c = component(name, "--set")?;
        claim(c, format!("--set {}", excerpt(item)))?;
        if a.expand && !conditional {
            let values = Alternatives::parse(value).map_err(|e| {
                format!(
                    "--set {}: byte {} of the value: {}",
                    excerpt(item),
                    e.position,
                    e.message
                )
            })?;
            iterated.push((c, Values::Expanded(values)));
        } else if conditional {
            edits.set_if_empty.push((c, value.to_owned()));
        } else {
            edits.set.push((c, value.to_owned()));
        }
    }
    for item in &a.iterate {
        let Some((name, values)) = item.split_once('=') else {
            return Err(format!("--iterate {item:?}: write COMPONENT=\"A B C\""));
        };
        let c = component(name.strip_suffix(':').unwrap_or(name), "--iterate")?;
        claim(c, format!("--iterate {}", excerpt(item)))?;
        iterated.push((
            c,
            Values::Listed(values.split(' ').map(str::to_owned).collect()),
        ));
    }
    for name in &a.clear {
        edits.clear.push(component(name, "--clear")?);
    }
    for item in &a.append {
        match item.split_once('=') {
            Some((name, value)) if component(name, "--append")? == Component::Path => {
                edits.append_path.push(value.to_owned())
            }
            Some((name, value)) if component(name, "--append")? == Component::Query => {
                edits.append_query.push(value.to_owned())
            }
            _ => {
                return Err(format!(
                    "--append {item:?}: write path=SEGMENT or query=NAME=VALUE"
                ))
            }
        }
    }
    edits.trim_query.extend(a.qtrim.iter().cloned());
    for item in &a.trim {
        match item.split_once('=') {
            Some((name, pattern)) if component(name, "--trim")? == Component::Query => {
                edits.trim_query.push(pattern.to_owned())
            }
            _ => {
                return Err(format!(
                    "--trim {item:?}: write query=NAME (only the query can be trimmed)"
                ))
            }
        }
    }
    for (items, append, option) in [
        (&a.replace, false, "--replace"),
        (&a.replace_append, true, "--replace-append"),
    ] {
        for item in items {
            if item.is_empty() {
                return Err(format!(
                    "{option}: no parameter given; write NAME=VALUE (or NAME)"
                ));
            }
            edits.replace_query.push((item.clone(), append));
        }
    }
    let count = iterated
        .iter()
        .map(|(_, v)| v.count())
        .collect::<Option<Vec<usize>>>()
        .and_then(combinations);
    match count {
        Some(count) if count <= MAX_EXPANSIONS => {
            let dimensions = iterated
                .into_iter()
                .map(|(c, values)| {
                    let n = values.count().expect("counted");
                    (c, values, n)
                })
                .collect();
            Ok(Variants {
                base: edits,
                dimensions,
                count,
            })
        }
        _ => {
            let mut options = Vec::new();
            if a.expand && !a.set.is_empty() {
                options.push("--set alternatives");
            }
            if !a.iterate.is_empty() {
                options.push("--iterate values");
            }
            Err(format!(
                "{} combinations of {}; at most {MAX_EXPANSIONS}",
                count_text(count),
                options.join(" and ")
            ))
        }
    }
}

/// The values a component takes in turn: `--iterate`'s, listed, or a `--set` value's
/// alternatives (with `--expand`), made when asked for.
enum Values {
    Listed(Vec<String>),
    Expanded(Alternatives),
}

impl Values {
    /// How many values, or `None` past a `usize`.
    fn count(&self) -> Option<usize> {
        match self {
            Values::Listed(values) => Some(values.len()),
            Values::Expanded(alternatives) => alternatives.count(),
        }
    }

    /// Value `index` (below the count).
    fn get(&self, index: usize) -> Cow<'_, str> {
        match self {
            Values::Listed(values) => Cow::Borrowed(&values[index]),
            Values::Expanded(alternatives) => {
                Cow::Owned(alternatives.nth(index).expect("an index below the count"))
            }
        }
    }
}

/// The edit lists each URL goes through, one per combination of the iterated values (the
/// last component changing fastest), made one at a time by [`Variants::get`].
struct Variants {
    /// The edits of the options, without the iterated components.
    base: Edits,
    /// Each iterated component, its values and their count.
    dimensions: Vec<(Component, Values, usize)>,
    /// The product of the counts: at most [`MAX_EXPANSIONS`].
    count: usize,
}

impl Variants {
    /// Whether there is one edit list and it does nothing.
    fn is_empty(&self) -> bool {
        self.dimensions.is_empty() && self.base.is_empty()
    }

    /// Whether the sets (and iterations) make a URL with no input: they give a URL, or a
    /// scheme and a host.
    fn makes_a_url(&self) -> bool {
        let sets = |c: Component| {
            let mut sets = self.base.set.iter().chain(&self.base.set_if_empty);
            sets.any(|(d, _)| *d == c) || self.dimensions.iter().any(|(d, _, _)| *d == c)
        };
        sets(Component::Href)
            || sets(Component::Scheme) && (sets(Component::Host) || sets(Component::HostPort))
    }

    /// Edit list `index` (below the count): the options' edits, then one value of each
    /// iterated component.
    fn get(&self, index: usize) -> Cow<'_, Edits> {
        if self.dimensions.is_empty() {
            return Cow::Borrowed(&self.base);
        }
        let mut edits = self.base.clone();
        let mut rest = index;
        let mut values = Vec::with_capacity(self.dimensions.len());
        for (c, v, n) in self.dimensions.iter().rev() {
            values.push((*c, v.get(rest % n).into_owned()));
            rest /= n;
        }
        edits.set.extend(values.into_iter().rev());
        Cow::Owned(edits)
    }
}

/// Why a line's expansion is refused: its count, and the options' share of it.
fn too_many(alternatives: &Alternatives, variants: &Variants) -> String {
    let urls = alternatives.count();
    if variants.count == 1 {
        return format!(
            "--expand: {} URLs from the alternatives; at most {MAX_EXPANSIONS}",
            count_text(urls)
        );
    }
    format!(
        "--expand: {} combinations ({} URLs from the alternatives × {} edit lists from the options); at most {MAX_EXPANSIONS}",
        count_text(urls.and_then(|u| u.checked_mul(variants.count))),
        count_text(urls),
        variants.count
    )
}

/// `input` by the URL Standard, against `base`, with `edits`; with `keep_port`, the
/// explicit default port the input or the edits wrote, to show.
fn browser(
    input: &str,
    base: Option<&Url>,
    edits: &Edits,
    keep_port: bool,
    warn: bool,
) -> Result<Parsed, Failed> {
    // Only the table and the JSON show warnings: the URL alone is cheaper to read.
    let (url, warnings) = if warn {
        whatwg::parse_with_warnings(input, base)?
    } else {
        (whatwg::parse(input, base)?, Vec::new())
    };
    let url = if edits.is_empty() {
        url
    } else {
        edits.apply(&url)?
    };
    let kept = if keep_port {
        written_port(input, edits)
            .filter(|&p| url.port().is_none() && Some(p) == url.port_or_known_default())
    } else {
        None
    };
    Ok(Parsed::Whatwg(url, warnings, kept))
}

/// The URL made of the `--set` values alone (no input URL): the scheme's, with the host
/// and the other components set in order. A `url` set is the URL to start from.
///
/// Bad input: without a scheme and a host (or a url) there is no URL to make, which is an
/// error naming the components; a value a setter refuses is its error.
fn built(edits: &Edits, rfc3986: bool, keep_port: bool, warn: bool) -> Result<Parsed, Failed> {
    let value = |c: Component| {
        edits
            .set
            .iter()
            .chain(&edits.set_if_empty)
            .rev()
            .find(|(d, _)| *d == c)
            .map(|(_, v)| v.as_str())
    };
    let has_host = value(Component::Host)
        .or(value(Component::HostPort))
        .is_some();
    let start = match (value(Component::Href), value(Component::Scheme)) {
        (Some(url), _) => url.to_owned(),
        (None, Some(scheme)) if has_host => {
            // A host to be replaced by the host set; the path "/" stays unless one is set.
            format!("{}://host.invalid/", scheme.trim_end_matches(':'))
        }
        _ => {
            return Err(Failed {
                name_component: false,
                component: "url",
                position: None,
                message: "url: not enough input for a URL: give one, or --set scheme=… and --set host=… (or --set url=…)".into(),
            })
        }
    };
    let mut result = if rfc3986 {
        generic(&start, None, edits)
    } else {
        browser(&start, None, edits, keep_port, warn)
    };
    if let Err(f) = &mut result {
        if f.position.is_some() {
            // A position in the made-up URL means nothing to the user: name the scheme.
            f.position = None;
            f.message = format!(
                "scheme: --set scheme={}: {}",
                value(Component::Scheme).unwrap_or(""),
                f.message
            );
        }
    }
    result
}

/// The port `input` writes, as the edits leave it: the one written in the input (or the
/// redirect), then each port a set writes (`port=`, `hostport=`, `url=`), none after a
/// clear. `--keep-port` shows it where the URL Standard drops it as the scheme's default.
fn written_port(input: &str, edits: &Edits) -> Option<u16> {
    let authority_port = |text: &str| -> Option<Option<u16>> {
        let parts = rfc3986::split(text.trim());
        let authority = parts.authority_parts()?;
        Some(authority.port.and_then(|p| p.parse().ok()))
    };
    let mut port = authority_port(input).flatten();
    // A redirect with an authority brings its own port (or none).
    if let Some(p) = edits.redirect.as_deref().and_then(authority_port) {
        port = p;
    }
    for (c, v) in edits.set.iter().chain(&edits.set_if_empty) {
        match c {
            Component::Port => port = v.parse().ok(),
            Component::HostPort => {
                port = rfc3986::split_authority(v)
                    .port
                    .and_then(|p| p.parse().ok())
            }
            Component::Href => port = authority_port(v).flatten(),
            _ => {}
        }
    }
    if edits
        .clear
        .iter()
        .any(|c| matches!(c, Component::Port | Component::HostPort))
    {
        port = None;
    }
    port
}

/// `input` by RFC 3986, resolved against `base`, with `edits`.
fn generic(input: &str, base: Option<&str>, edits: &Edits) -> Result<Parsed, Failed> {
    let resolved = match base {
        Some(b) => rfc3986::resolve(b, input).map_err(|e| Failed {
            name_component: false,
            component: "url",
            position: None,
            message: format!("url: does not resolve against --base: {}", e.message),
        })?,
        None => input.to_owned(),
    };
    let uri = if edits.is_empty() {
        rfc3986::parse(&resolved).map_err(|e| Failed {
            name_component: false,
            component: "url",
            position: Some(e.position),
            message: format!("url: {}", e.message),
        })?;
        resolved
    } else {
        edits.apply_rfc3986(&resolved)?
    };
    Ok(Parsed::Generic(uri))
}

/// Writes the URL as `output` shows it, in `style`, into `out` (a line of its own).
///
/// Bad input: a `--get` template with `must:` or `strict:` that the URL cannot fill is the
/// failure naming the placeholder's component.
fn show(
    out: &mut Vec<u8>,
    output: &Output,
    style: &Style,
    input: &str,
    parsed: &Parsed,
) -> Result<(), Failed> {
    let write = |out: &mut Vec<u8>, text: &str| {
        out.extend_from_slice(text.as_bytes());
        out.push(b'\n');
    };
    let port_of = |url: &dyn Fn() -> Option<u16>, kept: Option<u16>| {
        kept.or_else(|| if style.default_port { url() } else { None })
    };
    let mut render =
        |template: &Template, url: &dyn DynSource, kept: Option<u16>| -> Result<(), Failed> {
            let style = Style {
                port: kept.or(style.port),
                ..*style
            };
            url.render(template, &style, out).map_err(|e| Failed {
                name_component: false,
                component: e.component,
                position: None,
                message: format!("{}: --get {e}", e.component),
            })?;
            out.push(b'\n');
            Ok(())
        };
    match (output, parsed) {
        (Output::Href, Parsed::Whatwg(url, _, kept)) => {
            let port = port_of(&|| Source::default_port(url), *kept);
            write(out, &href_with(url, port, style.idn));
        }
        (Output::Href, Parsed::Generic(uri)) => {
            let r = Reference::new(uri);
            let port = port_of(&|| r.default_port(), None);
            write(out, &href_with(&r, port, style.idn));
        }
        (Output::Get(t), Parsed::Whatwg(url, _, kept)) => render(t, url, *kept)?,
        (Output::Get(t), Parsed::Generic(uri)) => render(t, &Reference::new(uri), None)?,
        (Output::Json, Parsed::Whatwg(url, warnings, _)) => {
            let report = whatwg::report_parsed(input, url, warnings.clone());
            write(out, &serde_json::to_string(&report).unwrap_or_default());
        }
        (Output::Json, Parsed::Generic(uri)) => match Components::of(uri) {
            Ok(c) => write(out, &serde_json::to_string(&c).unwrap_or_default()),
            Err(_) => write(out, ""),
        },
        // The table does not show the input: the report is not given a copy of it.
        (Output::Table, Parsed::Whatwg(url, warnings, _)) => {
            let _ = write_table(out, &whatwg::report_parsed("", url, warnings.clone()));
        }
        (Output::Table, Parsed::Generic(uri)) => {
            if let Ok(c) = Components::of(uri) {
                let _ = write_rfc3986_table(out, &c);
            }
        }
    }
    Ok(())
}

/// A URL of either view, to fill a template from.
trait DynSource {
    fn render(
        &self,
        template: &Template,
        style: &Style,
        out: &mut Vec<u8>,
    ) -> Result<(), RenderError>;
}

impl<S: Source> DynSource for S {
    fn render(
        &self,
        template: &Template,
        style: &Style,
        out: &mut Vec<u8>,
    ) -> Result<(), RenderError> {
        template.render_with(self, style, out)
    }
}

/// The batch path: `--get` without edits, one line in, one line out, through
/// [`Template::render_input`], which reads plain URLs without a full parse.
fn run_get(
    template: &Template,
    base: Option<&Url>,
    urls: &[String],
    url_file: Option<&Path>,
) -> io::Result<ExitCode> {
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut buf: Vec<u8> = Vec::with_capacity(1 << 16);
    let mut ok = true;
    for_each_input(urls, url_file, |n, line| {
        if let Err(e) = template.render_input(line, base, &mut buf) {
            ok = false;
            let input = String::from_utf8_lossy(line);
            let at = match n {
                Some(n) => format!("line {n}, byte {}", e.position),
                None => format!("byte {}", e.position),
            };
            eprintln!("urlkit: {}: {at}: {}", excerpt(&input), e.message);
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

/// Calls `f` for each URL: the arguments (line `None`), then each line of `file` (`-`:
/// stdin), or without either, each line of stdin (LF or CRLF; a byte order mark opening
/// the input is not part of the first line), with its line number. Lines are read a
/// megabyte at a time and each handed over where it lies, so a line costs no copy.
pub fn for_each_input(
    urls: &[String],
    file: Option<&Path>,
    mut f: impl FnMut(Option<usize>, &[u8]) -> io::Result<()>,
) -> io::Result<()> {
    for u in urls {
        f(None, u.as_bytes())?;
    }
    match file {
        Some(path) if path != Path::new("-") => {
            let file = std::fs::File::open(path).map_err(|e| {
                io::Error::new(e.kind(), format!("cannot read {}: {e}", path.display()))
            })?;
            for_each_line(file, f)
        }
        Some(_) => for_each_line(io::stdin().lock(), f),
        None if urls.is_empty() => for_each_line(io::stdin().lock(), f),
        None => Ok(()),
    }
}

/// Calls `f` for each line of `input`, numbered from 1.
fn for_each_line(
    mut input: impl Read,
    mut f: impl FnMut(Option<usize>, &[u8]) -> io::Result<()>,
) -> io::Result<()> {
    let mut buffer = vec![0u8; 1 << 20];
    // `buffer[..filled]` holds what is read and not yet handed over: a line's start.
    let mut filled = 0;
    let mut n = 0;
    let mut line = |n: usize, mut l: &[u8]| {
        if n == 1 {
            // A byte order mark opens many files saved on Windows; it is not part of the URL.
            l = l.strip_prefix("\u{FEFF}".as_bytes()).unwrap_or(l);
        }
        f(Some(n), l.strip_suffix(b"\r").unwrap_or(l))
    };
    loop {
        let read = match input.read(&mut buffer[filled..]) {
            Ok(read) => read,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let searched = filled;
        filled += read;
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', &buffer[searched..filled]) {
            n += 1;
            line(n, &buffer[start..searched + end])?;
            start = searched + end + 1;
        }
        if read == 0 {
            if start < filled {
                line(n + 1, &buffer[start..filled])?;
            }
            return Ok(());
        }
        buffer.copy_within(start..filled, 0);
        filled -= start;
        if filled == buffer.len() {
            // A line longer than the buffer: room for more of it.
            buffer.resize(buffer.len() * 2, 0);
        }
    }
}

fn write_table(out: &mut impl Write, r: &UrlReport) -> io::Result<()> {
    if let Some(drawing) = &r.diagram {
        for line in drawing.lines() {
            writeln!(out, "  {line}")?;
        }
        writeln!(out)?;
    }
    let row = |out: &mut dyn Write, k: &str, v: &str| writeln!(out, "{k:<14}{v}");
    row(out, "href", &r.href)?;
    let hostname = r.host.as_deref().unwrap_or("");
    let display = iri::uri_to_iri_display(&r.href);
    let display = match &r.host_unicode {
        Some(u) if u != hostname => display.replacen(hostname, u, 1),
        _ => display,
    };
    if display != r.href {
        row(out, "display", &display)?;
    }
    row(out, "scheme", &r.scheme)?;
    if !r.user.is_empty() {
        row(out, "user", &r.user)?;
    }
    if !r.password.is_empty() {
        row(out, "password", &r.password)?;
    }
    if let Some(host) = &r.host {
        let host = match &r.host_unicode {
            Some(u) if u != host => format!("{host}  ({}, Unicode: {u})", r.host_type),
            _ => format!("{host}  ({})", r.host_type),
        };
        row(out, "host", &host)?;
    }
    let port = match (r.port, r.default_port) {
        (None, Some(d)) => format!("{d}  (default)"),
        (None, None) => String::new(),
        (Some(p), Some(d)) => format!("{p}  ({}: default {d})", r.scheme),
        (Some(p), None) => p.to_string(),
    };
    if !port.is_empty() {
        row(out, "port", &port)?;
    }
    row(out, "path", &r.path)?;
    if let Some(segments) = &r.path_segments {
        for (i, s) in segments.iter().enumerate() {
            writeln!(out, "  [{i}]         {s:?}")?;
        }
        not_listed(out, r.path_segments_not_listed, "segments")?;
    }
    if let Some(query) = r.query.as_deref().filter(|q| !q.is_empty()) {
        row(out, "query", query)?;
        for (k, v) in &r.query_pairs {
            writeln!(out, "  {k:?} = {v:?}")?;
        }
        not_listed(out, r.query_pairs_not_listed, "pairs")?;
    }
    if let Some(f) = &r.fragment_decoded {
        row(out, "fragment", f)?;
    }
    row(out, "origin", &r.origin)?;
    for w in &r.warnings {
        writeln!(out, "warning       {w}")?;
    }
    not_listed(out, r.warnings_not_listed, "warnings")
}

fn not_listed(out: &mut impl Write, count: usize, what: &str) -> io::Result<()> {
    if count > 0 {
        writeln!(out, "  … and {count} more {what}")?;
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
    if looks_like_pairs {
        for (k, v) in &c.query_pairs {
            writeln!(out, "  {k:?} = {v:?}")?;
        }
        not_listed(out, c.query_pairs_not_listed, "pairs")?;
    }
    row(out, "fragment", c.fragment.as_deref())
}
