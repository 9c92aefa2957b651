//! urlkit: percent-encoding and decoding done properly, and URLs taken apart.
//!
//! ```
//! use urlkit::{decode, encode, DecodeOptions, EncodeOptions, EncodeSet};
//!
//! let options = EncodeOptions { set: EncodeSet::COMPONENT, ..EncodeOptions::default() };
//! assert_eq!(encode("a b/é".as_bytes(), &options).text(), "a%20b%2F%C3%A9");
//!
//! let outcome = decode(b"100%zz%E2%80%A0", &DecodeOptions::default());
//! assert_eq!(outcome.text(), "100%zz\u{2020}"); // the malformed escape is kept …
//! assert_eq!(outcome.diagnostics.items()[0].offset, 3); // … and reported at its byte offset
//! ```
//!
//! # What is where
//!
//! | concept | spec | API |
//! |---|---|---|
//! | percent-encode bytes outside a set | RFC 3986 §2.1; URL Standard §1.3 | [`encode`], [`EncodeOptions`], [`EncodeSet`] |
//! | the encode sets | RFC 3986 §2.3; ECMAScript `encodeURIComponent`/`encodeURI`; URL Standard §1.3, §5.2 | [`EncodeSet::UNRESERVED`] … [`EncodeSet::ALL`] |
//! | percent-decode | URL Standard §1.3 *percent-decode* | [`decode`], [`DecodeOptions`] |
//! | charsets and their labels | Encoding Standard §4.2; UTF-32; DOS code pages | [`Charset`], [`CharsetChoice`] |
//! | which charset is this? | Encoding Standard BOM sniffing, then statistics | [`detect`] |
//! | many layers (`%2520`) | | [`decode_until_stable`] |
//! | streams, strict mode, findings cap | | [`Codec`] |
//! | a front end's request | | [`settings`] |
//! | `application/x-www-form-urlencoded` parsing | URL Standard §5.1 | [`codec::parse_form`] |
//! | URLs: parse, resolve, normalize, IDN, IRI | URL Standard; RFC 3986 §3, §5, §6; UTS #46; RFC 3987 | [`inspect`] |
//! | findings | | [`Diagnostic`], [`Code`] |
//!
//! # Bad input
//!
//! Nothing here fails on bad input unless asked to. The codec repairs what it must, as
//! browsers do, and reports each repair as a [`Diagnostic`] with a stable [`Code`] and the
//! byte offset in the input: a `%` without two hex digits is kept as it is
//! (`malformed-escape`); bytes invalid in the charset become U+FFFD (`invalid-sequence`);
//! a character the charset cannot represent becomes `&#N;` (`unencodable-character`);
//! text that is not UTF-8 is reported as `invalid-input`. Strict mode ([`Codec::strict`],
//! [`settings`]) turns those four into a [`Rejection`] at the first one instead. The URL
//! functions return an error naming the problem and its position. No function panics on
//! any input.
//!
//! # Text and bytes
//!
//! Decoding reads the escapes' bytes in the chosen charset. What happens to a literal
//! (unescaped) non-ASCII character depends on where the input comes from:
//!
//! * **Text** (a command-line argument, a JSON string in the API, the page's text box):
//!   it holds characters, so a literal character stays the character it is whatever the
//!   charset, and only the escapes are read in it — `漢%FC` in `latin1` is `漢ü`, as
//!   Python's `unquote('漢%FC', encoding='latin-1')` gives. Set
//!   [`DecodeOptions::text`].
//! * **Bytes** (stdin, files, uploads): the input may really be in the legacy charset, so
//!   it is decoded whole, literal bytes included, and a literal non-ASCII byte met in a
//!   legacy charset is reported once per entry (`literal-non-ascii`).
//!
//! In UTF-8 both readings agree.
//!
//! # Streams
//!
//! [`Codec`] takes input in chunks of any size, splits included (a `%` apart from its
//! digits, a character across two chunks), and gives the same output and findings as the
//! whole input at once, in constant memory. It keeps at most
//! [`KEPT_FINDINGS`](diagnostics::KEPT_FINDINGS) findings by default and counts the rest.
//! [`encode`] and [`decode`] are the whole-input shortcuts and keep every finding.
//!
//! # Front ends
//!
//! The command line, the web server, the WebAssembly module and the Python package read
//! their options into [`settings::EncodeSettings`] and [`settings::DecodeSettings`], which
//! check them in one place and name the setting at fault. The JSON shapes of those front
//! ends live in the `urlkit-api` crate; with the `serde` feature the library's report types
//! (findings, URL reports) derive `Serialize`, and with `openapi` also `utoipa::ToSchema`.
//! The library does no I/O and has no global state beyond the processor features it
//! detects once.

#![deny(missing_docs)]

pub mod charset;
pub mod codec;
pub mod detect;
pub mod diagnostics;
pub mod inspect;
#[cfg(feature = "whatwg")]
pub mod purl;
pub mod sets;
pub mod settings;

pub use charset::Charset;
pub use codec::{
    decode, decode_until_stable, encode, CharsetChoice, Codec, DecodeOptions, EncodeOptions,
    Newline, Outcome, Rejection,
};
pub use detect::Detection;
pub use diagnostics::{Code, Diagnostic, Diagnostics};
pub use sets::EncodeSet;
pub use settings::{DecodeSettings, EncodeSettings, Plan};

/// The library's optional features this build was compiled with, in the order
/// `Cargo.toml` lists them (`whatwg`, `serde`, `openapi`, `measure-kernels`), for a
/// front end's version line.
pub const FEATURES: &[&str] = &[
    #[cfg(feature = "whatwg")]
    "whatwg",
    #[cfg(feature = "serde")]
    "serde",
    #[cfg(feature = "openapi")]
    "openapi",
    #[cfg(feature = "measure-kernels")]
    "measure-kernels",
];
