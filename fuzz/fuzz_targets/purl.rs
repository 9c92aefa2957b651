//! Persistent-URL records and requests on arbitrary input: a record read from JSON (as the
//! API and the database give it) is checked, kept and asked for an arbitrary path, query,
//! `Accept` and `Accept-Language`. Never panics; every location starts with one of the
//! record's targets and keeps its site (no open redirect); negotiation's qualities stay in
//! 0..=1000 and its choice is an offer that was acceptable.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlkit::purl::{negotiate, Action, Answer, Name, Record, Table};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.splitn(6, '\n');
    let name = parts.next().unwrap_or("");
    let json = parts.next().unwrap_or("");
    let path = parts.next().unwrap_or("");
    let query = parts.next();
    let accept = parts.next();
    let accept_language = parts.next();

    // Negotiation alone.
    for header in [accept, accept_language].into_iter().flatten() {
        for range in negotiate::accept(header) {
            assert!(range.quality <= 1000);
        }
        for range in negotiate::accept_language(header) {
            assert!(range.quality <= 1000);
        }
    }
    let offers = [("text/html", Some("en")), ("text/turtle", None), ("application/ld+json", Some("pt-BR"))];
    if let Some(chosen) = negotiate::choose(&offers, accept, accept_language) {
        assert!(chosen < offers.len());
        if let Some(accept) = accept {
            let ranges = negotiate::accept(accept);
            assert!(negotiate::media_quality(&ranges, offers[chosen].0) > 0);
        }
    }

    let Ok(name) = Name::parse(name) else { return };
    // A name in normal form reads as itself.
    assert_eq!(Name::parse(name.as_str()).as_ref(), Ok(&name));
    let Ok(action) = serde_json::from_str::<Action>(json) else { return };
    let record = Record { name, action, max_age: None };
    let mut table = Table::new();
    if table.insert(record.clone()).is_err() {
        return;
    }
    let targets: Vec<&str> = match &record.action {
        Action::Redirect { target, .. } | Action::Partial { target, .. } => vec![target.as_str()],
        Action::Negotiate { offers, fallback, .. } => offers
            .iter()
            .map(|o| o.target.as_str())
            .chain(fallback.as_deref())
            .collect(),
        _ => Vec::new(),
    };
    for path in [path, record.name.as_str()] {
        if let Answer::Redirect { location, .. } =
            table.resolve(path, query, accept, accept_language)
        {
            let head = |t: &str| t.split('#').next().unwrap_or("").to_string();
            assert!(
                targets.iter().any(|t| location.starts_with(&head(t))),
                "{location} starts with no target of {targets:?}"
            );
        }
    }
});
