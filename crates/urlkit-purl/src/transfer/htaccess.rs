//! Apache `.htaccess` rewrite rules as w3id.org keeps them: the common subset that makes
//! redirects, read into records.
//!
//! * `RewriteRule ^NAME$ TARGET [R=303,L]`: a redirect of the name (the directory's
//!   prefix before it) with that status (`R` alone: 302);
//! * `RewriteRule ^NAME(.*)$ TARGET$1 [R=302,L]`: a partial record (the rest of the path
//!   appended to the target); `^(.*)$` is the directory itself as a prefix;
//! * `RewriteRule ^NAME$ - [G]`: a record answering `410 Gone`;
//! * `RewriteCond %{HTTP_ACCEPT} text/turtle` (or `(a|b)`, or several joined by `[OR]`)
//!   before a rule: a negotiated record's offers for those media types; the rules of one
//!   name make one record, a rule of the name without a condition its fallback;
//! * `RewriteEngine`, `RewriteBase` and `<IfModule>` need nothing.
//!
//! A line ending in `\` goes on on the next. What is not in this subset is never dropped in
//! silence: a rule it cannot read (a pattern with more than a literal name, a target
//! using `%{…}` or other groups, a rewrite without `R`, a condition on anything but
//! `HTTP_ACCEPT`, a flag it does not know, a rule that can never be reached) and any other
//! directive that could send a request elsewhere (`Redirect`, `RedirectMatch` …) is
//! [`Entry::Skipped`]; directives of the server that make no record (`Options`,
//! `AddType`, `Header`, `DirectoryIndex` …) are [`Entry::Note`]s.

use super::{item, Entry, Problem};
use crate::model::Body;
use std::collections::HashMap;
use urlkit::purl::{Action, Name, Offer, DEFAULT_STATUS};

/// Directives of the server that make no record: noted, not skipped.
const SERVER_DIRECTIVES: &[&str] = &[
    "options",
    "addtype",
    "addcharset",
    "adddefaultcharset",
    "addencoding",
    "addlanguage",
    "directoryindex",
    "header",
    "indexoptions",
    "defaultlanguage",
    "forcetype",
    "setenv",
];

/// What a name's rules make so far.
enum Slot {
    /// A record, or a skipped rule, as it stands.
    Done(Entry),
    /// A negotiated record gathering its offers.
    Negotiated {
        line: u64,
        name: String,
        status: u16,
        offers: Vec<Offer>,
        fallback: Option<String>,
    },
}

/// The entries of the `.htaccess` text `text` of the directory whose names start with
/// `prefix` (`/w3id/`; one that does not end in `/` has it added), in the order of their
/// lines.
///
/// Bad input: every line outside the subset above is an entry of its own (skipped or
/// noted) with its line; a rule whose name or target makes no record is skipped naming
/// the part at fault.
pub fn parse(text: &str, prefix: &Name) -> Vec<Entry> {
    let mut prefix = prefix.as_str().to_string();
    if !prefix.ends_with('/') {
        prefix.push('/');
    }
    let mut slots: Vec<Slot> = Vec::new();
    let mut names: HashMap<String, (usize, u64)> = HashMap::new();
    let mut conditions: Vec<(u64, Vec<String>)> = Vec::new();
    for (line, words) in logical_lines(text) {
        let skip = |message: String| Slot::Done(Entry::Skipped(Problem::new(line, message)));
        let directive = words[0].to_ascii_lowercase();
        match directive.as_str() {
            "rewriteengine" | "rewritebase" => {}
            "<ifmodule" | "</ifmodule>" => {}
            "rewritecond" => conditions.push((line, words[1..].to_vec())),
            "rewriterule" => {
                let conds = std::mem::take(&mut conditions);
                match rule(&prefix, line, &words[1..], &conds) {
                    Err(message) => slots.push(skip(message)),
                    Ok(rule) => place(&mut slots, &mut names, line, rule),
                }
            }
            other if SERVER_DIRECTIVES.contains(&other) => {
                slots.push(Slot::Done(Entry::Note(Problem::new(
                    line,
                    format!(
                        "{}: a setting of the server, not a record: left out",
                        words[0]
                    ),
                ))))
            }
            _ => slots.push(skip(format!(
                "{}: not understood (the rewrite rules RewriteRule and RewriteCond are \
                 read): not imported",
                words[0]
            ))),
        }
    }
    for (line, _) in conditions {
        slots.push(Slot::Done(Entry::Skipped(Problem::new(
            line,
            "RewriteCond without a RewriteRule after it: not imported",
        ))));
    }
    slots
        .into_iter()
        .map(|slot| match slot {
            Slot::Done(entry) => entry,
            Slot::Negotiated {
                line,
                name,
                status,
                offers,
                fallback,
            } => finish(
                line,
                &name,
                Action::Negotiate {
                    status,
                    offers,
                    fallback,
                },
            ),
        })
        .collect()
}

/// What one rule says.
struct Rule {
    name: String,
    /// The media types of its `HTTP_ACCEPT` conditions (empty: none).
    media_types: Vec<String>,
    action: Action,
}

/// Puts a rule's record among the others: a new name, or an offer or the fallback of a
/// negotiated record of the same name; a rule no request can reach is skipped.
fn place(slots: &mut Vec<Slot>, names: &mut HashMap<String, (usize, u64)>, line: u64, rule: Rule) {
    let target = match &rule.action {
        Action::Redirect { target, .. } => Some(target.clone()),
        _ => None,
    };
    if let Some(&(at, first)) = names.get(&rule.name) {
        if let (
            Slot::Negotiated {
                offers, fallback, ..
            },
            Some(target),
        ) = (&mut slots[at], target.clone())
        {
            if fallback.is_none() {
                if rule.media_types.is_empty() {
                    *fallback = Some(target);
                } else {
                    offers.extend(rule.media_types.iter().map(|media_type| Offer {
                        media_type: media_type.clone(),
                        language: None,
                        target: target.clone(),
                    }));
                }
                return;
            }
        }
        slots.push(Slot::Done(Entry::Skipped(Problem::new(
            line,
            format!(
                "{}: the rule of line {first} makes this name's record already (a name has \
                 one record): not imported",
                rule.name
            ),
        ))));
        return;
    }
    names.insert(rule.name.clone(), (slots.len(), line));
    if rule.media_types.is_empty() {
        slots.push(Slot::Done(finish(line, &rule.name, rule.action)));
        return;
    }
    match (rule.action, target) {
        (Action::Redirect { status, .. }, Some(target)) => slots.push(Slot::Negotiated {
            line,
            name: rule.name,
            status,
            offers: rule
                .media_types
                .into_iter()
                .map(|media_type| Offer {
                    media_type,
                    language: None,
                    target: target.clone(),
                })
                .collect(),
            fallback: None,
        }),
        _ => {
            names.remove(&rule.name);
            slots.push(Slot::Done(Entry::Skipped(Problem::new(
                line,
                format!(
                    "{}: a prefix or 410 rule under an HTTP_ACCEPT condition: not imported",
                    rule.name
                ),
            ))))
        }
    }
}

/// The record of `name` answering `action`, checked.
fn finish(line: u64, name: &str, action: Action) -> Entry {
    match item(
        line,
        name,
        Body {
            action,
            max_age: None,
        },
    ) {
        Ok(item) => Entry::Record(item),
        Err(problem) => Entry::Skipped(problem),
    }
}

/// A `RewriteRule`'s words (pattern, substitution, flags) with the conditions before it.
fn rule(
    prefix: &str,
    line: u64,
    words: &[String],
    conditions: &[(u64, Vec<String>)],
) -> Result<Rule, String> {
    let (pattern, target, flags) = match words {
        [pattern, target] => (pattern, target, None),
        [pattern, target, flags] => (pattern, target, Some(flags)),
        _ => {
            return Err(format!(
                "RewriteRule with {} words: give PATTERN TARGET [FLAGS]",
                words.len()
            ))
        }
    };
    let media_types = accept_conditions(conditions)?;
    let mut status = None;
    let mut gone = false;
    if let Some(flags) = flags {
        let inner = flags
            .strip_prefix('[')
            .and_then(|f| f.strip_suffix(']'))
            .ok_or_else(|| format!("flags {flags:?}: not in [brackets]"))?;
        for flag in inner.split(',') {
            let flag = flag.trim();
            let (key, value) = match flag.split_once('=') {
                Some((key, value)) => (key.to_ascii_lowercase(), Some(value)),
                None => (flag.to_ascii_lowercase(), None),
            };
            match (key.as_str(), value) {
                ("r" | "redirect", None) => status = Some(DEFAULT_STATUS),
                ("r" | "redirect", Some(value)) => {
                    let number = match value.to_ascii_lowercase().as_str() {
                        "permanent" => 301,
                        "temp" => 302,
                        "seeother" => 303,
                        other => other
                            .parse::<u16>()
                            .map_err(|_| format!("flag {flag}: not a redirect status"))?,
                    };
                    status = Some(number);
                }
                ("g" | "gone", None) => gone = true,
                ("l" | "last" | "end" | "ne" | "noescape" | "nc" | "nocase" | "qsa", None) => {}
                _ => {
                    return Err(format!(
                        "flag {flag}: not imported (R, G, L, NE, NC, QSA are)"
                    ))
                }
            }
        }
    }
    let (literal, partial) = pattern_name(pattern)?;
    let name = format!("{prefix}{literal}");
    let action = if gone {
        if partial {
            return Err(format!("{pattern}: a prefix answering 410: not imported"));
        }
        Action::Gone {
            message: "Gone".into(),
        }
    } else {
        let Some(status) = status else {
            return Err(if target == "-" {
                "RewriteRule without a substitution (-) nor G: not a redirect".into()
            } else {
                format!("RewriteRule to {target} without R: a rewrite inside the server, not a redirect")
            });
        };
        let mut target = target.clone();
        if partial {
            target = target
                .strip_suffix("$1")
                .ok_or_else(|| {
                    format!(
                        "{target}: a prefix rule's target must end in $1 (the rest of the path)"
                    )
                })?
                .to_string();
        }
        if let Some(at) = target.find(['$', '%']).filter(|&at| {
            let rest = &target[at + 1..];
            rest.starts_with(|c: char| c.is_ascii_digit()) || rest.starts_with('{')
        }) {
            return Err(format!(
                "{target}: uses {} (only a prefix rule's final $1 is imported)",
                &target[at..(at + 2).min(target.len())]
            ));
        }
        if partial {
            Action::Partial { status, target }
        } else {
            Action::Redirect { status, target }
        }
    };
    let _ = line;
    Ok(Rule {
        name,
        media_types,
        action,
    })
}

/// The name part of a pattern and whether it is a prefix: `^foo$` is `foo`, `^foo/(.*)$`
/// (or without the `$`) the prefix `foo/`; `\` escapes are undone. Bad input: anything
/// else, named.
fn pattern_name(pattern: &str) -> Result<(String, bool), String> {
    let not_read = || {
        format!(
            "pattern {pattern}: not imported (^NAME$ and ^NAME(.*)$ are, NAME without \
             other regular expression)"
        )
    };
    let body = pattern.strip_prefix('^').ok_or_else(not_read)?;
    let (body, partial) = if let Some(body) = body
        .strip_suffix("(.*)$")
        .or_else(|| body.strip_suffix("(.*)"))
    {
        (body, true)
    } else {
        (body.strip_suffix('$').ok_or_else(not_read)?, false)
    };
    let mut literal = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => literal.push(chars.next().ok_or_else(not_read)?),
            '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|' | '^' | '$' => {
                return Err(not_read())
            }
            c => literal.push(c),
        }
    }
    Ok((literal, partial))
}

/// The media types of the conditions before a rule: each `%{HTTP_ACCEPT}` condition
/// names one or more (`text/turtle`, `(text/turtle|application/rdf\+xml)`, `.*text/html.*`);
/// several conditions must be joined by `[OR]`.
fn accept_conditions(conditions: &[(u64, Vec<String>)]) -> Result<Vec<String>, String> {
    let mut media_types = Vec::new();
    for (i, (line, words)) in conditions.iter().enumerate() {
        let (test, pattern, flags) = match words.as_slice() {
            [test, pattern] => (test, pattern, ""),
            [test, pattern, flags] => (test, pattern, flags.as_str()),
            _ => {
                return Err(format!(
                    "the RewriteCond of line {line}: give TEST PATTERN [FLAGS]"
                ))
            }
        };
        if !test.eq_ignore_ascii_case("%{HTTP_ACCEPT}") {
            return Err(format!(
                "the RewriteCond of line {line} tests {test}: only %{{HTTP_ACCEPT}} is \
                 imported (as a negotiated record)"
            ));
        }
        let flags = flags
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_ascii_lowercase();
        let or = flags
            .split(',')
            .any(|f| f.trim() == "or" || f.trim() == "ornext");
        if i + 1 < conditions.len() && !or {
            return Err(format!(
                "the RewriteCond of line {line}: conditions joined by AND are not imported \
                 (give [OR])"
            ));
        }
        let unread = || {
            format!("the RewriteCond of line {line}: pattern {pattern}: not a list of media types")
        };
        if pattern.starts_with('!') {
            return Err(unread());
        }
        let mut core = pattern.as_str();
        core = core.strip_prefix('^').unwrap_or(core);
        core = core.strip_suffix('$').unwrap_or(core);
        core = core.strip_prefix(".*").unwrap_or(core);
        core = core.strip_suffix(".*").unwrap_or(core);
        if let Some(inner) = core.strip_prefix('(').and_then(|c| c.strip_suffix(')')) {
            core = inner;
        }
        for alternative in core.split('|') {
            let mut media_type = String::new();
            let mut chars = alternative.chars();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => media_type.push(chars.next().ok_or_else(unread)?),
                    c if c.is_ascii_alphanumeric() || "/-_".contains(c) => media_type.push(c),
                    _ => return Err(unread()),
                }
            }
            let ok = media_type
                .split_once('/')
                .is_some_and(|(t, s)| !t.is_empty() && !s.is_empty() && !s.contains('/'));
            if !ok {
                return Err(unread());
            }
            if !media_types.contains(&media_type) {
                media_types.push(media_type);
            }
        }
    }
    Ok(media_types)
}

/// The file's directives: lines joined where one ends in `\`, comments and blank lines
/// left out, split into words (`"…"` one word), each with the line it starts on.
fn logical_lines(text: &str) -> Vec<(u64, Vec<String>)> {
    let mut lines = Vec::new();
    let mut pending: Option<(u64, String)> = None;
    for (i, raw) in text.lines().enumerate() {
        let number = i as u64 + 1;
        let (start, mut joined) = pending.take().unwrap_or((number, String::new()));
        if let Some(head) = raw.strip_suffix('\\') {
            joined.push_str(head);
            joined.push(' ');
            pending = Some((start, joined));
            continue;
        }
        joined.push_str(raw);
        let trimmed = joined.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        lines.push((start, words(trimmed)));
    }
    if let Some((start, joined)) = pending {
        if !joined.trim().is_empty() {
            lines.push((start, words(joined.trim())));
        }
    }
    lines
}

fn words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut started = false;
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                started = true;
            }
            c if c.is_whitespace() && !quoted => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<Entry> {
        parse(text, &Name::parse("/w3id").unwrap())
    }

    fn record(entry: &Entry) -> (u64, &str, &Action) {
        match entry {
            Entry::Record(item) => (item.line, item.name.as_str(), &item.body.action),
            other => panic!("expected a record, got {other:?}"),
        }
    }

    fn skipped(entry: &Entry) -> String {
        match entry {
            Entry::Skipped(problem) => problem.to_string(),
            other => panic!("expected a skipped line, got {other:?}"),
        }
    }

    const W3ID: &str = r#"# w3id.org/w3id/
Options +FollowSymLinks
RewriteEngine on
RewriteBase /w3id/

RewriteCond %{HTTP_ACCEPT} text/turtle [OR]
RewriteCond %{HTTP_ACCEPT} application/x-turtle
RewriteRule ^onto$ https://example.org/onto.ttl [R=303,L]
RewriteCond %{HTTP_ACCEPT} ^.*application/rdf\+xml.*$
RewriteRule ^onto$ https://example.org/onto.rdf [R=303,L]
RewriteRule ^onto$ https://example.org/onto.html [R=303,L]

RewriteRule ^docs/(.*)$ https://docs.example.org/$1 [R=302,L,NE]
RewriteRule ^old\.html$ https://example.org/new.html [R=301,L]
RewriteRule ^withdrawn$ - [G]
RewriteRule ^$ https://example.org/ [R,L]
RewriteRule ^all/(.*)$ https://example.org/all/$1 \
    [R=307,L]
RewriteRule ^(.*)$ https://example.org/$1 [R=302,L]
"#;

    #[test]
    fn the_common_subset_becomes_records() {
        let entries = read(W3ID);
        assert!(
            matches!(&entries[0], Entry::Note(p) if p.line == 2),
            "{entries:?}"
        );
        assert_eq!(entries.len(), 8, "{entries:?}");
        let (line, name, action) = record(&entries[1]);
        assert_eq!((line, name), (8, "/w3id/onto"));
        let Action::Negotiate {
            status,
            offers,
            fallback,
        } = action
        else {
            panic!("{action:?}")
        };
        assert_eq!(*status, 303);
        let offered: Vec<(&str, &str)> = offers
            .iter()
            .map(|o| (o.media_type.as_str(), o.target.as_str()))
            .collect();
        assert_eq!(
            offered,
            [
                ("text/turtle", "https://example.org/onto.ttl"),
                ("application/x-turtle", "https://example.org/onto.ttl"),
                ("application/rdf+xml", "https://example.org/onto.rdf"),
            ]
        );
        assert_eq!(fallback.as_deref(), Some("https://example.org/onto.html"));
        assert_eq!(
            record(&entries[2]),
            (
                13,
                "/w3id/docs/",
                &Action::Partial {
                    status: 302,
                    target: "https://docs.example.org/".into()
                }
            )
        );
        assert_eq!(record(&entries[3]).1, "/w3id/old.html");
        assert!(matches!(
            record(&entries[3]).2,
            Action::Redirect { status: 301, .. }
        ));
        assert!(matches!(record(&entries[4]).2, Action::Gone { .. }));
        assert_eq!(record(&entries[5]).1, "/w3id/");
        assert!(matches!(
            record(&entries[5]).2,
            Action::Redirect { status: 302, .. }
        ));
        let (line, name, action) = record(&entries[6]);
        assert_eq!((line, name), (17, "/w3id/all/"));
        assert!(matches!(action, Action::Partial { status: 307, .. }));
        // A name has one record: the prefix rule of the directory itself comes second.
        assert_eq!(
            skipped(&entries[7]),
            "19: /w3id/: the rule of line 16 makes this name's record already (a name has \
             one record): not imported"
        );
    }

    #[test]
    fn what_is_outside_the_subset_is_skipped_with_its_line() {
        let entries = read(
            "RewriteRule ^a/([0-9]+)$ https://e.org/$1 [R=302]\n\
             RewriteRule ^b$ /local/b [L]\n\
             RewriteCond %{HTTP_HOST} ^w3id\\.org$\n\
             RewriteRule ^c$ https://e.org/c [R=302]\n\
             RewriteRule ^d$ https://e.org/d [R=302,P]\n\
             Redirect 301 /e https://e.org/e\n\
             RewriteRule ^f$ https://e.org/f [R=302]\n\
             RewriteRule ^f$ https://e.org/g [R=302]\n\
             RewriteRule ^g(.*)$ https://e.org/%{QUERY_STRING} [R=302]\n\
             RewriteRule ^h$ relative [R=302]\n\
             RewriteCond %{HTTP_ACCEPT} text/html\n\
             RewriteCond %{HTTP_ACCEPT} text/turtle\n\
             RewriteRule ^i$ https://e.org/i [R=303]\n\
             RewriteCond %{HTTP_ACCEPT} !text/html\n",
        );
        let said: Vec<String> = entries
            .iter()
            .filter(|e| !matches!(e, Entry::Record(_)))
            .map(skipped)
            .collect();
        assert_eq!(said.len(), 10, "{said:#?}");
        assert!(said[0].starts_with("1: pattern ^a/([0-9]+)$: not imported"));
        assert!(said[1].starts_with("2: RewriteRule to /local/b without R"));
        assert!(said[2].starts_with("4: the RewriteCond of line 3 tests %{HTTP_HOST}"));
        assert!(said[3].starts_with("5: flag P: not imported"));
        assert!(said[4].starts_with("6: Redirect: not understood"));
        assert!(
            said[5].starts_with("8: /w3id/f: the rule of line 7 makes this name's record already")
        );
        assert!(
            said[6].starts_with("9: https://e.org/%{QUERY_STRING}"),
            "{}",
            said[6]
        );
        assert!(
            said[7].starts_with("10: /w3id/h: target: not an absolute URL"),
            "{}",
            said[7]
        );
        assert!(said[8].starts_with("13: the RewriteCond of line 11: conditions joined by AND"));
        assert_eq!(
            said[9],
            "14: RewriteCond without a RewriteRule after it: not imported"
        );
    }
}
