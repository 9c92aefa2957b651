//! urlkit: percent-encoding and decoding done properly, and URLs taken apart.
//!
//! * [`codec`]: encode and decode, whole or streaming, in every charset, with diagnostics.
//! * [`sets`]: the encode sets (what stays literal).
//! * [`charset`]: every WHATWG encoding under all its labels, UTF-32 and DOS code pages.
//! * [`detect`]: which charset is this percent-encoded text in?
//! * [`inspect`]: parse (WHATWG and RFC 3986 views), resolve, normalize, compare, IDN.
//! * [`diagnostics`]: findings with stable codes and byte offsets.
//! * [`request`]: the JSON request and response shapes of the HTTP API and the WebAssembly
//!   module.
//!
//! The library does no I/O.
//!
//! ```
//! use urlkit::{decode, encode, DecodeOptions, EncodeOptions, EncodeSet};
//!
//! let options = EncodeOptions { set: EncodeSet::COMPONENT, ..EncodeOptions::default() };
//! assert_eq!(encode("a b/é".as_bytes(), &options).text(), "a%20b%2F%C3%A9");
//!
//! let outcome = decode(b"100%zz%E2%80%A0", &DecodeOptions::default());
//! assert_eq!(outcome.text(), "100%zz\u{2020}"); // the malformed escape is kept …
//! assert_eq!(outcome.diagnostics[0].offset, 3); // … and reported at its byte offset
//! ```

pub mod charset;
pub mod codec;
pub mod detect;
pub mod diagnostics;
pub mod inspect;
pub mod request;
pub mod sets;

pub use charset::Charset;
pub use codec::{
    decode, decode_until_stable, encode, CharsetChoice, DecodeOptions, Decoder, EncodeOptions,
    Encoder, Newline, Outcome,
};
pub use diagnostics::{Code, Diagnostic, Diagnostics};
pub use sets::EncodeSet;
