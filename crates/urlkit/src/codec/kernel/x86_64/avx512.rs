//! 512-bit decoding with AVX-512 (BW, VBMI, VBMI2): a whole 64-byte block of literals and
//! escapes is decoded without a branch per token, the escape digits and removed whitespace
//! squeezed out with one byte compress. Scanning and escaping are the AVX2 kernels.
//!
//! Everything here is reached only through [`KERNELS`], which `available` hands out after
//! checking that the processor has AVX-512 F, BW, VBMI and VBMI2, POPCNT and AVX2.

use super::super::raw::commit;
use super::super::{hex_value, ByteClass, Kernels, HIGH_NIBBLE_BITS};
use super::avx2;
use core::arch::x86_64::*;

pub(super) static KERNELS: Kernels = Kernels {
    name: "avx512",
    first_member: avx2::first_member,
    escape: avx2::escape,
    decode_span,
    decode_span_flagging: Some(decode_span_flagging),
    decode_span_quiet: Some(decode_span_quiet),
    decode_span_lenient: Some(decode_span_lenient),
};

fn decode_span(input: &[u8], stops: &ByteClass, out: &mut Vec<u8>) -> usize {
    // SAFETY: `KERNELS` is handed out only when the processor has the features enabled
    // on `decode_span_avx512` (and AVX2, for the tail).
    let taken = unsafe {
        decode_span_avx512::<false, false, false, false>(input, stops, out, &mut Vec::new())
    };
    if taken + 66 > input.len() && taken < input.len() {
        taken + avx2::decode_span(&input[taken..], stops, out)
    } else {
        taken
    }
}

fn decode_span_flagging(
    input: &[u8],
    stops: &ByteClass,
    out: &mut Vec<u8>,
    flagged: &mut Vec<usize>,
) -> usize {
    if stops.low == PERCENT_ONLY.low {
        decode_span_attending::<true, true>(input, stops, out, flagged)
    } else {
        decode_span_attending::<true, false>(input, stops, out, flagged)
    }
}

fn decode_span_quiet(input: &[u8], stops: &ByteClass, out: &mut Vec<u8>) -> usize {
    if stops.low == PERCENT_ONLY.low {
        decode_span_attending::<false, true>(input, stops, out, &mut Vec::new())
    } else {
        decode_span_attending::<false, false>(input, stops, out, &mut Vec::new())
    }
}

/// [`decode_span_flagging`], and with `NOTE` false the same without noting the escapes
/// that need attention (`flagged` is left alone); `PERCENT` when `stops` is
/// [`PERCENT_ONLY`].
#[inline(always)]
fn decode_span_attending<const NOTE: bool, const PERCENT: bool>(
    input: &[u8],
    stops: &ByteClass,
    out: &mut Vec<u8>,
    flagged: &mut Vec<usize>,
) -> usize {
    // SAFETY: `KERNELS` is handed out only when the processor has the features enabled
    // on `decode_span_avx512`.
    let taken =
        unsafe { decode_span_avx512::<true, NOTE, false, PERCENT>(input, stops, out, flagged) };
    if taken + 66 > input.len() && taken < input.len() {
        // The last bytes (fewer than 66) in blocks of their own, followed by `%`s: a `%`
        // without two hex digits after it ends the decoding, so it stops where the input
        // does, or before an escape the input cuts short, as it stops inside the input.
        debug_assert!(stops.contains(b'%'), "every stop class holds `%`");
        let rest = &input[taken..];
        let mut padded = [b'%'; TAIL_ROOM];
        padded[..rest.len()].copy_from_slice(rest);
        let before = flagged.len();
        // SAFETY: as above.
        let tail = unsafe {
            decode_span_avx512::<true, NOTE, false, PERCENT>(&padded, stops, out, flagged)
        };
        debug_assert!(tail <= rest.len());
        for position in &mut flagged[before..] {
            *position += taken;
        }
        taken + tail
    } else {
        taken
    }
}

fn decode_span_lenient(
    input: &[u8],
    stops: &ByteClass,
    out: &mut Vec<u8>,
    kept: &mut Vec<usize>,
) -> usize {
    if stops.low == PERCENT_ONLY.low {
        decode_span_lenient_with::<true>(input, stops, out, kept)
    } else {
        decode_span_lenient_with::<false>(input, stops, out, kept)
    }
}

/// The class of the decoder that stops only at `%` (no `+` for a space, no whitespace to
/// remove): the class of runs of plain entries, whose blocks [`decode_span_avx512`] reads
/// with one compare.
const PERCENT_ONLY: ByteClass = ByteClass::from_bits(1 << b'%');

/// [`decode_span_lenient`], with `PERCENT` when `stops` is [`PERCENT_ONLY`].
#[inline(always)]
fn decode_span_lenient_with<const PERCENT: bool>(
    input: &[u8],
    stops: &ByteClass,
    out: &mut Vec<u8>,
    kept: &mut Vec<usize>,
) -> usize {
    // SAFETY: `KERNELS` is handed out only when the processor has the features enabled
    // on `decode_span_avx512`.
    let taken = unsafe { decode_span_avx512::<true, true, true, PERCENT>(input, stops, out, kept) };
    if taken < input.len() {
        // The last bytes (fewer than 66) in a block of their own, followed by bytes that
        // are neither stops nor hex digits: each is copied as it is, after everything the
        // input's own bytes decode to (an escape the input cuts short is no escape), and
        // is then taken off the output again.
        debug_assert!(!stops.contains(TAIL_FILLER) && hex_value(TAIL_FILLER).is_none());
        let rest = &input[taken..];
        let mut padded = [TAIL_FILLER; TAIL_ROOM];
        padded[..rest.len()].copy_from_slice(rest);
        // One block with the two bytes after it when that holds the rest, else two.
        let blocks = if rest.len() <= 64 { 66 } else { TAIL_ROOM };
        let before = kept.len();
        // SAFETY: as above.
        let tail = unsafe {
            decode_span_avx512::<true, true, true, PERCENT>(&padded[..blocks], stops, out, kept)
        };
        debug_assert!(tail >= rest.len());
        out.truncate(out.len() - (tail - rest.len()));
        for position in &mut kept[before..] {
            *position += taken;
        }
    }
    input.len()
}

/// What [`decode_span_lenient`] pads the last bytes of its input with.
const TAIL_FILLER: u8 = b'g';

/// Room for the last bytes of an input (fewer than 66) and the `%`s after them: enough for
/// [`decode_span_avx512`] to read two whole blocks and the two bytes after them.
const TAIL_ROOM: usize = 2 * 64 + 2;

/// The 64 bytes of `input` from `at`; `at + 64 <= input.len()` is checked.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn load64_at(input: &[u8], at: usize) -> __m512i {
    let bytes: &[u8; 64] = input[at..at + 64].try_into().unwrap_or(&[0; 64]);
    // SAFETY: reads exactly the 64 bytes of `bytes`; no alignment is required.
    unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
}

/// Which bytes of `v` are hex digits, and each one's value (the low nibble of the others
/// is meaningless).
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn hex_digits(v: __m512i) -> (u64, __m512i) {
    let digit = _mm512_sub_epi8(v, _mm512_set1_epi8(b'0' as i8));
    let is_digit = _mm512_cmple_epu8_mask(digit, _mm512_set1_epi8(9));
    let letter = _mm512_sub_epi8(
        _mm512_or_si512(v, _mm512_set1_epi8(0x20)),
        _mm512_set1_epi8(b'a' as i8),
    );
    let is_letter = _mm512_cmple_epu8_mask(letter, _mm512_set1_epi8(5));
    let nibbles = _mm512_and_si512(
        _mm512_mask_blend_epi8(
            is_letter,
            digit,
            _mm512_add_epi8(letter, _mm512_set1_epi8(10)),
        ),
        _mm512_set1_epi8(0x0F),
    );
    (is_digit | is_letter, nibbles)
}

/// Decodes whole 64-byte blocks while each has something to decode; returns the input
/// taken. Stops (returning what it took so far) before a byte the state machine must
/// see, and leaves the last bytes (fewer than 66) to the caller. An escape in the last two
/// bytes of a block is decoded with its digits from the next one, which that block then
/// skips: blocks follow one another every 64 bytes, with no branch on where the escapes
/// fall. With `FLAG`, escapes needing attention are decoded too, and with `NOTE` as well
/// their offsets appended to `flagged`. With `LENIENT` (and `FLAG`) nothing stops it: a
/// `%` without two hex digits after it is copied as it is, and with `NOTE` its offset
/// is what is appended to `flagged` (those of escapes that need attention are not).
/// `PERCENT_ONLY` says that `stops` is [`PERCENT_ONLY`]: each block's stops are then its
/// `%` bytes, found with one compare instead of the class's two lookups.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt")]
fn decode_span_avx512<
    const FLAG: bool,
    const NOTE: bool,
    const LENIENT: bool,
    const PERCENT_ONLY: bool,
>(
    input: &[u8],
    stops: &ByteClass,
    out: &mut Vec<u8>,
    flagged: &mut Vec<usize>,
) -> usize {
    out.reserve(input.len() + 64);
    let low = _mm512_broadcast_i32x4(load16(&stops.low));
    let high = _mm512_broadcast_i32x4(load16(&HIGH_NIBBLE_BITS));
    let nibble = _mm512_set1_epi8(0x0F);
    // SAFETY: `reserve` above made room for `input.len() + 64` bytes past `out.len()`.
    let dst = unsafe { out.as_mut_ptr().add(out.len()) };
    let store = |written: usize, block: __m512i| {
        // SAFETY: `written` never passes the input taken, which stays within
        // `input.len()`, and a block is 64 bytes: within the reserved room.
        unsafe { _mm512_storeu_si512(dst.add(written).cast(), block) }
    };
    // Flagged offsets are written in place, without a call in the loop (a call there would
    // make the compiler keep the block's vectors on the stack, and read them back through
    // masked loads that wait for the stores). Each is a `%` with two hex digits, all
    // three inside the input and in no other escape: at most a third of the input's bytes.
    if NOTE {
        // A `%` copied as it is (`LENIENT`) may be any byte of the input.
        flagged.reserve(if LENIENT {
            input.len()
        } else {
            input.len() / 3 + 1
        });
    }
    let mut noted_count = flagged.len();
    let noted_room = flagged.capacity();
    let noted_dst = flagged.as_mut_ptr();
    let mut written = 0;
    let mut i = 0;
    // The first bytes of this block that are the digits of an escape the block before
    // decoded (bit 0, or bits 0 and 1).
    let mut carried: u64 = 0;
    while i + 66 <= input.len() {
        let v = load64_at(input, i);
        let (percent, plus, removed) = if PERCENT_ONLY {
            (
                _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b'%' as i8)),
                0,
                0,
            )
        } else {
            let by_low = _mm512_shuffle_epi8(low, _mm512_and_si512(v, nibble));
            let by_high =
                _mm512_shuffle_epi8(high, _mm512_and_si512(_mm512_srli_epi16(v, 4), nibble));
            let stop = _mm512_test_epi8_mask(by_low, by_high);
            let percent = stop & _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b'%' as i8));
            let plus = stop & _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b'+' as i8));
            (percent, plus, stop & !percent & !plus)
        };
        if percent == 0 {
            // Whitespace to drop and `+` to turn into spaces, no escape.
            let decoded = _mm512_mask_mov_epi8(v, plus, _mm512_set1_epi8(b' ' as i8));
            let keep = !(removed | carried);
            store(written, _mm512_maskz_compress_epi8(keep, decoded));
            written += keep.count_ones() as usize;
            carried = 0;
            i += 64;
            continue;
        }

        // The bytes one and two places further on, reaching into the next block.
        let (hex_next, nibbles_next) = hex_digits(load64_at(input, i + 1));
        let (hex_after_next, nibbles_after_next) = hex_digits(load64_at(input, i + 2));
        // An escape starts at bit `k` when `%` is followed by two hex digits.
        let valid = percent & hex_next & hex_after_next;
        let values = _mm512_or_si512(_mm512_slli_epi16(nibbles_next, 4), nibbles_after_next);
        let control = _mm512_cmple_epu8_mask(values, _mm512_set1_epi8(0x1F));
        let delete = _mm512_cmpeq_epi8_mask(values, _mm512_set1_epi8(0x7F));
        let second_layer = _mm512_cmpeq_epi8_mask(values, _mm512_set1_epi8(b'%' as i8));
        let bidi_lead = _mm512_cmpeq_epi8_mask(values, _mm512_set1_epi8(0xE2u8 as i8));
        let attention = valid & (control | delete | second_layer | bidi_lead);
        // The block ends before the first `%` the state machine must see: malformed, or
        // decoding to a byte that needs attention.
        let problems = if LENIENT {
            0
        } else if FLAG {
            percent & !valid
        } else {
            (percent & !valid) | attention
        };
        let cut = problems.trailing_zeros() as usize;
        // Carried bytes are hex digits, never a `%`: a block that carries goes on past them.
        debug_assert!(cut >= carried.count_ones() as usize);
        if cut == 0 {
            break;
        }
        let inside = if cut == 64 {
            u64::MAX
        } else {
            (1u64 << cut) - 1
        };
        if NOTE {
            let mut noted = if LENIENT {
                percent & !valid
            } else {
                attention & inside
            };
            while noted != 0 {
                debug_assert!(noted_count < noted_room);
                // SAFETY: fewer offsets than the room reserved above are written (see
                // there), each once, below the length set after the loop.
                unsafe {
                    noted_dst
                        .add(noted_count)
                        .write(i + noted.trailing_zeros() as usize)
                };
                noted_count += 1;
                noted &= noted - 1;
            }
        }
        let keep = inside & !((valid << 1) | (valid << 2) | removed | carried);
        let decoded = _mm512_mask_blend_epi8(valid, v, values);
        let decoded = _mm512_mask_mov_epi8(decoded, plus, _mm512_set1_epi8(b' ' as i8));
        store(written, _mm512_maskz_compress_epi8(keep, decoded));
        written += keep.count_ones() as usize;
        if cut < 64 {
            // A `%` whose escape is inside the block never needs digits from the next.
            i += cut;
            carried = 0;
            break;
        }
        // An escape at bit 62 takes the next block's first byte, one at 63 its first two.
        carried = (valid >> 62) | (valid >> 63);
        i += 64;
    }
    // The digits the last block took from beyond it are taken too.
    i += carried.count_ones() as usize;
    // SAFETY: every byte up to `written` was stored above.
    unsafe { commit(out, written) };
    // SAFETY: every offset up to `noted_count` was written above (none without `NOTE`).
    unsafe { flagged.set_len(noted_count) };
    i
}

#[inline]
#[target_feature(enable = "avx512f")]
fn load16(bytes: &[u8; 16]) -> __m128i {
    // SAFETY: reads exactly the 16 bytes of `bytes`; no alignment is required.
    unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) }
}
