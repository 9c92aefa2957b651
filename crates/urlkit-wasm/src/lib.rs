//! The urlkit codec for the browser's live mode: built for `wasm32-unknown-unknown` as a
//! module with plain C-ABI exports, driven by the hand-written `js/urlkit.mjs`.
//!
//! Requests and responses are the JSON of the HTTP API ([`urlkit::request`]), so the
//! browser and the server give byte-identical results.
//!
//! # Calling convention
//! * Memory: the caller gets buffers with [`urlkit_alloc`] and gives them back with
//!   [`urlkit_free`] (same length).
//! * Every call that produces something leaves it in one result buffer, read with
//!   [`urlkit_result_ptr`] and [`urlkit_result_len`] and valid until the next call.
//! * Status codes: [`OK`] (result: response JSON, or output bytes for stream calls),
//!   [`REJECTED`] (strict mode rejected the input; result: `{"error": {code, message,
//!   offset}}`), [`INVALID_REQUEST`] (options not understood; result: `{"error": {code,
//!   message, field}}`).
//! * Text is UTF-8. A panic aborts (traps), which the caller sees as an exception.

use std::cell::RefCell;

use serde::Serialize;
use urlkit::request::{self, DecodeRequest, EncodeRequest, ErrorBody, RequestError, Stream};

/// Success.
pub const OK: u32 = 0;
/// Strict mode rejected the input.
pub const REJECTED: u32 = 1;
/// The options could not be understood.
pub const INVALID_REQUEST: u32 = 2;

thread_local! {
    static RESULT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Replaces the result buffer's contents with what `fill` writes.
fn set_result(fill: impl FnOnce(&mut Vec<u8>)) {
    RESULT.with(|cell| {
        let mut buffer = cell.borrow_mut();
        buffer.clear();
        fill(&mut buffer);
    });
}

fn set_json(value: &impl Serialize) {
    set_result(|buffer| {
        // Serialising these plain structs into a Vec cannot fail.
        let _ = serde_json::to_writer(buffer, value);
    });
}

fn set_error(body: &ErrorBody, status: u32) -> u32 {
    set_json(body);
    status
}

/// Views `len` bytes at `ptr` as a slice.
///
/// # Safety
/// `ptr` must point to `len` readable bytes (from [`urlkit_alloc`]) that stay untouched for
/// the lifetime of the slice; `ptr` may be anything when `len` is 0.
unsafe fn bytes<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        &[]
    } else {
        // SAFETY: the caller guarantees `len` readable bytes at `ptr`.
        unsafe { std::slice::from_raw_parts(ptr, len) }
    }
}

/// Reads the options JSON; an empty buffer means `{}`.
fn options_json(raw: &[u8]) -> Result<&str, RequestError> {
    match std::str::from_utf8(raw) {
        Ok("") => Ok("{}"),
        Ok(text) => Ok(text),
        Err(_) => Err(RequestError {
            field: String::new(),
            message: "the options are not UTF-8".to_string(),
        }),
    }
}

/// Allocates `len` bytes (zeroed) for the caller to fill; give them back with
/// [`urlkit_free`]. Returns a dangling non-null pointer for `len == 0`.
#[no_mangle]
pub extern "C" fn urlkit_alloc(len: usize) -> *mut u8 {
    if len == 0 {
        return std::ptr::NonNull::<u8>::dangling().as_ptr();
    }
    Box::into_raw(vec![0u8; len].into_boxed_slice()).cast::<u8>()
}

/// Frees a buffer from [`urlkit_alloc`].
///
/// # Safety
/// `ptr` and `len` must be exactly what one earlier [`urlkit_alloc`] call returned and took,
/// and the buffer must not be used afterwards.
#[no_mangle]
pub unsafe extern "C" fn urlkit_free(ptr: *mut u8, len: usize) {
    if len == 0 || ptr.is_null() {
        return;
    }
    // SAFETY: `ptr` came from `Box<[u8]>` of exactly `len` bytes in `urlkit_alloc`.
    drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) });
}

/// Where the result of the last call starts.
#[no_mangle]
pub extern "C" fn urlkit_result_ptr() -> *const u8 {
    RESULT.with(|cell| cell.borrow().as_ptr())
}

/// How many bytes the result of the last call has.
#[no_mangle]
pub extern "C" fn urlkit_result_len() -> usize {
    RESULT.with(|cell| cell.borrow().len())
}

/// Encodes UTF-8 text with the options of `POST /api/encode` (a JSON object; `input`, if
/// present, is ignored). Result: `{output, charset, diagnostics, diagnostics_not_listed}`.
///
/// Text that is not UTF-8, unencodable characters and the like are reported in the
/// diagnostics; with `strict` the first of them gives [`REJECTED`].
///
/// # Safety
/// `input`/`options` must point to `input_len`/`options_len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn urlkit_encode(
    input: *const u8,
    input_len: usize,
    options: *const u8,
    options_len: usize,
) -> u32 {
    // SAFETY: forwarded from this function's contract.
    let (input, options) = unsafe { (bytes(input, input_len), bytes(options, options_len)) };
    let run = options_json(options)
        .and_then(EncodeRequest::from_json)
        .and_then(|request| request.run_on(input));
    respond(run)
}

/// Decodes percent-encoded text with the options of `POST /api/decode` (a JSON object;
/// `input`, if present, is ignored; `charset` may be `auto`). Result: `{output, charset,
/// diagnostics, diagnostics_not_listed}` plus `depth` and `layers` with `until_stable`.
///
/// Malformed escapes are kept and invalid sequences become U+FFFD, each reported; with
/// `strict` the first of them gives [`REJECTED`].
///
/// # Safety
/// `input`/`options` must point to `input_len`/`options_len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn urlkit_decode(
    input: *const u8,
    input_len: usize,
    options: *const u8,
    options_len: usize,
) -> u32 {
    // SAFETY: forwarded from this function's contract.
    let (input, options) = unsafe { (bytes(input, input_len), bytes(options, options_len)) };
    let run = options_json(options)
        .and_then(DecodeRequest::from_json)
        .and_then(|request| request.run_on(input));
    respond(run)
}

fn respond(run: Result<Result<request::CodecResponse, request::Rejection>, RequestError>) -> u32 {
    match run {
        Ok(Ok(response)) => {
            set_json(&response);
            OK
        }
        Ok(Err(rejection)) => set_error(&rejection.to_body(), REJECTED),
        Err(error) => set_error(&error.to_body(), INVALID_REQUEST),
    }
}

/// Detects the charset of percent-encoded text. Result: `{charset, confidence, reason,
/// bom_length, runners_up}` as `urlkit detect --json`. Always [`OK`].
///
/// # Safety
/// `input` must point to `input_len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn urlkit_detect(input: *const u8, input_len: usize) -> u32 {
    // SAFETY: forwarded from this function's contract.
    let input = unsafe { bytes(input, input_len) };
    set_json(&request::detect(input));
    OK
}

/// Starts a streaming encoder with the options of `POST /api/encode`; `binary != 0`
/// escapes bytes as they are (files). Returns a handle for [`urlkit_stream_feed`], or null
/// with the error body in the result when the options are not understood.
///
/// # Safety
/// `options` must point to `options_len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn urlkit_encoder_new(
    options: *const u8,
    options_len: usize,
    binary: u32,
) -> *mut Stream {
    // SAFETY: forwarded from this function's contract.
    let options = unsafe { bytes(options, options_len) };
    let made = options_json(options)
        .and_then(EncodeRequest::from_json)
        .and_then(|r| Ok(Stream::encoder(&r.options(binary != 0)?, r.strict)));
    new_stream(made)
}

/// Starts a streaming decoder with the options of `POST /api/decode` (not `until_stable`,
/// which needs the whole input); `binary != 0` returns the decoded bytes as they are
/// (files). Returns a handle, or null with the error body in the result.
///
/// # Safety
/// `options` must point to `options_len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn urlkit_decoder_new(
    options: *const u8,
    options_len: usize,
    binary: u32,
) -> *mut Stream {
    // SAFETY: forwarded from this function's contract.
    let options = unsafe { bytes(options, options_len) };
    let made = options_json(options)
        .and_then(DecodeRequest::from_json)
        .and_then(|r| {
            if r.until_stable {
                return Err(RequestError {
                    field: "until_stable".to_string(),
                    message: "needs the whole input; not available when streaming".to_string(),
                });
            }
            Ok(Stream::decoder(&r.options(binary != 0)?, r.strict))
        });
    new_stream(made)
}

fn new_stream(made: Result<Stream, RequestError>) -> *mut Stream {
    match made {
        Ok(stream) => {
            set_result(|_| {});
            Box::into_raw(Box::new(stream))
        }
        Err(error) => {
            set_error(&error.to_body(), INVALID_REQUEST);
            std::ptr::null_mut()
        }
    }
}

/// Feeds the next chunk to a stream. [`OK`]: the result holds this chunk's output bytes.
/// [`REJECTED`] (strict): the result holds the error body and the stream is spent.
///
/// # Safety
/// `stream` must be a live handle from [`urlkit_encoder_new`]/[`urlkit_decoder_new`];
/// `chunk` must point to `chunk_len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn urlkit_stream_feed(
    stream: *mut Stream,
    chunk: *const u8,
    chunk_len: usize,
) -> u32 {
    // SAFETY: the caller passes a live handle, used by nobody else during the call, and a
    // readable chunk.
    let (stream, chunk) = unsafe { (&mut *stream, bytes(chunk, chunk_len)) };
    step(|out| stream.feed(chunk, out))
}

/// Ends a stream's input. [`OK`]: the result holds the last output bytes. [`REJECTED`] as
/// for [`urlkit_stream_feed`].
///
/// # Safety
/// `stream` must be a live handle.
#[no_mangle]
pub unsafe extern "C" fn urlkit_stream_finish(stream: *mut Stream) -> u32 {
    // SAFETY: the caller passes a live handle, used by nobody else during the call.
    let stream = unsafe { &mut *stream };
    step(|out| stream.finish(out))
}

fn step(run: impl FnOnce(&mut Vec<u8>) -> Result<(), request::Rejection>) -> u32 {
    let mut outcome = Ok(());
    set_result(|out| outcome = run(out));
    match outcome {
        Ok(()) => OK,
        Err(rejection) => set_error(&rejection.to_body(), REJECTED),
    }
}

/// A stream's charset and findings so far: `{output: "", charset, diagnostics,
/// diagnostics_not_listed}`. Always [`OK`].
///
/// # Safety
/// `stream` must be a live handle.
#[no_mangle]
pub unsafe extern "C" fn urlkit_stream_report(stream: *const Stream) -> u32 {
    // SAFETY: the caller passes a live handle.
    let stream = unsafe { &*stream };
    set_json(&stream.response(&[]));
    OK
}

/// Frees a stream. Null is ignored.
///
/// # Safety
/// `stream` must be null or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn urlkit_stream_free(stream: *mut Stream) {
    if !stream.is_null() {
        // SAFETY: the handle came from `Box::into_raw` in `new_stream` and is freed once.
        drop(unsafe { Box::from_raw(stream) });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result() -> String {
        // SAFETY: the result buffer is valid until the next call.
        let raw = unsafe { bytes(urlkit_result_ptr(), urlkit_result_len()) };
        String::from_utf8(raw.to_vec()).unwrap()
    }

    fn call(
        f: unsafe extern "C" fn(*const u8, usize, *const u8, usize) -> u32,
        a: &str,
        b: &str,
    ) -> u32 {
        // SAFETY: both slices are live for the call.
        unsafe { f(a.as_ptr(), a.len(), b.as_ptr(), b.len()) }
    }

    #[test]
    fn encode_returns_the_api_json() {
        assert_eq!(call(urlkit_encode, "a b", r#"{"set":"form"}"#), OK);
        assert!(result().contains(r#""output":"a+b""#), "{}", result());
    }

    #[test]
    fn strict_decode_is_rejected_with_offset() {
        assert_eq!(call(urlkit_decode, "ab%zz", r#"{"strict":true}"#), REJECTED);
        assert!(result().contains(r#""offset":2"#), "{}", result());
    }

    #[test]
    fn bad_option_names_the_field() {
        assert_eq!(
            call(urlkit_decode, "x", r#"{"charset":"nope"}"#),
            INVALID_REQUEST
        );
        assert!(result().contains(r#""field":"charset""#), "{}", result());
    }

    #[test]
    fn binary_stream_passes_bytes_through() {
        let options = "{}";
        // SAFETY: live slices; the handle is freed once.
        unsafe {
            let stream = urlkit_decoder_new(options.as_ptr(), options.len(), 1);
            assert!(!stream.is_null());
            let mut out = Vec::new();
            for chunk in [&b"%F"[..], b"F%0", b"0"] {
                assert_eq!(urlkit_stream_feed(stream, chunk.as_ptr(), chunk.len()), OK);
                out.extend_from_slice(bytes(urlkit_result_ptr(), urlkit_result_len()));
            }
            assert_eq!(urlkit_stream_finish(stream), OK);
            out.extend_from_slice(bytes(urlkit_result_ptr(), urlkit_result_len()));
            urlkit_stream_free(stream);
            assert_eq!(out, [0xFF, 0x00]);
        }
    }

    #[test]
    fn alloc_and_free_round_trip() {
        let ptr = urlkit_alloc(16);
        // SAFETY: freed once with the same length.
        unsafe { urlkit_free(ptr, 16) };
        // SAFETY: a zero-length buffer is ignored.
        unsafe { urlkit_free(urlkit_alloc(0), 0) };
    }
}
