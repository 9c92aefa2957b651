//! `urlkit encode`, `decode`, `detect` and `charsets`.

use crate::io::{fail, open_sink, reject, usage, Reporter, Source};
use std::ffi::OsString;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::process::ExitCode;
use urlkit::settings::{Run, SettingError};
use urlkit::{Charset, Codec, DecodeOptions, DecodeSettings, EncodeSet, EncodeSettings, Newline};
use urlkit_api::CodecResponse;

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

impl CommonArgs {
    fn newline(&self) -> Option<String> {
        Some(Newline::from(self.newline).name().to_string())
    }
}

/// A setting that names nothing, worded with its flag: exit status 2.
fn bad_setting(error: SettingError) -> ExitCode {
    usage(&format!("{}: {}", error.setting.flag(), error.message))
}

pub fn encode(args: EncodeArgs) -> ExitCode {
    let settings = EncodeSettings {
        charset: Some(args.charset),
        set: Some(args.set),
        safe: args.safe,
        unsafe_chars: args.unsafe_chars,
        space_plus: args.space_plus,
        lowercase: args.lowercase,
        per_line: args.common.per_line,
        newline: args.common.newline(),
        strict: args.common.strict,
        binary: args.common.binary,
    };
    let options = match settings.options() {
        Ok(options) => options,
        Err(error) => return bad_setting(error),
    };
    run(&args.text, &args.common, true, |_| {
        Codec::encoder(&options).strict(settings.strict)
    })
}

pub fn decode(args: DecodeArgs) -> ExitCode {
    let settings = DecodeSettings {
        charset: Some(args.charset),
        plus_space: args.plus_space,
        keep_whitespace: args.keep_whitespace,
        per_line: args.common.per_line,
        newline: args.common.newline(),
        strict: args.common.strict,
        binary: args.common.binary,
        until_stable: false,
        // Set per entry: arguments are text, stdin and files are bytes.
        text: false,
    };
    let options = match settings.options() {
        Ok(options) => options,
        Err(error) => return bad_setting(error),
    };
    if args.until_stable {
        return until_stable(&args.text, &args.common, settings);
    }
    if args.iri {
        return iri_display(&args.text, &args.common);
    }
    run(&args.text, &args.common, false, |text| {
        let options = DecodeOptions {
            text,
            ..options.clone()
        };
        Codec::decoder(&options).strict(settings.strict)
    })
}

/// Runs a codec over the TEXT entries, or streams stdin/--input through it. `make(text)`
/// makes the codec for text (an argument) or for bytes (stdin, a file).
fn run(
    text: &[OsString],
    common: &CommonArgs,
    newline_after_stream: bool,
    make: impl Fn(bool) -> Codec,
) -> ExitCode {
    let mut sink = match open_sink(common.output.as_ref()) {
        Ok(s) => s,
        Err(e) => return fail(&e),
    };
    let mut reporter = Reporter::new();
    let mut out = Vec::new();
    if !text.is_empty() {
        for entry in text {
            // An argument is text when it is UTF-8; other bytes are taken as bytes.
            let mut codec = make(std::str::from_utf8(entry.as_bytes()).is_ok());
            out.clear();
            let ran = codec
                .feed(entry.as_bytes(), &mut out)
                .and_then(|()| codec.finish(&mut out));
            if let Err(rejection) = ran {
                let _ = sink.flush();
                return reject(&rejection.0);
            }
            if common.json {
                let line = json_line(&CodecResponse::from_codec(&codec, &out));
                out.clear();
                out.extend_from_slice(line.as_bytes());
            } else {
                if !common.per_line {
                    out.push(b'\n');
                }
                reporter.report(&codec.take_findings());
                reporter.add_hidden(codec.diagnostics().dropped());
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
    let mut codec = make(false);
    let mut chunk = Vec::new();
    let mut collected = Vec::new();
    loop {
        if let Err(e) = source.next_chunk(&mut chunk) {
            return fail(&e);
        }
        out.clear();
        let ran = if chunk.is_empty() {
            codec.finish(&mut out).map(|()| {
                if newline_after_stream && !common.per_line {
                    out.push(b'\n');
                }
            })
        } else {
            codec.feed(&chunk, &mut out)
        };
        if let Err(rejection) = ran {
            let _ = sink.flush();
            return reject(&rejection.0);
        }
        if common.json {
            collected.extend_from_slice(&out);
        } else {
            reporter.report(&codec.take_findings());
            if let Err(e) = sink.write_all(&out) {
                return fail(&format!("cannot write output: {e}"));
            }
        }
        if chunk.is_empty() {
            break;
        }
    }
    if common.json {
        let line = json_line(&CodecResponse::from_codec(&codec, &collected));
        if let Err(e) = sink.write_all(line.as_bytes()) {
            return fail(&format!("cannot write output: {e}"));
        }
    } else {
        reporter.add_hidden(codec.diagnostics().dropped());
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

/// One entry's result as the JSON line of `--json`: the API's response, and a newline.
fn json_line(response: &CodecResponse) -> String {
    // A struct of strings and numbers always serialises.
    let mut line = serde_json::to_string(response).unwrap_or_default();
    line.push('\n');
    line
}

/// `decode --until-stable`: each entry (argument, line, or all of the input) is held in
/// memory and peeled layer by layer.
fn until_stable(text: &[OsString], common: &CommonArgs, settings: DecodeSettings) -> ExitCode {
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
    let separator = Newline::from(common.newline).as_bytes();
    // Each entry is peeled on its own: per-line framing is done here.
    let single = DecodeSettings {
        per_line: false,
        until_stable: true,
        text: !text.is_empty(),
        ..settings
    };
    for entry in entries {
        let run: Run = match single.run(&entry) {
            Ok(Ok(run)) => run,
            Ok(Err(rejection)) => {
                let _ = sink.flush();
                return reject(&rejection.0);
            }
            Err(error) => return bad_setting(error),
        };
        let written = if common.json {
            json_line(&CodecResponse::from_run(&run)).into_bytes()
        } else {
            let depth = run.layers.as_ref().map_or(0, |l| l.depth);
            eprintln!("urlkit: peeled {depth} layer(s) of encoding");
            reporter.report(run.finished.diagnostics.items());
            let mut out = run.finished.output;
            if !one_entry_stream {
                out.extend_from_slice(separator);
            }
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
        let detection = urlkit_api::detect(&entry);
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
