//! What the vector paths for whole entries ([`super::plain`], [`super::whole`]) share:
//! which options they take, and which entries they leave to the full decoder.

use super::kernel::{Kernels, REMOVABLE_WHITESPACE};
use super::{CharsetChoice, DecodeOptions};

/// Whether `input` holds whitespace to remove with `strip_whitespace` on, which the
/// vector paths leave to the full decoder.
pub(super) fn holds_whitespace_to_remove(
    input: &[u8],
    strip_whitespace: bool,
    kernels: &Kernels,
) -> bool {
    strip_whitespace && (kernels.first_member)(input, &REMOVABLE_WHITESPACE) < input.len()
}

/// Whether `options` decode to UTF-8 text with a fixed charset: what the vector paths
/// for whole entries take.
pub(super) fn decodes_to_utf8_text(options: &DecodeOptions) -> bool {
    matches!(options.charset, CharsetChoice::Fixed(c) if c.is_utf8()) && !options.binary
}
