//! Decodes the lines of FILE as one column, the way the Python package's column functions
//! do without diagnostics (runs of rows through `Entries::plain_entries`, findings
//! dropped, any other row through `Entries::run_in_full`), and prints rows per second,
//! MB/s, and what a row that leaves the fast path costs beside one that takes it
//! (processor time of this thread, best of three).
//!
//! `cargo run --release -p urlkit --example column_rows -- [--auto] [--diagnostics] FILE...`
//! (`--diagnostics`: findings kept, as the column functions with diagnostics keep them:
//! runs through `Entries::plain_entries_marking`, each marked row run again alone for its
//! findings)
//! (`scripts/measure/bench-columns.py ROWS --write DIR` writes clean, dirty and percent
//! inputs). For a profiler, `COLUMN_ONLY=1` decodes each column ten times and nothing
//! else, `IN_FULL_ONLY=1` the rows that leave the fast path. `KEEP_OUTPUT=1` decodes
//! every pass into one output buffer kept between passes (as a caller that reuses its
//! buffer does) instead of a new one each time, as the column functions allocate it:
//! where the system makes the pages of a new buffer slowly, that is most of a clean
//! row's time, and comparisons of the decoding itself drown in it.

#[path = "support/cpu.rs"]
mod cpu;

use cpu::best_of_three;
use urlkit::settings::Entries;
use urlkit::DecodeSettings;

/// Rows decoded in one pass at most, as in the column functions.
const MOST_ROWS_IN_A_RUN: usize = 4096;

/// Rows of one kind decoded in one measurement at least (the kind's rows repeated), unless
/// `MEASURED_ROWS` in the environment says otherwise: the thread's processor time moves in
/// steps of a few milliseconds, so telling kinds of rows apart by a tenth of a nanosecond
/// takes some 20 M.
const MEASURED_ROWS: usize = 1_000_000;

fn main() {
    let mut paths: Vec<String> = std::env::args().skip(1).collect();
    let mut flag = |name: &str| {
        let given = paths.iter().any(|a| a == name);
        paths.retain(|a| a != name);
        given
    };
    let (auto, diagnostics) = (flag("--auto"), flag("--diagnostics"));
    if paths.is_empty() {
        eprintln!("usage: column_rows [--auto] [--diagnostics] FILE...");
        std::process::exit(2);
    }
    // `--auto`: each row's charset detected, as `pyurlkit.arrow.decode(charset="auto")`
    // without diagnostics does.
    let settings = DecodeSettings {
        charset: auto.then(|| "auto".to_string()),
        ..DecodeSettings::default()
    }
    .check()
    .expect("settings")
    .ranking(urlkit::detect::Ranking::Charset);
    let entries = || {
        if diagnostics {
            settings.entries()
        } else {
            settings
                .entries()
                .counting_findings_only()
                .dropping_findings()
        }
    };
    for path in paths {
        let text = std::fs::read(&path).unwrap_or_else(|e| {
            eprintln!("cannot read {path}: {e}");
            std::process::exit(1);
        });
        let lines: Vec<&[u8]> = text
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .collect();
        let column = Column::of(&lines);
        if std::env::var_os("COLUMN_ONLY").is_some() {
            // For a profiler: the column as a whole, over and over.
            for _ in 0..10 {
                column.decode(&mut entries(), diagnostics);
            }
            continue;
        }
        let seconds = best_of_three(|| column.decode(&mut entries(), diagnostics));
        println!(
            "{path}: {} rows: {:.0} rows/s, {:.0} MB/s",
            lines.len(),
            lines.len() as f64 / seconds,
            column.values.len() as f64 / seconds / 1e6
        );
        // Each kind of row alone: the plain ones in runs, the others one by one in full.
        let (plain, other): (Vec<&[u8]>, Vec<&[u8]>) = lines.iter().partition(|line| {
            entries().plain_entries(line, &[0, line.len()], &mut Vec::new(), &mut Vec::new()) == 1
        });
        // The other rows laid end to end as well, as the plain ones are below: read from
        // where they lie in the file, each would first wait for memory.
        let other_column = Column::of(&other);
        let other: Vec<&[u8]> = other_column.rows().collect();
        if std::env::var_os("IN_FULL_ONLY").is_some() {
            // For a profiler: the rows that leave the fast path, over and over.
            let mut entries = entries();
            let mut out = Vec::new();
            for _ in 0..200 {
                out.clear();
                for line in &other {
                    let _ = entries.run_in_full(line, &mut out);
                }
            }
            continue;
        }
        // Each kind decoded over and over, at least `MEASURED_ROWS` rows a measurement:
        // the thread's processor time moves in steps of a few milliseconds.
        let measured = std::env::var("MEASURED_ROWS")
            .ok()
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or(MEASURED_ROWS);
        let repeats = |rows: usize| measured.div_ceil(rows.max(1));
        let plain_column = Column::of(&plain);
        let plain_repeats = repeats(plain.len());
        let plain_ns = best_of_three(|| {
            let mut entries = entries();
            (0..plain_repeats)
                .map(|_| plain_column.decode(&mut entries, diagnostics))
                .sum()
        }) * 1e9
            / plain_repeats as f64;
        let other_repeats = repeats(other.len());
        let other_ns = best_of_three(|| {
            let mut entries = entries();
            let mut out = Vec::new();
            for _ in 0..other_repeats {
                out.clear();
                for line in &other {
                    let _ = entries.run_in_full(line, &mut out);
                }
            }
            out.len()
        }) * 1e9
            / other_repeats as f64;
        let mean = |rows: &[&[u8]]| {
            rows.iter().map(|r| r.len()).sum::<usize>() as f64 / rows.len().max(1) as f64
        };
        let plain_row = plain_ns / plain.len().max(1) as f64;
        let other_row = other_ns / other.len().max(1) as f64;
        println!(
            "  {} plain rows ({:.0} bytes): {plain_row:.1} ns a row; {} others ({:.0} bytes): \
             {other_row:.0} ns a row in full, {:.1}× a plain one",
            plain.len(),
            mean(&plain),
            other.len(),
            mean(&other),
            other_row / plain_row
        );
    }
}

/// Rows laid end to end, as in an Arrow column.
struct Column {
    values: Vec<u8>,
    offsets: Vec<usize>,
    /// Whether each pass decodes into the buffer kept from the last (`KEEP_OUTPUT`).
    keep_output: bool,
}

impl Column {
    fn of(rows: &[&[u8]]) -> Column {
        let mut values = Vec::new();
        let mut offsets = vec![0];
        for row in rows {
            values.extend_from_slice(row);
            offsets.push(values.len());
        }
        let keep_output = std::env::var_os("KEEP_OUTPUT").is_some();
        Column {
            values,
            offsets,
            keep_output,
        }
    }

    /// The rows, in order.
    fn rows(&self) -> impl Iterator<Item = &[u8]> {
        self.offsets
            .windows(2)
            .map(|ends| &self.values[ends[0]..ends[1]])
    }

    /// Decodes every row as `pyurlkit.arrow.decode` does (with `marking`, as it does with
    /// diagnostics); returns the output's length.
    fn decode(&self, entries: &mut Entries, marking: bool) -> usize {
        let rows = self.offsets.len() - 1;
        let mut out = if self.keep_output {
            KEPT_OUTPUT.with(|kept| std::mem::take(&mut *kept.borrow_mut()))
        } else {
            Vec::new()
        };
        out.clear();
        out.reserve(self.values.len());
        let mut out_ends = Vec::with_capacity(MOST_ROWS_IN_A_RUN);
        let (mut marked, mut findings_out) = (Vec::new(), Vec::new());
        let (mut row, mut most) = (0, MOST_ROWS_IN_A_RUN);
        while row < rows {
            let end = (row + most).min(rows);
            let run = &self.offsets[row..=end];
            let taken = if marking {
                entries.plain_entries_marking(
                    &self.values,
                    run,
                    &mut out,
                    &mut out_ends,
                    &mut marked,
                )
            } else {
                entries.plain_entries(&self.values, run, &mut out, &mut out_ends)
            };
            for &k in &marked {
                let value = &self.values[run[k]..run[k + 1]];
                let _ = entries.run_in_full(value, &mut findings_out);
                findings_out.clear();
            }
            marked.clear();
            out_ends.clear();
            row += taken;
            most = (2 * (taken + 1)).min(MOST_ROWS_IN_A_RUN);
            if row < end {
                let value = &self.values[self.offsets[row]..self.offsets[row + 1]];
                let _ = entries.run_in_full(value, &mut out);
                row += 1;
            }
        }
        let length = out.len();
        if self.keep_output {
            KEPT_OUTPUT.with(|kept| *kept.borrow_mut() = out);
        }
        length
    }
}

thread_local! {
    /// The output buffer kept between passes with `KEEP_OUTPUT`.
    static KEPT_OUTPUT: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}
