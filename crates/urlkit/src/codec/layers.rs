//! Peeling nested layers of percent-encoding (`%2520` → `%20` → ` `).
//!
//! The cost is bounded whatever the input: at most [`MAX_LAYERS`] layers are peeled, the
//! layers listed take at most [`LISTED_LAYER_BYTES`] in all, and at most
//! [`KEPT_FINDINGS`] findings are kept. Memory is the input, the layer being decoded, the
//! next one and the listed layers: no copy of every layer, no table per byte. The offsets
//! of the last decode's findings are carried back to the input by decoding the input again
//! through the same layers, a chunk at a time.

use super::kernel::portable;
use super::percent::PercentDecoder;
use super::{Codec, DecodeOptions, Outcome};
use crate::diagnostics::{Code, Diagnostic, Diagnostics, KEPT_FINDINGS};
use std::borrow::Cow;

/// At most this many intermediate layers are peeled (then the last decode, so at most one
/// more layer of encoding is removed); what is still encoded after them stays so, and a
/// `multiple-layers` finding says so.
pub const MAX_LAYERS: usize = 16;

/// The intermediate layers listed take at most this many bytes in all: they are listed
/// outermost first while they fit, the others only counted
/// ([`Layers::not_listed`]), and a `multiple-layers` finding says so.
pub const LISTED_LAYER_BYTES: usize = 1 << 20;

/// Bytes decoded per step, so that no working buffer grows with the input.
const CHUNK: usize = 64 * 1024;

/// The layers [`decode_until_stable`] peeled ([`Outcome::layers`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layers {
    /// How many layers of encoding were removed (0 when the input has no escapes).
    pub depth: usize,
    /// The intermediate layers listed, outermost first, as bytes: as many as fit in
    /// [`LISTED_LAYER_BYTES`] (the input itself and the final output are not included).
    pub layers: Vec<Vec<u8>>,
    /// Intermediate layers peeled but not listed, for want of room.
    pub not_listed: usize,
}

fn has_escape(bytes: &[u8]) -> bool {
    memchr::memchr_iter(b'%', bytes).any(|i| portable::escape_at(&bytes[i..]).is_some())
}

/// Decodes `input` again and again while the result still holds escapes, at most
/// [`MAX_LAYERS`] + 1 times; the last layer is read in the charset of `options`.
///
/// Whitespace is removed from the input only (per `options`); `+` handling applies to every
/// layer. The malformed escapes of the outer layer and the findings of the final decode are
/// kept, at most [`KEPT_FINDINGS`] in all and the rest counted, with offsets into `input`,
/// after a `multiple-layers` finding that gives the depth and says whether layers went
/// unlisted or escapes remain. Never fails; memory stays within a few times the input's
/// size plus [`LISTED_LAYER_BYTES`].
pub fn decode_until_stable(input: &[u8], options: &DecodeOptions) -> Outcome {
    peel_in_chunks(input, options, CHUNK)
}

/// [`decode_until_stable`], decoding `chunk` bytes per step.
fn peel_in_chunks(input: &[u8], options: &DecodeOptions, chunk: usize) -> Outcome {
    let mut layers: Vec<Vec<u8>> = Vec::new();
    let mut layers_not_listed = 0;
    let mut listed_bytes = 0;
    let mut outer = Diagnostics::with_limit(KEPT_FINDINGS);
    let mut current: Cow<[u8]> = Cow::Borrowed(input);
    let mut peeled = 0;
    while peeled < MAX_LAYERS {
        let first = peeled == 0;
        let strip = first && !options.keep_whitespace;
        let outer = first.then_some(&mut outer);
        let next = peel(&current, chunk, strip, options.plus_space, outer);
        if !has_escape(&next) {
            break;
        }
        if layers_not_listed == 0 && listed_bytes + next.len() <= LISTED_LAYER_BYTES {
            listed_bytes += next.len();
            layers.push(next.clone());
        } else {
            layers_not_listed += 1;
        }
        current = Cow::Owned(next);
        peeled += 1;
    }
    let mut last_options = options.clone();
    if peeled > 0 {
        last_options.keep_whitespace = true;
    } else {
        // Nothing peeled: the final decode reads the input itself and finds it all.
        outer = Diagnostics::with_limit(KEPT_FINDINGS);
    }
    let (output, mut last) = decode_chunked(&current, chunk, &last_options);
    let depth = if peeled > 0 {
        peeled + 1
    } else {
        usize::from(has_escape(input))
    };
    if peeled > 0 {
        carry_back(&mut last.diagnostics, input, chunk, options, peeled);
        // A malformed escape of the input that is still one at the end is reported once.
        let mut reported: Vec<u64> = outer.items().iter().map(|d| d.offset).collect();
        reported.sort_unstable();
        last.diagnostics.retain_map(|d| {
            d.code != Code::MalformedEscape || reported.binary_search(&d.offset).is_err()
        });
    }
    let mut diagnostics = Diagnostics::with_limit(KEPT_FINDINGS);
    if depth > 1 {
        let mut message = format!("the input was percent-encoded {depth} times");
        if peeled == MAX_LAYERS && has_escape(&output) {
            message.push_str(&format!(
                "; stopped after peeling {depth} layers: the output still holds escapes"
            ));
        } else {
            message.push_str("; peeled every layer");
        }
        if layers_not_listed > 0 {
            message.push_str(&format!(
                "; {layers_not_listed} intermediate layer(s) not listed (listed layers \
                 take at most {LISTED_LAYER_BYTES} bytes)"
            ));
        }
        diagnostics.push(Diagnostic::new(Code::MultipleLayers, 0, message));
    }
    diagnostics.append(outer);
    diagnostics.append(last.diagnostics);
    Outcome {
        output,
        diagnostics,
        layers: Some(Layers {
            depth,
            layers,
            not_listed: layers_not_listed,
        }),
        ..last
    }
}

/// One layer decoded, a chunk at a time. With `outer`, its malformed escapes are kept there
/// (offsets into `layer`); other findings are dropped as they come.
fn peel(
    layer: &[u8],
    chunk: usize,
    strip_whitespace: bool,
    plus_space: bool,
    mut outer: Option<&mut Diagnostics>,
) -> Vec<u8> {
    let mut decoder = PercentDecoder::new(strip_whitespace, plus_space, false);
    let mut next = Vec::with_capacity(layer.len());
    let mut findings = Diagnostics::new();
    let mut keep = |findings: &mut Diagnostics| {
        for finding in findings.take_items() {
            if let Some(outer) = outer.as_deref_mut() {
                if finding.code == Code::MalformedEscape {
                    outer.push(finding);
                }
            }
        }
    };
    for piece in layer.chunks(chunk) {
        decoder.decode(piece, &mut next, &mut findings);
        keep(&mut findings);
    }
    decoder.finish(&mut next, &mut findings);
    keep(&mut findings);
    next
}

/// The last decode of `layer`, lenient, fed a chunk at a time: its output and the rest
/// of what it found (the output of the returned [`Outcome`] is empty).
fn decode_chunked(layer: &[u8], chunk: usize, options: &DecodeOptions) -> (Vec<u8>, Outcome) {
    let mut codec = Codec::decoder(options);
    let mut output = Vec::with_capacity(layer.len());
    // A lenient codec never rejects.
    for piece in layer.chunks(chunk) {
        let _ = codec.feed(piece, &mut output);
    }
    let _ = codec.finish(&mut output);
    let finished = Outcome {
        output: Vec::new(),
        charset: codec.charset(),
        detection: codec.detection().cloned(),
        diagnostics: codec.diagnostics().clone(),
        layers: None,
    };
    (output, finished)
}

/// Rewrites the offsets of `findings`, which point into the layer `peeled` decodes deep,
/// to offsets into `input`, and drops the final decode's own `multiple-layers` finding
/// (the summary says it). The input is decoded again through `peeled` decoders chained a
/// chunk at a time, each output byte carrying the input offset it came from.
fn carry_back(
    findings: &mut Diagnostics,
    input: &[u8],
    chunk: usize,
    options: &DecodeOptions,
    peeled: usize,
) {
    let mut wanted: Vec<u64> = Vec::new();
    findings.retain_map(|d| {
        wanted.push(d.offset);
        true
    });
    wanted.sort_unstable();
    wanted.dedup();
    let found = input_offsets(input, chunk, options, peeled, &wanted);
    let end = input.len() as u64;
    findings.retain_map(|d| {
        if d.code == Code::MultipleLayers {
            return false;
        }
        d.offset = wanted
            .binary_search(&d.offset)
            .ok()
            .and_then(|i| found[i])
            .unwrap_or(end);
        true
    });
}

/// For each offset of `wanted` (sorted) into the layer `stages` decodes deep, the offset in
/// `input` of the byte it came from (`None` past the layer's end).
fn input_offsets(
    input: &[u8],
    chunk: usize,
    options: &DecodeOptions,
    stages: usize,
    wanted: &[u64],
) -> Vec<Option<u64>> {
    let mut found = vec![None; wanted.len()];
    if wanted.is_empty() {
        return found;
    }
    let mut chain: Vec<Stage> = (0..stages)
        .map(|k| Stage {
            decoder: PercentDecoder::new(
                k == 0 && !options.keep_whitespace,
                options.plus_space,
                false,
            ),
            first: 0,
            origins: Vec::new(),
        })
        .collect();
    let mut next_wanted = 0;
    let mut discard = Diagnostics::with_limit(0);
    let (mut feed, mut out, mut map) = (Vec::new(), Vec::new(), Vec::new());
    let pieces = input.chunks(chunk).map(Some).chain([None]);
    for piece in pieces {
        feed.clear();
        feed.extend_from_slice(piece.unwrap_or_default());
        for k in 0..stages {
            out.clear();
            map.clear();
            let (before, rest) = chain.split_at_mut(k);
            let stage = &mut rest[0];
            stage
                .decoder
                .decode_tracked(&feed, &mut out, &mut map, &mut discard);
            if piece.is_none() {
                stage
                    .decoder
                    .finish_tracked(&mut out, &mut map, &mut discard);
            }
            // `map` holds offsets into the previous layer: make them input offsets.
            if let Some(previous) = before.last() {
                for offset in map.iter_mut() {
                    *offset = previous.origin(*offset).unwrap_or(0);
                }
            }
            stage.remember(&map);
            std::mem::swap(&mut feed, &mut out);
        }
        let last = &chain[stages - 1];
        while let Some(&offset) = wanted.get(next_wanted) {
            match last.origin(offset) {
                Some(origin) => found[next_wanted] = Some(origin),
                None if offset >= last.first + last.origins.len() as u64 => break,
                None => {}
            }
            next_wanted += 1;
        }
    }
    found
}

/// A decoder of the chain in [`input_offsets`] and the input offsets of its latest output.
struct Stage {
    decoder: PercentDecoder,
    /// Offset in this stage's output of `origins[0]`.
    first: u64,
    /// Input offsets of this stage's output bytes from `first` on.
    origins: Vec<u64>,
}

/// Output bytes of a stage whose origins stay known after the next chunk: the next stage
/// refers back at most to the `%` and digit it held over (whitespace, which can come in
/// between, is removed only by the first stage, whose origins are the input's).
const HELD_OVER: usize = 8;

impl Stage {
    fn origin(&self, offset: u64) -> Option<u64> {
        let index = offset.checked_sub(self.first)?;
        self.origins.get(usize::try_from(index).ok()?).copied()
    }

    /// Adds the origins of the output just produced, keeping a few of the older ones.
    fn remember(&mut self, origins: &[u64]) {
        let drop = self.origins.len().saturating_sub(HELD_OVER);
        self.origins.drain(..drop);
        self.first += drop as u64;
        self.origins.extend_from_slice(origins);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CharsetChoice;
    use proptest::prelude::*;

    /// The plain way, as a reference: whole layers, a table of input offsets per byte.
    fn reference(input: &[u8], options: &DecodeOptions) -> (Vec<u8>, Vec<(Code, u64)>) {
        let mut map: Vec<u64> = (0..input.len() as u64).collect();
        let mut current = input.to_vec();
        let mut peeled = 0;
        while peeled < MAX_LAYERS {
            let strip = peeled == 0 && !options.keep_whitespace;
            let mut decoder = PercentDecoder::new(strip, options.plus_space, false);
            let (mut next, mut next_map) = (Vec::new(), Vec::new());
            let mut ignored = Diagnostics::new();
            decoder.decode_tracked(&current, &mut next, &mut next_map, &mut ignored);
            decoder.finish_tracked(&mut next, &mut next_map, &mut ignored);
            if !has_escape(&next) {
                break;
            }
            map = next_map.iter().map(|&at| map[at as usize]).collect();
            current = next;
            peeled += 1;
        }
        let mut last = options.clone();
        last.keep_whitespace |= peeled > 0;
        let outcome = super::super::decode(&current, &last);
        let mut findings: Vec<(Code, u64)> = outcome
            .diagnostics
            .iter()
            .filter(|d| d.code != Code::MultipleLayers)
            .map(|d| {
                let at = if peeled > 0 {
                    map.get(d.offset as usize)
                        .copied()
                        .unwrap_or(input.len() as u64)
                } else {
                    d.offset
                };
                (d.code, at)
            })
            .collect();
        findings.sort_unstable_by_key(|&(code, at)| (at, code.as_str()));
        (outcome.output, findings)
    }

    const PIECES: [&str; 14] = [
        "%25",
        "%2525",
        "%41",
        "%zz",
        "%",
        " ",
        "\n",
        "%C3",
        "%A9",
        "%E2%80%AE",
        "+",
        "a",
        "%2",
        "%252541",
    ];

    proptest! {
        #[test]
        fn findings_land_where_the_plain_way_puts_them(
            pieces in proptest::collection::vec(0..PIECES.len(), 0..200),
            plus_space in any::<bool>(),
            chunk in 1usize..40,
        ) {
            let input: String = pieces.iter().map(|&p| PIECES[p]).collect();
            let options = DecodeOptions { plus_space, ..DecodeOptions::default() };
            let (output, expected) = reference(input.as_bytes(), &options);
            let peeled = peel_in_chunks(input.as_bytes(), &options, chunk);
            prop_assert_eq!(&peeled.output, &output);
            let outer: Vec<u64> = {
                let mut outer = PercentDecoder::new(!options.keep_whitespace, plus_space, false);
                let mut findings = Diagnostics::new();
                outer.decode(input.as_bytes(), &mut Vec::new(), &mut findings);
                outer.finish(&mut Vec::new(), &mut findings);
                findings.into_vec().iter().filter(|d| d.code == Code::MalformedEscape).map(|d| d.offset).collect()
            };
            let mut found: Vec<(Code, u64)> = peeled
                            .diagnostics
                .items()
                .iter()
                .filter(|d| d.code != Code::MultipleLayers)
                .map(|d| (d.code, d.offset))
                .collect();
            found.sort_unstable_by_key(|&(code, at)| (at, code.as_str()));
            // The outer layer's malformed escapes come on top, once each.
            let mut expected = expected;
            if depth(&peeled) > 1 {
                expected.retain(|&(code, at)| code != Code::MalformedEscape || !outer.contains(&at));
                expected.extend(outer.iter().map(|&at| (Code::MalformedEscape, at)));
                expected.sort_unstable_by_key(|&(code, at)| (at, code.as_str()));
            }
            prop_assert_eq!(found, expected, "{:?}", input);
        }
    }

    fn depth(peeled: &Outcome) -> usize {
        peeled.layers.as_ref().map_or(0, |l| l.depth)
    }

    fn peel_all(input: &[u8]) -> Outcome {
        decode_until_stable(input, &DecodeOptions::default())
    }

    /// The offsets of the kept findings with `code`.
    fn offsets(peeled: &Outcome, code: Code) -> Vec<u64> {
        let items = peeled.diagnostics.items();
        items
            .iter()
            .filter(|d| d.code == code)
            .map(|d| d.offset)
            .collect()
    }

    #[test]
    fn nested_layers_are_peeled_and_listed() {
        let peeled = peel_all(b"%252541");
        assert_eq!(peeled.output, b"A");
        assert_eq!(depth(&peeled), 3);
        assert_eq!(
            peeled.layers.as_ref().unwrap().layers,
            vec![b"%2541".to_vec(), b"%41".to_vec()]
        );
        assert_eq!(peeled.layers.as_ref().unwrap().not_listed, 0);
        let summary = &peeled.diagnostics.items()[0];
        assert_eq!(summary.code, Code::MultipleLayers);
        assert!(summary.message.contains("3 times"), "{}", summary.message);
    }

    #[test]
    fn findings_of_the_last_layer_point_into_the_input() {
        // `%25FF` → `%FF` → byte 0xFF, invalid UTF-8: reported at the input's `%25`;
        // `%25zz` → `%zz`, malformed only in the last decode: at its `%25` too.
        let input = b"ab \n%25FF cd%2541%25zz";
        let peeled = peel_all(input);
        assert_eq!(depth(&peeled), 2);
        assert_eq!(offsets(&peeled, Code::InvalidSequence), [4]);
        assert_eq!(offsets(&peeled, Code::MalformedEscape), [17]);
    }

    #[test]
    fn a_malformed_escape_of_the_input_is_reported_once() {
        let peeled = peel_all(b"%zz%2541");
        assert_eq!(offsets(&peeled, Code::MalformedEscape), [0]);
        // `%%32%30`: the outer `%` is malformed, then part of an escape (`%20`).
        let peeled = peel_all(b"%%32%30");
        assert_eq!(peeled.output, b" ");
        assert_eq!(peeled.diagnostics.items()[1].code, Code::MalformedEscape);
    }

    #[test]
    fn offsets_are_carried_back_across_chunk_boundaries() {
        // Three layers; escapes, removed whitespace and findings at every position around
        // the chunk boundaries of the chain.
        let mut input = Vec::new();
        let mut expected = Vec::new();
        while input.len() < 3 * CHUNK {
            input.extend_from_slice(b"%252541");
            if input.len() % 7 == 0 {
                input.push(b' ');
            }
            if input.len() % 29 < 3 {
                expected.push(input.len() as u64);
                input.extend_from_slice(b"%2525C3");
            }
        }
        let peeled = peel_all(&input);
        assert_eq!(depth(&peeled), 3);
        let invalid = offsets(&peeled, Code::InvalidSequence);
        let first_difference = invalid.iter().zip(&expected).position(|(a, b)| a != b);
        assert_eq!(
            (invalid.len(), first_difference),
            (expected.len(), None),
            "{:?} {:?}",
            first_difference.map(|i| &invalid[i.saturating_sub(2)..i + 2]),
            first_difference.map(|i| &expected[i.saturating_sub(2)..i + 2]),
        );
    }

    #[test]
    fn layers_beyond_the_listing_budget_are_counted_and_said() {
        // Each layer is the previous one less two bytes: about 1.5 MB each.
        let mut input = b"%".to_vec();
        input.extend(b"25".repeat(750_000));
        input.extend_from_slice(b"41");
        let peeled = peel_all(&input);
        assert!(peeled.layers.as_ref().unwrap().layers.is_empty());
        assert_eq!(peeled.layers.as_ref().unwrap().not_listed, MAX_LAYERS);
        assert_eq!(depth(&peeled), MAX_LAYERS + 1);
        let summary = &peeled.diagnostics.items()[0];
        assert!(
            summary.message.contains("not listed"),
            "{}",
            summary.message
        );
        assert!(
            summary.message.contains("still holds escapes"),
            "{}",
            summary.message
        );
        let listed: usize = peel_all(b"%252541")
            .layers
            .unwrap()
            .layers
            .iter()
            .map(Vec::len)
            .sum();
        assert!(listed <= LISTED_LAYER_BYTES);
    }

    #[test]
    fn findings_are_capped_and_counted() {
        let input = b"%25FF".repeat(3 * KEPT_FINDINGS);
        let peeled = peel_all(&input);
        let diagnostics = &peeled.diagnostics;
        assert_eq!(diagnostics.items().len(), KEPT_FINDINGS);
        // The summary, then one invalid sequence per repetition.
        assert_eq!(
            diagnostics.items().len() as u64 + diagnostics.dropped(),
            1 + 3 * KEPT_FINDINGS as u64
        );
        assert_eq!(
            diagnostics.items()[KEPT_FINDINGS - 1].offset,
            5 * (KEPT_FINDINGS as u64 - 2)
        );
        assert_eq!(diagnostics.first_strict_error().map(|d| d.offset), Some(0));
    }

    #[test]
    fn input_without_escapes_is_decoded_once() {
        let options = DecodeOptions {
            charset: CharsetChoice::Auto,
            ..DecodeOptions::default()
        };
        let peeled = decode_until_stable(b"a b %zz", &options);
        assert_eq!(depth(&peeled), 0);
        assert_eq!(peeled.output, b"ab%zz");
        assert!(peeled.detection.is_some());
        assert_eq!(offsets(&peeled, Code::MalformedEscape), [4]);
    }
}
