//! What the vector paths for whole entries ([`super::plain`], [`super::whole`]) share:
//! which options they take, and the padded copy of an entry their loops run over.

use super::kernel::{Kernels, REMOVABLE_WHITESPACE};
use super::{CharsetChoice, DecodeOptions};

/// `%` bytes after a copy of the entry: never an escape (`%` is not a hex digit), so the
/// vector loops stop where the entry ends, and run whole blocks up to there instead of
/// leaving a short entry's last bytes to the byte-at-a-time loop.
const PADDING: usize = 64;

/// Copies `input` into `padded` with `%` after it, so that every call of the vector loops
/// runs whole vectors up to the input's end; false when `strip_whitespace` is on and the
/// input holds whitespace to remove (which the vector paths leave to the full decoder).
pub(super) fn padded_without_whitespace(
    padded: &mut Vec<u8>,
    input: &[u8],
    strip_whitespace: bool,
    kernels: &Kernels,
) -> bool {
    padded.clear();
    padded.extend_from_slice(input);
    padded.resize(input.len() + PADDING, b'%');
    // Whole vector blocks: the padding has no whitespace.
    let scanned = &padded[..input.len().next_multiple_of(32)];
    !strip_whitespace || (kernels.first_member)(scanned, &REMOVABLE_WHITESPACE) >= input.len()
}

/// Whether `options` decode to UTF-8 text with a fixed charset: what the vector paths
/// for whole entries take.
pub(super) fn decodes_to_utf8_text(options: &DecodeOptions) -> bool {
    matches!(options.charset, CharsetChoice::Fixed(c) if c.is_utf8()) && !options.binary
}
