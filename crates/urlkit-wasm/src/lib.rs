//! The urlkit codec for the browser's live mode: built for `wasm32-unknown-unknown` as a
//! module with plain C-ABI exports, driven by the hand-written `js/urlkit.mjs`.
//!
//! Requests and responses are the JSON of the HTTP API ([`urlkit_api`]), so the browser and
//! the server give byte-identical results.
//!
//! # Calling convention
//! * Memory: the caller gets buffers with [`urlkit_alloc`] and gives them back with
//!   [`urlkit_free`] (same length).
//! * Every call that produces something leaves it in one result buffer, read with
//!   [`urlkit_result_ptr`] and [`urlkit_result_len`] and valid until the next call.
//! * Status codes: [`OK`] (result: response JSON, output bytes for stream calls, or the
//!   text of [`urlkit_human_size`] and [`urlkit_result_name`], the parts' JSON of
//!   [`urlkit_shown_parts`]),
//!   [`REJECTED`] (strict mode rejected the input; result: `{"error": {code, message,
//!   offset}}`), [`INVALID_REQUEST`] (options not understood; result: `{"error": {code,
//!   message, field}}`), [`INVALID_ARGUMENT`] (a pointer, length or handle the module did
//!   not hand out, or a size or flag out of its range; result: `{"error": {"code":
//!   "invalid-argument", message, field}}`).
//! * Text is UTF-8. A panic aborts (traps), which the caller sees as an exception.
//!
//! # Soundness
//! Every export is safe to call with any arguments. A pointer argument is used only when
//! its bytes lie inside a live buffer from [`urlkit_alloc`]; bytes inside the result
//! buffer (the output of one call fed straight into the next) are copied before the
//! result buffer is rewritten; anything else, null included, is refused with
//! [`INVALID_ARGUMENT`]. Streams are named by numbered handles, never by addresses: a
//! handle that is unknown or already freed is refused the same way.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

use serde::Serialize;
use urlkit::settings::Entry;
use urlkit::Codec;
use urlkit_api::{
    rejection_body, CodecResponse, DecodeRequest, EncodeRequest, ErrorBody, ErrorDetail, Failure,
    RequestError,
};

/// Success.
pub const OK: u32 = 0;
/// Strict mode rejected the input.
pub const REJECTED: u32 = 1;
/// The options could not be understood.
pub const INVALID_REQUEST: u32 = 2;
/// A pointer, length or stream handle that the module did not hand out.
pub const INVALID_ARGUMENT: u32 = 3;

/// A stream's handle; 0 is never one.
pub type Handle = u32;

thread_local! {
    static RESULT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The live buffers of [`urlkit_alloc`]: start address → length.
    static ALLOCATIONS: RefCell<BTreeMap<usize, usize>> = const { RefCell::new(BTreeMap::new()) };
    static STREAMS: RefCell<Streams> = RefCell::new(Streams::default());
}

/// The live streams by handle.
#[derive(Default)]
struct Streams {
    live: HashMap<Handle, Codec>,
    /// The last handle given out; handles are not reused until the counter wraps.
    last: Handle,
}

impl Streams {
    fn insert(&mut self, stream: Codec) -> Handle {
        loop {
            self.last = self.last.wrapping_add(1);
            if self.last != 0 && !self.live.contains_key(&self.last) {
                self.live.insert(self.last, stream);
                return self.last;
            }
        }
    }
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

/// An argument the module refuses: which one, and why.
struct BadArgument {
    argument: &'static str,
    message: String,
}

impl BadArgument {
    fn new(argument: &'static str, message: impl Into<String>) -> Self {
        BadArgument {
            argument,
            message: message.into(),
        }
    }

    /// Leaves the error body in the result buffer and gives [`INVALID_ARGUMENT`].
    fn report(&self) -> u32 {
        let body = ErrorBody {
            error: ErrorDetail {
                code: "invalid-argument".to_string(),
                message: format!("argument `{}`: {}", self.argument, self.message),
                offset: None,
                field: Some(self.argument.to_string()),
            },
        };
        set_error(&body, INVALID_ARGUMENT)
    }
}

/// The `len` bytes at `ptr`, checked: borrowed when they lie inside a live buffer from
/// [`urlkit_alloc`], copied when they lie inside the result buffer (which the call is
/// about to rewrite), refused otherwise. Any pointer will do for `len == 0`.
fn argument<'a>(
    name: &'static str,
    ptr: *const u8,
    len: usize,
) -> Result<Cow<'a, [u8]>, BadArgument> {
    if len == 0 {
        return Ok(Cow::Borrowed(&[]));
    }
    if ptr.is_null() {
        return Err(BadArgument::new(
            name,
            "null pointer with a non-zero length",
        ));
    }
    let start = ptr as usize;
    let end = start
        .checked_add(len)
        .ok_or_else(|| BadArgument::new(name, "pointer plus length overflows"))?;
    let inside_allocation = ALLOCATIONS.with(|cell| {
        cell.borrow()
            .range(..=start)
            .next_back()
            .is_some_and(|(&base, &size)| end <= base + size)
    });
    if inside_allocation {
        // SAFETY: the bytes lie inside a live, initialised buffer of `urlkit_alloc`
        // (checked above), which only `urlkit_free` releases, and no export frees
        // anything while it still reads an argument.
        return Ok(Cow::Borrowed(unsafe {
            std::slice::from_raw_parts(ptr, len)
        }));
    }
    RESULT.with(|cell| {
        let result = cell.borrow();
        let base = result.as_ptr() as usize;
        if start >= base && end <= base + result.len() {
            // Read through the buffer itself: the caller's pointer is only an address.
            Ok(Cow::Owned(result[start - base..end - base].to_vec()))
        } else {
            Err(BadArgument::new(
                name,
                format!(
                    "{len} bytes at {start:#x} are not inside a buffer from urlkit_alloc \
                     or the result buffer"
                ),
            ))
        }
    })
}

/// Reads the options JSON; an empty buffer means `{}`.
fn options_json(raw: &[u8]) -> Result<&str, RequestError> {
    match std::str::from_utf8(raw) {
        Ok("") => Ok("{}"),
        Ok(text) => Ok(text),
        Err(_) => Err(RequestError::new("", "the options are not UTF-8")),
    }
}

/// Allocates `len` bytes (zeroed) for the caller to fill; give them back with
/// [`urlkit_free`]. Returns a dangling non-null pointer for `len == 0`.
#[no_mangle]
pub extern "C" fn urlkit_alloc(len: usize) -> *mut u8 {
    if len == 0 {
        return std::ptr::NonNull::<u8>::dangling().as_ptr();
    }
    let ptr = Box::into_raw(vec![0u8; len].into_boxed_slice()).cast::<u8>();
    ALLOCATIONS.with(|cell| cell.borrow_mut().insert(ptr as usize, len));
    ptr
}

/// Frees a buffer from [`urlkit_alloc`]: [`OK`], or [`INVALID_ARGUMENT`] (nothing freed)
/// when `ptr` and `len` are not exactly those of a live buffer. A zero length is [`OK`] and
/// frees nothing.
#[no_mangle]
pub extern "C" fn urlkit_free(ptr: *mut u8, len: usize) -> u32 {
    if len == 0 {
        return OK;
    }
    let known = ALLOCATIONS.with(|cell| {
        let mut live = cell.borrow_mut();
        let exact = live.get(&(ptr as usize)) == Some(&len);
        if exact {
            live.remove(&(ptr as usize));
        }
        exact
    });
    if !known {
        return BadArgument::new(
            "ptr",
            format!(
                "{len} bytes at {:#x} are not a live buffer from urlkit_alloc",
                ptr as usize
            ),
        )
        .report();
    }
    // SAFETY: `ptr` and `len` are exactly those of a live `Box<[u8]>` made by
    // `urlkit_alloc` (checked above), now unregistered so it is freed once.
    drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) });
    OK
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
/// diagnostics; with `strict` the first of them gives [`REJECTED`]. Arguments that are not
/// live buffers give [`INVALID_ARGUMENT`].
#[no_mangle]
pub extern "C" fn urlkit_encode(
    input: *const u8,
    input_len: usize,
    options: *const u8,
    options_len: usize,
) -> u32 {
    whole_input(input, input_len, options, options_len, |input, options| {
        EncodeRequest::from_json(options)?.run_on(input)
    })
}

/// Decodes percent-encoded text with the options of `POST /api/decode` (a JSON object;
/// `input`, if present, is ignored; `charset` may be `auto`). Result: `{output, charset,
/// diagnostics, diagnostics_not_listed}` plus `depth` and `layers` with `until_stable`.
///
/// Malformed escapes are kept and invalid sequences become U+FFFD, each reported; with
/// `strict` the first of them gives [`REJECTED`]. Arguments that are not live buffers give
/// [`INVALID_ARGUMENT`].
#[no_mangle]
pub extern "C" fn urlkit_decode(
    input: *const u8,
    input_len: usize,
    options: *const u8,
    options_len: usize,
) -> u32 {
    whole_input(input, input_len, options, options_len, |input, options| {
        DecodeRequest::from_json(options)?.run_on(input)
    })
}

/// Checks the arguments of a whole-input call, runs it and leaves its answer in the result.
fn whole_input(
    input: *const u8,
    input_len: usize,
    options: *const u8,
    options_len: usize,
    run: impl FnOnce(&[u8], &str) -> Result<CodecResponse, Failure>,
) -> u32 {
    let (input, options) = match (
        argument("input", input, input_len),
        argument("options", options, options_len),
    ) {
        (Ok(input), Ok(options)) => (input, options),
        (Err(bad), _) | (_, Err(bad)) => return bad.report(),
    };
    match options_json(&options)
        .map_err(Failure::from)
        .and_then(|o| run(&input, o))
    {
        Ok(response) => {
            set_json(&response);
            OK
        }
        Err(Failure::Rejected(rejection)) => set_error(&rejection_body(&rejection), REJECTED),
        Err(Failure::Invalid(error)) => set_error(&error.to_body(), INVALID_REQUEST),
    }
}

/// Detects the charset of percent-encoded text. Result: `{charset, confidence, reason,
/// bom_length, runners_up}` as `urlkit detect --json`: [`OK`], or [`INVALID_ARGUMENT`] when
/// the input is not a live buffer.
#[no_mangle]
pub extern "C" fn urlkit_detect(input: *const u8, input_len: usize) -> u32 {
    match argument("input", input, input_len) {
        Ok(input) => {
            set_json(&urlkit_api::detect(&input));
            OK
        }
        Err(bad) => bad.report(),
    }
}

/// Starts a streaming encoder with the options of `POST /api/encode`; `binary != 0`
/// escapes bytes as they are (files). Returns a handle for [`urlkit_stream_feed`], or 0
/// with the error body in the result when the options are not understood (or are not a
/// live buffer).
#[no_mangle]
pub extern "C" fn urlkit_encoder_new(
    options: *const u8,
    options_len: usize,
    binary: u32,
) -> Handle {
    new_stream(options, options_len, |json| {
        let mut settings = EncodeRequest::from_json(json)?.settings;
        settings.binary = binary != 0;
        Ok(settings.check()?.codec()?)
    })
}

/// Starts a streaming decoder with the options of `POST /api/decode` (not `until_stable`,
/// which needs the whole input); `binary != 0` returns the decoded bytes as they are
/// (files). Returns a handle, or 0 with the error body in the result.
#[no_mangle]
pub extern "C" fn urlkit_decoder_new(
    options: *const u8,
    options_len: usize,
    binary: u32,
) -> Handle {
    new_stream(options, options_len, |json| {
        let mut settings = DecodeRequest::from_json(json)?.settings;
        settings.binary = binary != 0;
        Ok(settings.check()?.codec()?)
    })
}

fn new_stream(
    options: *const u8,
    options_len: usize,
    make: impl FnOnce(&str) -> Result<Codec, RequestError>,
) -> Handle {
    let options = match argument("options", options, options_len) {
        Ok(options) => options,
        Err(bad) => {
            bad.report();
            return 0;
        }
    };
    match options_json(&options).and_then(make) {
        Ok(stream) => {
            set_result(|_| {});
            STREAMS.with(|cell| cell.borrow_mut().insert(stream))
        }
        Err(error) => {
            set_error(&error.to_body(), INVALID_REQUEST);
            0
        }
    }
}

/// Runs `work` on the live stream `handle`, or refuses an unknown handle.
fn with_stream(handle: Handle, work: impl FnOnce(&mut Codec) -> u32) -> u32 {
    // The stream is taken out while it works, so the registry is not borrowed meanwhile.
    let Some(mut stream) = STREAMS.with(|cell| cell.borrow_mut().live.remove(&handle)) else {
        return unknown_handle(handle);
    };
    let status = work(&mut stream);
    STREAMS.with(|cell| cell.borrow_mut().live.insert(handle, stream));
    status
}

fn unknown_handle(handle: Handle) -> u32 {
    BadArgument::new(
        "stream",
        format!("{handle} is not a live stream handle (never made, or already freed)"),
    )
    .report()
}

/// Feeds the next chunk to a stream. [`OK`]: the result holds this chunk's output bytes.
/// [`REJECTED`] (strict): the result holds the error body and the stream is spent.
/// [`INVALID_ARGUMENT`]: the handle is not live, or the chunk is not a live buffer (a chunk
/// inside the result buffer, such as another stream's output, is copied first).
#[no_mangle]
pub extern "C" fn urlkit_stream_feed(stream: Handle, chunk: *const u8, chunk_len: usize) -> u32 {
    let chunk = match argument("chunk", chunk, chunk_len) {
        Ok(chunk) => chunk,
        Err(bad) => return bad.report(),
    };
    with_stream(stream, |stream| step(|out| stream.feed(&chunk, out)))
}

/// Ends a stream's input. [`OK`]: the result holds the last output bytes. [`REJECTED`] and
/// [`INVALID_ARGUMENT`] as for [`urlkit_stream_feed`].
#[no_mangle]
pub extern "C" fn urlkit_stream_finish(stream: Handle) -> u32 {
    with_stream(stream, |stream| step(|out| stream.finish(out)))
}

fn step(run: impl FnOnce(&mut Vec<u8>) -> Result<(), urlkit::Rejection>) -> u32 {
    let mut outcome = Ok(());
    set_result(|out| outcome = run(out));
    match outcome {
        Ok(()) => OK,
        Err(rejection) => set_error(&rejection_body(&rejection), REJECTED),
    }
}

/// A stream's charset and findings so far: `{output: "", charset, diagnostics,
/// diagnostics_not_listed}`: [`OK`], or [`INVALID_ARGUMENT`] for a handle that is not live.
#[no_mangle]
pub extern "C" fn urlkit_stream_report(stream: Handle) -> u32 {
    with_stream(stream, |stream| {
        set_json(&CodecResponse::from_entry(&Entry::Streamed(stream), &[]));
        OK
    })
}

/// Frees a stream: [`OK`]; 0 is ignored ([`OK`]); any other handle that is not live gives
/// [`INVALID_ARGUMENT`].
#[no_mangle]
pub extern "C" fn urlkit_stream_free(stream: Handle) -> u32 {
    if stream == 0 {
        return OK;
    }
    match STREAMS.with(|cell| cell.borrow_mut().live.remove(&stream)) {
        Some(_) => OK,
        None => unknown_handle(stream),
    }
}

/// The largest byte count JavaScript's numbers hold exactly (2^53).
const MAX_EXACT_BYTES: f64 = 9_007_199_254_740_992.0;

/// A size as the server shows it (`1536 MiB`, `1.5 KiB`, `10 bytes`;
/// [`urlkit_api::shown::human_size`]), for the page's script. `bytes` is a JavaScript
/// number: [`OK`] with the text in the result, or [`INVALID_ARGUMENT`] when it is not a
/// whole number from 0 to 2^53 (negative, fractional, NaN, infinite or larger).
#[no_mangle]
pub extern "C" fn urlkit_human_size(bytes: f64) -> u32 {
    if !(0.0..=MAX_EXACT_BYTES).contains(&bytes) || bytes.fract() != 0.0 {
        return BadArgument::new(
            "bytes",
            format!("{bytes} is not a whole number of bytes from 0 to 2^53"),
        )
        .report();
    }
    let shown = urlkit_api::shown::human_size(bytes as u64);
    set_result(|buffer| buffer.extend_from_slice(shown.as_bytes()));
    OK
}

/// The name the server gives the result of an upload named `name` (UTF-8;
/// [`urlkit_api::shown::result_name`]): `report.csv` → `report.decoded.csv`, made safe and
/// at most 200 bytes before the mark. `done` is 0 for encoded, 1 for decoded. [`OK`] with
/// the name in the result; [`INVALID_ARGUMENT`] when `name` is not a live buffer or not
/// UTF-8, or `done` is neither 0 nor 1.
#[no_mangle]
pub extern "C" fn urlkit_result_name(name: *const u8, name_len: usize, done: u32) -> u32 {
    let name = match argument("name", name, name_len) {
        Ok(name) => name,
        Err(bad) => return bad.report(),
    };
    let Ok(name) = std::str::from_utf8(&name) else {
        return BadArgument::new("name", "the name is not UTF-8").report();
    };
    let done = match done {
        0 => urlkit_api::shown::Done::Encoded,
        1 => urlkit_api::shown::Done::Decoded,
        other => {
            return BadArgument::new(
                "done",
                format!("{other} is neither 0 (encoded) nor 1 (decoded)"),
            )
            .report()
        }
    };
    let shown = urlkit_api::shown::result_name(name, done);
    set_result(|buffer| buffer.extend_from_slice(shown.as_bytes()));
    OK
}

/// A URL's parts as the inspector shows them ([`urlkit_api::shown::ShownParts`]), from the
/// JSON of one view's report as `POST /api/inspect` answers it (`whatwg` or `rfc3986`),
/// by the rule the server's page uses. [`OK`] with the parts' JSON in the result;
/// [`INVALID_ARGUMENT`] when `view` is not a live buffer, not UTF-8, or not the JSON of a
/// report (the message says what was expected).
#[no_mangle]
pub extern "C" fn urlkit_shown_parts(view: *const u8, view_len: usize) -> u32 {
    let view = match argument("view", view, view_len) {
        Ok(view) => view,
        Err(bad) => return bad.report(),
    };
    let Ok(view) = std::str::from_utf8(&view) else {
        return BadArgument::new("view", "the view is not UTF-8").report();
    };
    match urlkit_api::shown::ShownParts::of_view(view) {
        Ok(parts) => {
            set_json(&parts);
            OK
        }
        Err(e) => BadArgument::new("view", format!("not a view's report: {e}")).report(),
    }
}

#[cfg(test)]
mod tests {
    //! Each export driven natively as the JavaScript glue drives it, and with the arguments
    //! a careless caller may pass: the result buffer as input, null, unknown memory, stale
    //! handles. `cargo miri test -p urlkit-wasm` runs these under Miri, which reports any
    //! read of freed or foreign memory.

    use super::*;

    fn result() -> Vec<u8> {
        RESULT.with(|cell| cell.borrow().clone())
    }

    fn result_text() -> String {
        String::from_utf8(result()).unwrap()
    }

    /// A buffer from `urlkit_alloc` holding `bytes`, freed when dropped.
    struct Buffer {
        ptr: *mut u8,
        len: usize,
    }

    impl Buffer {
        fn new(bytes: &[u8]) -> Self {
            let ptr = urlkit_alloc(bytes.len());
            if !bytes.is_empty() {
                // SAFETY: `urlkit_alloc` gave `bytes.len()` writable bytes at `ptr`.
                unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr, bytes.len()) };
            }
            Buffer {
                ptr,
                len: bytes.len(),
            }
        }
    }

    impl Drop for Buffer {
        fn drop(&mut self) {
            assert_eq!(urlkit_free(self.ptr, self.len), OK);
        }
    }

    fn call(f: extern "C" fn(*const u8, usize, *const u8, usize) -> u32, a: &str, b: &str) -> u32 {
        let (a, b) = (Buffer::new(a.as_bytes()), Buffer::new(b.as_bytes()));
        f(a.ptr, a.len, b.ptr, b.len)
    }

    fn stream(options: &str, binary: bool) -> Handle {
        let options = Buffer::new(options.as_bytes());
        urlkit_decoder_new(options.ptr, options.len, u32::from(binary))
    }

    fn feed(handle: Handle, chunk: &[u8]) -> u32 {
        let chunk = Buffer::new(chunk);
        urlkit_stream_feed(handle, chunk.ptr, chunk.len)
    }

    #[test]
    fn encode_returns_the_api_json() {
        assert_eq!(call(urlkit_encode, "a b", r#"{"set":"form"}"#), OK);
        assert!(
            result_text().contains(r#""output":"a+b""#),
            "{}",
            result_text()
        );
    }

    #[test]
    fn strict_decode_is_rejected_with_offset() {
        assert_eq!(call(urlkit_decode, "ab%zz", r#"{"strict":true}"#), REJECTED);
        assert!(result_text().contains(r#""offset":2"#), "{}", result_text());
    }

    #[test]
    fn bad_option_names_the_field() {
        assert_eq!(
            call(urlkit_decode, "x", r#"{"charset":"nope"}"#),
            INVALID_REQUEST
        );
        assert!(
            result_text().contains(r#""field":"charset""#),
            "{}",
            result_text()
        );
    }

    #[test]
    fn binary_stream_passes_bytes_through() {
        let handle = stream("{}", true);
        assert_ne!(handle, 0);
        let mut out = Vec::new();
        for chunk in [&b"%F"[..], b"F%0", b"0"] {
            assert_eq!(feed(handle, chunk), OK);
            out.extend_from_slice(&result());
        }
        assert_eq!(urlkit_stream_finish(handle), OK);
        out.extend_from_slice(&result());
        assert_eq!(urlkit_stream_free(handle), OK);
        assert_eq!(out, [0xFF, 0x00]);
    }

    #[test]
    fn one_streams_output_fed_straight_into_another_is_copied_first() {
        // Decoding `%2541` once gives `%41`; feeding that output, in place, to a second
        // decoder gives `A`. The chunk points into the result buffer the call rewrites.
        let first = stream("{}", true);
        let second = stream("{}", true);
        let mut decoded = Vec::new();
        let steps: [&dyn Fn() -> u32; 3] = [
            &|| feed(first, b"%2541%25"),
            &|| feed(first, b"42"),
            &|| urlkit_stream_finish(first),
        ];
        for step in steps {
            assert_eq!(step(), OK);
            assert_eq!(
                urlkit_stream_feed(second, urlkit_result_ptr(), urlkit_result_len()),
                OK
            );
            decoded.extend_from_slice(&result());
        }
        assert_eq!(urlkit_stream_finish(second), OK);
        decoded.extend_from_slice(&result());
        assert_eq!(decoded, b"AB");
        // A part of the result buffer is copied the same way.
        assert_eq!(call(urlkit_encode, "xyz", "{}"), OK);
        let output_start = result_text().find("xyz").unwrap();
        // SAFETY: pointer arithmetic inside the result buffer; the export checks it.
        let inside = unsafe { urlkit_result_ptr().add(output_start) };
        let options = Buffer::new(b"{}");
        assert_eq!(urlkit_decode(inside, 3, options.ptr, options.len), OK);
        assert!(
            result_text().contains(r#""output":"xyz""#),
            "{}",
            result_text()
        );
        assert_eq!(urlkit_stream_free(first), OK);
        assert_eq!(urlkit_stream_free(second), OK);
    }

    #[test]
    fn whole_input_calls_accept_the_result_buffer_as_input_and_options() {
        assert_eq!(call(urlkit_encode, "%", "{}"), OK);
        // The previous response, a JSON object, is a valid options object only in shape:
        // its fields are not options, so the request is refused naming one. What matters
        // is that it is read before it is overwritten.
        let (ptr, len) = (urlkit_result_ptr(), urlkit_result_len());
        assert_eq!(urlkit_decode(ptr, len, ptr, len), INVALID_REQUEST);
        assert!(result_text().contains("unknown field"), "{}", result_text());
        let (ptr, len) = (urlkit_result_ptr(), urlkit_result_len());
        assert_eq!(urlkit_detect(ptr, len), OK);
    }

    #[test]
    fn null_and_foreign_pointers_are_refused() {
        let options = Buffer::new(b"{}");
        assert_eq!(
            urlkit_encode(std::ptr::null(), 4, options.ptr, options.len),
            INVALID_ARGUMENT
        );
        assert!(
            result_text().contains(r#""field":"input""#),
            "{}",
            result_text()
        );
        assert_eq!(
            urlkit_decode(options.ptr, options.len, std::ptr::null(), 1),
            INVALID_ARGUMENT
        );
        assert!(
            result_text().contains(r#""field":"options""#),
            "{}",
            result_text()
        );
        // Memory the module never handed out: a local array, and addresses made up.
        let local = [b'%'; 8];
        assert_eq!(urlkit_detect(local.as_ptr(), local.len()), INVALID_ARGUMENT);
        for address in [1usize, 0x10, usize::MAX - 2, usize::MAX] {
            let made_up = std::ptr::without_provenance::<u8>(address);
            assert_eq!(urlkit_detect(made_up, 4), INVALID_ARGUMENT, "{address:#x}");
        }
        // Null with a zero length is an empty input.
        assert_eq!(urlkit_encode(std::ptr::null(), 0, std::ptr::null(), 0), OK);
        assert!(
            result_text().contains(r#""output":"""#),
            "{}",
            result_text()
        );
    }

    #[test]
    fn lengths_past_a_buffer_are_refused() {
        let input = Buffer::new(b"%41%42");
        let options = Buffer::new(b"{}");
        assert_eq!(
            urlkit_decode(input.ptr, input.len + 1, options.ptr, options.len),
            INVALID_ARGUMENT
        );
        assert_eq!(
            urlkit_decode(input.ptr, usize::MAX, options.ptr, options.len),
            INVALID_ARGUMENT
        );
        // A part of a buffer is fine.
        // SAFETY: one byte past the start, inside the buffer; the export checks it.
        let inner = unsafe { input.ptr.add(3) };
        assert_eq!(urlkit_decode(inner, 3, options.ptr, options.len), OK);
        assert!(
            result_text().contains(r#""output":"B""#),
            "{}",
            result_text()
        );
    }

    #[test]
    fn unknown_and_freed_handles_are_refused() {
        for handle in [12_345, u32::MAX] {
            assert_eq!(feed(handle, b"%41"), INVALID_ARGUMENT);
            assert!(
                result_text().contains("not a live stream handle"),
                "{}",
                result_text()
            );
            assert_eq!(urlkit_stream_finish(handle), INVALID_ARGUMENT);
            assert_eq!(urlkit_stream_report(handle), INVALID_ARGUMENT);
            assert_eq!(urlkit_stream_free(handle), INVALID_ARGUMENT);
        }
        assert_eq!(urlkit_stream_free(0), OK);
        assert_eq!(feed(0, b"x"), INVALID_ARGUMENT);
        let handle = stream("{}", false);
        assert_eq!(urlkit_stream_free(handle), OK);
        assert_eq!(feed(handle, b"%41"), INVALID_ARGUMENT);
        assert_eq!(urlkit_stream_free(handle), INVALID_ARGUMENT);
    }

    #[test]
    fn bad_options_for_a_new_stream_give_no_handle() {
        assert_eq!(stream(r#"{"until_stable":true}"#, false), 0);
        assert!(
            result_text().contains(r#""field":"until_stable""#),
            "{}",
            result_text()
        );
        assert_eq!(urlkit_encoder_new(std::ptr::null(), 2, 0), 0);
        assert!(
            result_text().contains("invalid-argument"),
            "{}",
            result_text()
        );
    }

    #[test]
    fn human_size_takes_whole_numbers_of_bytes() {
        assert_eq!(urlkit_human_size(1_610_612_736.0), OK);
        assert_eq!(result_text(), "1536 MiB");
        assert_eq!(urlkit_human_size(0.0), OK);
        assert_eq!(result_text(), "0 bytes");
        for bad in [-1.0, 1.5, f64::NAN, f64::INFINITY, MAX_EXACT_BYTES + 2.0] {
            assert_eq!(urlkit_human_size(bad), INVALID_ARGUMENT, "{bad}");
            assert!(
                result_text().contains(r#""field":"bytes""#),
                "{}",
                result_text()
            );
        }
    }

    #[test]
    fn shown_parts_checks_its_arguments() {
        let view =
            Buffer::new(br#"{"scheme": "https", "user": "", "port": 8443, "origin": "null"}"#);
        assert_eq!(urlkit_shown_parts(view.ptr, view.len), OK);
        let parts: serde_json::Value = serde_json::from_slice(&result()).unwrap();
        assert_eq!(
            (
                &parts["scheme"],
                &parts["user"],
                &parts["port"],
                &parts["origin"]
            ),
            (
                &serde_json::json!("https"),
                &serde_json::Value::Null,
                &serde_json::json!("8443"),
                &serde_json::Value::Null
            )
        );
        for bad in [&b"[1]"[..], b"{\"host\": 5}", b"", b"\xff"] {
            let buffer = Buffer::new(bad);
            assert_eq!(
                urlkit_shown_parts(buffer.ptr, buffer.len),
                INVALID_ARGUMENT,
                "{bad:?}"
            );
            assert!(
                result_text().contains(r#""field":"view""#),
                "{}",
                result_text()
            );
        }
        assert_eq!(urlkit_shown_parts(std::ptr::null(), 3), INVALID_ARGUMENT);
        // The result buffer itself as the view: read before it is rewritten.
        assert_eq!(urlkit_shown_parts(view.ptr, view.len), OK);
        let (ptr, len) = (urlkit_result_ptr(), urlkit_result_len());
        assert_eq!(urlkit_shown_parts(ptr, len), OK);
        let again: serde_json::Value = serde_json::from_slice(&result()).unwrap();
        assert_eq!(again["port"], "8443");
    }

    #[test]
    fn result_name_checks_its_arguments() {
        let name = Buffer::new("invoice\u{202E}fdp.exe".as_bytes());
        assert_eq!(urlkit_result_name(name.ptr, name.len, 1), OK);
        assert_eq!(result_text(), "invoicefdp.decoded.exe");
        assert_eq!(urlkit_result_name(std::ptr::null(), 0, 0), OK);
        assert_eq!(result_text(), "urlkit-result.encoded.txt");
        assert_eq!(urlkit_result_name(name.ptr, name.len, 2), INVALID_ARGUMENT);
        assert!(
            result_text().contains(r#""field":"done""#),
            "{}",
            result_text()
        );
        let latin1 = Buffer::new(b"caf\xe9.txt");
        assert_eq!(
            urlkit_result_name(latin1.ptr, latin1.len, 0),
            INVALID_ARGUMENT
        );
        assert!(result_text().contains("not UTF-8"), "{}", result_text());
        assert_eq!(urlkit_result_name(std::ptr::null(), 3, 0), INVALID_ARGUMENT);
        // The result buffer itself as the name: read before it is rewritten.
        assert_eq!(urlkit_result_name(name.ptr, name.len, 0), OK);
        let (ptr, len) = (urlkit_result_ptr(), urlkit_result_len());
        assert_eq!(urlkit_result_name(ptr, len, 1), OK);
        assert_eq!(result_text(), "invoicefdp.encoded.decoded.exe");
    }

    #[test]
    fn free_takes_only_live_buffers_exactly() {
        let ptr = urlkit_alloc(16);
        assert_eq!(urlkit_free(ptr, 15), INVALID_ARGUMENT);
        // SAFETY: pointer arithmetic inside the buffer; the export checks it.
        assert_eq!(urlkit_free(unsafe { ptr.add(1) }, 15), INVALID_ARGUMENT);
        assert_eq!(urlkit_free(ptr, 16), OK);
        assert_eq!(urlkit_free(ptr, 16), INVALID_ARGUMENT, "a second free");
        assert_eq!(urlkit_free(std::ptr::null_mut(), 4), INVALID_ARGUMENT);
        assert_eq!(urlkit_free(urlkit_alloc(0), 0), OK);
        // A freed buffer is no longer an acceptable argument.
        let input = Buffer::new(b"abc");
        let (ptr, len) = (input.ptr, input.len);
        drop(input);
        let options = Buffer::new(b"{}");
        assert_eq!(
            urlkit_encode(ptr, len, options.ptr, options.len),
            INVALID_ARGUMENT
        );
    }
}
