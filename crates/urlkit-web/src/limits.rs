//! How large a request body may be, per kind of route: one place for the router, the
//! page and the API to read.

/// Largest JSON or form body for text operations.
pub const TEXT_LIMIT: usize = 16 * 1024 * 1024;
/// Largest body of `/api/inspect` and `/api/resolve`, and of a page form that asks for the
/// inspector: their text is at most [`MAX_INSPECT_BYTES`](urlkit_api::inspect::MAX_INSPECT_BYTES)
/// (64 KiB), with room for every character of it written as a JSON escape (`\u00e9`, six
/// bytes) or a form's `%XX`, and for the field names.
pub const INSPECT_LIMIT: usize = 8 * urlkit_api::inspect::MAX_INSPECT_BYTES;
/// Room for multipart headers and option fields beyond the file itself.
pub const MULTIPART_OVERHEAD: u64 = 1024 * 1024;
