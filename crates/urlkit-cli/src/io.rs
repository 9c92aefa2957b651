//! Reading inputs, writing outputs and reporting findings for the codec subcommands.

use std::fs::File;
use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::os::fd::AsFd;
use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;
use urlkit::Diagnostic;

/// Bytes read per chunk when streaming: large enough that per-chunk work is negligible,
/// small enough for constant memory.
pub const CHUNK: usize = 1 << 20;

/// The output buffer: it gathers small results (one per entry or line of output), while
/// a streamed chunk's output, larger than it, goes straight to the file without a copy.
const SINK_BUFFER: usize = 64 << 10;

/// Inputs larger than this show a progress bar when stderr is a terminal.
const PROGRESS_THRESHOLD: u64 = 64 << 20;

/// Where the bytes come from: stdin or a file.
pub struct Source {
    reader: Box<dyn BufRead>,
    progress: Option<indicatif::ProgressBar>,
}

impl Source {
    /// `path`, or stdin when `None` or `-`.
    pub fn open(path: Option<&PathBuf>) -> Result<Source, String> {
        match path {
            Some(path) if path.as_os_str() != "-" => {
                let file =
                    File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                let size = file.metadata().map(|m| m.len()).unwrap_or(0);
                let progress =
                    (size > PROGRESS_THRESHOLD && io::stderr().is_terminal()).then(|| {
                        let bar = indicatif::ProgressBar::new(size);
                        if let Ok(style) = indicatif::ProgressStyle::with_template(
                            "{bar:40} {bytes}/{total_bytes} {binary_bytes_per_sec} {eta}",
                        ) {
                            bar.set_style(style);
                        }
                        bar
                    });
                Ok(Source {
                    reader: Box::new(io::BufReader::with_capacity(SINK_BUFFER, file)),
                    progress,
                })
            }
            _ => Ok(Source {
                reader: Box::new(io::stdin().lock()),
                progress: None,
            }),
        }
    }

    /// Fills `buffer` (its old contents replaced) with up to [`CHUNK`] bytes; empty at
    /// the end.
    pub fn next_chunk(&mut self, buffer: &mut Vec<u8>) -> Result<(), String> {
        // Only bytes never used before are zeroed: a full chunk costs no clearing.
        buffer.resize(CHUNK, 0);
        let mut filled = 0;
        while filled < CHUNK {
            match self.reader.read(&mut buffer[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(format!("cannot read input: {e}")),
            }
        }
        buffer.truncate(filled);
        if let Some(bar) = &self.progress {
            bar.inc(filled as u64);
            if filled == 0 {
                bar.finish_and_clear();
            }
        }
        Ok(())
    }

    /// Reads everything that is left.
    pub fn read_all(&mut self) -> Result<Vec<u8>, String> {
        let mut all = Vec::new();
        self.reader
            .read_to_end(&mut all)
            .map_err(|e| format!("cannot read input: {e}"))?;
        Ok(all)
    }

    /// Reads everything that is left into `all` (its old contents replaced), or stops
    /// once it holds more than `limit` bytes and returns `false`.
    pub fn read_at_most(&mut self, all: &mut Vec<u8>, limit: usize) -> Result<bool, String> {
        all.clear();
        (&mut self.reader)
            .take(limit as u64 + 1)
            .read_to_end(all)
            .map_err(|e| format!("cannot read input: {e}"))?;
        Ok(all.len() <= limit)
    }

    /// Reads the next line into `line` (its old contents replaced), without its LF or
    /// CRLF. `Ok(None)` at the end of the input; `Ok(Some(false))` when the line is longer
    /// than `limit` bytes (then `line` holds its first bytes only and the rest is unread).
    pub fn read_line_at_most(
        &mut self,
        line: &mut Vec<u8>,
        limit: usize,
    ) -> Result<Option<bool>, String> {
        line.clear();
        (&mut self.reader)
            .take(limit as u64 + 2)
            .read_until(b'\n', line)
            .map_err(|e| format!("cannot read input: {e}"))?;
        if line.is_empty() {
            return Ok(None);
        }
        if line.last() == Some(&b'\n') {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
        }
        // Longer than `limit`, the line was cut by `take` or is too long as it is.
        Ok(Some(line.len() <= limit))
    }
}

/// Refuses an output file that is also the input (by name, through a link, or as the file
/// stdin reads from), which opening the output would empty, and standard output writing
/// into the input file, which would never end.
pub fn refuse_same_file(input: Option<&PathBuf>, output: Option<&PathBuf>) -> Result<(), String> {
    let input_id = match named(input) {
        Some(path) => file_id(std::fs::metadata(path)),
        None => file_id(
            io::stdin()
                .as_fd()
                .try_clone_to_owned()
                .map(File::from)
                .and_then(|f| f.metadata()),
        ),
    };
    let Some(input_id) = input_id else {
        return Ok(());
    };
    let (output_id, shown) = match named(output) {
        Some(path) => (file_id(std::fs::metadata(path)), path.display().to_string()),
        None => (
            file_id(
                io::stdout()
                    .as_fd()
                    .try_clone_to_owned()
                    .map(File::from)
                    .and_then(|f| f.metadata()),
            ),
            "standard output".to_string(),
        ),
    };
    if output_id == Some(input_id) {
        let input = named(input).map_or("standard input".to_string(), |p| {
            format!("the input {}", p.display())
        });
        return Err(format!(
            "{shown} is the same file as {input}: writing it would destroy the input; \
             write to another file, then rename it"
        ));
    }
    Ok(())
}

/// A file named on the command line (`-` names stdin or stdout).
fn named(path: Option<&PathBuf>) -> Option<&PathBuf> {
    path.filter(|p| p.as_os_str() != "-")
}

/// Device and inode of a regular file (pipes and terminals are never "the same file").
fn file_id(metadata: io::Result<std::fs::Metadata>) -> Option<(u64, u64)> {
    metadata
        .ok()
        .filter(|m| m.is_file())
        .map(|m| (m.dev(), m.ino()))
}

/// Where the results go: stdout or a file.
pub fn open_sink(path: Option<&PathBuf>) -> Result<Box<dyn Write>, String> {
    match path {
        Some(path) if path.as_os_str() != "-" => {
            let file =
                File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            Ok(Box::new(io::BufWriter::with_capacity(SINK_BUFFER, file)))
        }
        _ => Ok(Box::new(io::BufWriter::with_capacity(
            SINK_BUFFER,
            io::stdout().lock(),
        ))),
    }
}

/// Prints findings on stderr, at most a screenful, then counts the rest.
pub struct Reporter {
    shown: usize,
    hidden: u64,
}

/// How many findings are printed; the others are only counted.
pub const SHOWN_AT_MOST: usize = 20;

impl Reporter {
    pub fn new() -> Self {
        Reporter {
            shown: 0,
            hidden: 0,
        }
    }

    pub fn report(&mut self, diagnostics: &[Diagnostic]) {
        for d in diagnostics {
            if self.shown < SHOWN_AT_MOST {
                let kind = if d.code == urlkit::Code::CharsetDetected {
                    "note"
                } else {
                    "warning"
                };
                say(&format!("urlkit: {kind}: {d}"));
                self.shown += 1;
            } else {
                self.hidden += 1;
            }
        }
    }

    pub fn add_hidden(&mut self, count: u64) {
        self.hidden += count;
    }

    pub fn summarise(&self) {
        if self.hidden > 0 {
            say(&format!(
                "urlkit: {} more finding(s) not shown (--json lists them all)",
                self.hidden
            ));
        }
    }
}

/// Writes one line on stderr; a stderr that cannot be written is no reason to stop.
pub fn say(line: &str) {
    let _ = writeln!(io::stderr(), "{line}");
}

/// Prints a rejection and gives exit status 1.
pub fn reject(diagnostic: &Diagnostic) -> std::process::ExitCode {
    say(&format!("urlkit: error: {diagnostic}"));
    std::process::ExitCode::from(1)
}

/// Prints a failure to read or write and gives exit status 1.
pub fn fail(message: &str) -> std::process::ExitCode {
    say(&format!("urlkit: error: {message}"));
    std::process::ExitCode::from(1)
}

/// The end after a failed write: quiet, with status 0, when the reader has gone away (a
/// closed pipe, as in `urlkit decode -l < big | head`), since it has all it wanted;
/// otherwise one line naming the error and status 1.
pub fn write_failed(error: &io::Error) -> std::process::ExitCode {
    if error.kind() == io::ErrorKind::BrokenPipe {
        std::process::ExitCode::SUCCESS
    } else {
        fail(&format!("cannot write output: {error}"))
    }
}

/// Prints a usage error and gives exit status 2.
pub fn usage(message: &str) -> std::process::ExitCode {
    say(&format!("urlkit: {message}"));
    std::process::ExitCode::from(2)
}
