//! Reading inputs, writing outputs and reporting findings for the codec subcommands.

use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
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
    reader: Box<dyn Read>,
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
                    reader: Box::new(file),
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

const SHOWN_AT_MOST: usize = 20;

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
                eprintln!("urlkit: {kind}: {d}");
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
            eprintln!(
                "urlkit: {} more finding(s) not shown (--json lists them all)",
                self.hidden
            );
        }
    }
}

/// Prints a rejection and gives exit status 1.
pub fn reject(diagnostic: &Diagnostic) -> std::process::ExitCode {
    eprintln!("urlkit: error: {diagnostic}");
    std::process::ExitCode::from(1)
}

/// Prints a failure to read or write and gives exit status 1.
pub fn fail(message: &str) -> std::process::ExitCode {
    eprintln!("urlkit: error: {message}");
    std::process::ExitCode::from(1)
}

/// Prints a usage error and gives exit status 2.
pub fn usage(message: &str) -> std::process::ExitCode {
    eprintln!("urlkit: {message}");
    std::process::ExitCode::from(2)
}
