//! JSON bodies: rejections as the API's JSON errors, and codec requests whose values are
//! counted while read.

use crate::error::ApiError;
use axum::body::Body;
use axum::extract::{FromRequest, Request};
use axum::Json;
use urlkit_api::RequestBody;

/// A JSON body whose rejection (bad JSON, wrong field, wrong content type) is an
/// [`ApiError`] with a JSON body instead of axum's plain text.
pub struct ApiJson<T>(pub T);

impl<T, S> FromRequest<S> for ApiJson<T>
where
    Json<T>: FromRequest<S, Rejection = axum::extract::rejection::JsonRejection>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let Json(value) = Json::<T>::from_request(req, state).await?;
        Ok(ApiJson(value))
    }
}

/// Most JSON values a codec request may hold (a request is one object of a dozen fields):
/// a body of millions of tiny values, which would take many times its size once parsed,
/// is refused after a pass that keeps none of them.
pub const MAX_JSON_VALUES: usize = 1024;

/// The JSON body of `/api/encode` and `/api/decode`: its values counted first (at most
/// [`MAX_JSON_VALUES`]), then read as a [`RequestBody`]. Rejections are as for
/// [`ApiJson`].
pub struct CodecJson(pub serde_json::Value);

impl<S: Send + Sync> FromRequest<S> for CodecJson {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let (parts, body) = req.into_parts();
        let bytes =
            axum::body::Bytes::from_request(Request::from_parts(parts.clone(), body), state)
                .await
                .map_err(|e| ApiError::from(axum::extract::rejection::JsonRejection::from(e)))?;
        count_json_values(&bytes)?;
        let request = Request::from_parts(parts, Body::from(bytes));
        let ApiJson(RequestBody(value)) =
            ApiJson::<RequestBody>::from_request(request, state).await?;
        Ok(CodecJson(value))
    }
}

/// Refuses JSON of more than [`MAX_JSON_VALUES`] values; anything else (bad JSON too) is
/// left to the request's own parser, which names the problem.
fn count_json_values(bytes: &[u8]) -> Result<(), ApiError> {
    use serde::de::DeserializeSeed;
    let count = std::cell::Cell::new(0);
    let mut json = serde_json::Deserializer::from_slice(bytes);
    match (ValueCounter(&count)).deserialize(&mut json) {
        Err(_) if count.get() > MAX_JSON_VALUES => Err(ApiError::bad_request(
            "too-many-values",
            format!(
                "the request holds more than {MAX_JSON_VALUES} JSON values; a codec request \
                 is one object of a few fields"
            ),
        )),
        _ => Ok(()),
    }
}

/// Counts the values it is given, failing past [`MAX_JSON_VALUES`]; keeps nothing.
struct ValueCounter<'a>(&'a std::cell::Cell<usize>);

impl ValueCounter<'_> {
    fn one<E: serde::de::Error>(&self) -> Result<(), E> {
        self.0.set(self.0.get() + 1);
        if self.0.get() > MAX_JSON_VALUES {
            return Err(E::custom("too many values"));
        }
        Ok(())
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for ValueCounter<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for ValueCounter<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<(), E> {
        self.one()
    }

    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<(), E> {
        self.one()
    }

    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<(), E> {
        self.one()
    }

    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<(), E> {
        self.one()
    }

    fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<(), E> {
        self.one()
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        self.one()
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.one()?;
        while seq.next_element_seed(ValueCounter(self.0))?.is_some() {}
        Ok(())
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.one()?;
        while map.next_key::<serde::de::IgnoredAny>()?.is_some() {
            map.next_value_seed(ValueCounter(self.0))?;
        }
        Ok(())
    }
}
