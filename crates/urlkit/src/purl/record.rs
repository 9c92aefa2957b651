//! A PURL record: what a name answers, checked before it is kept.

use super::name::Name;
use crate::inspect::whatwg;
use std::fmt;

/// The redirect statuses a record may answer with.
pub const REDIRECT_STATUSES: [u16; 5] = [301, 302, 303, 307, 308];

/// What a resolver answers when a record names no status: `302`, which no browser keeps.
pub const DEFAULT_STATUS: u16 = 302;

/// What a negotiated record answers by default: `303 See Other`, as linked data asks.
pub const DEFAULT_NEGOTIATED_STATUS: u16 = 303;

/// How deep a chain of records may go before the resolver answers `508`.
pub const MAX_CHAIN: usize = 8;

/// What a record does with a request for its name.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)
)]
pub enum Action {
    /// Redirect to `target` with `status` (one of [`REDIRECT_STATUSES`]).
    Redirect {
        /// The status.
        #[cfg_attr(feature = "serde", serde(default = "default_status"))]
        status: u16,
        /// The absolute URL redirected to.
        target: String,
    },
    /// The name is a prefix: the rest of the request's path and its query are appended to
    /// `target`.
    Partial {
        /// The status.
        #[cfg_attr(feature = "serde", serde(default = "default_status"))]
        status: u16,
        /// The absolute URL the rest is appended to.
        target: String,
    },
    /// Answer as another record of this resolver does, followed here, so the client sees
    /// one redirect.
    Chain {
        /// The record followed.
        to: Name,
    },
    /// Redirect to the target whose media type (and language) the request prefers.
    Negotiate {
        /// The status (`303` unless set).
        #[cfg_attr(feature = "serde", serde(default = "default_negotiated_status"))]
        status: u16,
        /// The targets, in order of the record's preference among equals.
        offers: Vec<Offer>,
        /// Where to go when no offer is acceptable; without one the answer is `406`.
        #[cfg_attr(feature = "serde", serde(default))]
        fallback: Option<String>,
    },
    /// Answer `404 Not Found` with a message.
    NotFound {
        /// Said to the client.
        message: String,
    },
    /// Answer `410 Gone` with a message.
    Gone {
        /// Said to the client.
        message: String,
    },
}

#[cfg(feature = "serde")]
fn default_status() -> u16 {
    DEFAULT_STATUS
}

#[cfg(feature = "serde")]
fn default_negotiated_status() -> u16 {
    DEFAULT_NEGOTIATED_STATUS
}

/// One target of a negotiated record.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Offer {
    /// Its media type (`text/html`, `text/turtle`, `application/ld+json;profile=…`).
    pub media_type: String,
    /// Its language tag, if it is in one language (`en`, `pt-BR`).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub language: Option<String>,
    /// The absolute URL.
    pub target: String,
}

/// A record: a name, what it answers, and how long clients may keep the answer.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Record {
    /// The name, in normal form.
    pub name: Name,
    /// What it answers.
    pub action: Action,
    /// `Cache-Control: max-age` of its redirects, in seconds (`None`: the resolver's
    /// short default).
    pub max_age: Option<u32>,
}

/// Why a record cannot be kept: which part, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RecordError {
    /// The part at fault: `status`, `target`, `offers[2].target`, `offers[0].media_type`,
    /// `to`, `fallback`.
    pub field: String,
    /// What kind of fault.
    pub kind: RecordProblem,
    /// What is wrong, in words (for a target, with its component and byte).
    pub message: String,
}

/// The kinds of [`RecordError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RecordProblem {
    /// A status the action cannot answer with.
    Status,
    /// A target that is not an absolute URL by the URL Standard.
    Target,
    /// A media type that is not `type/subtype`, or a language tag that is not one.
    Offer,
    /// A negotiated record without offers.
    NoOffers,
    /// A chain to itself or round to itself.
    ChainLoop,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for RecordError {}

fn fault(field: impl Into<String>, kind: RecordProblem, message: impl Into<String>) -> RecordError {
    RecordError {
        field: field.into(),
        kind,
        message: message.into(),
    }
}

/// Checks that `target` is an absolute URL by the URL Standard.
fn check_target(field: &str, target: &str) -> Result<(), RecordError> {
    whatwg::parse(target, None).map(drop).map_err(|failure| {
        fault(
            field,
            RecordProblem::Target,
            format!(
                "not an absolute URL: {} at byte {}: {}",
                failure.component, failure.position, failure.message
            ),
        )
    })
}

fn check_status(status: u16) -> Result<(), RecordError> {
    if REDIRECT_STATUSES.contains(&status) {
        Ok(())
    } else {
        Err(fault(
            "status",
            RecordProblem::Status,
            format!("{status} is not a redirect status; one of 301, 302, 303, 307, 308"),
        ))
    }
}

fn is_token(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$&-^_.+".contains(&b))
}

impl Record {
    /// Checks the record on its own (a chain's loop is the table's to find).
    ///
    /// Bad input: a status that is not a redirect status, a target (or fallback) that is
    /// not an absolute URL by the URL Standard (named with its component and byte), a
    /// negotiated record without offers, a media type that is not `type/subtype` or a
    /// language tag that is not one, and a chain to its own name are errors naming the
    /// field.
    pub fn check(&self) -> Result<(), RecordError> {
        match &self.action {
            Action::Redirect { status, target } | Action::Partial { status, target } => {
                check_status(*status)?;
                check_target("target", target)
            }
            Action::Chain { to } if *to == self.name => Err(fault(
                "to",
                RecordProblem::ChainLoop,
                "a record cannot chain to itself",
            )),
            Action::Chain { .. } | Action::NotFound { .. } | Action::Gone { .. } => Ok(()),
            Action::Negotiate {
                status,
                offers,
                fallback,
            } => {
                check_status(*status)?;
                if offers.is_empty() {
                    return Err(fault(
                        "offers",
                        RecordProblem::NoOffers,
                        "list at least one target",
                    ));
                }
                for (i, offer) in offers.iter().enumerate() {
                    let media = offer.media_type.split(';').next().unwrap_or("");
                    let well_formed = media
                        .split_once('/')
                        .is_some_and(|(t, s)| is_token(t.trim()) && is_token(s.trim()));
                    if !well_formed {
                        return Err(fault(
                            format!("offers[{i}].media_type"),
                            RecordProblem::Offer,
                            format!("{:?} is not a media type (type/subtype)", offer.media_type),
                        ));
                    }
                    if let Some(tag) = &offer.language {
                        let ok = tag.split('-').all(|s| {
                            (1..=8).contains(&s.len())
                                && s.bytes().all(|b| b.is_ascii_alphanumeric())
                        });
                        if !ok {
                            return Err(fault(
                                format!("offers[{i}].language"),
                                RecordProblem::Offer,
                                format!("{tag:?} is not a language tag"),
                            ));
                        }
                    }
                    check_target(&format!("offers[{i}].target"), &offer.target)?;
                }
                match fallback {
                    Some(target) => check_target("fallback", target),
                    None => Ok(()),
                }
            }
        }
    }

    /// What a maintainer should know before keeping the record: a permanent redirect
    /// (`301`, `308`) is kept by browsers for good, so a later edit may never reach them.
    pub fn warnings(&self) -> Vec<String> {
        match &self.action {
            Action::Redirect { status, .. } | Action::Partial { status, .. }
                if matches!(status, 301 | 308) =>
            {
                vec![format!(
                    "{status} is permanent: browsers keep it for good, and a later change of the target may never reach them"
                )]
            }
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(action: Action) -> Record {
        Record {
            name: Name::parse("/net/a").unwrap(),
            action,
            max_age: None,
        }
    }

    #[test]
    fn targets_must_be_absolute_urls_and_statuses_redirects() {
        let ok = record(Action::Redirect {
            status: 302,
            target: "https://example.org/x".into(),
        });
        assert_eq!(ok.check(), Ok(()));
        let relative = record(Action::Redirect {
            status: 302,
            target: "/x".into(),
        });
        let e = relative.check().unwrap_err();
        assert_eq!(
            (e.field.as_str(), e.kind),
            ("target", RecordProblem::Target)
        );
        assert!(e.message.contains("byte 0"), "{e}");
        let bad_host = record(Action::Partial {
            status: 307,
            target: "https://exa mple.org/".into(),
        });
        let e = bad_host.check().unwrap_err();
        assert!(e.message.contains("host at byte 11"), "{e}");
        let status = record(Action::Redirect {
            status: 200,
            target: "https://example.org/".into(),
        });
        assert_eq!(status.check().unwrap_err().kind, RecordProblem::Status);
    }

    #[test]
    fn negotiated_records_check_every_offer() {
        let offer = |media: &str, target: &str| Offer {
            media_type: media.into(),
            language: None,
            target: target.into(),
        };
        let good = record(Action::Negotiate {
            status: 303,
            offers: vec![
                offer("text/html", "https://e.org/a.html"),
                offer("text/turtle", "https://e.org/a.ttl"),
            ],
            fallback: None,
        });
        assert_eq!(good.check(), Ok(()));
        let bad = record(Action::Negotiate {
            status: 303,
            offers: vec![
                offer("text/html", "https://e.org/a.html"),
                offer("turtle", "https://e.org/a.ttl"),
            ],
            fallback: None,
        });
        assert_eq!(bad.check().unwrap_err().field, "offers[1].media_type");
        let empty = record(Action::Negotiate {
            status: 303,
            offers: vec![],
            fallback: None,
        });
        assert_eq!(empty.check().unwrap_err().kind, RecordProblem::NoOffers);
    }

    #[test]
    fn permanent_redirects_warn_and_self_chains_are_refused() {
        let permanent = record(Action::Redirect {
            status: 301,
            target: "https://example.org/".into(),
        });
        assert_eq!(permanent.warnings().len(), 1);
        let itself = record(Action::Chain {
            to: Name::parse("/net/a").unwrap(),
        });
        assert_eq!(itself.check().unwrap_err().kind, RecordProblem::ChainLoop);
    }
}
