//! The records a resolver holds, and how a request finds its answer among them.
//!
//! A request's path is put in the normal form of names ([`Name`]); a record of exactly
//! that name answers, else the partial record with the longest name that is a prefix of
//! the path at a segment boundary. A chain is followed here, at most [`MAX_CHAIN`] deep.
//! Every location the resolver answers starts with a record's target and keeps that
//! target's origin: nothing in a request can send a client to a site no record names.

use super::name::{is_plain_normal, Name, NameError};
use super::negotiate;
use super::record::{Action, Record, RecordError, RecordProblem, MAX_CHAIN};
use crate::inspect::whatwg;
use hashbrown::DefaultHashBuilder;
use std::borrow::Cow;
use std::fmt;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU64, Ordering};

/// What kind of record a redirect comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedirectKind {
    /// A plain redirect (perhaps reached through a chain).
    Plain,
    /// A partial record: the rest of the path and the query appended to its target.
    Partial,
    /// A negotiated record: the target chosen by `Accept` (and `Accept-Language`).
    Negotiated,
}

/// The answer to a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer<'a> {
    /// Redirect.
    Redirect {
        /// The status.
        status: u16,
        /// Where to: a record's target as it is, or (partial records) with the rest of
        /// the request appended.
        location: Cow<'a, str>,
        /// `Cache-Control: max-age`, as the record asks (`None`: the resolver's default).
        max_age: Option<u32>,
        /// The request headers the answer depends on, for `Vary` (empty when none).
        vary: &'static str,
        /// The record that answered (the last of a chain).
        record: &'a Name,
        /// What kind of record that is.
        kind: RedirectKind,
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

/// The records, by name, each with a count of the requests it answered.
///
/// The records lie side by side in one vector; a hash table of their positions finds
/// them by name without holding each name twice, and a second, of the partial records'
/// positions only, finds the prefixes of a path among the few records that can answer for
/// a prefix (small enough to stay in the processor's caches). Their counts lie in a vector
/// of their own, so that taking them reads a few bytes a record.
#[derive(Default)]
pub struct Table {
    slots: Vec<Record>,
    /// Requests answered by the record at the same position since its count was taken.
    hits: Vec<AtomicU64>,
    index: hashbrown::HashTable<usize>,
    /// The positions of the partial records, by their names' hashes.
    partials: hashbrown::HashTable<usize>,
    /// Keyed per table (foldhash): names are chosen by maintainers, not by requests.
    hasher: DefaultHashBuilder,
    /// Counts of records removed before their count was taken.
    removed: std::sync::Mutex<Vec<(Name, u64)>>,
}

impl Clone for Table {
    fn clone(&self) -> Self {
        Table {
            slots: self.slots.clone(),
            hits: self
                .hits
                .iter()
                .map(|h| AtomicU64::new(h.load(Ordering::Relaxed)))
                .collect(),
            index: self.index.clone(),
            partials: self.partials.clone(),
            hasher: self.hasher.clone(),
            removed: std::sync::Mutex::new(self.removed().clone()),
        }
    }
}

impl fmt::Debug for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.slots.iter().map(|r| (r.name.as_str(), r)))
            .finish()
    }
}

/// Notes in `index` that the record at `at` of `slots`, whose name hashes to `hash`,
/// lies there.
fn note_position(
    index: &mut hashbrown::HashTable<usize>,
    hash: u64,
    at: usize,
    slots: &[Record],
    hasher: &DefaultHashBuilder,
) {
    index.insert_unique(hash, at, |&i| hasher.hash_one(slots[i].name.as_str()));
}

/// Takes position `at`, of a record whose name hashes to `hash`, out of `index`.
fn forget_position(index: &mut hashbrown::HashTable<usize>, hash: u64, at: usize) {
    if let Ok(entry) = index.find_entry(hash, |&i| i == at) {
        entry.remove();
    }
}

/// Notes in `index` that the record at `from`, whose name hashes to `hash`, now lies at
/// `to`.
fn move_position(index: &mut hashbrown::HashTable<usize>, hash: u64, from: usize, to: usize) {
    if let Some(position) = index.find_mut(hash, |&i| i == from) {
        *position = to;
    }
}

fn is_partial(record: &Record) -> bool {
    matches!(record.action, Action::Partial { .. })
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

/// Whether whatever [`join`] appends to `target` keeps its origin and adds no user
/// name, known without parsing: `target` is an `http` or `https` URL whose path or
/// query has begun (a `/` or `?` ends its authority) and whose authority holds only
/// letters, digits, `.`, `-`, `:`, `[` and `]` (no user name, no escape, nothing the URL
/// parser removes or reads otherwise). The URL Standard's parser never goes back to the
/// authority once in the path or query, so what follows cannot change it. `false` tells
/// nothing: [`same_site`] must parse. A `target` that is no valid URL is the caller's to
/// refuse (records are checked when written).
fn appending_keeps_site(target: &str) -> bool {
    let bytes = target.as_bytes();
    let after_scheme = if starts_with_ignoring_case(bytes, b"https://") {
        8
    } else if starts_with_ignoring_case(bytes, b"http://") {
        7
    } else {
        return false;
    };
    let rest = &bytes[after_scheme..];
    let Some(end) = rest.iter().position(|&b| {
        !(b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']'))
    }) else {
        return false;
    };
    end > 0 && matches!(rest[end], b'/' | b'?')
}

fn starts_with_ignoring_case(bytes: &[u8], prefix: &[u8]) -> bool {
    bytes.len() >= prefix.len() && bytes[..prefix.len()].eq_ignore_ascii_case(prefix)
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
        self.slots.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Where the record named `name` (in normal form) lies.
    fn position(&self, name: &str) -> Option<usize> {
        self.position_in(&self.index, name)
    }

    /// Where the partial record named `name` (in normal form) lies.
    fn partial_position(&self, name: &str) -> Option<usize> {
        self.position_in(&self.partials, name)
    }

    /// Where the record named `name` lies, among the positions `index` holds.
    fn position_in(&self, index: &hashbrown::HashTable<usize>, name: &str) -> Option<usize> {
        let hash = self.hasher.hash_one(name);
        index
            .find(hash, |&at| self.slots[at].name.as_str() == name)
            .copied()
    }

    /// The record of `name`.
    pub fn get(&self, name: &Name) -> Option<&Record> {
        self.position(name.as_str()).map(|at| &self.slots[at])
    }

    /// Keeps `record`, replacing the one of its name, which is returned (the count of
    /// resolutions goes on from the replaced record's).
    ///
    /// Bad input: a record [`Record::check`] refuses, or a chain that would come back to
    /// itself, is an error and the table is unchanged.
    pub fn insert(&mut self, record: Record) -> Result<Option<Record>, RecordError> {
        self.check(&record)?;
        Ok(self.insert_checked(record))
    }

    fn insert_checked(&mut self, record: Record) -> Option<Record> {
        let hash = self.hasher.hash_one(record.name.as_str());
        let partial = is_partial(&record);
        if let Some(at) = self.position(record.name.as_str()) {
            let Table {
                slots,
                partials,
                hasher,
                ..
            } = self;
            let replaced = std::mem::replace(&mut slots[at], record);
            match (is_partial(&replaced), partial) {
                (false, true) => note_position(partials, hash, at, slots, hasher),
                (true, false) => forget_position(partials, hash, at),
                _ => {}
            }
            return Some(replaced);
        }
        let Table {
            slots,
            hits,
            index,
            partials,
            hasher,
            ..
        } = self;
        let at = slots.len();
        slots.push(record);
        hits.push(AtomicU64::new(0));
        note_position(index, hash, at, slots, hasher);
        if partial {
            note_position(partials, hash, at, slots, hasher);
        }
        None
    }

    /// Whether [`Table::insert`] would keep `record`, without keeping it.
    ///
    /// Bad input: a record [`Record::check`] refuses, or a chain that would come back to
    /// itself, is an error.
    pub fn check(&self, record: &Record) -> Result<(), RecordError> {
        record.check()?;
        self.check_chain(record)
    }

    fn check_chain(&self, record: &Record) -> Result<(), RecordError> {
        if let Action::Chain { to } = &record.action {
            let mut at = to;
            for _ in 0..=self.slots.len() {
                if at == &record.name {
                    return Err(RecordError {
                        field: "to".into(),
                        kind: RecordProblem::ChainLoop,
                        message: format!("the chain from {} comes back to it", record.name),
                    });
                }
                match self.get(at).map(|r| &r.action) {
                    Some(Action::Chain { to }) => at = to,
                    _ => break,
                }
            }
        }
        Ok(())
    }

    /// Removes the record of `name`, returning it (its count of resolutions not yet taken
    /// is kept for [`Table::take_counts`]).
    pub fn remove(&mut self, name: &Name) -> Option<Record> {
        let Table {
            slots,
            hits,
            index,
            partials,
            hasher,
            removed,
        } = self;
        let hash = hasher.hash_one(name.as_str());
        let entry = index.find_entry(hash, |&at| slots[at].name == *name).ok()?;
        let (at, _) = entry.remove();
        if is_partial(&slots[at]) {
            forget_position(partials, hash, at);
        }
        let last = slots.len() - 1;
        if at != last {
            // The last record moves into the hole: its position changes.
            let moved = hasher.hash_one(slots[last].name.as_str());
            move_position(index, moved, last, at);
            if is_partial(&slots[last]) {
                move_position(partials, moved, last, at);
            }
        }
        let record = slots.swap_remove(at);
        let count = hits.swap_remove(at).into_inner();
        if count > 0 {
            let removed = removed.get_mut().unwrap_or_else(|p| p.into_inner());
            removed.push((record.name.clone(), count));
        }
        Some(record)
    }

    /// Every record, in no order.
    pub fn records(&self) -> impl Iterator<Item = &Record> {
        self.slots.iter()
    }

    /// The requests each record answered since the counts were last taken (records that
    /// answered none left out), and the counts start again from zero: others may resolve
    /// meanwhile, no answer is counted twice or lost. Every answer of [`Table::resolve`]
    /// that names a record counts for that record.
    pub fn take_counts(&self) -> Vec<(Name, u64)> {
        self.take_counts_from(0, usize::MAX).0
    }

    /// As [`Table::take_counts`], a part at a time: the counts of removed records, then
    /// those of the records from position `from` on, until `most` records that answered
    /// were found; with the position to go on from, `None` once the end was reached.
    /// Between two parts the table may change (a record moved by a removal is then taken
    /// at the next taking): no answer is counted twice or lost.
    pub fn take_counts_from(&self, from: usize, most: usize) -> (Vec<(Name, u64)>, Option<usize>) {
        let mut counts = std::mem::take(&mut *self.removed());
        let found = counts.len();
        for (at, count) in self.hits.iter().enumerate().skip(from) {
            if counts.len() - found >= most {
                return (counts, Some(at));
            }
            // A load first: most records were not asked for, and a swap would write
            // every one.
            if count.load(Ordering::Relaxed) == 0 {
                continue;
            }
            let taken = count.swap(0, Ordering::Relaxed);
            if taken > 0 {
                counts.push((self.slots[at].name.clone(), taken));
            }
        }
        (counts, None)
    }

    fn removed(&self) -> std::sync::MutexGuard<'_, Vec<(Name, u64)>> {
        // Nothing can panic while it is held.
        self.removed.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The requests the record of `name` answered since the counts were last taken.
    pub fn count(&self, name: &Name) -> u64 {
        let pending = self
            .position(name.as_str())
            .map_or(0, |at| self.hits[at].load(Ordering::Relaxed));
        let removed: u64 = self
            .removed()
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, hits)| hits)
            .sum();
        pending + removed
    }

    /// The record that answers `path` (in normal form), and the rest of the path after a
    /// partial record's name (empty for an exact match).
    fn find<'p>(&self, path: &'p str) -> Option<(usize, &'p str)> {
        if let Some(at) = self.position(path) {
            return Some((at, ""));
        }
        // Prefixes at segment boundaries, longest first: `/a/b/c` tries `/a/b/`, `/a/b`,
        // `/a/`, `/a`, `/`.
        let mut end = path.len();
        while let Some(slash) = path[..end].rfind('/') {
            let with_slash = (slash + 1 < path.len()).then_some(slash + 1);
            let without = (slash > 0).then_some(slash);
            for cut in [with_slash, without].into_iter().flatten() {
                if let Some(at) = self.partial_position(&path[..cut]) {
                    return Some((at, &path[cut..]));
                }
            }
            end = slash;
        }
        None
    }

    /// The answer to a request for `path` (as sent: percent-encoded, without the query)
    /// with `query` (without the `?`) and the request's `Accept` and `Accept-Language`.
    /// The answer counts for the record it names (see [`Table::take_counts`]).
    ///
    /// Bad input: a path that is not a name is [`Answer::BadName`]; nothing else fails.
    pub fn resolve<'a>(
        &'a self,
        path: &str,
        query: Option<&str>,
        accept: Option<&str>,
        accept_language: Option<&str>,
    ) -> Answer<'a> {
        // Most requests spell their name in normal form already: looked up as sent.
        let parsed;
        let normal = if is_plain_normal(path) {
            path
        } else {
            match Name::parse(path) {
                Ok(name) => {
                    parsed = name;
                    parsed.as_str()
                }
                Err(e) => return Answer::BadName(e),
            }
        };
        let Some((first, rest)) = self.find(normal) else {
            return Answer::NoRecord;
        };
        let (answer, counted) = self.follow(first, rest, query, accept, accept_language);
        if let Some(at) = counted {
            self.hits[at].fetch_add(1, Ordering::Relaxed);
        }
        answer
    }

    /// The answer of the record at `first`, following chains, and the position of the
    /// record it counts for (none when no record answered).
    fn follow<'a>(
        &'a self,
        first: usize,
        rest: &str,
        query: Option<&str>,
        accept: Option<&str>,
        accept_language: Option<&str>,
    ) -> (Answer<'a>, Option<usize>) {
        let first_name = &self.slots[first].name;
        let mut at = first;
        let mut depth = 0;
        loop {
            let record = &self.slots[at];
            let answer = match &record.action {
                Action::Chain { to } => {
                    depth += 1;
                    if depth > MAX_CHAIN {
                        let message = format!("the chain is deeper than {MAX_CHAIN} records");
                        return (
                            Answer::BrokenChain {
                                record: first_name,
                                message,
                            },
                            Some(first),
                        );
                    }
                    match self.position(to.as_str()) {
                        Some(next) => {
                            at = next;
                            continue;
                        }
                        None => {
                            let message = format!("the chain leads to {to}, which has no record");
                            return (
                                Answer::BrokenChain {
                                    record: first_name,
                                    message,
                                },
                                Some(first),
                            );
                        }
                    }
                }
                // Only a partial record is found with a rest; a plain redirect goes to its
                // target as written, whatever the request adds.
                Action::Redirect { status, target } => Answer::Redirect {
                    status: *status,
                    location: Cow::Borrowed(target.as_str()),
                    max_age: record.max_age,
                    vary: "",
                    record: &record.name,
                    kind: RedirectKind::Plain,
                },
                Action::Partial { status, target } => {
                    let location = join(target, rest, query);
                    if !rest.is_empty()
                        && !appending_keeps_site(target)
                        && !same_site(target, &location)
                    {
                        // Not counted: the record did not answer.
                        return (
                            Answer::LeavesTarget {
                                record: &record.name,
                            },
                            None,
                        );
                    }
                    Answer::Redirect {
                        status: *status,
                        location: Cow::Owned(location),
                        max_age: record.max_age,
                        vary: "",
                        record: &record.name,
                        kind: RedirectKind::Partial,
                    }
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
                                return (
                                    Answer::NotAcceptable {
                                        record: &record.name,
                                        offered: choices.iter().map(|(m, _)| *m).collect(),
                                    },
                                    Some(at),
                                )
                            }
                        },
                    };
                    Answer::Redirect {
                        status: *status,
                        location: Cow::Borrowed(target.as_str()),
                        max_age: record.max_age,
                        vary,
                        record: &record.name,
                        kind: RedirectKind::Negotiated,
                    }
                }
                Action::NotFound { message } => Answer::Message {
                    status: 404,
                    message,
                    record: &record.name,
                },
                Action::Gone { message } => Answer::Message {
                    status: 410,
                    message,
                    record: &record.name,
                },
            };
            return (answer, Some(at));
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
            Answer::Redirect { location, .. } => location.into_owned(),
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
                assert_eq!((status, &*location), (307, "https://example.org/a#top"));
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
                    (status, &*location, vary, max_age),
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

    #[test]
    fn answers_are_counted_per_record_and_taken_once() {
        let mut table = Table::new();
        table
            .insert(redirect("/end", 302, "https://example.org/end"))
            .unwrap();
        table.insert(chain("/a", "/end")).unwrap();
        table
            .insert(partial("/p/", "https://example.org/p/"))
            .unwrap();
        for path in ["/end", "/a", "/a", "/p/x", "/p/y", "/nothing", "/%zz"] {
            table.resolve(path, None, None, None);
        }
        // A chain counts for the record that answers; a partial record for each rest.
        assert_eq!(table.count(&name("/end")), 3);
        assert_eq!(table.count(&name("/a")), 0);
        assert_eq!(table.count(&name("/p/")), 2);
        let mut taken = table.take_counts();
        taken.sort();
        assert_eq!(taken, vec![(name("/end"), 3), (name("/p/"), 2)]);
        assert!(table.take_counts().is_empty());
        // Replacing a record keeps its count; removing it keeps the count for the taking.
        table.resolve("/end", None, None, None);
        table
            .insert(redirect("/end", 307, "https://example.org/new"))
            .unwrap();
        table.resolve("/end", None, None, None);
        assert_eq!(table.count(&name("/end")), 2);
        assert_eq!(
            table.remove(&name("/end")).map(|r| r.action),
            Some(Action::Redirect {
                status: 307,
                target: "https://example.org/new".into()
            })
        );
        assert_eq!(table.count(&name("/end")), 2);
        assert_eq!(table.take_counts(), vec![(name("/end"), 2)]);
        assert_eq!(table.count(&name("/end")), 0);
    }

    #[test]
    fn counts_taken_a_part_at_a_time_are_each_taken_once() {
        let mut table = Table::new();
        for i in 0..10 {
            table
                .insert(redirect(&format!("/r/{i}"), 302, "https://example.org/r"))
                .unwrap();
        }
        for i in [1, 2, 2, 5, 7, 7, 7, 9] {
            table.resolve(&format!("/r/{i}"), None, None, None);
        }
        let (first, next) = table.take_counts_from(0, 2);
        let at = next.expect("more records after two that answered");
        // Between parts: a record taken already answers again, one is removed.
        table.resolve("/r/1", None, None, None);
        table.remove(&name("/r/5"));
        let mut taken = first;
        let mut from = Some(at);
        while let Some(at) = from {
            let (part, next) = table.take_counts_from(at, 2);
            assert!(part.len() <= 3, "{part:?}");
            taken.extend(part);
            from = next;
        }
        taken.extend(table.take_counts());
        let mut summed: std::collections::BTreeMap<String, u64> = Default::default();
        for (name, n) in taken {
            *summed.entry(name.as_str().to_owned()).or_default() += n;
        }
        let expected: std::collections::BTreeMap<String, u64> = [
            ("/r/1", 2),
            ("/r/2", 2),
            ("/r/5", 1),
            ("/r/7", 3),
            ("/r/9", 1),
        ]
        .into_iter()
        .map(|(n, c)| (n.to_owned(), c))
        .collect();
        assert_eq!(summed, expected);
        assert!(table.take_counts().is_empty());
    }

    #[test]
    fn removing_a_record_leaves_the_others_where_they_can_be_found() {
        let mut table = Table::new();
        for i in 0..50 {
            table
                .insert(redirect(
                    &format!("/r/{i}"),
                    302,
                    &format!("https://e.org/{i}"),
                ))
                .unwrap();
        }
        for i in (0..50).step_by(3) {
            assert!(table.remove(&name(&format!("/r/{i}"))).is_some());
            assert!(table.remove(&name(&format!("/r/{i}"))).is_none());
        }
        assert_eq!(table.len(), 50 - 17);
        for i in 0..50 {
            let answer = table.resolve(&format!("/r/{i}"), None, None, None);
            if i % 3 == 0 {
                assert_eq!(answer, Answer::NoRecord, "/r/{i}");
            } else {
                assert_eq!(location(answer), format!("https://e.org/{i}"));
            }
        }
        assert_eq!(table.records().count(), 33);
    }

    /// The answers of the table against those of a plain model: every record in a list,
    /// the longest partial prefix found by trying each record in turn.
    mod model {
        use super::*;
        use proptest::prelude::*;
        use std::collections::BTreeMap;

        #[derive(Clone, Debug)]
        enum Op {
            Insert(Record),
            Remove(String),
        }

        /// Names from a small alphabet so that they meet: partial prefixes, chains,
        /// Unicode names (held escaped), dot segments in requests.
        fn segment() -> impl Strategy<Value = &'static str> {
            prop::sample::select(vec!["a", "b", "é", "%41", "x.y", "~u", "日本"])
        }

        fn spelled() -> impl Strategy<Value = String> {
            (prop::collection::vec(segment(), 1..4), any::<bool>()).prop_map(|(segments, slash)| {
                let mut path = format!("/{}", segments.join("/"));
                if slash {
                    path.push('/');
                }
                path
            })
        }

        fn record() -> impl Strategy<Value = Record> {
            (spelled(), 0..6u8, spelled()).prop_map(|(n, kind, other)| {
                let name = Name::parse(&n).unwrap();
                let target = format!("https://e.org/t{}", name.as_str());
                let action = match kind {
                    0 | 1 => Action::Redirect {
                        status: 302,
                        target,
                    },
                    2 => Action::Partial {
                        status: 307,
                        target: format!("{target}/"),
                    },
                    3 => Action::Chain {
                        to: Name::parse(&other).unwrap(),
                    },
                    4 => Action::Gone {
                        message: format!("{n} is gone"),
                    },
                    _ => Action::NotFound {
                        message: format!("{n} is not here"),
                    },
                };
                Record {
                    name,
                    action,
                    max_age: None,
                }
            })
        }

        fn op() -> impl Strategy<Value = Op> {
            prop_oneof![
                4 => record().prop_map(Op::Insert),
                1 => spelled().prop_map(Op::Remove),
            ]
        }

        /// What the model answers: the status and location or message, as text.
        fn model_answer(records: &BTreeMap<String, Record>, path: &str) -> String {
            let Ok(name) = Name::parse(path) else {
                return "400".into();
            };
            let path = name.as_str();
            let found = records.get(path).map(|r| (r, "")).or_else(|| {
                records
                    .values()
                    .filter(|r| matches!(r.action, Action::Partial { .. }))
                    .filter(|r| {
                        let n = r.name.as_str();
                        path.starts_with(n)
                            && (n.ends_with('/') || path.as_bytes()[n.len()] == b'/')
                    })
                    .max_by_key(|r| r.name.as_str().len())
                    .map(|r| (r, &path[r.name.as_str().len()..]))
            });
            let Some((mut record, rest)) = found else {
                return "404".into();
            };
            for _ in 0..=MAX_CHAIN {
                match &record.action {
                    Action::Chain { to } => match records.get(to.as_str()) {
                        Some(next) => record = next,
                        None => return "508".into(),
                    },
                    Action::Redirect { status, target } => return format!("{status} {target}"),
                    Action::Partial { status, target } => {
                        return format!("{status} {target}{rest}")
                    }
                    Action::Gone { message } => return format!("410 {message}"),
                    Action::NotFound { message } => return format!("404 {message}"),
                    Action::Negotiate { .. } => unreachable!("not generated"),
                }
            }
            "508".into()
        }

        fn table_answer(answer: Answer<'_>) -> String {
            match answer {
                Answer::Redirect {
                    status, location, ..
                } => format!("{status} {location}"),
                Answer::Message {
                    status, message, ..
                } => format!("{status} {message}"),
                Answer::BrokenChain { .. } => "508".into(),
                Answer::NoRecord => "404".into(),
                Answer::BadName(_) => "400".into(),
                other => format!("{other:?}"),
            }
        }

        /// Targets as records have them, and ones that try to leave their site: user
        /// names, escapes, odd slashes, other schemes, hosts that end early.
        fn target() -> impl Strategy<Value = String> {
            (
                prop::sample::select(vec![
                    "https://",
                    "http://",
                    "HTTPS://",
                    "Http://",
                    "https:",
                    "https:/",
                    "https:///",
                    "https:\\\\",
                    "ftp://",
                    "urn:",
                    "mailto:",
                    " https://",
                    "https:\t//",
                ]),
                "[a-zA-Z0-9.:@%\\[\\]_-]{0,12}",
                prop::sample::select(vec![
                    "", "/", "?", "#", "\\", "/a", "?q=1", "/#f", "@x/", "\t/",
                ]),
            )
                .prop_map(|(scheme, authority, after)| format!("{scheme}{authority}{after}"))
        }

        proptest! {
            #[test]
            fn appending_keeps_the_site_only_where_parsing_agrees(
                target in target(),
                rest in "[a-z/.@:?#%\\\\]{1,10}",
                query in proptest::option::of("[a-z=&@/:]{0,6}"),
            ) {
                prop_assume!(whatwg::parse(&target, None).is_ok());
                if appending_keeps_site(&target) {
                    let location = join(&target, &rest, query.as_deref());
                    prop_assert!(same_site(&target, &location), "{} -> {}", target, location);
                }
            }

            #[test]
            fn the_table_answers_as_the_model_does(
                ops in prop::collection::vec(op(), 1..40),
                asked in prop::collection::vec((spelled(), prop::sample::select(vec!["", "/z", "/./", "/a/../b"])), 1..20),
            ) {
                let mut table = Table::new();
                let mut records = BTreeMap::new();
                for op in ops {
                    match op {
                        Op::Insert(record) => {
                            if table.insert(record.clone()).is_ok() {
                                records.insert(record.name.as_str().to_string(), record);
                            }
                        }
                        Op::Remove(n) => {
                            let name = Name::parse(&n).unwrap();
                            let was = records.remove(name.as_str());
                            prop_assert_eq!(table.remove(&name), was);
                        }
                    }
                }
                prop_assert_eq!(table.len(), records.len());
                for record in records.values() {
                    prop_assert_eq!(table.get(&record.name), Some(record));
                }
                for (path, tail) in asked {
                    let path = format!("{path}{tail}");
                    prop_assert_eq!(
                        table_answer(table.resolve(&path, None, None, None)),
                        model_answer(&records, &path),
                        "{}", path
                    );
                }
            }
        }
    }
}
