//! CSV of records: a header `name,type,target` (and `status` if given), then a record a
//! row (RFC 4180 quoting: `"a,b"`, `""` for a quote).
//!
//! | type | target column | status column |
//! |---|---|---|
//! | `redirect` (or a status: `301`, `302`, `303`, `307`, `308`) | the URL | the status (302 if empty) |
//! | `partial` | the URL the rest of the path is appended to | the status (302 if empty) |
//! | `chain` | the name of the record followed | empty |
//! | `gone` (or `410`) | the message (may be empty) | empty |
//! | `not_found` (or `404`) | the message (may be empty) | empty |
//!
//! ```text
//! name,type,target,status
//! /net/a,redirect,https://example.net/a,301
//! /net/docs/,partial,https://docs.example.net/,
//! /net/old,chain,/net/a,
//! /net/gone,gone,"Withdrawn, see /net/a",
//! ```

use super::{item, parse_name, Entry, Item, Problem};
use crate::model::Body;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use urlkit::purl::{Action, DEFAULT_STATUS};

/// The entries of the CSV text `reader` gives, a row at a time (nothing but the current
/// row is held).
///
/// Bad input: a first row that is not the header (`name,type,target` and maybe
/// `status`) skips every row, said once; a row with too few or too many columns, an
/// unknown type, a status that is not a number or not for its type, a name or target
/// the record cannot keep, text that is not UTF-8 are each a [`Entry::Skipped`] with the
/// row's line.
pub fn entries<R: std::io::Read>(reader: R) -> impl Iterator<Item = Entry> {
    let newlines = Rc::new(RefCell::new(Newlines::default()));
    let counting = Counting {
        inner: reader,
        offset: 0,
        newlines: Rc::clone(&newlines),
    };
    let mut rows = ::csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(counting)
        .into_records();
    let mut columns: Option<Result<usize, ()>> = None;
    std::iter::from_fn(move || loop {
        let row = rows.next()?;
        let row = match row {
            Ok(row) => row,
            Err(error) => {
                let line = error
                    .position()
                    .map_or(0, |p| newlines.borrow_mut().line_at(p.byte()));
                return Some(Entry::Skipped(Problem::new(
                    line,
                    format!("not CSV: {error}"),
                )));
            }
        };
        let line = row
            .position()
            .map_or(0, |p| newlines.borrow_mut().line_at(p.byte()));
        match columns {
            None => {
                let header: Vec<String> =
                    row.iter().map(|c| c.trim().to_ascii_lowercase()).collect();
                let ok = header.len() >= 3
                    && header.len() <= 4
                    && header[..3] == ["name", "type", "target"]
                    && header.get(3).is_none_or(|s| s == "status");
                if ok {
                    columns = Some(Ok(header.len()));
                    continue;
                }
                columns = Some(Err(()));
                return Some(Entry::Skipped(Problem::new(
                    line,
                    format!(
                        "the header is {:?}: give name,type,target[,status]; \
                         no row of the file is read",
                        row.iter().collect::<Vec<_>>().join(",")
                    ),
                )));
            }
            // Without a header, every row's meaning is unknown: said once, above.
            Some(Err(())) => continue,
            Some(Ok(count)) => {
                let cells: Vec<&str> = row.iter().collect();
                return Some(match read_row(line, count, &cells) {
                    Ok(item) => Entry::Record(item),
                    Err(problem) => Entry::Skipped(problem),
                });
            }
        }
    })
}

/// The lines of byte offsets, from the newlines read so far: the CSV reader's own count
/// of lines leaves out blank lines. Offsets are asked in order, so only the newlines of
/// what is read ahead are held.
#[derive(Default)]
struct Newlines {
    /// Offsets of newlines read and not yet passed.
    ahead: VecDeque<u64>,
    /// Newlines passed.
    passed: u64,
}

impl Newlines {
    /// The line (from 1) of the byte at `offset`.
    /// A row is said to start where the blank lines before it do: a newline at the
    /// offset asked is such a line, passed too.
    fn line_at(&mut self, mut offset: u64) -> u64 {
        while let Some(&at) = self.ahead.front() {
            if at > offset {
                break;
            }
            if at == offset {
                offset += 1;
            }
            self.ahead.pop_front();
            self.passed += 1;
        }
        self.passed + 1
    }
}

/// A reader noting where its newlines are.
struct Counting<R> {
    inner: R,
    offset: u64,
    newlines: Rc<RefCell<Newlines>>,
}

impl<R: std::io::Read> std::io::Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let mut newlines = self.newlines.borrow_mut();
        for at in memchr_iter(&buf[..n]) {
            newlines.ahead.push_back(self.offset + at as u64);
        }
        self.offset += n as u64;
        Ok(n)
    }
}

fn memchr_iter(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    bytes
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .map(|(at, _)| at)
}

/// One row of `count` columns.
fn read_row(line: u64, count: usize, cells: &[&str]) -> Result<Item, Problem> {
    if cells.len() != count {
        return Err(Problem::new(
            line,
            format!("{} columns where the header has {count}", cells.len()),
        ));
    }
    let at = |message: String| Problem::new(line, message);
    let (name, kind, target) = (cells[0].trim(), cells[1].trim(), cells[2]);
    let status = match cells.get(3).map(|s| s.trim()).filter(|s| !s.is_empty()) {
        None => None,
        Some(text) => Some(
            text.parse::<u16>()
                .map_err(|_| at(format!("status {text:?}: not a number")))?,
        ),
    };
    let no_status = |kind: &str| match status {
        Some(status) => Err(at(format!("status {status}: a {kind} record has none"))),
        None => Ok(()),
    };
    let action = match kind {
        "redirect" | "partial" => {
            let status = status.unwrap_or(DEFAULT_STATUS);
            let target = target.trim().to_string();
            if kind == "partial" {
                Action::Partial { status, target }
            } else {
                Action::Redirect { status, target }
            }
        }
        "301" | "302" | "303" | "307" | "308" => {
            let status = kind.parse().expect("a status");
            if cells
                .get(3)
                .is_some_and(|s| !s.trim().is_empty() && s.trim() != kind)
            {
                return Err(at(format!("type {kind} but status {}", cells[3].trim())));
            }
            Action::Redirect {
                status,
                target: target.trim().to_string(),
            }
        }
        "chain" => {
            no_status("chain")?;
            Action::Chain {
                to: parse_name(line, target.trim())?,
            }
        }
        "gone" | "410" => {
            no_status("gone")?;
            Action::Gone {
                message: target.to_string(),
            }
        }
        "not_found" | "404" => {
            no_status("not_found")?;
            Action::NotFound {
                message: target.to_string(),
            }
        }
        other => {
            return Err(at(format!(
                "type {other:?}: one of redirect, partial, chain, gone, not_found \
                 (or 301, 302, 303, 307, 308, 404, 410); negotiated records are imported \
                 from JSON Lines"
            )))
        }
    };
    item(
        line,
        name,
        Body {
            action,
            max_age: None,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<Entry> {
        entries(text.as_bytes()).collect()
    }

    fn skipped(entry: &Entry) -> String {
        match entry {
            Entry::Skipped(problem) => problem.to_string(),
            other => panic!("expected a skipped row, got {other:?}"),
        }
    }

    #[test]
    fn rows_become_records_of_each_type() {
        let entries = read(
            "name,type,target,status\n\
             /net/a,redirect,https://e.org/a,301\n\
             \n\
             /net/docs/,partial,https://docs.e.org/,\n\
             /net/old,chain,/net/a,\n\
             /net/gone,gone,\"Withdrawn, see /net/a\",\n\
             /net/b,307,https://e.org/b,\n\
             /net/nf,404,,\n",
        );
        let records: Vec<(u64, String, Action)> = entries
            .into_iter()
            .map(|e| match e {
                Entry::Record(item) => (item.line, item.name.to_string(), item.body.action),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(records.len(), 6);
        assert_eq!(
            records[0],
            (
                2,
                "/net/a".into(),
                Action::Redirect {
                    status: 301,
                    target: "https://e.org/a".into()
                }
            )
        );
        assert_eq!(records[1].0, 4);
        assert_eq!(
            records[1].2,
            Action::Partial {
                status: 302,
                target: "https://docs.e.org/".into()
            }
        );
        assert!(matches!(&records[2].2, Action::Chain { to } if to.as_str() == "/net/a"));
        assert_eq!(
            records[3].2,
            Action::Gone {
                message: "Withdrawn, see /net/a".into()
            }
        );
        assert!(matches!(records[4].2, Action::Redirect { status: 307, .. }));
        assert!(matches!(&records[5].2, Action::NotFound { message } if message.is_empty()));
    }

    #[test]
    fn bad_rows_are_skipped_with_their_line() {
        let entries = read(
            "name,type,target\n\
             /a,redirect,https://e.org/,302\n\
             /b,teleport,https://e.org/\n\
             /c,redirect,not a url\n\
             d,redirect,https://e.org/\n\
             /e,chain,/e\n",
        );
        assert_eq!(skipped(&entries[0]), "2: 4 columns where the header has 3");
        assert!(skipped(&entries[1]).starts_with("3: type \"teleport\""));
        assert!(skipped(&entries[2]).starts_with("4: /c: target: "));
        assert!(skipped(&entries[3]).starts_with("5: name \"d\": at byte 0"));
        assert!(skipped(&entries[4]).starts_with("6: /e: to: "));
        let statuses = read("name,type,target,status\n/a,redirect,https://e.org/,x\n/b,gone,x,410\n/c,redirect,https://e.org/,200\n");
        assert_eq!(skipped(&statuses[0]), "2: status \"x\": not a number");
        assert_eq!(
            skipped(&statuses[1]),
            "3: status 410: a gone record has none"
        );
        assert!(skipped(&statuses[2]).starts_with("4: /c: status: 200"));
    }

    #[test]
    fn a_file_without_the_header_is_said_once() {
        let entries = read("/a,redirect,https://e.org/\n/b,redirect,https://e.org/\n");
        assert_eq!(entries.len(), 1);
        assert!(skipped(&entries[0]).starts_with("1: the header is \"/a,redirect,https://e.org/\""));
        let bytes: &[u8] = b"name,type,target\n/a,gone,\xff\n";
        let read: Vec<Entry> = super::entries(bytes).collect();
        assert!(skipped(&read[0]).starts_with("2: not CSV"), "{read:?}");
    }
}
