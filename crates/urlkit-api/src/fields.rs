//! Reading a request's fields one by one, from a JSON object or from form fields, so that
//! every error names its field and both sources follow the same rules.

use crate::RequestError;
use serde::Deserialize;
use serde_json::{Map, Value};
use std::fmt;
use urlkit::settings::{Setting, Source};

/// A JSON request body read as a [`Value`], except that an object naming the same key twice
/// (`{"input": "a", "input": "b"}`) is refused rather than resolved silently to one of them.
#[derive(Clone, Debug, PartialEq)]
pub struct RequestBody(pub Value);

impl RequestBody {
    /// Parses `json`; bad JSON and repeated keys are an error for the request as a whole.
    pub fn parse(json: &str) -> Result<Self, RequestError> {
        serde_json::from_str::<RequestBody>(json)
            .map_err(|e| RequestError::new("", format!("not valid JSON: {e}")))
    }
}

impl<'de> Deserialize<'de> for RequestBody {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(BodyVisitor).map(RequestBody)
    }
}

struct BodyVisitor;

impl<'de> serde::de::Visitor<'de> for BodyVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut fields = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            // Nested values are read as plain values: only the top level names fields.
            let value = map.next_value::<Value>()?;
            if fields.contains_key(&key) {
                return Err(serde::de::Error::custom(format!(
                    "the field `{key}` appears twice"
                )));
            }
            fields.insert(key, value);
        }
        Ok(Value::Object(fields))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Value>()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
}

/// One field's value: typed JSON, or the text of a form field.
enum Raw {
    Json(Value),
    Text(String),
}

/// A request's fields, taken out one at a time by the reader that knows their types.
pub(crate) struct Fields {
    map: Vec<(String, Raw)>,
}

impl Fields {
    /// The fields of a JSON object; anything but an object, and any field not in `known`,
    /// is an error naming it.
    pub(crate) fn from_json(value: Value, known: &[&str]) -> Result<Self, RequestError> {
        let Value::Object(map) = value else {
            return Err(RequestError::new(
                "",
                format!("the request must be a JSON object, not {}", kind(&value)),
            ));
        };
        let fields = Fields {
            map: map.into_iter().map(|(k, v)| (k, Raw::Json(v))).collect(),
        };
        fields.only(known)
    }

    /// Form fields (`name=value` pairs, the last of a repeated name wins as browsers send
    /// it); any name not in `known` is an error naming it.
    pub(crate) fn from_form<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
        known: &[&str],
    ) -> Result<Self, RequestError> {
        let mut map: Vec<(String, Raw)> = Vec::new();
        for (name, value) in pairs {
            map.retain(|(n, _)| n != name);
            map.push((name.to_string(), Raw::Text(value.to_string())));
        }
        Fields { map }.only(known)
    }

    fn only(self, known: &[&str]) -> Result<Self, RequestError> {
        if let Some((unknown, _)) = self.map.iter().find(|(k, _)| !known.contains(&k.as_str())) {
            return Err(RequestError::new(
                unknown,
                format!("unknown field; the fields are: {}", known.join(", ")),
            ));
        }
        Ok(self)
    }

    fn take(&mut self, field: &str) -> Option<Raw> {
        let at = self.map.iter().position(|(k, _)| k == field)?;
        Some(self.map.swap_remove(at).1)
    }

    /// A text field: JSON `null` and an empty form field count as absent.
    pub(crate) fn string(&mut self, field: &str) -> Result<Option<String>, RequestError> {
        match self.take(field) {
            None | Some(Raw::Json(Value::Null)) => Ok(None),
            Some(Raw::Json(Value::String(s))) => Ok(Some(s)),
            Some(Raw::Json(other)) => Err(RequestError::new(
                field,
                format!("must be a string, not {}", kind(&other)),
            )),
            Some(Raw::Text(text)) => Ok(Some(text).filter(|t| !t.is_empty())),
        }
    }

    /// A true/false field: JSON booleans (`null` is false); in forms `on`, `true`, `1`,
    /// `yes` and `off`, `false`, `0`, `no` or empty.
    pub(crate) fn flag(&mut self, field: &str) -> Result<bool, RequestError> {
        match self.take(field) {
            None | Some(Raw::Json(Value::Null)) => Ok(false),
            Some(Raw::Json(Value::Bool(b))) => Ok(b),
            Some(Raw::Json(other)) => Err(RequestError::new(
                field,
                format!("must be true or false, not {}", kind(&other)),
            )),
            Some(Raw::Text(text)) => form_flag(field, &text),
        }
    }
}

/// The settings of a request, read by name ([`Setting::name`]).
impl Source for Fields {
    type Error = RequestError;

    fn text(&mut self, setting: Setting) -> Result<Option<String>, RequestError> {
        self.string(setting.name())
    }

    fn switch(&mut self, setting: Setting) -> Result<bool, RequestError> {
        self.flag(setting.name())
    }
}

/// Reads a form checkbox or boolean field: `on`, `true`, `1`, `yes` are true; empty, `off`,
/// `false`, `0`, `no` false (any case, spaces around ignored); anything else is an error
/// naming `field`.
pub fn form_flag(field: &str, text: &str) -> Result<bool, RequestError> {
    match text.trim().to_ascii_lowercase().as_str() {
        "on" | "true" | "1" | "yes" => Ok(true),
        "" | "off" | "false" | "0" | "no" => Ok(false),
        _ => Err(RequestError::new(
            field,
            format!("must be true or false, not {text:?}"),
        )),
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
