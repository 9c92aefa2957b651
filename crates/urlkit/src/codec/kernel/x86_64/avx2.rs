//! 256-bit kernels: AVX2 scans and copies 32 bytes at a time; escapes are decoded and
//! written with the 128-bit code, compiled here with AVX2 enabled.
//!
//! Everything here is reached only through [`KERNELS`], which `available` hands out after
//! checking that the processor has AVX2.

use super::super::raw::{commit, store_expanded};
use super::super::{portable, ByteClass, EscapeTable, Kernels, HIGH_NIBBLE_BITS};
use super::ssse3::{attention, escapes, load, load_at, store, store_escaped};
use core::arch::x86_64::*;

pub(super) static KERNELS: Kernels = Kernels {
    name: "avx2",
    first_member,
    escape,
    decode_span,
    decode_span_flagging: None,
};

pub(super) fn first_member(input: &[u8], class: &ByteClass) -> usize {
    // SAFETY: `KERNELS` is handed out only when the processor has AVX2.
    unsafe { find(input, class) }
}

pub(super) fn escape(input: &[u8], table: &EscapeTable, out: &mut Vec<u8>) {
    // SAFETY: `KERNELS` is handed out only when the processor has AVX2.
    unsafe { escape_avx2(input, table, out) }
}

pub(super) fn decode_span(input: &[u8], stops: &ByteClass, out: &mut Vec<u8>) -> usize {
    // SAFETY: `KERNELS` is handed out only when the processor has AVX2.
    unsafe { decode_span_avx2(input, stops, out) }
}

/// The 32 bytes of `input` from `at`; `at + 32 <= input.len()` is checked.
#[inline]
#[target_feature(enable = "avx2")]
fn load32_at(input: &[u8], at: usize) -> __m256i {
    let bytes: &[u8; 32] = input[at..at + 32].try_into().unwrap_or(&[0; 32]);
    // SAFETY: reads exactly the 32 bytes of `bytes`; no alignment is required.
    unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) }
}

/// Writes `v` at `out`'s end plus `offset`, without changing its length.
///
/// # Safety
/// `out.len() + offset + 32 <= out.capacity()`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn store32(out: &mut Vec<u8>, offset: usize, v: __m256i) {
    // SAFETY: the caller guarantees the 32 bytes lie inside the allocation.
    unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(out.len() + offset).cast(), v) }
}

/// The class's two lookup tables, in both lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn tables32(class: &ByteClass) -> (__m256i, __m256i) {
    (
        _mm256_broadcastsi128_si256(load(&class.low)),
        _mm256_broadcastsi128_si256(load(&HIGH_NIBBLE_BITS)),
    )
}

/// A bit per lane of `v` set when the byte is in the class.
#[inline]
#[target_feature(enable = "avx2")]
fn members32(v: __m256i, low: __m256i, high: __m256i) -> u32 {
    let nibble = _mm256_set1_epi8(0x0F);
    let by_low = _mm256_shuffle_epi8(low, _mm256_and_si256(v, nibble));
    let by_high = _mm256_shuffle_epi8(high, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble));
    let outside = _mm256_cmpeq_epi8(_mm256_and_si256(by_low, by_high), _mm256_setzero_si256());
    !(_mm256_movemask_epi8(outside) as u32)
}

#[target_feature(enable = "avx2")]
fn find(input: &[u8], class: &ByteClass) -> usize {
    let (low, high) = tables32(class);
    let mut i = 0;
    while i + 32 <= input.len() {
        let found = members32(load32_at(input, i), low, high);
        if found != 0 {
            return i + found.trailing_zeros() as usize;
        }
        i += 32;
    }
    i + portable::first_member(&input[i..], class)
}

#[target_feature(enable = "avx2")]
fn escape_avx2(input: &[u8], table: &EscapeTable, out: &mut Vec<u8>) {
    out.reserve(input.len() * 3 + 1);
    let (keep_low, keep_high) = tables32(table.keep_class());
    let (plain_low, plain_high) = tables32(table.unescaped_class());
    let hex = load(table.hex());
    let expansion = table.expansion();
    let mut written = 0;
    let mut i = 0;
    while i + 32 <= input.len() {
        let v = load32_at(input, i);
        // Room for each branch: `written <= 3 * i`, and 3 * input.len() + 1 bytes were
        // reserved, so the 96 bytes a block can take fit.
        if members32(v, keep_low, keep_high) == u32::MAX {
            // SAFETY: the block's output fits in the reserve (see above).
            unsafe { store32(out, written, v) };
            written += 32;
        } else if members32(v, plain_low, plain_high) == 0 {
            // SAFETY: the block's output fits in the reserve (see above).
            unsafe {
                store_escaped(out, written, _mm256_castsi256_si128(v), hex);
                store_escaped(out, written + 48, _mm256_extracti128_si256(v, 1), hex);
            }
            written += 96;
        } else {
            // SAFETY: the block's output fits in the reserve (see above).
            written = unsafe { store_expanded(out, written, &input[i..i + 32], expansion) };
        }
        i += 32;
    }
    // SAFETY: as above for the last bytes; then every byte up to `written` was written.
    unsafe {
        written = store_expanded(out, written, &input[i..], expansion);
        commit(out, written);
    }
}

/// Up to ten escapes from the 31 bytes at `at`: two 16-byte windows, at `at` and `at + 15`,
/// one per 128-bit lane. Returns how many are valid in a row and their values (lanes 0–4
/// of each half).
#[inline]
#[target_feature(enable = "avx2")]
fn escapes_pair(input: &[u8], at: usize) -> (usize, __m128i, __m128i) {
    let (first_count, first) = escapes(load_at(input, at));
    if first_count < 5 {
        return (first_count, first, first);
    }
    let (second_count, second) = escapes(load_at(input, at + 15));
    (5 + second_count, first, second)
}

#[target_feature(enable = "avx2")]
fn decode_span_avx2(input: &[u8], stops: &ByteClass, out: &mut Vec<u8>) -> usize {
    out.reserve(input.len() + 32);
    let (low, high) = tables32(stops);
    // Output bytes written past `out.len()`; never more than `i`.
    let mut written = 0;
    let mut i = 0;
    while i + 32 <= input.len() {
        let v = load32_at(input, i);
        let stop = members32(v, low, high);
        // SAFETY: `written + 32 <= i + 32 <= input.len()`, within the reserve.
        unsafe { store32(out, written, v) };
        if stop == 0 {
            written += 32;
            i += 32;
            continue;
        }
        let run = stop.trailing_zeros() as usize;
        written += run;
        i += run;
        match input[i] {
            b'%' => loop {
                // A full batch of escapes may be followed by anything.
                if i + 31 > input.len() || input[i] != b'%' {
                    break;
                }
                let (found, first, second) = escapes_pair(input, i);
                let flagged = (attention(first) & 0x1F | (attention(second) & 0x1F) << 5)
                    & ((1u32 << found) - 1);
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
                // SAFETY: `written + 21 <= i + 21 <= input.len()`, within the reserve.
                unsafe {
                    store(out, written, first);
                    if taken > 5 {
                        store(out, written + 5, second);
                    }
                }
                written += taken;
                i += 3 * taken;
                if taken < 10 {
                    break;
                }
            },
            b'+' => {
                // SAFETY: `written < i + 32`, within the reserve.
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
