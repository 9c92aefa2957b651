//! The records a resolver holds, and how a request finds its answer among them.
//!
//! A request's path is put in the normal form of names ([`Name`]); a record of exactly
//! that name answers, else the partial record with the longest name that is a prefix of
//! the path at a segment boundary. A chain is followed here, at most [`MAX_CHAIN`] deep.
//! Every location the resolver answers starts with a record's target and keeps that
//! target's origin: nothing in a request can send a client to a site no record names.

use super::name::{Name, NameError};
use super::negotiate;
use super::record::{Action, Record, RecordError, RecordProblem, MAX_CHAIN};
use crate::inspect::whatwg;
use std::collections::HashMap;

/// The answer to a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer<'a> {
    /// Redirect.
    Redirect {
        /// The status.
        status: u16,
        /// Where to.
        location: String,
        /// `Cache-Control: max-age`, as the record asks (`None`: the resolver's default).
        max_age: Option<u32>,
        /// The request headers the answer depends on, for `Vary` (empty when none).
        vary: &'static str,
        /// The record that answered (the last of a chain).
        record: &'a Name,
    },
    /// `404` or `410`, with the record's message.
    Message {
        /// `404` or `410`.
        status: u16,
        /// The record's message.
        message: &'a str,
        /// The record.
        record: &'a Name,
    },
    /// `406`: a negotiated record with no offer the request accepts and no fallback.
    NotAcceptable {
        /// The record.
        record: &'a Name,
        /// The media types it offers.
        offered: Vec<&'a str>,
    },
    /// `508`: a chain deeper than [`MAX_CHAIN`], or to a record that does not exist.
    BrokenChain {
        /// The first record of the chain.
        record: &'a Name,
        /// What went wrong.
        message: String,
    },
    /// `404`: the rest of a partial name would take the location to another site.
    LeavesTarget {
        /// The partial record.
        record: &'a Name,
    },
    /// `404`: no record answers this path.
    NoRecord,
    /// `400`: the path is not a name (a bad escape, a reserved name …).
    BadName(NameError),
}

/// The records, by name.
#[derive(Clone, Debug, Default)]
pub struct Table {
    records: HashMap<String, Record>,
}

/// Where `rest` and `query` go in `target`: before its fragment.
fn join(target: &str, rest: &str, query: Option<&str>) -> String {
    let (head, fragment) = match target.find('#') {
        Some(at) => target.split_at(at),
        None => (target, ""),
    };
    let mut location =
        String::with_capacity(target.len() + rest.len() + 1 + query.map_or(0, str::len));
    location.push_str(head);
    location.push_str(rest);
    if let Some(query) = query.filter(|q| !q.is_empty()) {
        location.push(if head.contains('?') { '&' } else { '?' });
        location.push_str(query);
    }
    location.push_str(fragment);
    location
}

/// Whether `location` keeps the origin (scheme, host, port) of `target`.
fn same_site(target: &str, location: &str) -> bool {
    match (whatwg::parse(target, None), whatwg::parse(location, None)) {
        (Ok(t), Ok(l)) => {
            t.scheme() == l.scheme()
                && t.host_str() == l.host_str()
                && t.port() == l.port()
                && l.username().is_empty()
                && l.password().is_none()
                || t.as_str() == l.as_str()
        }
        _ => false,
    }
}

impl Table {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many records.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The record of `name`.
    pub fn get(&self, name: &Name) -> Option<&Record> {
        self.records.get(name.as_str())
    }

    /// Keeps `record`, replacing the one of its name, which is returned.
    ///
    /// Bad input: a record [`Record::check`] refuses, or a chain that would come back to
    /// itself, is an error and the table is unchanged.
    pub fn insert(&mut self, record: Record) -> Result<Option<Record>, RecordError> {
        self.check(&record)?;
        Ok(self
            .records
            .insert(record.name.as_str().to_string(), record))
    }

    /// Whether [`Table::insert`] would keep `record`, without keeping it.
    ///
    /// Bad input: a record [`Record::check`] refuses, or a chain that would come back to
    /// itself, is an error.
    pub fn check(&self, record: &Record) -> Result<(), RecordError> {
        record.check()?;
        if let Action::Chain { to } = &record.action {
            let mut at = to;
            for _ in 0..=self.records.len() {
                if at == &record.name {
                    return Err(RecordError {
                        field: "to".into(),
                        kind: RecordProblem::ChainLoop,
                        message: format!("the chain from {} comes back to it", record.name),
                    });
                }
                match self.records.get(at.as_str()).map(|r| &r.action) {
                    Some(Action::Chain { to }) => at = to,
                    _ => break,
                }
            }
        }
        Ok(())
    }

    /// Removes the record of `name`, returning it.
    pub fn remove(&mut self, name: &Name) -> Option<Record> {
        self.records.remove(name.as_str())
    }

    /// Every record, in no order.
    pub fn records(&self) -> impl Iterator<Item = &Record> {
        self.records.values()
    }

    /// The record that answers `path`, and the rest of the path after a partial record's
    /// name (empty for an exact match).
    fn find<'p>(&self, path: &'p str) -> Option<(&Record, &'p str)> {
        if let Some(record) = self.records.get(path) {
            return Some((record, ""));
        }
        // Prefixes at segment boundaries, longest first: `/a/b/c` tries `/a/b/`, `/a/b`,
        // `/a/`, `/a`, `/`.
        let mut end = path.len();
        while let Some(slash) = path[..end].rfind('/') {
            let with_slash = (slash + 1 < path.len()).then_some(slash + 1);
            let without = (slash > 0).then_some(slash);
            for cut in [with_slash, without].into_iter().flatten() {
                if let Some(record) = self.records.get(&path[..cut]) {
                    if matches!(record.action, Action::Partial { .. }) {
                        return Some((record, &path[cut..]));
                    }
                }
            }
            end = slash;
        }
        None
    }

    /// The answer to a request for `path` (as sent: percent-encoded, without the query)
    /// with `query` (without the `?`) and the request's `Accept` and `Accept-Language`.
    ///
    /// Bad input: a path that is not a name is [`Answer::BadName`]; nothing else fails.
    pub fn resolve(
        &self,
        path: &str,
        query: Option<&str>,
        accept: Option<&str>,
        accept_language: Option<&str>,
    ) -> Answer<'_> {
        let name = match Name::parse(path) {
            Ok(name) => name,
            Err(e) => return Answer::BadName(e),
        };
        let Some((mut record, rest)) = self.find(name.as_str()) else {
            return Answer::NoRecord;
        };
        let first = &record.name;
        let mut depth = 0;
        loop {
            match &record.action {
                Action::Chain { to } => {
                    depth += 1;
                    if depth > MAX_CHAIN {
                        return Answer::BrokenChain {
                            record: first,
                            message: format!("the chain is deeper than {MAX_CHAIN} records"),
                        };
                    }
                    match self.records.get(to.as_str()) {
                        Some(next) => record = next,
                        None => {
                            return Answer::BrokenChain {
                                record: first,
                                message: format!("the chain leads to {to}, which has no record"),
                            }
                        }
                    }
                }
                // Only a partial record is found with a rest; a plain redirect goes to its
                // target as written, whatever the request adds.
                Action::Redirect { status, target } => {
                    return Answer::Redirect {
                        status: *status,
                        location: target.clone(),
                        max_age: record.max_age,
                        vary: "",
                        record: &record.name,
                    };
                }
                Action::Partial { status, target } => {
                    let location = join(target, rest, query);
                    if !rest.is_empty() && !same_site(target, &location) {
                        return Answer::LeavesTarget {
                            record: &record.name,
                        };
                    }
                    return Answer::Redirect {
                        status: *status,
                        location,
                        max_age: record.max_age,
                        vary: "",
                        record: &record.name,
                    };
                }
                Action::Negotiate {
                    status,
                    offers,
                    fallback,
                } => {
                    let choices: Vec<(&str, Option<&str>)> = offers
                        .iter()
                        .map(|o| (o.media_type.as_str(), o.language.as_deref()))
                        .collect();
                    let vary = if offers.iter().any(|o| o.language.is_some()) {
                        "Accept, Accept-Language"
                    } else {
                        "Accept"
                    };
                    let target = match negotiate::choose(&choices, accept, accept_language) {
                        Some(i) => &offers[i].target,
                        None => match fallback {
                            Some(target) => target,
                            None => {
                                return Answer::NotAcceptable {
                                    record: &record.name,
                                    offered: choices.iter().map(|(m, _)| *m).collect(),
                                }
                            }
                        },
                    };
                    return Answer::Redirect {
                        status: *status,
                        location: target.clone(),
                        max_age: record.max_age,
                        vary,
                        record: &record.name,
                    };
                }
                Action::NotFound { message } => {
                    return Answer::Message {
                        status: 404,
                        message,
                        record: &record.name,
                    }
                }
                Action::Gone { message } => {
                    return Answer::Message {
                        status: 410,
                        message,
                        record: &record.name,
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::purl::record::Offer;

    fn name(text: &str) -> Name {
        Name::parse(text).unwrap()
    }

    fn redirect(n: &str, status: u16, target: &str) -> Record {
        Record {
            name: name(n),
            action: Action::Redirect {
                status,
                target: target.into(),
            },
            max_age: None,
        }
    }

    fn partial(n: &str, target: &str) -> Record {
        Record {
            name: name(n),
            action: Action::Partial {
                status: 302,
                target: target.into(),
            },
            max_age: None,
        }
    }

    fn chain(n: &str, to: &str) -> Record {
        Record {
            name: name(n),
            action: Action::Chain { to: name(to) },
            max_age: None,
        }
    }

    fn location(answer: Answer<'_>) -> String {
        match answer {
            Answer::Redirect { location, .. } => location,
            other => panic!("not a redirect: {other:?}"),
        }
    }

    #[test]
    fn exact_names_redirect_to_their_target_as_written() {
        let mut table = Table::new();
        table
            .insert(redirect("/net/a", 307, "https://example.org/a#top"))
            .unwrap();
        match table.resolve("/net/./a", Some("x=1"), None, None) {
            Answer::Redirect {
                status, location, ..
            } => {
                assert_eq!(
                    (status, location.as_str()),
                    (307, "https://example.org/a#top")
                );
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(table.resolve("/net/b", None, None, None), Answer::NoRecord);
        assert!(matches!(
            table.resolve("/net/%zz", None, None, None),
            Answer::BadName(_)
        ));
    }

    #[test]
    fn the_longest_partial_prefix_wins_and_appends_the_rest_byte_for_byte() {
        let mut table = Table::new();
        table
            .insert(partial("/net/", "https://a.example/base/"))
            .unwrap();
        table
            .insert(partial("/net/docs/", "https://docs.example/v2/"))
            .unwrap();
        table
            .insert(partial("/net/docs", "https://docs.example/root"))
            .unwrap();
        assert_eq!(
            location(table.resolve("/net/docs/guide/%E5%BC%95", Some("lang=ja"), None, None)),
            "https://docs.example/v2/guide/%E5%BC%95?lang=ja"
        );
        assert_eq!(
            location(table.resolve("/net/docs", None, None, None)),
            "https://docs.example/root"
        );
        assert_eq!(
            location(table.resolve("/net/other/x", Some("q=a%20b"), None, None)),
            "https://a.example/base/other/x?q=a%20b"
        );
        assert_eq!(table.resolve("/org/x", None, None, None), Answer::NoRecord);
        // `/net/docsx` is not under `/net/docs`, only under `/net/`.
        assert_eq!(
            location(table.resolve("/net/docsx", None, None, None)),
            "https://a.example/base/docsx"
        );
    }

    #[test]
    fn nothing_in_a_request_leads_to_another_site() {
        let mut table = Table::new();
        // A target without a path, under a name ending in `/`: the rest is glued to the
        // host.
        table
            .insert(partial("/bare/", "https://a.example"))
            .unwrap();
        for path in [
            "/bare/@evil.example/",
            "/bare/.evil.example/x",
            "/bare/:8080/",
        ] {
            let answer = table.resolve(path, None, None, None);
            assert!(
                matches!(answer, Answer::LeavesTarget { .. }),
                "{path}: {answer:?}"
            );
        }
        assert_eq!(
            location(table.resolve("/bare//ok", None, None, None)),
            "https://a.example/ok"
        );
    }

    #[test]
    fn chains_are_followed_refused_when_looping_and_bounded() {
        let mut table = Table::new();
        table
            .insert(redirect("/end", 302, "https://example.org/end"))
            .unwrap();
        table.insert(chain("/a", "/end")).unwrap();
        assert_eq!(
            location(table.resolve("/a", None, None, None)),
            "https://example.org/end"
        );
        table.insert(chain("/b", "/a")).unwrap();
        let refused = table.insert(chain("/end", "/b")).unwrap_err();
        assert_eq!(refused.kind, RecordProblem::ChainLoop);
        assert_eq!(
            location(table.resolve("/b", None, None, None)),
            "https://example.org/end"
        );
        let mut deep = Table::new();
        deep.insert(redirect("/c0", 302, "https://example.org/"))
            .unwrap();
        for i in 1..=MAX_CHAIN + 1 {
            deep.insert(chain(&format!("/c{i}"), &format!("/c{}", i - 1)))
                .unwrap();
        }
        assert!(matches!(
            deep.resolve(&format!("/c{MAX_CHAIN}"), None, None, None),
            Answer::Redirect { .. }
        ));
        assert!(matches!(
            deep.resolve(&format!("/c{}", MAX_CHAIN + 1), None, None, None),
            Answer::BrokenChain { .. }
        ));
        deep.insert(chain("/dangling", "/nowhere")).unwrap();
        assert!(matches!(
            deep.resolve("/dangling", None, None, None),
            Answer::BrokenChain { .. }
        ));
    }

    #[test]
    fn negotiated_records_follow_accept_and_say_vary() {
        let mut table = Table::new();
        let offer = |media: &str, language: Option<&str>, target: &str| Offer {
            media_type: media.into(),
            language: language.map(String::from),
            target: target.into(),
        };
        table
            .insert(Record {
                name: name("/voc/term"),
                action: Action::Negotiate {
                    status: 303,
                    offers: vec![
                        offer("text/html", Some("en"), "https://e.org/term.en.html"),
                        offer("text/html", Some("de"), "https://e.org/term.de.html"),
                        offer("text/turtle", None, "https://e.org/term.ttl"),
                    ],
                    fallback: None,
                },
                max_age: Some(60),
            })
            .unwrap();
        match table.resolve(
            "/voc/term",
            None,
            Some("text/turtle, text/html;q=0.5"),
            None,
        ) {
            Answer::Redirect {
                status,
                location,
                vary,
                max_age,
                ..
            } => {
                assert_eq!(
                    (status, location.as_str(), vary, max_age),
                    (
                        303,
                        "https://e.org/term.ttl",
                        "Accept, Accept-Language",
                        Some(60)
                    )
                );
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            location(table.resolve(
                "/voc/term",
                None,
                Some("text/html"),
                Some("de-AT, en;q=0.3")
            )),
            "https://e.org/term.de.html"
        );
        assert!(matches!(
            table.resolve("/voc/term", None, Some("application/pdf"), None),
            Answer::NotAcceptable { .. }
        ));
    }

    #[test]
    fn gone_and_not_found_records_carry_their_message() {
        let mut table = Table::new();
        table
            .insert(Record {
                name: name("/old"),
                action: Action::Gone {
                    message: "withdrawn in 2019".into(),
                },
                max_age: None,
            })
            .unwrap();
        assert!(matches!(
            table.resolve("/old", None, None, None),
            Answer::Message {
                status: 410,
                message: "withdrawn in 2019",
                ..
            }
        ));
    }
}
