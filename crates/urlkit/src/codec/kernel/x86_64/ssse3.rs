//! 128-bit kernels: SSE2 plus SSSE3's `pshufb`, which does the nibble-table lookups.
//!
//! Everything here is reached only through [`KERNELS`], which `available` hands out after
//! checking that the processor has SSSE3.

use super::super::raw::{commit, store_expanded};
use super::super::{needs_attention, portable, ByteClass, EscapeTable, Kernels, HIGH_NIBBLE_BITS};
use core::arch::x86_64::*;

pub(super) static KERNELS: Kernels = Kernels {
    name: "ssse3",
    first_member,
    escape,
    decode_span,
    decode_span_flagging: None,
};

fn first_member(input: &[u8], class: &ByteClass) -> usize {
    // SAFETY: `KERNELS` is handed out only when the processor has SSSE3.
    unsafe { find(input, class) }
}

fn escape(input: &[u8], table: &EscapeTable, out: &mut Vec<u8>) {
    // SAFETY: `KERNELS` is handed out only when the processor has SSSE3.
    unsafe { escape_ssse3(input, table, out) }
}

fn decode_span(input: &[u8], stops: &ByteClass, out: &mut Vec<u8>) -> usize {
    // SAFETY: `KERNELS` is handed out only when the processor has SSSE3.
    unsafe { decode_span_ssse3(input, stops, out) }
}

/// Sixteen bytes as a vector.
#[inline]
#[target_feature(enable = "sse2")]
pub(super) fn load(bytes: &[u8; 16]) -> __m128i {
    // SAFETY: reads exactly the 16 bytes of `bytes`; no alignment is required.
    unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) }
}

/// The sixteen bytes of `input` from `at`; `at + 16 <= input.len()` is checked.
#[inline]
#[target_feature(enable = "sse2")]
pub(super) fn load_at(input: &[u8], at: usize) -> __m128i {
    let bytes: &[u8; 16] = input[at..at + 16].try_into().unwrap_or(&[0; 16]);
    load(bytes)
}

/// Writes `v` at `out`'s spare capacity plus `offset`, without changing its length.
///
/// # Safety
/// `out.len() + offset + 16 <= out.capacity()`.
#[inline]
#[target_feature(enable = "sse2")]
pub(super) unsafe fn store(out: &mut Vec<u8>, offset: usize, v: __m128i) {
    // SAFETY: the caller guarantees the 16 bytes lie inside the allocation.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().add(out.len() + offset).cast(), v) }
}

/// The class's two lookup tables.
#[inline]
#[target_feature(enable = "sse2")]
pub(super) fn tables(class: &ByteClass) -> (__m128i, __m128i) {
    (load(&class.low), load(&HIGH_NIBBLE_BITS))
}

/// A bit per lane of `v` (bit `i`: lane `i`) set when the byte is in the class.
#[inline]
#[target_feature(enable = "ssse3")]
pub(super) fn members(v: __m128i, low: __m128i, high: __m128i) -> u32 {
    let nibble = _mm_set1_epi8(0x0F);
    let by_low = _mm_shuffle_epi8(low, _mm_and_si128(v, nibble));
    let by_high = _mm_shuffle_epi8(high, _mm_and_si128(_mm_srli_epi16(v, 4), nibble));
    let outside = _mm_cmpeq_epi8(_mm_and_si128(by_low, by_high), _mm_setzero_si128());
    !(_mm_movemask_epi8(outside) as u32) & 0xFFFF
}

#[target_feature(enable = "ssse3")]
fn find(input: &[u8], class: &ByteClass) -> usize {
    let (low, high) = tables(class);
    let mut i = 0;
    while i + 16 <= input.len() {
        let found = members(load_at(input, i), low, high);
        if found != 0 {
            return i + found.trailing_zeros() as usize;
        }
        i += 16;
    }
    i + portable::first_member(&input[i..], class)
}

/// Shuffle indices placing the hex digit pairs of 16 bytes (`H0 L0 H1 L1 …`, pairs 0–7 in
/// the first vector, 8–15 in the second) into output vector `part` of `%HL%HL…`; lanes
/// taken from the other vector or holding `%` are 0x80 (zero).
const fn escape_shuffle(part: usize, second: bool) -> [u8; 16] {
    let mut indices = [0x80u8; 16];
    let mut lane = 0;
    while lane < 16 {
        let position = part * 16 + lane;
        if !position.is_multiple_of(3) {
            let pair = position / 3;
            if (pair >= 8) == second {
                indices[lane] = (2 * (pair % 8) + position % 3 - 1) as u8;
            }
        }
        lane += 1;
    }
    indices
}

/// `%` in the lanes of output vector `part` that hold one.
const fn percent_lanes(part: usize) -> [u8; 16] {
    let mut lanes = [0u8; 16];
    let mut lane = 0;
    while lane < 16 {
        if (part * 16 + lane).is_multiple_of(3) {
            lanes[lane] = b'%';
        }
        lane += 1;
    }
    lanes
}

const SHUFFLES: [[u8; 16]; 6] = [
    escape_shuffle(0, false),
    escape_shuffle(0, true),
    escape_shuffle(1, false),
    escape_shuffle(1, true),
    escape_shuffle(2, false),
    escape_shuffle(2, true),
];
const PERCENTS: [[u8; 16]; 3] = [percent_lanes(0), percent_lanes(1), percent_lanes(2)];

/// Writes the 48 bytes `%HL` × 16 for the bytes of `v` at `out`'s end plus `offset`.
///
/// # Safety
/// `out.len() + offset + 48 <= out.capacity()`.
#[inline]
#[target_feature(enable = "ssse3")]
pub(super) unsafe fn store_escaped(out: &mut Vec<u8>, offset: usize, v: __m128i, hex: __m128i) {
    let nibble = _mm_set1_epi8(0x0F);
    let high = _mm_shuffle_epi8(hex, _mm_and_si128(_mm_srli_epi16(v, 4), nibble));
    let low = _mm_shuffle_epi8(hex, _mm_and_si128(v, nibble));
    let first = _mm_unpacklo_epi8(high, low);
    let second = _mm_unpackhi_epi8(high, low);
    for part in 0..3 {
        let v = _mm_or_si128(
            _mm_or_si128(
                _mm_shuffle_epi8(first, load(&SHUFFLES[2 * part])),
                _mm_shuffle_epi8(second, load(&SHUFFLES[2 * part + 1])),
            ),
            load(&PERCENTS[part]),
        );
        // SAFETY: the caller guarantees room for 48 bytes.
        unsafe { store(out, offset + 16 * part, v) };
    }
}

#[target_feature(enable = "ssse3")]
fn escape_ssse3(input: &[u8], table: &EscapeTable, out: &mut Vec<u8>) {
    out.reserve(input.len() * 3 + 1);
    let (keep_low, keep_high) = tables(table.keep_class());
    let (plain_low, plain_high) = tables(table.unescaped_class());
    let hex = load(table.hex());
    let expansion = table.expansion();
    let mut written = 0;
    let mut i = 0;
    while i + 16 <= input.len() {
        let v = load_at(input, i);
        // SAFETY (all three branches): `written <= 3 * i`, and 3 * input.len() + 1 bytes
        // were reserved, so the 48 bytes a block can take fit.
        if members(v, keep_low, keep_high) == 0xFFFF {
            // SAFETY: the block's output fits in the reserve (see above).
            unsafe { store(out, written, v) };
            written += 16;
        } else if members(v, plain_low, plain_high) == 0 {
            // SAFETY: the block's output fits in the reserve (see above).
            unsafe { store_escaped(out, written, v, hex) };
            written += 48;
        } else {
            // SAFETY: the block's output fits in the reserve (see above).
            written = unsafe { store_expanded(out, written, &input[i..i + 16], expansion) };
        }
        i += 16;
    }
    // SAFETY: as above for the last bytes; then every byte up to `written` was written.
    unsafe {
        written = store_expanded(out, written, &input[i..], expansion);
        commit(out, written);
    }
}

/// Decodes the escapes of a 16-byte window that starts with one: how many of the five
/// possible escapes (`%XX` at lanes 0, 3, 6, 9, 12) are valid in a row, and their values
/// in the first lanes.
#[inline]
#[target_feature(enable = "ssse3")]
pub(super) fn escapes(v: __m128i) -> (usize, __m128i) {
    let digit = _mm_sub_epi8(v, _mm_set1_epi8(b'0' as i8));
    let is_digit = _mm_cmpeq_epi8(_mm_min_epu8(digit, _mm_set1_epi8(9)), digit);
    let letter = _mm_sub_epi8(
        _mm_or_si128(v, _mm_set1_epi8(0x20)),
        _mm_set1_epi8(b'a' as i8),
    );
    let is_letter = _mm_cmpeq_epi8(_mm_min_epu8(letter, _mm_set1_epi8(5)), letter);
    let value = _mm_or_si128(
        _mm_and_si128(is_digit, digit),
        _mm_and_si128(is_letter, _mm_add_epi8(letter, _mm_set1_epi8(10))),
    );
    let hex = _mm_movemask_epi8(_mm_or_si128(is_digit, is_letter)) as u32;
    let percent = _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'%' as i8))) as u32;
    let valid = percent & (hex >> 1) & (hex >> 2);
    let in_order =
        (valid & 1) | (valid >> 2 & 2) | (valid >> 4 & 4) | (valid >> 6 & 8) | (valid >> 8 & 16);
    let count = (!in_order).trailing_zeros() as usize;
    let high = _mm_shuffle_epi8(
        value,
        _mm_setr_epi8(
            1, 4, 7, 10, 13, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        ),
    );
    let low = _mm_shuffle_epi8(
        value,
        _mm_setr_epi8(
            2, 5, 8, 11, 14, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        ),
    );
    (count, _mm_or_si128(_mm_slli_epi16(high, 4), low))
}

/// A bit per lane set when the decoded byte [needs attention](needs_attention).
#[inline]
#[target_feature(enable = "sse2")]
pub(super) fn attention(values: __m128i) -> u32 {
    let control = _mm_cmpeq_epi8(_mm_min_epu8(values, _mm_set1_epi8(0x1F)), values);
    let delete = _mm_cmpeq_epi8(values, _mm_set1_epi8(0x7F));
    let percent = _mm_cmpeq_epi8(values, _mm_set1_epi8(b'%' as i8));
    let bidi_lead = _mm_cmpeq_epi8(values, _mm_set1_epi8(0xE2u8 as i8));
    debug_assert!(needs_attention(0xE2));
    _mm_movemask_epi8(_mm_or_si128(
        _mm_or_si128(control, delete),
        _mm_or_si128(percent, bidi_lead),
    )) as u32
}

#[target_feature(enable = "ssse3")]
fn decode_span_ssse3(input: &[u8], stops: &ByteClass, out: &mut Vec<u8>) -> usize {
    out.reserve(input.len() + 16);
    let (low, high) = tables(stops);
    // Output bytes written past `out.len()`; never more than `i`.
    let mut written = 0;
    let mut i = 0;
    while i + 16 <= input.len() {
        let v = load_at(input, i);
        let stop = members(v, low, high);
        // SAFETY: `written + 16 <= i + 16 <= input.len()`, within the reserve.
        unsafe { store(out, written, v) };
        if stop == 0 {
            written += 16;
            i += 16;
            continue;
        }
        let run = stop.trailing_zeros() as usize;
        written += run;
        i += run;
        match input[i] {
            b'%' => loop {
                // A full batch of escapes may be followed by anything.
                if i + 16 > input.len() || input[i] != b'%' {
                    break;
                }
                let (found, values) = escapes(load_at(input, i));
                let mask = (1u32 << found) - 1;
                let flagged = attention(values) & mask;
                let taken = if flagged != 0 {
                    flagged.trailing_zeros() as usize
                } else {
                    found
                };
                if taken == 0 {
                    // SAFETY: every byte up to `written` was stored above.
                    unsafe { commit(out, written) };
                    return i;
                }
                // SAFETY: `written + 16 <= i + 16 <= input.len()`, within the reserve.
                unsafe { store(out, written, values) };
                written += taken;
                i += 3 * taken;
                if taken < 5 {
                    break;
                }
            },
            b'+' => {
                // SAFETY: `written < i + 16`, within the reserve.
                unsafe { store(out, written, _mm_set1_epi8(b' ' as i8)) };
                written += 1;
                i += 1;
            }
            _ => i += 1,
        }
    }
    // SAFETY: every byte up to `written` was stored above.
    unsafe { commit(out, written) };
    i + portable::decode_span(&input[i..], stops, out)
}
