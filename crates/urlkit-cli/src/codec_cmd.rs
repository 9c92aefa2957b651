//! `urlkit encode`, `decode`, `detect` and `charsets`.

use crate::io::{
    fail, open_sink, refuse_same_file, reject, say, usage, write_failed, Reporter, Source,
    SHOWN_AT_MOST,
};
use std::convert::Infallible;
use std::ffi::OsString;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::process::ExitCode;
use urlkit::settings::{Entries, Entry, Plan, Setting, SettingError, SettingProblem};
use urlkit::{Charset, DecodeSettings, EncodeSet, EncodeSettings, Newline};
use urlkit_api::CodecResponse;

/// Options shared by `encode` and `decode`.
#[derive(clap::Args, Debug)]
pub struct CommonArgs {
    /// Treat each input line (LF or CRLF) as its own entry.
    #[arg(short = 'l', long)]
    per_line: bool,
    /// Separator written after each entry in per-line mode.
    #[arg(long, value_parser = ["lf", "crlf"], default_value = "lf")]
    newline: String,
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
    /// Write the output to FILE instead of stdout (not the input file: that is refused).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Print the output and every finding as JSON.
    #[arg(long)]
    json: bool,
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
    /// Decode again and again until no escapes are left (`%2520` → ` `), at most 17
    /// times. Each entry is held in memory and one over 64 MiB is refused (with -l each
    /// line is an entry); --json lists the intermediate layers up to 1 MiB in all.
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

/// The command line's settings, read through the library's table of settings.
impl urlkit::settings::Source for EncodeArgs {
    type Error = Infallible;

    fn text(&mut self, setting: Setting) -> Result<Option<String>, Infallible> {
        Ok(match setting {
            Setting::Charset => Some(self.charset.clone()),
            Setting::Set => Some(self.set.clone()),
            Setting::Safe => self.safe.clone(),
            Setting::Unsafe => self.unsafe_chars.clone(),
            _ => self.common.text(setting),
        })
    }

    fn switch(&mut self, setting: Setting) -> Result<bool, Infallible> {
        Ok(match setting {
            Setting::SpacePlus => self.space_plus,
            Setting::Lowercase => self.lowercase,
            _ => self.common.switch(setting),
        })
    }
}

impl urlkit::settings::Source for DecodeArgs {
    type Error = Infallible;

    fn text(&mut self, setting: Setting) -> Result<Option<String>, Infallible> {
        Ok(match setting {
            Setting::Charset => Some(self.charset.clone()),
            _ => self.common.text(setting),
        })
    }

    fn switch(&mut self, setting: Setting) -> Result<bool, Infallible> {
        Ok(match setting {
            Setting::PlusSpace => self.plus_space,
            Setting::KeepWhitespace => self.keep_whitespace,
            Setting::UntilStable => self.until_stable,
            // With --until-stable the lines are split here and each is peeled whole, as
            // an entry of its own.
            Setting::PerLine => self.common.per_line && !self.until_stable,
            _ => self.common.switch(setting),
        })
    }
}

impl CommonArgs {
    fn text(&self, setting: Setting) -> Option<String> {
        (setting == Setting::Newline).then(|| self.newline.clone())
    }

    fn switch(&self, setting: Setting) -> bool {
        match setting {
            Setting::PerLine => self.per_line,
            Setting::Strict => self.strict,
            _ => false,
        }
    }
}

/// A setting that names nothing, worded with its flag: exit status 2.
/// A name that names nothing says where the names are listed.
fn bad_setting(error: SettingError) -> ExitCode {
    let listed = match (error.setting, error.kind) {
        (Setting::Charset | Setting::Set, SettingProblem::UnknownName) => {
            "; `urlkit charsets` lists every charset, its labels and every set"
        }
        _ => "",
    };
    usage(&format!(
        "{}: {}{listed}",
        error.setting.flag(),
        error.message
    ))
}

pub fn encode(mut args: EncodeArgs) -> ExitCode {
    let Ok(settings) = EncodeSettings::read(&mut args);
    let settings = EncodeSettings {
        binary: args.common.binary,
        ..settings
    };
    match settings.check() {
        Ok(plan) => run(&args.text, &args.common, true, &plan),
        Err(error) => bad_setting(error),
    }
}

pub fn decode(mut args: DecodeArgs) -> ExitCode {
    let Ok(settings) = DecodeSettings::read(&mut args);
    // Per line, each line's note names its charset without the other candidates, in text
    // and in `--json` alike, as the API and live mode answer.
    let settings = DecodeSettings {
        binary: args.common.binary,
        ..settings
    };
    let plan = match settings.check() {
        Ok(plan) => plan,
        Err(error) => return bad_setting(error),
    };
    if args.until_stable {
        return until_stable(&args.text, &args.common, plan);
    }
    if args.iri {
        return iri_display(&args.text, &args.common, plan.newline());
    }
    run(&args.text, &args.common, false, &plan)
}

/// Runs `plan`'s codec over the TEXT entries (as text when UTF-8), or streams
/// stdin/--input (bytes) through it.
fn run(
    text: &[OsString],
    common: &CommonArgs,
    newline_after_stream: bool,
    plan: &Plan,
) -> ExitCode {
    if let Err(e) = check_files(text, common) {
        return e;
    }
    let make = |text: bool| plan.clone().for_text(text).codec();
    let mut sink = match open_sink(common.output.as_ref()) {
        Ok(s) => s,
        Err(e) => return fail(&e),
    };
    let mut reporter = Reporter::new();
    let mut out = Vec::new();
    if !text.is_empty() {
        for entry in text {
            // An argument is text when it is UTF-8; other bytes are taken as bytes.
            let mut codec = match make(std::str::from_utf8(entry.as_bytes()).is_ok()) {
                Ok(codec) => codec,
                Err(error) => return bad_setting(error),
            };
            out.clear();
            let ran = codec
                .feed(entry.as_bytes(), &mut out)
                .and_then(|()| codec.finish(&mut out));
            if let Err(rejection) = ran {
                let _ = sink.flush();
                return reject(&rejection.0);
            }
            if common.json {
                let line = json_line(&CodecResponse::from_entry(&Entry::Streamed(&codec), &out));
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
                return write_failed(&e);
            }
        }
        return finish_sink(sink, &reporter);
    }

    let mut source = match Source::open(common.input.as_ref()) {
        Ok(s) => s,
        Err(e) => return fail(&e),
    };
    // Without --json only the first findings are printed and the others counted: the
    // codec keeps (and writes the messages of) those alone.
    let mut codec = match make(false) {
        Ok(codec) if common.json => codec,
        Ok(codec) => codec.keep_findings(SHOWN_AT_MOST),
        Err(error) => return bad_setting(error),
    };
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
                return write_failed(&e);
            }
        }
        if chunk.is_empty() {
            break;
        }
    }
    if common.json {
        let line = json_line(&CodecResponse::from_entry(
            &Entry::Streamed(&codec),
            &collected,
        ));
        if let Err(e) = sink.write_all(line.as_bytes()) {
            return write_failed(&e);
        }
    } else {
        reporter.add_hidden(codec.diagnostics().dropped());
    }
    finish_sink(sink, &reporter)
}

fn finish_sink(mut sink: Box<dyn Write>, reporter: &Reporter) -> ExitCode {
    if let Err(e) = sink.flush() {
        return write_failed(&e);
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

/// The largest entry `decode --until-stable` takes: peeling holds the entry, the layer
/// being decoded and the next one in memory, so a larger entry is refused instead.
pub const UNTIL_STABLE_MAX_ENTRY: usize = 64 << 20;

/// Input and output that are one file: a usage error (status 2), before anything is opened.
fn check_files(text: &[OsString], common: &CommonArgs) -> Result<(), ExitCode> {
    if !text.is_empty() {
        return Ok(());
    }
    refuse_same_file(common.input.as_ref(), common.output.as_ref()).map_err(|e| usage(&e))
}

/// `decode --until-stable`: each entry (argument, line, or all of the input) is held in
/// memory, at most [`UNTIL_STABLE_MAX_ENTRY`] bytes, and peeled layer by layer; lines are
/// read one at a time.
fn until_stable(text: &[OsString], common: &CommonArgs, plan: Plan) -> ExitCode {
    if let Err(e) = check_files(text, common) {
        return e;
    }
    let mut source = None;
    if text.is_empty() {
        match Source::open(common.input.as_ref()) {
            Ok(s) => source = Some(s),
            Err(e) => return fail(&e),
        }
    }
    let mut sink = match open_sink(common.output.as_ref()) {
        Ok(s) => s,
        Err(e) => return fail(&e),
    };
    let newline = plan.newline();
    let mut peeler = Peeler {
        // Arguments are text; stdin and files are bytes.
        entries: plan.for_text(!text.is_empty()).entries(),
        json: common.json,
        // With many entries the findings say how deep each went.
        say_depth: if text.is_empty() {
            !common.per_line
        } else {
            text.len() == 1
        },
        separator: if text.is_empty() && !common.per_line {
            &[]
        } else {
            newline.as_bytes()
        },
        reporter: Reporter::new(),
    };
    let ended = match source {
        None => text
            .iter()
            .try_for_each(|entry| peeler.entry(entry.as_bytes(), &mut sink)),
        Some(mut source) if common.per_line => peel_lines(&mut source, &mut peeler, &mut sink),
        Some(mut source) => {
            let mut all = Vec::new();
            match source.read_at_most(&mut all, UNTIL_STABLE_MAX_ENTRY) {
                Ok(true) => peeler.entry(&all, &mut sink),
                Ok(false) => Err(too_large("the input")),
                Err(e) => Err(fail(&e)),
            }
        }
    };
    match ended {
        Ok(()) => finish_sink(sink, &peeler.reporter),
        Err(code) => {
            let _ = sink.flush();
            code
        }
    }
}

/// `--until-stable -l`: one line at a time, so only the longest line is ever in memory.
fn peel_lines(
    source: &mut Source,
    peeler: &mut Peeler,
    sink: &mut Box<dyn Write>,
) -> Result<(), ExitCode> {
    let mut line = Vec::new();
    let mut number = 0u64;
    loop {
        number += 1;
        match source.read_line_at_most(&mut line, UNTIL_STABLE_MAX_ENTRY) {
            Ok(None) => return Ok(()),
            Ok(Some(true)) => peeler.entry(&line, sink)?,
            Ok(Some(false)) => return Err(too_large(&format!("line {number}"))),
            Err(e) => return Err(fail(&e)),
        }
    }
}

/// The refusal of an entry over [`UNTIL_STABLE_MAX_ENTRY`]: status 1.
fn too_large(what: &str) -> ExitCode {
    fail(&format!(
        "{what} is larger than {} MiB, the most --until-stable holds in memory; decode \
         it layer by layer instead (urlkit decode | urlkit decode){}",
        UNTIL_STABLE_MAX_ENTRY >> 20,
        if what == "the input" {
            ", or line by line with -l"
        } else {
            ""
        }
    ))
}

/// Peels entries one by one and writes each result.
struct Peeler {
    entries: Entries,
    json: bool,
    say_depth: bool,
    separator: &'static [u8],
    reporter: Reporter,
}

impl Peeler {
    fn entry(&mut self, entry: &[u8], sink: &mut Box<dyn Write>) -> Result<(), ExitCode> {
        let mut out = Vec::with_capacity(entry.len());
        let peeled = match self.entries.run(entry, &mut out) {
            Ok(peeled) => peeled,
            Err(rejection) => return Err(reject(&rejection.0)),
        };
        if self.json {
            out = json_line(&CodecResponse::from_entry(&peeled, &out)).into_bytes();
        } else {
            if self.say_depth {
                let depth = peeled.layers().map_or(0, |l| l.depth);
                say(&format!("urlkit: peeled {depth} layer(s) of encoding"));
            }
            self.reporter.report(peeled.diagnostics().items());
            self.reporter.add_hidden(peeled.diagnostics().dropped());
            out.extend_from_slice(self.separator);
        }
        sink.write_all(&out).map_err(|e| write_failed(&e))
    }
}

/// `decode --iri`: each entry (argument, line, or all of the input) shown as an IRI.
fn iri_display(text: &[OsString], common: &CommonArgs, newline: Newline) -> ExitCode {
    if let Err(e) = check_files(text, common) {
        return e;
    }
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
            write!(sink, "{shown}").and_then(|_| sink.write_all(newline.as_bytes()))
        };
        if let Err(e) = result {
            return write_failed(&e);
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
    let mut out = std::io::stdout().lock();
    for entry in entries {
        let detection = urlkit_api::detect(&entry);
        let line = if args.json {
            // A struct of strings and numbers always serialises.
            serde_json::to_string(&detection).unwrap_or_default()
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
            line
        };
        if let Err(e) = writeln!(out, "{line}") {
            return write_failed(&e);
        }
    }
    match out.flush() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => write_failed(&e),
    }
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
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => write_failed(&e),
    }
}
