//! PURLZ's batch XML (the file its batch load takes, and its records as they are listed):
//!
//! ```text
//! <purls>
//!   <purl id="/net/a" type="302">
//!     <maintainers><uid>alice</uid><gid>staff</gid></maintainers>
//!     <target url="https://example.net/a"/>
//!   </purl>
//!   <purl id="/net/docs/" type="partial"><target url="https://docs.example.net/"/></purl>
//!   <purl id="/net/about" type="303"><seealso url="https://example.net/about"/></purl>
//!   <purl id="/net/old" type="chain"><target url="/net/a"/></purl>
//!   <purl id="/net/copy" type="clone"><basepurl path="/net/a"/></purl>
//!   <purl id="/net/gone" type="410"/>
//! </purls>
//! ```
//!
//! Types `301`, `302`, `307` are redirects to `target`; `303` to `seealso` (or `target`);
//! `partial` a partial record; `chain` a chain to the PURL its target names; `clone` a
//! copy of a record given earlier in the file; `404` and `410` answer so. Maintainers are
//! not imported (owners here are the maintainers of a domain): each purl's are noted.

use super::{item, parse_name, Entry, Item, Problem};
use crate::model::Body;
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;
use std::collections::HashMap;
use urlkit::purl::Action;

/// One `<purl>` while it is read.
#[derive(Default)]
struct Purl {
    line: u64,
    id: Option<String>,
    kind: Option<String>,
    target: Option<String>,
    seealso: Option<String>,
    basepurl: Option<String>,
    maintainers: Vec<String>,
}

/// The entries of the PURLZ batch XML `text`, in the order of its `<purl>`s (the whole
/// text is read: such files are small).
///
/// Bad input: text that is not well-formed XML ends the reading with a skipped entry at
/// the line of the fault (the purls before it stay); a root that is not `<purls>`, a purl
/// without `id` or `type`, a type not listed above, a missing target, a clone of a purl
/// not given before it, an element or attribute not understood, and a name or target
/// that makes no record are each a [`Entry::Skipped`] with the line of their element.
pub fn parse(text: &str) -> Vec<Entry> {
    let mut reader = Reader::from_str(text);
    reader.config_mut().trim_text(true);
    let mut lines = LineCounter::default();
    let mut entries = Vec::new();
    let mut bodies: HashMap<String, Body> = HashMap::new();
    let mut path: Vec<String> = Vec::new();
    let mut purl: Option<Purl> = None;
    let mut text_of: Option<String> = None;
    loop {
        let event = match reader.read_event() {
            Ok(event) => event,
            Err(error) => {
                let line = lines.line_at(text, reader.error_position());
                entries.push(Entry::Skipped(Problem::new(
                    line,
                    format!("not well-formed XML: {error}; the rest of the file is not read"),
                )));
                break;
            }
        };
        let line = lines.line_at(text, reader.buffer_position());
        let skip = |message: String| Entry::Skipped(Problem::new(line, message));
        match event {
            Event::Eof => break,
            Event::Start(_) | Event::Empty(_) => {
                let (element, empty) = match event {
                    Event::Start(element) => (element, false),
                    Event::Empty(element) => (element, true),
                    _ => unreachable!("a start or empty element"),
                };
                let name = String::from_utf8_lossy(element.name().as_ref()).into_owned();
                let parent = path.last().map(String::as_str);
                match (parent, name.as_str()) {
                    (None, "purls") => {}
                    (None, other) => {
                        entries.push(skip(format!(
                            "<{other}>: the root of a PURLZ batch is <purls>; nothing is read"
                        )));
                        break;
                    }
                    (Some("purls"), "purl") => {
                        let mut new = Purl {
                            line,
                            ..Purl::default()
                        };
                        for (key, value) in attributes(&element, &mut entries, line) {
                            match key.as_str() {
                                "id" => new.id = Some(value),
                                "type" => new.kind = Some(value),
                                other => entries.push(skip(format!(
                                    "<purl {other}=…>: an attribute not understood: not imported"
                                ))),
                            }
                        }
                        purl = Some(new);
                    }
                    (Some("purl"), "maintainers") => {}
                    (Some("maintainers"), "uid" | "gid") => text_of = Some(String::new()),
                    (Some("purl"), "target" | "seealso" | "basepurl") => {
                        let wanted = if name == "basepurl" { "path" } else { "url" };
                        let mut value = None;
                        for (key, v) in attributes(&element, &mut entries, line) {
                            if key == wanted {
                                value = Some(v);
                            } else {
                                entries.push(skip(format!(
                                    "<{name} {key}=…>: an attribute not understood: not imported"
                                )));
                            }
                        }
                        if let Some(current) = purl.as_mut() {
                            let slot = match name.as_str() {
                                "target" => &mut current.target,
                                "seealso" => &mut current.seealso,
                                _ => &mut current.basepurl,
                            };
                            match value {
                                Some(value) => *slot = Some(value),
                                None => entries.push(skip(format!(
                                    "<{name}> without {wanted}=: not imported"
                                ))),
                            }
                        }
                    }
                    (_, other) => entries.push(skip(format!(
                        "<{other}>: an element not understood here: not imported"
                    ))),
                }
                if empty {
                    end(&name, &mut purl, &mut text_of, &mut entries, &mut bodies);
                } else {
                    path.push(name);
                }
            }
            Event::End(element) => {
                let name = String::from_utf8_lossy(element.name().as_ref()).into_owned();
                path.pop();
                end(&name, &mut purl, &mut text_of, &mut entries, &mut bodies);
            }
            Event::Text(content) => match text_of.as_mut() {
                Some(text) => text.push_str(&content.decode().unwrap_or_default()),
                None => entries.push(skip(format!(
                    "text {:?}: not understood here: not imported",
                    content.decode().unwrap_or_default()
                ))),
            },
            Event::GeneralRef(reference) => {
                let name = reference.decode().unwrap_or_default();
                let character = match name.as_ref() {
                    "amp" => "&",
                    "lt" => "<",
                    "gt" => ">",
                    "quot" => "\"",
                    "apos" => "'",
                    _ => "",
                };
                if let Some(text) = text_of.as_mut() {
                    text.push_str(character);
                }
            }
            Event::CData(_) => {
                entries.push(skip("CDATA: not understood here: not imported".into()))
            }
            Event::Decl(_) | Event::Comment(_) | Event::PI(_) | Event::DocType(_) => {}
        }
    }
    entries
}

/// An element's attributes, unescaped; a bad one is skipped.
fn attributes(
    element: &BytesStart<'_>,
    entries: &mut Vec<Entry>,
    line: u64,
) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for attribute in element.attributes() {
        match attribute {
            Ok(attribute) => {
                let key = String::from_utf8_lossy(attribute.key.as_ref()).into_owned();
                match attribute.unescape_value() {
                    Ok(value) => found.push((key, value.into_owned())),
                    Err(error) => entries.push(Entry::Skipped(Problem::new(
                        line,
                        format!("attribute {key}: {error}"),
                    ))),
                }
            }
            Err(error) => entries.push(Entry::Skipped(Problem::new(
                line,
                format!("an attribute that is not one: {error}"),
            ))),
        }
    }
    found
}

/// The end of element `name`: a maintainer's name is kept, a purl becomes its entries.
fn end(
    name: &str,
    purl: &mut Option<Purl>,
    text_of: &mut Option<String>,
    entries: &mut Vec<Entry>,
    bodies: &mut HashMap<String, Body>,
) {
    match name {
        "uid" | "gid" => {
            if let (Some(text), Some(purl)) = (text_of.take(), purl.as_mut()) {
                let text = text.trim();
                purl.maintainers.push(if name == "gid" {
                    format!("@{text}")
                } else {
                    text.to_string()
                });
            }
        }
        "purl" => {
            if let Some(purl) = purl.take() {
                let line = purl.line;
                if !purl.maintainers.is_empty() {
                    entries.push(Entry::Note(Problem::new(
                        line,
                        format!(
                            "{}: maintainers {} not imported (here the maintainers of a \
                             domain own its records: urlkit purl domain add)",
                            purl.id.as_deref().unwrap_or("<purl>"),
                            purl.maintainers.join(", ")
                        ),
                    )));
                }
                match record(&purl, bodies) {
                    Ok(item) => {
                        bodies.insert(item.name.as_str().to_string(), item.body.clone());
                        entries.push(Entry::Record(item));
                    }
                    Err(problem) => entries.push(Entry::Skipped(problem)),
                }
            }
        }
        _ => {}
    }
}

/// The record a purl makes.
fn record(purl: &Purl, bodies: &HashMap<String, Body>) -> Result<Item, Problem> {
    let line = purl.line;
    let at = |message: String| Problem::new(line, message);
    let id = purl
        .id
        .as_deref()
        .ok_or_else(|| at("<purl> without id=: not imported".into()))?;
    let kind = purl
        .kind
        .as_deref()
        .ok_or_else(|| at(format!("{id}: <purl> without type=: not imported")))?;
    let target = |of: Option<&String>, element: &str| {
        of.cloned().ok_or_else(|| {
            at(format!(
                "{id}: type {kind} without <{element} …/>: not imported"
            ))
        })
    };
    let action = match kind {
        "301" | "302" | "307" => Action::Redirect {
            status: kind.parse().expect("a status"),
            target: target(purl.target.as_ref(), "target url=")?,
        },
        "303" => Action::Redirect {
            status: 303,
            target: target(
                purl.seealso.as_ref().or(purl.target.as_ref()),
                "seealso url=",
            )?,
        },
        "partial" => Action::Partial {
            status: 302,
            target: target(purl.target.as_ref(), "target url=")?,
        },
        "chain" => Action::Chain {
            to: parse_name(line, &target(purl.target.as_ref(), "target url=")?)?,
        },
        "clone" => {
            let base = target(purl.basepurl.as_ref(), "basepurl path=")?;
            let normal = parse_name(line, &base)?;
            let body = bodies.get(normal.as_str()).ok_or_else(|| {
                at(format!(
                    "{id}: a clone of {base}, which the file does not give before it: not imported"
                ))
            })?;
            return item(line, id, body.clone());
        }
        "404" => Action::NotFound {
            message: "Not Found".into(),
        },
        "410" => Action::Gone {
            message: "Gone".into(),
        },
        other => {
            return Err(at(format!(
                "{id}: type {other:?} not understood (301, 302, 303, 307, 404, 410, partial, \
                 chain, clone are): not imported"
            )))
        }
    };
    item(
        line,
        id,
        Body {
            action,
            max_age: None,
        },
    )
}

/// Lines of byte positions, counted on from the last position asked (positions only grow).
#[derive(Default)]
struct LineCounter {
    position: usize,
    line: u64,
}

impl LineCounter {
    fn line_at(&mut self, text: &str, position: u64) -> u64 {
        let position = usize::try_from(position)
            .unwrap_or(usize::MAX)
            .min(text.len());
        if position >= self.position {
            self.line += text.as_bytes()[self.position..position]
                .iter()
                .filter(|&&b| b == b'\n')
                .count() as u64;
            self.position = position;
        }
        self.line + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(entry: &Entry) -> (u64, &str, &Action) {
        match entry {
            Entry::Record(item) => (item.line, item.name.as_str(), &item.body.action),
            other => panic!("expected a record, got {other:?}"),
        }
    }

    fn said(entry: &Entry) -> String {
        match entry {
            Entry::Skipped(problem) | Entry::Note(problem) => problem.to_string(),
            other => panic!("expected a problem, got {other:?}"),
        }
    }

    #[test]
    fn each_type_becomes_a_record_and_maintainers_are_noted() {
        let entries = parse(
            r#"<?xml version="1.0"?>
<purls>
  <purl id="/net/a" type="302">
    <maintainers><uid>alice</uid><gid>staff</gid></maintainers>
    <target url="https://example.net/a?x=1&amp;y=2"/>
  </purl>
  <purl id="/net/docs/" type="partial"><target url="https://docs.example.net/"/></purl>
  <purl id="/net/about" type="303"><seealso url="https://example.net/about"/></purl>
  <purl id="/net/old" type="chain"><target url="/net/a"/></purl>
  <purl id="/net/copy" type="clone"><basepurl path="/net/a"/></purl>
  <purl id="/net/gone" type="410"/>
  <purl id="/net/nf" type="404"></purl>
  <purl id="/net/p" type="301"><target url="https://example.net/p"/></purl>
</purls>
"#,
        );
        assert_eq!(entries.len(), 9, "{entries:#?}");
        let note = said(&entries[0]);
        assert!(
            note.starts_with("3: /net/a: maintainers alice, @staff not imported"),
            "{note}"
        );
        assert_eq!(
            record(&entries[1]),
            (
                3,
                "/net/a",
                &Action::Redirect {
                    status: 302,
                    target: "https://example.net/a?x=1&y=2".into()
                }
            )
        );
        assert!(matches!(
            record(&entries[2]),
            (7, "/net/docs/", Action::Partial { status: 302, .. })
        ));
        assert!(
            matches!(record(&entries[3]).2, Action::Redirect { status: 303, target } if target == "https://example.net/about")
        );
        assert!(matches!(record(&entries[4]).2, Action::Chain { to } if to.as_str() == "/net/a"));
        assert_eq!(record(&entries[5]).2, record(&entries[1]).2);
        assert_eq!(record(&entries[5]).0, 10);
        assert!(matches!(record(&entries[6]).2, Action::Gone { .. }));
        assert!(matches!(record(&entries[7]).2, Action::NotFound { .. }));
        assert!(matches!(
            record(&entries[8]).2,
            Action::Redirect { status: 301, .. }
        ));
    }

    #[test]
    fn what_is_not_understood_is_skipped_with_its_line() {
        let entries = parse(
            "<purls>\n\
             <purl id=\"/a\" type=\"999\"><target url=\"https://e.org/\"/></purl>\n\
             <purl id=\"/b\" type=\"302\"/>\n\
             <purl id=\"/c\" type=\"clone\"><basepurl path=\"/zz\"/></purl>\n\
             <purl id=\"/d\" type=\"302\"><target url=\"https://e.org/\"/><extra/></purl>\n\
             <purl type=\"302\"><target url=\"https://e.org/\"/></purl>\n\
             <purl id=\"/f\" type=\"302\"><target url=\"relative\"/></purl>\n\
             <purl id=\"/g\" type=\"302\"><target url=\"https://e.org/\"></purls>\n",
        );
        let said: Vec<String> = entries
            .iter()
            .filter(|e| !matches!(e, Entry::Record(_)))
            .map(said)
            .collect();
        assert!(
            said[0].starts_with("2: /a: type \"999\" not understood"),
            "{said:#?}"
        );
        assert!(said[1].starts_with("3: /b: type 302 without <target url="));
        assert!(said[2].starts_with("4: /c: a clone of /zz"));
        assert!(said[3].starts_with("5: <extra>: an element not understood"));
        assert!(said[4].starts_with("6: <purl> without id="));
        assert!(said[5].starts_with("7: /f: target: not an absolute URL"));
        assert!(said[6].starts_with("8: not well-formed XML"), "{said:#?}");
        assert_eq!(said.len(), 7, "{said:#?}");
        // /d itself is imported: only its unknown element is skipped.
        assert!(entries
            .iter()
            .any(|e| matches!(e, Entry::Record(item) if item.name.as_str() == "/d")));
        let root = parse("<records><purl id=\"/a\" type=\"410\"/></records>");
        assert_eq!(root.len(), 1);
        assert!(said_one(&root[0]).starts_with("1: <records>: the root of a PURLZ batch"));
    }

    fn said_one(entry: &Entry) -> String {
        said(entry)
    }
}
