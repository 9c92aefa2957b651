//! The HTTP API's JSON request parsing: bodies for encode, decode, inspect and resolve.
//! Any bytes give a request or an error naming the problem, never a panic; a parsed
//! request runs to a response or a rejection.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlkit_api::{DecodeRequest, EncodeRequest};
use urlkit_web::api::{inspect_url, InspectRequest, ResolveRequest};

fuzz_target!(|data: &[u8]| {
    let Some((&route, body)) = data.split_first() else {
        return;
    };
    let Ok(json) = std::str::from_utf8(body) else {
        return;
    };
    match route % 4 {
        0 => {
            if let Ok(request) = EncodeRequest::from_json(json) {
                let _ = request.run();
            }
        }
        1 => {
            if let Ok(request) = DecodeRequest::from_json(json) {
                let _ = request.run();
            }
        }
        2 => {
            if let Ok(request) = serde_json::from_str::<InspectRequest>(json) {
                let _ = inspect_url(&request);
            }
        }
        _ => {
            if let Ok(request) = serde_json::from_str::<ResolveRequest>(json) {
                let _ = urlkit::inspect::rfc3986::resolve(&request.base, &request.reference);
            }
        }
    }
});
