//! 128-bit NEON kernels: `tbl` does the nibble-table lookups, and the interleaving loads
//! and stores (`ld3`/`st3`) take escapes apart and put them together three bytes a lane.
//!
//! Everything here is reached only through [`KERNELS`], which `available` hands out after
//! checking that the processor has NEON.

use super::super::raw::{commit, store_expanded};
use super::super::{needs_attention, portable, ByteClass, EscapeTable, Kernels, HIGH_NIBBLE_BITS};
use core::arch::aarch64::*;

pub(super) static KERNELS: Kernels = Kernels {
    name: "neon",
    first_member,
    escape,
    decode_span,
    decode_span_flagging: None,
};

fn first_member(input: &[u8], class: &ByteClass) -> usize {
    // SAFETY: `KERNELS` is handed out only when the processor has NEON.
    unsafe { find(input, class) }
}

fn escape(input: &[u8], table: &EscapeTable, out: &mut Vec<u8>) {
    // SAFETY: `KERNELS` is handed out only when the processor has NEON.
    unsafe { escape_neon(input, table, out) }
}

fn decode_span(input: &[u8], stops: &ByteClass, out: &mut Vec<u8>) -> usize {
    // SAFETY: `KERNELS` is handed out only when the processor has NEON.
    unsafe { decode_span_neon(input, stops, out) }
}

#[inline]
#[target_feature(enable = "neon")]
fn load(bytes: &[u8; 16]) -> uint8x16_t {
    // SAFETY: reads exactly the 16 bytes of `bytes`.
    unsafe { vld1q_u8(bytes.as_ptr()) }
}

#[inline]
#[target_feature(enable = "neon")]
fn load_at(input: &[u8], at: usize) -> uint8x16_t {
    let bytes: &[u8; 16] = input[at..at + 16].try_into().unwrap_or(&[0; 16]);
    load(bytes)
}

/// Three 16-byte vectors of bytes `at`, `at + 3`, …; `at + 1`, …; `at + 2`, ….
#[inline]
#[target_feature(enable = "neon")]
fn load3_at(input: &[u8], at: usize) -> uint8x16x3_t {
    let bytes: &[u8; 48] = input[at..at + 48].try_into().unwrap_or(&[0; 48]);
    // SAFETY: reads exactly the 48 bytes of `bytes`.
    unsafe { vld3q_u8(bytes.as_ptr()) }
}

/// # Safety
/// `out.len() + offset + 16 <= out.capacity()`.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn store(out: &mut Vec<u8>, offset: usize, v: uint8x16_t) {
    // SAFETY: the caller guarantees the 16 bytes lie inside the allocation.
    unsafe { vst1q_u8(out.as_mut_ptr().add(out.len() + offset), v) }
}

/// A nibble per lane (lane `i`: bits `4i..4i+4`), all ones where `mask`'s lane is set.
#[inline]
#[target_feature(enable = "neon")]
fn nibble_mask(mask: uint8x16_t) -> u64 {
    vget_lane_u64(
        vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(mask), 4)),
        0,
    )
}

/// All ones in the lanes of `v` whose byte is in the class.
#[inline]
#[target_feature(enable = "neon")]
fn members(v: uint8x16_t, low: uint8x16_t, high: uint8x16_t) -> uint8x16_t {
    let by_low = vqtbl1q_u8(low, vandq_u8(v, vdupq_n_u8(0x0F)));
    let by_high = vqtbl1q_u8(high, vshrq_n_u8(v, 4));
    vtstq_u8(by_low, by_high)
}

#[target_feature(enable = "neon")]
fn find(input: &[u8], class: &ByteClass) -> usize {
    let (low, high) = (load(&class.low), load(&HIGH_NIBBLE_BITS));
    let mut i = 0;
    while i + 16 <= input.len() {
        let found = members(load_at(input, i), low, high);
        let bits = nibble_mask(found);
        if bits != 0 {
            return i + bits.trailing_zeros() as usize / 4;
        }
        i += 16;
    }
    i + portable::first_member(&input[i..], class)
}

/// Writes `%HL` for each of the 16 bytes of `v` (48 bytes) at `out`'s end plus `offset`.
///
/// # Safety
/// `out.len() + offset + 48 <= out.capacity()`.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn store_escaped(out: &mut Vec<u8>, offset: usize, v: uint8x16_t, hex: uint8x16_t) {
    let triples = uint8x16x3_t(
        vdupq_n_u8(b'%'),
        vqtbl1q_u8(hex, vshrq_n_u8(v, 4)),
        vqtbl1q_u8(hex, vandq_u8(v, vdupq_n_u8(0x0F))),
    );
    // SAFETY: the caller guarantees room for 48 bytes.
    unsafe { vst3q_u8(out.as_mut_ptr().add(out.len() + offset), triples) }
}

#[target_feature(enable = "neon")]
fn escape_neon(input: &[u8], table: &EscapeTable, out: &mut Vec<u8>) {
    out.reserve(input.len() * 3 + 1);
    let keep = (load(&table.keep_class().low), load(&HIGH_NIBBLE_BITS));
    let plain = (load(&table.unescaped_class().low), keep.1);
    let hex = load(table.hex());
    let expansion = table.expansion();
    let mut written = 0;
    let mut i = 0;
    while i + 16 <= input.len() {
        let v = load_at(input, i);
        // Room for each branch: `written <= 3 * i`, and 3 * input.len() + 1 bytes were
        // reserved, so the 48 bytes a block can take fit.
        if vminvq_u8(members(v, keep.0, keep.1)) == 0xFF {
            // SAFETY: the block's output fits in the reserve (see above).
            unsafe { store(out, written, v) };
            written += 16;
        } else if vmaxvq_u8(members(v, plain.0, plain.1)) == 0 {
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

/// The values of hex digits, and all ones in the lanes that hold one.
#[inline]
#[target_feature(enable = "neon")]
fn hex_values(v: uint8x16_t) -> (uint8x16_t, uint8x16_t) {
    let digit = vsubq_u8(v, vdupq_n_u8(b'0'));
    let is_digit = vcleq_u8(digit, vdupq_n_u8(9));
    let letter = vsubq_u8(vorrq_u8(v, vdupq_n_u8(0x20)), vdupq_n_u8(b'a'));
    let is_letter = vcleq_u8(letter, vdupq_n_u8(5));
    let value = vbslq_u8(is_digit, digit, vaddq_u8(letter, vdupq_n_u8(10)));
    (value, vorrq_u8(is_digit, is_letter))
}

/// The 16 escapes that may start at `at`: how many are valid in a row, and their values.
#[inline]
#[target_feature(enable = "neon")]
fn escapes(input: &[u8], at: usize) -> (usize, uint8x16_t) {
    let parts = load3_at(input, at);
    let (high, high_ok) = hex_values(parts.1);
    let (low, low_ok) = hex_values(parts.2);
    let percent = vceqq_u8(parts.0, vdupq_n_u8(b'%'));
    let valid = vandq_u8(percent, vandq_u8(high_ok, low_ok));
    let count = (!nibble_mask(valid)).trailing_zeros() as usize / 4;
    (count, vorrq_u8(vshlq_n_u8(high, 4), low))
}

/// All ones in the lanes whose decoded byte needs attention (see `needs_attention`).
#[inline]
#[target_feature(enable = "neon")]
fn attention(values: uint8x16_t) -> uint8x16_t {
    let control = vcleq_u8(values, vdupq_n_u8(0x1F));
    let delete = vceqq_u8(values, vdupq_n_u8(0x7F));
    let percent = vceqq_u8(values, vdupq_n_u8(b'%'));
    let bidi_lead = vceqq_u8(values, vdupq_n_u8(0xE2));
    vorrq_u8(vorrq_u8(control, delete), vorrq_u8(percent, bidi_lead))
}

#[target_feature(enable = "neon")]
fn decode_span_neon(input: &[u8], stops: &ByteClass, out: &mut Vec<u8>) -> usize {
    out.reserve(input.len() + 16);
    let (low, high) = (load(&stops.low), load(&HIGH_NIBBLE_BITS));
    let mut written = 0;
    let mut i = 0;
    while i + 16 <= input.len() {
        let v = load_at(input, i);
        let stop = nibble_mask(members(v, low, high));
        // SAFETY: `written + 16 <= i + 16 <= input.len()`, within the reserve.
        unsafe { store(out, written, v) };
        if stop == 0 {
            written += 16;
            i += 16;
            continue;
        }
        let run = stop.trailing_zeros() as usize / 4;
        written += run;
        i += run;
        match input[i] {
            b'%' => loop {
                if input.get(i) != Some(&b'%') {
                    break;
                }
                if i + 48 > input.len() {
                    // Too near the end for a batch of sixteen escapes: one at a time, as
                    // the reference does, so every turn of the outer loop moves on.
                    match portable::escape_at(&input[i..]) {
                        Some(value) if !needs_attention(value) => {
                            // SAFETY: `written + 16 <= i + 16 <= input.len() + 16`, within
                            // the reserve.
                            unsafe { store(out, written, vdupq_n_u8(value)) };
                            written += 1;
                            i += 3;
                            continue;
                        }
                        _ => {
                            // SAFETY: every byte up to `written` was stored above.
                            unsafe { commit(out, written) };
                            return i;
                        }
                    }
                }
                let (found, values) = escapes(input, i);
                let flagged = nibble_mask(attention(values));
                let taken = found.min(flagged.trailing_zeros() as usize / 4);
                if taken == 0 {
                    // SAFETY: every byte up to `written` was stored above.
                    unsafe { commit(out, written) };
                    return i;
                }
                // SAFETY: `written + 16 <= i + 16 <= input.len()`, within the reserve.
                unsafe { store(out, written, values) };
                written += taken;
                i += 3 * taken;
                if taken < 16 {
                    break;
                }
            },
            b'+' => {
                // SAFETY: `written < i + 16`, within the reserve.
                unsafe { store(out, written, vdupq_n_u8(b' ')) };
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
