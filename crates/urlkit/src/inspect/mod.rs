//! URL inspection: take a URL or URI reference apart, resolve, relativize, normalize and
//! compare references, convert host names (IDNA) and IRIs, and Base58.
//!
//! Two views are offered. [`whatwg`] follows the WHATWG URL Standard (what browsers do);
//! [`rfc3986`] splits any URI reference by the generic syntax of RFC 3986 §3 without
//! scheme-specific rewriting, and resolves (§5), relativizes, normalizes and compares (§6)
//! by it. [`idn`] converts host names (UTS #46), [`iri`] IRIs (RFC 3987), [`template`]
//! prints URLs by `--get` templates, [`base58`] is the Bitcoin alphabet. Nothing here does
//! I/O, and every function says what it does with input it cannot take apart.
//!
//! The modules are layered: `idn`, `iri`, `base58` and a private helper module stand
//! alone; `rfc3986` uses only those; `whatwg` and `template` may use everything below
//! them.

pub mod base58;
pub mod idn;
pub mod iri;
mod parts;
pub mod rfc3986;
pub mod template;
pub mod whatwg;

pub use parts::{default_port, is_special, query_pairs};

/// The `url` crate's URL type and component positions, which this module's API uses.
pub use url::{Position, Url};
