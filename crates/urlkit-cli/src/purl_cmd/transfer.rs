//! `urlkit purl export` and `urlkit purl import`: the records with their histories out as
//! JSON Lines, and records in from an export or another service's files. The readers are
//! urlkit-purl's (`transfer`); here files are opened, the readers called, and what they
//! and the store say is printed.
//!
//! An import reads a file of one format (`--format`, or guessed from the file's name):
//! `export`, `jsonl`, `csv`, `htaccess` (names under `--prefix`), `purlz-xml`. Each record
//! is created when its name has none, left alone when the stored record is the same, and
//! otherwise becomes a new version (reason `import` unless `--reason`), so importing a
//! file twice changes nothing the second time. What the file holds that the reader does
//! not understand is printed on standard error as `FILE:LINE: …`:
//!
//! * without `--skip-unknown` the whole file is read first, and if anything was not
//!   understood nothing is written and the status is 1;
//! * with `--skip-unknown` the rest is written and the status is 0.
//!
//! Notes (PURLZ's maintainers, `.htaccess` settings of the server) are printed as
//! `FILE:LINE: note: …` and change nothing. `--dry-run` prints `create NAME`, `change
//! NAME`, `unchanged NAME`, `skip NAME` a line and writes nothing. JSON Lines, CSV and
//! exports are read a line at a time and written 10,000 records a transaction, so a
//! file of any size goes through in bounded memory (standard input is held in memory, as
//! it is read twice); `.htaccess` and PURLZ files are read whole.

use super::{refused, Outcome, Stop};
use std::io::{BufRead, Read, Write};
use std::path::Path;
use urlkit::purl::Name;
use urlkit_purl::model::Actor;
use urlkit_purl::store::bulk::Applied;
use urlkit_purl::store::Store;
use urlkit_purl::transfer::{self, export, Entry, Format, Importer, Tally};

/// Records per page of an export.
const EXPORT_PAGE: usize = 1000;

/// What `import` was given.
pub(super) struct ImportArgs<'a> {
    pub file: &'a Path,
    pub format: Option<&'a str>,
    pub prefix: Option<&'a str>,
    pub reason: Option<&'a str>,
    pub dry_run: bool,
    pub skip_unknown: bool,
}

/// Runs `urlkit purl export`: every record with its history, a line each, in order of
/// name, to `out` or standard output.
pub(super) async fn export(store: &Store, out: Option<&Path>) -> Outcome {
    let mut sink: Box<dyn Write> = match out {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path)
                .map_err(|e| refused(format!("cannot write {}: {e}", path.display())))?,
        )),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    let shown = out.map_or("standard output".to_string(), |p| p.display().to_string());
    let mut after: Option<Name> = None;
    loop {
        let page = store
            .export_page(after.as_ref(), EXPORT_PAGE)
            .await
            .map_err(|e| refused(e.to_string()))?;
        let Some(last) = page.last() else {
            break;
        };
        after = Some(last.name.clone());
        for record in &page {
            let written = sink
                .write_all(record.line().as_bytes())
                .and_then(|()| sink.write_all(b"\n"));
            match written {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe && out.is_none() => {
                    return Ok(())
                }
                Err(e) => return Err(refused(format!("cannot write {shown}: {e}"))),
            }
        }
    }
    match sink.flush() {
        Err(e) if !(e.kind() == std::io::ErrorKind::BrokenPipe && out.is_none()) => {
            Err(refused(format!("cannot write {shown}: {e}")))
        }
        _ => Ok(()),
    }
}

/// The file's bytes, or a way to read them again.
enum Source {
    File(std::path::PathBuf),
    Held(Vec<u8>),
}

impl Source {
    fn open(&self) -> Result<Box<dyn BufRead + '_>, Stop> {
        match self {
            Source::File(path) => {
                let file = std::fs::File::open(path)
                    .map_err(|e| Stop::Usage(format!("cannot read {}: {e}", path.display())))?;
                Ok(Box::new(std::io::BufReader::with_capacity(1 << 16, file)))
            }
            Source::Held(bytes) => Ok(Box::new(bytes.as_slice())),
        }
    }

    fn text(&self, shown: &str) -> Result<String, Stop> {
        let mut bytes = Vec::new();
        self.open()?
            .read_to_end(&mut bytes)
            .map_err(|e| refused(format!("{shown}: {e}")))?;
        String::from_utf8(bytes).map_err(|e| {
            let line = 1 + e.as_bytes()[..e.utf8_error().valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            refused(format!("{shown}:{line}: not UTF-8; nothing read"))
        })
    }

    /// The first line that is not blank.
    fn first_line(&self) -> Result<String, Stop> {
        let mut reader = self.open()?;
        let mut line = Vec::new();
        loop {
            line.clear();
            if reader.read_until(b'\n', &mut line).unwrap_or(0) == 0 {
                return Ok(String::new());
            }
            let text = String::from_utf8_lossy(&line);
            if !text.trim().is_empty() {
                return Ok(text.into_owned());
            }
        }
    }
}

/// Runs `urlkit purl import`.
pub(super) async fn import(store: &Store, actor: &Actor, args: ImportArgs<'_>) -> Outcome {
    let shown = args.file.display().to_string();
    let stdin = args.file.as_os_str() == "-";
    let source = if stdin {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .map_err(|e| refused(format!("reading standard input: {e}")))?;
        Source::Held(bytes)
    } else {
        Source::File(args.file.to_path_buf())
    };
    let format = match args.format {
        Some(name) => Format::from_name(name).map_err(|e| Stop::Usage(format!("--format: {e}")))?,
        None if stdin => Format::Jsonl.refine(&source.first_line()?),
        None => Format::guess(&shown)
            .ok_or_else(|| {
                Stop::Usage(format!(
                    "{shown}: cannot tell the format from the name; give --format \
                     export|jsonl|csv|htaccess|purlz-xml"
                ))
            })?
            .refine(&source.first_line()?),
    };
    let prefix = match (format, args.prefix) {
        (Format::Htaccess, Some(prefix)) => Some(Name::parse(prefix).map_err(|e| {
            Stop::Usage(format!(
                "--prefix {prefix:?}: at byte {}: {}",
                e.position, e.message
            ))
        })?),
        (Format::Htaccess, None) => {
            return Err(Stop::Usage(
                "an .htaccess names records relative to its directory: give the directory's \
                 names with --prefix (for example --prefix /w3id/)"
                    .into(),
            ))
        }
        (_, Some(_)) => return Err(Stop::Usage("--prefix is for --format htaccess only".into())),
        (_, None) => None,
    };
    let run = Run {
        source: &source,
        shown: &shown,
        format,
        prefix: prefix.as_ref(),
    };
    // Without --skip-unknown (and unless this is a dry run, which shows everything), the
    // file is read through first: anything not understood stops it before a write.
    if !args.skip_unknown && !args.dry_run {
        let mut problems = 0u64;
        for entry in run.entries()? {
            if let Piece::Skipped(problem) = entry {
                problems += 1;
                eprintln!("{shown}:{problem}");
            }
        }
        if problems > 0 {
            return Err(refused(format!(
                "{shown}: {problems} {} not understood; nothing written (give --skip-unknown \
                 to import the rest)",
                if problems == 1 { "part" } else { "parts" }
            )));
        }
    }
    let reason = args.reason.unwrap_or("import").to_string();
    let dry_run = args.dry_run;
    let mut importer = Importer::new(store, actor.clone(), Some(reason), dry_run);
    let mut report = |line: u64, name: &Name, applied: &Applied| match applied {
        Applied::Refused(message) => {
            eprintln!("{shown}:{line}: {name}: {message}");
            if dry_run {
                out!("skip {name}");
            }
        }
        Applied::Created if dry_run => out!("create {name}"),
        Applied::Changed if dry_run => out!("change {name}"),
        Applied::Unchanged if dry_run => out!("unchanged {name}"),
        _ => {}
    };
    let failed = |e: urlkit_purl::store::StoreError| refused(format!("{shown}: {e}"));
    for entry in run.entries()? {
        match entry {
            Piece::Item(item) => importer.record(item, &mut report).await.map_err(failed)?,
            Piece::Exported(line, exported) => importer
                .exported(line, exported, &mut report)
                .await
                .map_err(failed)?,
            Piece::Skipped(problem) => {
                importer.skipped();
                // Said already by the first reading, unless there was none.
                if args.skip_unknown || dry_run {
                    eprintln!("{shown}:{problem}");
                }
            }
            Piece::Note(problem) => {
                importer.noted();
                eprintln!("{shown}:{}: note: {}", problem.line, problem.message);
            }
        }
    }
    let Tally {
        created,
        changed,
        unchanged,
        skipped,
        noted,
    } = importer.finish(&mut report).await.map_err(failed)?;
    let notes = if noted > 0 {
        format!(", {noted} noted")
    } else {
        String::new()
    };
    if dry_run {
        out!(
            "dry run, nothing written: would create {created}, change {changed}, leave \
             {unchanged} unchanged, skip {skipped}{notes}"
        );
    } else {
        out!(
            "created {created}, changed {changed}, unchanged {unchanged}, skipped {skipped}{notes}"
        );
    }
    if skipped > 0 && !args.skip_unknown {
        return Err(refused(format!(
            "{shown}: {skipped} not imported (said above)"
        )));
    }
    Ok(())
}

/// What a reader gives, whatever the format.
enum Piece {
    Item(transfer::Item),
    Exported(u64, export::Exported),
    Skipped(transfer::Problem),
    Note(transfer::Problem),
}

impl From<Entry> for Piece {
    fn from(entry: Entry) -> Piece {
        match entry {
            Entry::Record(item) => Piece::Item(item),
            Entry::Skipped(problem) => Piece::Skipped(problem),
            Entry::Note(problem) => Piece::Note(problem),
        }
    }
}

/// One file to read, in one format.
struct Run<'a> {
    source: &'a Source,
    shown: &'a str,
    format: Format,
    prefix: Option<&'a Name>,
}

impl Run<'_> {
    /// The file's pieces, read as they are taken (line formats) or at once (the others).
    fn entries(&self) -> Result<Box<dyn Iterator<Item = Piece> + '_>, Stop> {
        Ok(match self.format {
            Format::Export | Format::Jsonl => {
                let format = self.format;
                let mut reader = self.source.open()?;
                let mut number = 0u64;
                let mut bytes = Vec::new();
                let mut done = false;
                Box::new(std::iter::from_fn(move || loop {
                    if done {
                        return None;
                    }
                    bytes.clear();
                    number += 1;
                    match reader.read_until(b'\n', &mut bytes) {
                        Ok(0) => return None,
                        Ok(_) => {}
                        Err(e) => {
                            done = true;
                            return Some(Piece::Skipped(transfer::Problem::new(
                                number,
                                format!("cannot read: {e}; the rest is not read"),
                            )));
                        }
                    }
                    let Ok(text) = std::str::from_utf8(&bytes) else {
                        return Some(Piece::Skipped(transfer::Problem::new(number, "not UTF-8")));
                    };
                    let text = text.trim_end_matches(['\n', '\r']);
                    let piece = match format {
                        Format::Export => export::parse_line(number, text).map(|e| match e {
                            Entry::Record(exported) => Piece::Exported(number, exported),
                            Entry::Skipped(p) => Piece::Skipped(p),
                            Entry::Note(p) => Piece::Note(p),
                        }),
                        _ => transfer::jsonl::parse_line(number, text).map(Piece::from),
                    };
                    if piece.is_some() {
                        return piece;
                    }
                }))
            }
            Format::Csv => Box::new(transfer::csv::entries(self.source.open()?).map(Piece::from)),
            Format::Htaccess => {
                let prefix = self.prefix.expect("an .htaccess import has a prefix");
                let text = self.source.text(self.shown)?;
                Box::new(
                    transfer::htaccess::parse(&text, prefix)
                        .into_iter()
                        .map(Piece::from),
                )
            }
            Format::PurlzXml => {
                let text = self.source.text(self.shown)?;
                Box::new(transfer::purlz::parse(&text).into_iter().map(Piece::from))
            }
        })
    }
}
