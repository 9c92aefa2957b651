//! URL inspection: take a URL or URI reference apart, edit it, resolve, relativize,
//! normalize and compare references, convert host names (IDNA) and IRIs, and Base58.
//!
//! Two views are offered. [`whatwg`] follows the WHATWG URL Standard (what browsers do),
//! through ada, the parser of Node.js (the `whatwg` feature, on by default); [`rfc3986`]
//! splits any URI reference by the generic syntax of RFC 3986 §3 without scheme-specific
//! rewriting, and resolves (§5), relativizes, normalizes and compares (§6) by it. [`edit`]
//! edits URLs of either view, [`idn`] converts host names (UTS #46), [`iri`] IRIs
//! (RFC 3987), [`template`] prints URLs by `--get` templates, [`base58`] is the Bitcoin
//! alphabet. Nothing here does I/O, and every function says what it does with input it
//! cannot take apart.
//!
//! The modules are layered: a private helper module stands alone (percent-decoding, query
//! pairs, quoting a bounded excerpt of an input in a message); `idn`, `iri` and `base58`
//! use only it; `rfc3986` uses only those; `edit` uses `rfc3986`; `whatwg` may use everything
//! below it, and `template` everything.

pub mod base58;
pub mod edit;
pub mod idn;
pub mod iri;
mod parts;
pub mod rfc3986;
pub mod template;
#[cfg(feature = "whatwg")]
pub mod whatwg;

pub use parts::{default_port, excerpt, is_special, query_pairs, EXCERPT_CHARS, LISTED_ENTRIES};

#[cfg(feature = "whatwg")]
pub use whatwg::Url;
