//! Records moved in and out of the resolver: the export of every record with its history
//! (JSON Lines), and the formats other services keep their records in, read into records.
//!
//! | module | format |
//! |---|---|
//! | `exported` | the shape of an export's line: a record with its version, domain and every event of its history |
//! | `export` | this resolver's export read line by line |
//! | `jsonl` | a record a line: `{"name": "/x", "record": {…}}`, the record as the API takes it |
//! | `csv` | `name,type,target[,status]` with a header |
//! | `htaccess` | Apache `RewriteRule`s as w3id.org writes them (redirects, prefixes, `HTTP_ACCEPT` conditions) |
//! | `purlz` | PURLZ's batch XML (`<purls><purl id="/x" type="302">…`) |
//!
//! The readers are pure: they take text (or a reader of lines) and give [`Entry`]s — a
//! record with the line it came from, or what could not be read, with its line. Nothing a
//! reader does not understand is dropped without an entry saying so. Writing the records
//! is [`crate::store::Store::apply`] and [`crate::store::Store::apply_exported`].

pub mod csv;
pub mod export;
pub mod exported;
pub mod htaccess;
pub mod jsonl;
pub mod purlz;

use crate::model::{Actor, Body};
use crate::store::bulk::{Applied, IMPORT_BATCH};
use crate::store::{Store, StoreError};
use export::Exported;
use sha2::{Digest, Sha256};
use std::collections::HashSet;
use std::fmt;
use urlkit::purl::{Action, Name, Table};

/// A record read from a file: its name and body, and the line it starts on (from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// The line of the file it was read from.
    pub line: u64,
    /// The name, in normal form.
    pub name: Name,
    /// What it answers (checked: [`Body::into_record`] keeps it).
    pub body: Body,
}

/// Something of a file that is not imported as it stands, with its line (from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The line.
    pub line: u64,
    /// What was not understood, or what is left out, in words.
    pub message: String,
}

impl Problem {
    /// A problem at `line`.
    pub fn new(line: u64, message: impl Into<String>) -> Problem {
        Problem {
            line,
            message: message.into(),
        }
    }
}

/// `LINE: message`; the caller puts the file's name before it.
impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.line, self.message)
    }
}

/// What a reader found at a place in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry<T = Item> {
    /// A record.
    Record(T),
    /// Something not understood, skipped: a record that is not imported.
    Skipped(Problem),
    /// Something read but not imported that is not a record (PURLZ's maintainers): said,
    /// not counted as skipped.
    Note(Problem),
}

/// The formats `urlkit purl import` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// This resolver's export, histories and all.
    Export,
    /// `{"name": …, "record": …}` a line.
    Jsonl,
    /// `name,type,target[,status]`.
    Csv,
    /// Apache `.htaccess` rewrite rules.
    Htaccess,
    /// PURLZ's batch XML.
    PurlzXml,
}

impl Format {
    /// The format of a name as `--format` takes it: `export`, `jsonl`, `csv`, `htaccess`,
    /// `purlz-xml`. Bad input: any other name is an error listing these.
    pub fn from_name(name: &str) -> Result<Format, String> {
        match name {
            "export" => Ok(Format::Export),
            "jsonl" => Ok(Format::Jsonl),
            "csv" => Ok(Format::Csv),
            "htaccess" => Ok(Format::Htaccess),
            "purlz-xml" => Ok(Format::PurlzXml),
            other => Err(format!(
                "unknown format {other:?}: one of export, jsonl, csv, htaccess, purlz-xml"
            )),
        }
    }

    /// The format a file's name suggests: `.jsonl`/`.ndjson`/`.json` JSON Lines (an
    /// export's first line tells it apart: see [`Format::refine`]), `.csv`, `.htaccess`
    /// (or a name ending in `htaccess`), `.xml` PURLZ. `None` for any other name.
    pub fn guess(file_name: &str) -> Option<Format> {
        let lower = file_name.to_ascii_lowercase();
        let extension = lower.rsplit_once('.').map(|(_, e)| e);
        if lower.ends_with("htaccess") {
            return Some(Format::Htaccess);
        }
        match extension? {
            "jsonl" | "ndjson" | "json" => Some(Format::Jsonl),
            "csv" => Some(Format::Csv),
            "xml" => Some(Format::PurlzXml),
            _ => None,
        }
    }

    /// A guessed JSON Lines file whose first line is an export's (it has `history`) is
    /// an export.
    pub fn refine(self, first_line: &str) -> Format {
        if self == Format::Jsonl && export::looks_like_export(first_line) {
            Format::Export
        } else {
            self
        }
    }
}

/// How many records an import created, changed, left alone and skipped, and how many
/// notes it made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Records created.
    pub created: u64,
    /// Records that became a new version.
    pub changed: u64,
    /// Records that were as the file has them.
    pub unchanged: u64,
    /// Records, or parts of the file, not imported.
    pub skipped: u64,
    /// Notes (read, not imported, not a record).
    pub noted: u64,
}

/// Writes what readers give, [`IMPORT_BATCH`] records at a time, so that any number of
/// records goes through in bounded memory: a name seen before in the file is refused (a
/// set of 16-byte digests of names is all that grows with the file), chains wait for the
/// end (they are checked for loops against every record then) and the rest are written
/// batch by batch with [`Store::apply`] or [`Store::apply_exported`].
pub struct Importer<'s> {
    store: &'s Store,
    actor: Actor,
    reason: Option<String>,
    dry_run: bool,
    seen: HashSet<[u8; 16]>,
    items: Vec<Item>,
    exported: Vec<(u64, Exported)>,
    chains: Vec<Item>,
    exported_chains: Vec<(u64, Exported)>,
    tally: Tally,
}

/// What became of the record of a line: the line, the name and what the import did.
pub type Report<'r> = dyn FnMut(u64, &Name, &Applied) + 'r;

impl<'s> Importer<'s> {
    /// An import into `store` as `actor`, each change with `reason`; with `dry_run`
    /// nothing is written.
    pub fn new(store: &'s Store, actor: Actor, reason: Option<String>, dry_run: bool) -> Self {
        Importer {
            store,
            actor,
            reason,
            dry_run,
            seen: HashSet::new(),
            items: Vec::new(),
            exported: Vec::new(),
            chains: Vec::new(),
            exported_chains: Vec::new(),
            tally: Tally::default(),
        }
    }

    /// Counts a part of the file not understood (the caller says it).
    pub fn skipped(&mut self) {
        self.tally.skipped += 1;
    }

    /// Counts a note (the caller says it).
    pub fn noted(&mut self) {
        self.tally.noted += 1;
    }

    /// Whether `name` is new to this import.
    fn first_time(&mut self, name: &Name) -> bool {
        let digest = Sha256::digest(name.as_str().as_bytes());
        let mut key = [0u8; 16];
        key.copy_from_slice(&digest[..16]);
        self.seen.insert(key)
    }

    /// Takes a record of a file; a full batch is written, `report` told of each record.
    pub async fn record(&mut self, item: Item, report: &mut Report<'_>) -> Result<(), StoreError> {
        if !self.first_time(&item.name) {
            self.tally.skipped += 1;
            report(
                item.line,
                &item.name,
                &Applied::Refused("the name comes twice in the file: not imported".into()),
            );
            return Ok(());
        }
        if matches!(item.body.action, Action::Chain { .. }) {
            self.chains.push(item);
            return Ok(());
        }
        self.items.push(item);
        if self.items.len() >= IMPORT_BATCH {
            let batch = std::mem::take(&mut self.items);
            self.write(batch, report).await?;
        }
        Ok(())
    }

    /// Takes a record of an export; a full batch is written, `report` told of each record.
    pub async fn exported(
        &mut self,
        line: u64,
        exported: Exported,
        report: &mut Report<'_>,
    ) -> Result<(), StoreError> {
        if !self.first_time(&exported.name) {
            self.tally.skipped += 1;
            report(
                line,
                &exported.name,
                &Applied::Refused("the name comes twice in the file: not imported".into()),
            );
            return Ok(());
        }
        if matches!(exported.record.action, Action::Chain { .. }) {
            self.exported_chains.push((line, exported));
            return Ok(());
        }
        self.exported.push((line, exported));
        if self.exported.len() >= IMPORT_BATCH {
            let batch = std::mem::take(&mut self.exported);
            self.write_exported(batch, report).await?;
        }
        Ok(())
    }

    /// Writes what is left and the chains (a chain that would loop is refused), and
    /// answers the counts.
    pub async fn finish(mut self, report: &mut Report<'_>) -> Result<Tally, StoreError> {
        let batch = std::mem::take(&mut self.items);
        self.write(batch, report).await?;
        let batch = std::mem::take(&mut self.exported);
        self.write_exported(batch, report).await?;
        if self.chains.is_empty() && self.exported_chains.is_empty() {
            return Ok(self.tally);
        }
        let mut table = Table::new();
        self.store
            .each_record(|stored| {
                let _ = table.insert(stored.record);
            })
            .await?;
        let mut loops = |name: &Name, body: &Body| -> Option<String> {
            let record = body.clone().into_record(name.clone()).ok()?;
            table
                .insert(record)
                .err()
                .map(|e| format!("{}: {}", e.field, e.message))
        };
        let mut chains = Vec::new();
        for item in std::mem::take(&mut self.chains) {
            match loops(&item.name, &item.body) {
                Some(message) => {
                    self.tally.skipped += 1;
                    report(item.line, &item.name, &Applied::Refused(message));
                }
                None => chains.push(item),
            }
        }
        let mut exported_chains = Vec::new();
        for (line, exported) in std::mem::take(&mut self.exported_chains) {
            match loops(&exported.name, &exported.record) {
                Some(message) => {
                    self.tally.skipped += 1;
                    report(line, &exported.name, &Applied::Refused(message));
                }
                None => exported_chains.push((line, exported)),
            }
        }
        for batch in chains.chunks(IMPORT_BATCH) {
            self.write(batch.to_vec(), report).await?;
        }
        for batch in exported_chains.chunks(IMPORT_BATCH) {
            self.write_exported(batch.to_vec(), report).await?;
        }
        Ok(self.tally)
    }

    async fn write(&mut self, batch: Vec<Item>, report: &mut Report<'_>) -> Result<(), StoreError> {
        if batch.is_empty() {
            return Ok(());
        }
        let records = batch
            .iter()
            .map(|item| (item.name.clone(), item.body.clone()))
            .collect();
        let answers = self
            .store
            .apply(&self.actor, records, self.reason.as_deref(), self.dry_run)
            .await?;
        for (item, applied) in batch.iter().zip(&answers) {
            self.counted(applied);
            report(item.line, &item.name, applied);
        }
        Ok(())
    }

    async fn write_exported(
        &mut self,
        batch: Vec<(u64, Exported)>,
        report: &mut Report<'_>,
    ) -> Result<(), StoreError> {
        if batch.is_empty() {
            return Ok(());
        }
        let lines: Vec<u64> = batch.iter().map(|(line, _)| *line).collect();
        let records: Vec<Exported> = batch.into_iter().map(|(_, e)| e).collect();
        let names: Vec<Name> = records.iter().map(|e| e.name.clone()).collect();
        let answers = self
            .store
            .apply_exported(&self.actor, records, self.reason.as_deref(), self.dry_run)
            .await?;
        for ((line, name), applied) in lines.iter().zip(&names).zip(&answers) {
            self.counted(applied);
            report(*line, name, applied);
        }
        Ok(())
    }

    fn counted(&mut self, applied: &Applied) {
        match applied {
            Applied::Created => self.tally.created += 1,
            Applied::Changed => self.tally.changed += 1,
            Applied::Unchanged => self.tally.unchanged += 1,
            Applied::Refused(_) => self.tally.skipped += 1,
        }
    }
}

/// The item for `name` answering `body`, both checked: a name that is not one, or a body
/// that makes no record, is a problem naming the part at fault.
pub(crate) fn item(line: u64, name: &str, body: Body) -> Result<Item, Problem> {
    let name = parse_name(line, name)?;
    body.clone()
        .into_record(name.clone())
        .map_err(|e| Problem::new(line, format!("{name}: {}: {}", e.field, e.message)))?;
    Ok(Item { line, name, body })
}

/// `text` as a name; bad input names the byte.
pub(crate) fn parse_name(line: u64, text: &str) -> Result<Name, Problem> {
    Name::parse(text).map_err(|e| {
        Problem::new(
            line,
            format!("name {text:?}: at byte {}: {}", e.position, e.message),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_named_and_guessed_from_the_file_name() {
        assert_eq!(Format::from_name("purlz-xml"), Ok(Format::PurlzXml));
        assert!(Format::from_name("yaml").unwrap_err().contains("\"yaml\""));
        assert_eq!(Format::guess("dir/.htaccess"), Some(Format::Htaccess));
        assert_eq!(Format::guess("purls.XML"), Some(Format::PurlzXml));
        assert_eq!(Format::guess("r.csv"), Some(Format::Csv));
        assert_eq!(Format::guess("r.jsonl"), Some(Format::Jsonl));
        assert_eq!(Format::guess("records"), None);
        assert_eq!(
            Format::Jsonl.refine(r#"{"name":"/a","version":1,"history":[]}"#),
            Format::Export
        );
        assert_eq!(
            Format::Jsonl.refine(r#"{"name":"/a","record":{}}"#),
            Format::Jsonl
        );
    }
}
