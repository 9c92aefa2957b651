//! `urlkit encode`, `decode`, `detect` and `charsets`.

use crate::io::{fail, open_sink, reject, usage, Reporter, Source};
use std::ffi::OsString;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::process::ExitCode;
use urlkit::codec::{Codec, Peeled};
use urlkit::request::{CodecResponse, DecodeRequest, Detected, EncodeRequest};
use urlkit::{Charset, DecodeOptions, Diagnostics, EncodeSet, Newline};

/// Findings kept in memory per run; beyond this they are only counted.
const KEPT_FINDINGS: usize = 10_000;

/// Options shared by `encode` and `decode`.
#[derive(clap::Args, Debug)]
pub struct CommonArgs {
    /// Treat each input line (LF or CRLF) as its own entry.
    #[arg(short = 'l', long)]
    per_line: bool,
    /// Separator written after each entry in per-line mode.
    #[arg(long, value_enum, default_value = "lf")]
    newline: NewlineArg,
    /// Reject the input (exit status 1) at the first malformed escape, invalid sequence or
    /// unencodable character.
    #[arg(long)]
    strict: bool,
    /// Bytes in, bytes out: no charset step.
    #[arg(long)]
    binary: bool,
    /// Read the input from FILE instead of stdin.
    #[arg(short, long, value_name = "FILE")]
    input: Option<PathBuf>,
    /// Write the output to FILE instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Print the output and every finding as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum NewlineArg {
    Lf,
    Crlf,
}

impl From<NewlineArg> for Newline {
    fn from(value: NewlineArg) -> Self {
        match value {
            NewlineArg::Lf => Newline::Lf,
            NewlineArg::Crlf => Newline::CrLf,
        }
    }
}

const ENCODE_HELP: &str = "Examples:
  urlkit encode 'a b&c'                     a%20b%26c
  urlkit encode -s component \"it's\"         it's (as encodeURIComponent)
  urlkit encode -s form 'a b+c'             a+b%2Bc
  urlkit encode -c shift_jis 'ラーメン'      %83%89%81%5B%83%81%83%93
  urlkit encode -s iri 'http://example.com/引き割り.html'
  urlkit encode -l < params.txt             one result per line
  urlkit encode --binary -i photo.png -o photo.txt

Each TEXT is one entry, printed with a newline. Without TEXT, all of stdin (or --input) is
one entry, taken byte for byte, and the output ends with a newline.
Charsets: every WHATWG label, utf-32le/be and DOS code pages; `urlkit charsets` lists them.
Sets: unreserved (default), component, uri, form, path, query, special-query, fragment,
userinfo, c0, iri, all; `urlkit charsets` describes them.
Exit status: 0 success, 1 input rejected (--strict), 2 wrong usage.";

/// Options of `urlkit encode`.
#[derive(clap::Args, Debug)]
#[command(after_help = ENCODE_HELP)]
pub struct EncodeArgs {
    /// Text to encode; each argument is one entry.
    text: Vec<OsString>,
    /// Charset the text is converted to before escaping (see `urlkit charsets`).
    #[arg(short, long, value_name = "LABEL", default_value = "utf-8")]
    charset: String,
    /// Encode set: which characters stay literal.
    #[arg(short, long, value_name = "NAME", default_value = "unreserved")]
    set: String,
    /// Keep these characters literal too.
    #[arg(long, value_name = "CHARS")]
    safe: Option<String>,
    /// Escape these characters too.
    #[arg(long = "unsafe", value_name = "CHARS")]
    unsafe_chars: Option<String>,
    /// Write space as `+`.
    #[arg(long)]
    space_plus: bool,
    /// Lower-case hex digits in escapes.
    #[arg(long)]
    lowercase: bool,
    #[command(flatten)]
    common: CommonArgs,
}

const DECODE_HELP: &str = "Examples:
  urlkit decode '%E5%BC%95%E3%81%8D'        引き
  urlkit decode --form 'a+b%2Bc'            a b+c
  urlkit decode -c shift_jis '%83%89'       ラ
  urlkit decode -c auto '%83%89%81%5B%83%81%83%93'
  urlkit decode --until-stable '%2520'      (space; peels two layers)
  urlkit decode --iri 'http://example.com/%E5%BC%95%E3%81%8D%2F'   http://example.com/引き%2F
  urlkit decode -l < urls.txt               one result per line

Unencoded whitespace is removed first (--keep-whitespace keeps it). A `%` not followed by
two hex digits is kept as it is and reported. Each TEXT is one entry, printed with a
newline. Without TEXT, all of stdin (or --input) is one entry and exactly the decoded bytes
are written.
Exit status: 0 success, 1 input rejected (--strict), 2 wrong usage.";

/// Options of `urlkit decode`.
#[derive(clap::Args, Debug)]
#[command(after_help = DECODE_HELP)]
pub struct DecodeArgs {
    /// Text to decode; each argument is one entry.
    text: Vec<OsString>,
    /// Charset of the decoded bytes (see `urlkit charsets`), or `auto` to detect it.
    #[arg(short, long, value_name = "LABEL", default_value = "utf-8")]
    charset: String,
    /// Decode `+` as a space (application/x-www-form-urlencoded).
    #[arg(long, visible_alias = "form")]
    plus_space: bool,
    /// Keep unencoded whitespace instead of removing it.
    #[arg(long)]
    keep_whitespace: bool,
    /// Decode again and again until no escapes are left (`%2520` → ` `).
    #[arg(long)]
    until_stable: bool,
    /// Decode a URI for display as an IRI (RFC 3987 §3.2): only escapes of non-ASCII
    /// characters are decoded; reserved escapes such as `%2F` stay.
    #[arg(long, conflicts_with_all = ["until_stable", "binary", "charset", "plus_space"])]
    iri: bool,
    #[command(flatten)]
    common: CommonArgs,
}

/// Options of `urlkit detect`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  urlkit detect '%83%89%81%5B%83%81%83%93'    Shift_JIS …
  urlkit detect -i query.txt

Prints the charset's WHATWG name first, then the confidence and the other candidates.")]
pub struct DetectArgs {
    /// Percent-encoded text; each argument is one entry. Without TEXT: stdin.
    text: Vec<OsString>,
    /// Read the input from FILE instead of stdin.
    #[arg(short, long, value_name = "FILE")]
    input: Option<PathBuf>,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

pub fn encode(args: EncodeArgs) -> ExitCode {
    // The options are read the way the JSON API reads them, so every front end agrees.
    let request = EncodeRequest {
        charset: Some(args.charset.clone()),
        set: Some(args.set.clone()),
        safe: args.safe.clone(),
        unsafe_chars: args.unsafe_chars.clone(),
        space_plus: args.space_plus,
        lowercase: args.lowercase,
        ..EncodeRequest::default()
    };
    let mut options = match request.options(args.common.binary) {
        Ok(options) => options,
        Err(e) => return usage(&format!("--{}: {}", e.field, e.message)),
    };
    options.per_line = args.common.per_line;
    options.newline = args.common.newline.into();
    let make = || Codec::encoder(&options);
    run(&args.text, &args.common, true, make)
}

pub fn decode(args: DecodeArgs) -> ExitCode {
    let request = DecodeRequest {
        charset: Some(args.charset.clone()),
        plus_space: args.plus_space,
        keep_whitespace: args.keep_whitespace,
        ..DecodeRequest::default()
    };
    let mut options = match request.options(args.common.binary) {
        Ok(options) => options,
        Err(e) => return usage(&format!("--{}: {}", e.field, e.message)),
    };
    options.per_line = args.common.per_line;
    options.newline = args.common.newline.into();
    if args.until_stable {
        return until_stable(&args.text, &args.common, &options);
    }
    if args.iri {
        return iri_display(&args.text, &args.common);
    }
    let make = || Codec::decoder(&options);
    run(&args.text, &args.common, false, make)
}

/// Runs a codec over the TEXT entries, or streams stdin/--input through it.
fn run(
    text: &[OsString],
    common: &CommonArgs,
    newline_after_stream: bool,
    make: impl Fn() -> Codec,
) -> ExitCode {
    let mut sink = match open_sink(common.output.as_ref()) {
        Ok(s) => s,
        Err(e) => return fail(&e),
    };
    let mut reporter = Reporter::new();
    let mut out = Vec::new();
    if !text.is_empty() {
        for entry in text {
            let mut codec = make();
            let mut diagnostics = Diagnostics::with_limit(KEPT_FINDINGS);
            out.clear();
            codec.feed(entry.as_bytes(), &mut out, &mut diagnostics);
            codec.finish(&mut out, &mut diagnostics);
            if common.strict {
                if let Some(error) = diagnostics.first_strict_error() {
                    let _ = sink.flush();
                    return reject(error);
                }
            }
            if common.json {
                let object = json_result(
                    &out,
                    codec.charset().map(|c| c.name()),
                    codec.detection().cloned(),
                    &diagnostics,
                    None,
                );
                out.clear();
                out.extend_from_slice(object.to_string().as_bytes());
                out.push(b'\n');
            } else {
                if !common.per_line {
                    out.push(b'\n');
                }
                reporter.report(diagnostics.items());
                reporter.add_hidden(diagnostics.dropped());
            }
            if let Err(e) = sink.write_all(&out) {
                return fail(&format!("cannot write output: {e}"));
            }
        }
        return finish_sink(sink, &reporter);
    }

    let mut source = match Source::open(common.input.as_ref()) {
        Ok(s) => s,
        Err(e) => return fail(&e),
    };
    let mut codec = make();
    let mut diagnostics = Diagnostics::with_limit(KEPT_FINDINGS);
    let mut chunk = Vec::new();
    let mut collected = Vec::new();
    let mut all_findings = Vec::new();
    loop {
        if let Err(e) = source.next_chunk(&mut chunk) {
            return fail(&e);
        }
        out.clear();
        if chunk.is_empty() {
            codec.finish(&mut out, &mut diagnostics);
            if newline_after_stream && !common.per_line {
                out.push(b'\n');
            }
        } else {
            codec.feed(&chunk, &mut out, &mut diagnostics);
        }
        let found = diagnostics.take_items();
        if common.strict {
            if let Some(error) = found.iter().find(|d| d.code.is_error_in_strict_mode()) {
                let _ = sink.flush();
                return reject(error);
            }
        }
        if common.json {
            collected.extend_from_slice(&out);
            all_findings.extend(found);
        } else {
            reporter.report(&found);
            if let Err(e) = sink.write_all(&out) {
                return fail(&format!("cannot write output: {e}"));
            }
        }
        if chunk.is_empty() {
            break;
        }
    }
    reporter.add_hidden(diagnostics.dropped());
    if common.json {
        let mut kept = Diagnostics::new();
        for d in all_findings {
            kept.push(d);
        }
        let object = json_result(
            &collected,
            codec.charset().map(|c| c.name()),
            codec.detection().cloned(),
            &kept,
            None,
        );
        if let Err(e) = writeln!(sink, "{object}") {
            return fail(&format!("cannot write output: {e}"));
        }
    }
    finish_sink(sink, &reporter)
}

fn finish_sink(mut sink: Box<dyn Write>, reporter: &Reporter) -> ExitCode {
    if let Err(e) = sink.flush() {
        return fail(&format!("cannot write output: {e}"));
    }
    reporter.summarise();
    ExitCode::SUCCESS
}

/// One entry's result as the JSON line of `--json`: the API's response shape.
fn json_result(
    output: &[u8],
    charset: Option<&'static str>,
    detected: Option<Detected>,
    diagnostics: &Diagnostics,
    peeled: Option<&Peeled>,
) -> String {
    let response = CodecResponse {
        output: String::from_utf8_lossy(output).into_owned(),
        charset,
        diagnostics: diagnostics.items().to_vec(),
        diagnostics_not_listed: diagnostics.dropped(),
        detected,
        depth: peeled.map(|p| p.depth),
        layers: peeled.map(|p| {
            p.layers
                .iter()
                .map(|l| String::from_utf8_lossy(l).into_owned())
                .collect()
        }),
    };
    // A struct of strings and numbers always serialises.
    serde_json::to_string(&response).unwrap_or_default()
}

/// `decode --until-stable`: each entry is held in memory and peeled layer by layer.
fn until_stable(text: &[OsString], common: &CommonArgs, options: &DecodeOptions) -> ExitCode {
    let entries: Vec<Vec<u8>> = if text.is_empty() {
        let all = match Source::open(common.input.as_ref()).and_then(|mut s| s.read_all()) {
            Ok(all) => all,
            Err(e) => return fail(&e),
        };
        if common.per_line {
            let mut lines: Vec<Vec<u8>> = all
                .split(|&b| b == b'\n')
                .map(|l| l.strip_suffix(b"\r").unwrap_or(l).to_vec())
                .collect();
            if all.ends_with(b"\n") || all.is_empty() {
                lines.pop();
            }
            lines
        } else {
            vec![all]
        }
    } else {
        text.iter().map(|t| t.as_bytes().to_vec()).collect()
    };
    let mut sink = match open_sink(common.output.as_ref()) {
        Ok(s) => s,
        Err(e) => return fail(&e),
    };
    let mut reporter = Reporter::new();
    let one_entry_stream = text.is_empty() && !common.per_line;
    let single = DecodeOptions {
        per_line: false,
        ..options.clone()
    };
    for entry in entries {
        let peeled = urlkit::decode_until_stable(&entry, &single);
        let mut kept = Diagnostics::new();
        for d in &peeled.outcome.diagnostics {
            kept.push(d.clone());
        }
        if common.strict {
            if let Some(error) = peeled.outcome.strict_error() {
                let _ = sink.flush();
                return reject(error);
            }
        }
        let mut out = peeled.outcome.output.clone();
        if !one_entry_stream {
            out.extend_from_slice(options.newline.as_bytes());
        }
        let written = if common.json {
            let charset = peeled.outcome.charset.map(|c| c.name());
            let mut line = json_result(&peeled.outcome.output, charset, None, &kept, Some(&peeled))
                .to_string()
                .into_bytes();
            line.push(b'\n');
            line
        } else {
            eprintln!("urlkit: peeled {} layer(s) of encoding", peeled.depth);
            reporter.report(kept.items());
            out
        };
        if let Err(e) = sink.write_all(&written) {
            return fail(&format!("cannot write output: {e}"));
        }
    }
    finish_sink(sink, &reporter)
}

/// `decode --iri`: each entry (argument, line, or all of the input) shown as an IRI.
fn iri_display(text: &[OsString], common: &CommonArgs) -> ExitCode {
    let entries: Vec<String> = if text.is_empty() {
        let all = match Source::open(common.input.as_ref()).and_then(|mut s| s.read_all()) {
            Ok(all) => all,
            Err(e) => return fail(&e),
        };
        let all = String::from_utf8_lossy(&all).into_owned();
        if common.per_line {
            all.lines().map(str::to_string).collect()
        } else {
            vec![all]
        }
    } else {
        text.iter()
            .map(|t| t.to_string_lossy().into_owned())
            .collect()
    };
    let mut sink = match open_sink(common.output.as_ref()) {
        Ok(s) => s,
        Err(e) => return fail(&e),
    };
    let one_entry_stream = text.is_empty() && !common.per_line;
    for entry in entries {
        let shown = urlkit::inspect::iri::uri_to_iri_display(&entry);
        let result = if one_entry_stream {
            write!(sink, "{shown}")
        } else {
            write!(sink, "{shown}")
                .and_then(|_| sink.write_all(Newline::from(common.newline).as_bytes()))
        };
        if let Err(e) = result {
            return fail(&format!("cannot write output: {e}"));
        }
    }
    finish_sink(sink, &Reporter::new())
}

pub fn detect(args: DetectArgs) -> ExitCode {
    let entries: Vec<Vec<u8>> = if args.text.is_empty() {
        match Source::open(args.input.as_ref()).and_then(|mut s| s.read_all()) {
            Ok(all) => vec![all],
            Err(e) => return fail(&e),
        }
    } else {
        args.text.iter().map(|t| t.as_bytes().to_vec()).collect()
    };
    for entry in entries {
        let detection = urlkit::request::detect(&entry);
        if args.json {
            match serde_json::to_string(&detection) {
                Ok(line) => println!("{line}"),
                Err(e) => return fail(&format!("cannot write output: {e}")),
            }
        } else {
            let others: Vec<String> = detection
                .runners_up
                .iter()
                .map(|c| format!("{} {:.2}", c.charset, c.confidence))
                .collect();
            let mut line = format!(
                "{} confidence {:.2} ({})",
                detection.charset, detection.confidence, detection.reason
            );
            if !others.is_empty() {
                line.push_str(&format!(" runners-up: {}", others.join(", ")));
            }
            println!("{line}");
        }
    }
    ExitCode::SUCCESS
}

pub fn charsets() -> ExitCode {
    let mut out = String::from("Charsets (name: labels). Any label works with -c/--charset.\n");
    for (charset, labels) in Charset::all() {
        out.push_str(&format!("  {}: {}\n", charset.name(), labels.join(", ")));
    }
    out.push_str(
        "\nDecoding also accepts `auto` (detect the charset).\n\nEncode sets (-s/--set):\n",
    );
    for (name, description) in EncodeSet::described() {
        out.push_str(&format!("  {name:<14} {description}\n"));
    }
    print!("{out}");
    ExitCode::SUCCESS
}
