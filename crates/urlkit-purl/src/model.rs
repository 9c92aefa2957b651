//! What the resolver stores and who changes it: a record with its version and owner, the
//! events of its history, and the actor behind a change.

use serde::{Deserialize, Serialize};
use urlkit::purl::{Action, Name, Record, RecordError};

/// A record's version: 1 when created, one more with every change (a deletion and a
/// restore too). `GET` answers it as the `ETag`; writes name the version they change.
pub type Version = i64;

/// Milliseconds since the Unix epoch, UTC.
pub type Millis = i64;

/// Now, in milliseconds since the Unix epoch (0 on a clock set before it).
pub fn now() -> Millis {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as Millis)
        .unwrap_or(0)
}

/// What a record answers, as the API, the CLI and the database write it: the record
/// without its name (`{"type":"redirect","target":"https://…","status":302,"max_age":300}`).
///
/// Bad input: an unknown `type` or field is a JSON error naming it; a body that reads
/// well but cannot be kept (a relative target, a status that is not a redirect …) is
/// refused by [`Body::into_record`] with the field at fault.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Body {
    /// What the record does.
    #[serde(flatten)]
    pub action: Action,
    /// `Cache-Control: max-age` of its redirects, in seconds (absent: the resolver's
    /// short default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_age: Option<u32>,
}

/// Read through a map, so that `max_age` is taken out before the action reads the rest
/// and refuses any field it does not know.
impl<'de> Deserialize<'de> for Body {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let mut map = serde_json::Map::<String, serde_json::Value>::deserialize(deserializer)?;
        let max_age = match map.remove("max_age") {
            None | Some(serde_json::Value::Null) => None,
            Some(value) => Some(u32::deserialize(value).map_err(|e| {
                D::Error::custom(format_args!("max_age: {e} (seconds, 0 to 4294967295)"))
            })?),
        };
        let action =
            Action::deserialize(serde_json::Value::Object(map)).map_err(D::Error::custom)?;
        Ok(Body { action, max_age })
    }
}

impl Body {
    /// The record of `name` this body describes, checked on its own (a chain's loop is
    /// found where all records are held).
    pub fn into_record(self, name: Name) -> Result<Record, RecordError> {
        let record = Record {
            name,
            action: self.action,
            max_age: self.max_age,
        };
        record.check()?;
        Ok(record)
    }

    /// The body of `record`.
    pub fn of(record: &Record) -> Body {
        Body {
            action: record.action.clone(),
            max_age: record.max_age,
        }
    }
}

/// A record as stored: what it answers, its version and who changed it last.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Stored {
    /// The record (a tombstone's action is `gone`).
    pub record: Record,
    /// Its version.
    pub version: Version,
    /// The domain it was created in (the longest domain prefix of its name then), which
    /// keeps it, and its tombstone, for that domain's maintainers.
    pub domain: Option<Name>,
    /// When it last changed.
    pub changed_at: Millis,
    /// Who changed it last (a user's name).
    pub changed_by: String,
    /// Whether it was deleted: a tombstone answers `410` and keeps its history; only a
    /// maintainer of its domain can bring it back.
    pub deleted: bool,
}

/// What a change did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// The record was created.
    Create,
    /// The record was changed.
    Update,
    /// The record was deleted (it became a tombstone).
    Delete,
    /// An earlier version was brought back.
    Restore,
}

/// One change of a record, as the append-only history keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// The record.
    pub name: Name,
    /// The version this change made.
    pub version: Version,
    /// When.
    pub at: Millis,
    /// Who (a user's name).
    pub user: String,
    /// Through which token (its public id), if through one.
    pub token: Option<String>,
    /// What the change did.
    pub kind: EventKind,
    /// The record before (absent for a creation).
    pub before: Option<Body>,
    /// The record after (a deletion's tombstone is `gone`).
    pub after: Body,
    /// Why, as the author said.
    pub reason: Option<String>,
}

/// What a grant allows in its domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Right {
    /// Read records and their history (records are public anyway; this reads the API's
    /// lists and counts).
    Read,
    /// Create, change, delete and restore records.
    Write,
}

/// A right in one domain.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grant {
    /// The domain's prefix (`/net/`).
    pub domain: Name,
    /// What is allowed in it.
    pub right: Right,
}

/// Who makes a request or a change: a user, maybe through a token, with what it may do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Actor {
    /// The user's name.
    pub user: String,
    /// The token's public id, when acting through one.
    pub token: Option<String>,
    /// An administrator may do anything (manage domains, users and every record).
    pub admin: bool,
    /// The domains it may act in (for a token: the token's grants, within its user's).
    pub grants: Vec<Grant>,
}

impl Actor {
    /// Whether the actor may change the record `name` whose domain is `domain`
    /// (`None`: a new name outside every domain, which only an administrator may take).
    /// Both are names in normal form, so no spelling of a path (`..`, `%2F`, case of
    /// escapes) reaches another domain.
    pub fn may_write(&self, name: &Name, domain: Option<&Name>) -> bool {
        if self.admin {
            return true;
        }
        let Some(domain) = domain else {
            return false;
        };
        name.is_under(domain)
            && self
                .grants
                .iter()
                .any(|g| g.right == Right::Write && g.domain == *domain)
    }

    /// Whether the actor may read the domain's lists (a read or write grant on it).
    pub fn may_read(&self, domain: &Name) -> bool {
        self.admin || self.grants.iter().any(|g| g.domain == *domain)
    }
}

/// What a write expects to find, so that two people editing at once never lose a change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// No record of the name yet (`If-None-Match: *`).
    Absent,
    /// The record at this version (`If-Match: "7"`).
    Version(Version),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(json: &str) -> Result<Body, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn bodies_take_default_statuses_and_refuse_unknown_fields() {
        let redirect = body(r#"{"type":"redirect","target":"https://e.org/"}"#).unwrap();
        assert_eq!(
            redirect.action,
            Action::Redirect {
                status: 302,
                target: "https://e.org/".into()
            }
        );
        let negotiated = body(
            r#"{"type":"negotiate","offers":[{"media_type":"text/html","target":"https://e.org/"}],"max_age":60}"#,
        )
        .unwrap();
        assert!(matches!(
            negotiated.action,
            Action::Negotiate { status: 303, .. }
        ));
        assert_eq!(negotiated.max_age, Some(60));
        let typo = body(r#"{"type":"redirect","target":"https://e.org/","stauts":301}"#);
        assert!(typo.unwrap_err().contains("stauts"));
        let kind = body(r#"{"type":"teleport","target":"https://e.org/"}"#);
        assert!(kind.unwrap_err().contains("teleport"));
        let age = body(r#"{"type":"gone","message":"x","max_age":-1}"#);
        assert!(age.unwrap_err().contains("max_age"));
        let chain = body(r#"{"type":"chain","to":"net/x"}"#);
        assert!(chain.unwrap_err().contains("byte 0"));
    }

    #[test]
    fn a_body_round_trips_and_is_checked_into_a_record() {
        let text = r#"{"type":"partial","status":307,"target":"https://e.org/base/","max_age":10}"#;
        let read = body(text).unwrap();
        let written = serde_json::to_string(&read).unwrap();
        assert_eq!(body(&written).unwrap(), read);
        let name = Name::parse("/net/p/").unwrap();
        assert!(read.clone().into_record(name.clone()).is_ok());
        let relative = body(r#"{"type":"redirect","target":"x"}"#).unwrap();
        assert_eq!(relative.into_record(name).unwrap_err().field, "target");
    }

    #[test]
    fn writers_stay_in_their_domains() {
        let net = Name::parse("/net/").unwrap();
        let alice = Actor {
            user: "alice".into(),
            token: None,
            admin: false,
            grants: vec![Grant {
                domain: net.clone(),
                right: Right::Write,
            }],
        };
        let reader = Actor {
            grants: vec![Grant {
                domain: net.clone(),
                right: Right::Read,
            }],
            ..alice.clone()
        };
        let inside = Name::parse("/net/a").unwrap();
        let escaped = Name::parse("/net/../org/a").unwrap();
        let org = Name::parse("/org/").unwrap();
        assert!(alice.may_write(&inside, Some(&net)));
        assert!(!reader.may_write(&inside, Some(&net)));
        assert!(!alice.may_write(&escaped, Some(&org)));
        assert!(!alice.may_write(&escaped, Some(&net)));
        assert!(!alice.may_write(&inside, None));
    }
}
