//! Peeling nested layers of percent-encoding (`%2520` → `%20` → ` `).

use super::kernel::hex_value;
use super::percent::PercentDecoder;
use super::{decode, DecodeOptions, Outcome};
use crate::diagnostics::{Code, Diagnostic, Diagnostics};

/// At most this many layers are peeled.
pub const MAX_LAYERS: usize = 16;

/// The result of [`decode_until_stable`].
#[derive(Clone, Debug)]
pub struct Peeled {
    /// Each intermediate layer, outermost first, as bytes (the input itself is not
    /// included; the final text is `outcome.output`).
    pub layers: Vec<Vec<u8>>,
    /// How many layers of encoding were removed (0 when the input has no escapes).
    pub depth: usize,
    /// The final decode, with diagnostics at offsets into the original input.
    pub outcome: Outcome,
}

fn has_escape(bytes: &[u8]) -> bool {
    memchr::memchr_iter(b'%', bytes).any(|i| {
        bytes.len() > i + 2
            && hex_value(bytes[i + 1]).is_some()
            && hex_value(bytes[i + 2]).is_some()
    })
}

/// Decodes `input` again and again while the result still holds escapes, at most
/// [`MAX_LAYERS`] times; the last layer is read in the charset of `options`.
///
/// Whitespace is removed from the input only (per `options`); `+` handling applies to every
/// layer. Diagnostics of the outer layer and of the final decode are kept, with offsets
/// into `input`. Works on one entry held in memory.
pub fn decode_until_stable(input: &[u8], options: &DecodeOptions) -> Peeled {
    let mut layers: Vec<Vec<u8>> = Vec::new();
    // `map[i]`: offset in `input` of byte `i` of the current layer.
    let mut map: Vec<u64> = (0..input.len() as u64).collect();
    let mut outer = Diagnostics::new();
    let mut current: Vec<u8> = input.to_vec();
    let mut depth = 0;
    while layers.len() < MAX_LAYERS {
        let strip = layers.is_empty() && !options.keep_whitespace;
        let mut decoder = PercentDecoder::new(strip, options.plus_space, false);
        let mut next = Vec::with_capacity(current.len());
        let mut next_map = Vec::with_capacity(current.len());
        let mut findings = Diagnostics::new();
        decoder.decode_tracked(&current, &mut next, &mut next_map, &mut findings);
        decoder.finish_tracked(&mut next, &mut next_map, &mut findings);
        if !has_escape(&next) {
            break;
        }
        if layers.is_empty() {
            for d in findings.into_vec() {
                if d.code == Code::MalformedEscape {
                    outer.push(d);
                }
            }
        }
        for slot in next_map.iter_mut() {
            *slot = map.get(*slot as usize).copied().unwrap_or(0);
        }
        depth += 1;
        map = next_map;
        current = next.clone();
        layers.push(next);
    }
    let mut last_options = options.clone();
    if depth > 0 {
        last_options.keep_whitespace = true;
    }
    let mut outcome = decode(&current, &last_options);
    if has_escape(input) {
        depth += 1;
    }
    let mut diagnostics = outer.into_vec();
    for mut d in outcome.diagnostics.drain(..) {
        if d.code == Code::MultipleLayers {
            continue;
        }
        if depth > 1 {
            d.offset = map.get(d.offset as usize).copied().unwrap_or(d.offset);
        }
        diagnostics.push(d);
    }
    if depth > 1 {
        diagnostics.push(Diagnostic::new(
            Code::MultipleLayers,
            0,
            format!("the input was percent-encoded {depth} times; peeled every layer"),
        ));
    }
    outcome.diagnostics = diagnostics;
    Peeled {
        layers,
        depth,
        outcome,
    }
}
