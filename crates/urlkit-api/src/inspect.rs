//! `POST /api/inspect`: a URL taken apart in both views, edited on request, with a bounded
//! answer. The server's handler and its page without JavaScript call [`inspect`].
//!
//! Request: `{url, base?, set?: {component: value}, clear?: [component], append_query?:
//! ["name=value"], trim_query?: ["name or wildcard"], sort_query?: bool}`. Components are
//! named as trurl names them (`scheme`, `user`, `password`, `host`, `port`, `path`,
//! `query`, `fragment`) or as the URL API does (`protocol`, `username`, `hostname`,
//! `pathname`, `search`, `hash`); `hostport` is the URL API's `host` (host and port).
//!
//! Answer: the WHATWG view of the (edited) URL, a [`UrlReport`] whose fields read in the
//! order of a URL, and the RFC 3986 view of the same edits, each or the reason it failed;
//! with a base, the reference resolved by RFC 3986 §5.2.
//!
//! Bounds: the URL, the base and every edit value together are at most
//! [`MAX_INSPECT_BYTES`], at most [`MAX_EDITS`] edits; each view lists at most 1,000 query
//! pairs and 1,000 path segments, the WHATWG view 100 warnings and a drawing of URLs up to
//! 2,048 bytes, and says how many entries it left out. An answer is under 2 MB.

use crate::{ErrorBody, ErrorDetail, RequestError};
use serde::{Deserialize, Serialize};
use urlkit::inspect::edit::{Component, EditError, Edits};
use urlkit::inspect::rfc3986::{self, Components};
use urlkit::inspect::whatwg::{self, UrlReport};

/// The most bytes of text an inspect request may carry: the URL, the base and every edit
/// value together.
pub const MAX_INSPECT_BYTES: usize = 64 * 1024;

/// The most edits (set, clear, append and trim entries together) one request may ask for.
pub const MAX_EDITS: usize = 100;

/// `POST /api/inspect`: a URL to take apart, and edits to make to it first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct InspectRequest {
    /// The URL or URI reference.
    pub url: String,
    /// A base URL the reference is resolved against.
    #[serde(default)]
    pub base: Option<String>,
    /// Components to set, in the order given, by the URL Standard's setters:
    /// `{"host": "example.org", "port": "8080"}`. An empty value clears the port, query,
    /// fragment, user or password.
    #[serde(default, deserialize_with = "ordered_map")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<std::collections::HashMap<String, String>>))]
    pub set: Vec<(String, String)>,
    /// Components to remove.
    #[serde(default, deserialize_with = "bounded_list")]
    pub clear: Vec<String>,
    /// Query parameters to append, `name=value` or `name`, as text: each side is encoded
    /// as `application/x-www-form-urlencoded`.
    #[serde(default, deserialize_with = "bounded_list")]
    pub append_query: Vec<String>,
    /// Remove the query parameters whose decoded name matches: a name, or a pattern where
    /// `*` matches any run of characters (`utm_*`).
    #[serde(default, deserialize_with = "bounded_list")]
    pub trim_query: Vec<String>,
    /// Sort the query parameters by name (stable, as `URLSearchParams.sort()`).
    #[serde(default)]
    pub sort_query: bool,
}

/// Where and why a view could not take the URL.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ParseProblem {
    /// Byte offset into the input (or, for an edit, into its value).
    pub position: usize,
    /// The component at fault (`scheme`, `host`, `port`, …, or `url`).
    pub component: String,
    /// What is wrong there.
    pub message: String,
}

/// Both views of a URL.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InspectResponse {
    /// The WHATWG URL Standard view (as browsers see it) of the edited URL; `null` when it
    /// does not parse.
    pub whatwg: Option<UrlReport>,
    /// Why the WHATWG parser rejected it.
    pub whatwg_error: Option<ParseProblem>,
    /// The RFC 3986 generic-syntax view of the edited URI; `null` when it is not a URI
    /// reference or the edits do not apply.
    pub rfc3986: Option<Components>,
    /// Why it is not an RFC 3986 URI reference, or why an edit does not apply to it.
    pub rfc3986_error: Option<ParseProblem>,
    /// With a base: the reference resolved by RFC 3986 §5.2.
    pub resolved: Option<String>,
}

/// Why an inspect request gave no answer: a 400 with the body of
/// [`to_body`](InspectError::to_body).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InspectError {
    /// The request could not be understood: a field of the wrong shape, an unknown
    /// component, or more than the bounds allow.
    Invalid(RequestError),
    /// The base is not a URL.
    BadBase(whatwg::ParseFailure),
    /// Edits were asked for, but the URL does not parse.
    BadUrl(whatwg::ParseFailure),
    /// A setter refused its value, or a component cannot be cleared.
    EditRefused {
        /// The request field at fault: `set.port`, `clear`, ….
        field: String,
        /// What the URL refused, and why.
        error: EditError,
    },
}

impl InspectError {
    /// The JSON error body: `{error: {code, message, field?, offset?}}` with the code
    /// `invalid-request`, `bad-base`, `bad-url` or `edit-refused`.
    pub fn to_body(&self) -> ErrorBody {
        let (code, message, field, offset) = match self {
            InspectError::Invalid(e) => return e.to_body(),
            InspectError::BadBase(f) => (
                "bad-base",
                format!("the base is not a URL: {}", f.message),
                "base".to_owned(),
                Some(f.position),
            ),
            InspectError::BadUrl(f) => (
                "bad-url",
                format!(
                    "the URL does not parse, so it cannot be edited: {}",
                    f.message
                ),
                "url".to_owned(),
                Some(f.position),
            ),
            InspectError::EditRefused { field, error } => (
                "edit-refused",
                error.to_string(),
                field.clone(),
                error.position,
            ),
        };
        ErrorBody {
            error: ErrorDetail {
                code: code.to_owned(),
                message,
                offset: offset.map(|o| o as u64),
                field: Some(field),
            },
        }
    }
}

impl From<RequestError> for InspectError {
    fn from(error: RequestError) -> Self {
        InspectError::Invalid(error)
    }
}

impl InspectRequest {
    /// The edits asked for.
    ///
    /// Bad input: an unknown component name is an error naming the field.
    pub fn edits(&self) -> Result<Edits, RequestError> {
        let component = |field: String, name: &str| {
            Component::named(name).map_err(|e| RequestError::new(&field, e.message))
        };
        Ok(Edits {
            set: self
                .set
                .iter()
                .map(|(name, value)| Ok((component(format!("set.{name}"), name)?, value.clone())))
                .collect::<Result<_, RequestError>>()?,
            clear: self
                .clear
                .iter()
                .map(|name| component("clear".into(), name))
                .collect::<Result<_, _>>()?,
            append_query: self.append_query.clone(),
            trim_query: self.trim_query.clone(),
            sort_query: self.sort_query,
            ..Edits::default()
        })
    }

    /// Refuses a request beyond [`MAX_INSPECT_BYTES`] or [`MAX_EDITS`], naming the field
    /// (for too many edits, the list with the most of them).
    fn check_bounds(&self) -> Result<(), RequestError> {
        let counts = [
            ("set", self.set.len()),
            ("clear", self.clear.len()),
            ("append_query", self.append_query.len()),
            ("trim_query", self.trim_query.len()),
        ];
        let edits: usize = counts.iter().map(|(_, n)| n).sum();
        if edits > MAX_EDITS {
            let (field, _) = counts
                .iter()
                .max_by_key(|(_, n)| *n)
                .copied()
                .unwrap_or(("set", 0));
            return Err(RequestError::new(
                field,
                format!("{edits} edits; at most {MAX_EDITS} per request"),
            ));
        }
        let texts = [
            ("url", self.url.len()),
            ("base", self.base.as_ref().map_or(0, String::len)),
            ("set", self.set.iter().map(|(k, v)| k.len() + v.len()).sum()),
            ("clear", self.clear.iter().map(String::len).sum()),
            (
                "append_query",
                self.append_query.iter().map(String::len).sum(),
            ),
            ("trim_query", self.trim_query.iter().map(String::len).sum()),
        ];
        let total: usize = texts.iter().map(|(_, n)| n).sum();
        if total > MAX_INSPECT_BYTES {
            let (field, _) = texts
                .iter()
                .max_by_key(|(_, n)| *n)
                .copied()
                .unwrap_or(("url", 0));
            return Err(RequestError::new(
                field,
                format!(
                    "the request carries {total} bytes of text; the inspector takes at most {MAX_INSPECT_BYTES} (`urlkit parse` has no such limit)"
                ),
            ));
        }
        Ok(())
    }
}

/// Takes the request's URL apart in both views, after its edits.
///
/// Without edits a URL that neither view accepts is still an answer, with the reasons.
///
/// Bad input: a request beyond the bounds or naming an unknown component, a base that is
/// not a URL, and (with edits) a URL that does not parse or an edit a setter refuses are an
/// [`InspectError`].
pub fn inspect(request: &InspectRequest) -> Result<InspectResponse, InspectError> {
    request.check_bounds()?;
    let edits = request.edits()?;
    let base = request
        .base
        .as_deref()
        .map(str::trim)
        .filter(|b| !b.is_empty());
    let parsed_base = base
        .map(|b| whatwg::parse(b, None).map_err(InspectError::BadBase))
        .transpose()?;
    let url = &request.url;
    let (whatwg, whatwg_error) = match whatwg::parse_with_warnings(url, parsed_base.as_ref()) {
        Ok((parsed, warnings)) if edits.is_empty() => {
            (Some(whatwg::report_parsed(url, &parsed, warnings)), None)
        }
        Ok((parsed, warnings)) => {
            let edited = edits
                .apply(&parsed)
                .map_err(|error| InspectError::EditRefused {
                    field: field_of(request, &edits, &error),
                    error,
                })?;
            (Some(whatwg::report_parsed(url, &edited, warnings)), None)
        }
        Err(e) if edits.is_empty() => (None, Some(problem(e.position, e.component, e.message))),
        Err(e) => return Err(InspectError::BadUrl(e)),
    };
    let generic = if edits.is_empty() {
        Ok(url.clone())
    } else {
        edits
            .apply_rfc3986(url)
            .map_err(|e| problem(e.position.unwrap_or(0), e.component, e.to_string()))
    };
    let (rfc3986, rfc3986_error) = match generic
        .and_then(|uri| Components::of(&uri).map_err(|e| problem(e.position, "url", e.message)))
    {
        Ok(c) => (Some(c), None),
        Err(p) => (None, Some(p)),
    };
    let resolved = base.and_then(|b| rfc3986::resolve(b, url).ok());
    Ok(InspectResponse {
        whatwg,
        whatwg_error,
        rfc3986,
        rfc3986_error,
        resolved,
    })
}

fn problem(position: usize, component: &str, message: String) -> ParseProblem {
    ParseProblem {
        position,
        component: component.to_owned(),
        message,
    }
}

/// The request field an edit error comes from: the `set` entry of its component, else the
/// `clear` list.
fn field_of(request: &InspectRequest, edits: &Edits, error: &EditError) -> String {
    edits
        .set
        .iter()
        .zip(&request.set)
        .find(|((component, _), _)| component.name() == error.component)
        .map_or_else(
            || "clear".to_owned(),
            |(_, (name, _))| format!("set.{name}"),
        )
}

/// A JSON object read as its `(key, value)` pairs in document order; a key given twice is
/// an error, and so is an object of more than [`MAX_EDITS`] keys, found while reading: the
/// check for a repeated key looks at most that many keys, so reading costs time in line
/// with the body.
fn ordered_map<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<(String, String)>, D::Error> {
    struct Pairs;
    impl<'de> serde::de::Visitor<'de> for Pairs {
        type Value = Vec<(String, String)>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an object of component names and text values")
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut map: A,
        ) -> Result<Self::Value, A::Error> {
            let mut pairs: Vec<(String, String)> = Vec::new();
            while let Some(key) = map.next_key::<String>()? {
                if pairs.len() == MAX_EDITS {
                    return Err(too_many_edits());
                }
                if pairs.iter().any(|(k, _)| *k == key) {
                    return Err(serde::de::Error::custom(format!(
                        "the component `{key}` is set twice"
                    )));
                }
                let value = map.next_value::<String>()?;
                pairs.push((key, value));
            }
            Ok(pairs)
        }
    }
    deserializer.deserialize_any(Pairs)
}

/// A JSON array of texts (or `null`), refused while reading once it holds more than
/// [`MAX_EDITS`] entries.
fn bounded_list<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<String>, D::Error> {
    struct Texts;
    impl<'de> serde::de::Visitor<'de> for Texts {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an array of texts")
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> Result<Self::Value, A::Error> {
            let mut texts = Vec::new();
            while let Some(text) = seq.next_element::<String>()? {
                if texts.len() == MAX_EDITS {
                    return Err(too_many_edits());
                }
                texts.push(text);
            }
            Ok(texts)
        }
    }
    deserializer.deserialize_any(Texts)
}

fn too_many_edits<E: serde::de::Error>() -> E {
    E::custom(format!(
        "more than {MAX_EDITS} edits; at most {MAX_EDITS} per request"
    ))
}
