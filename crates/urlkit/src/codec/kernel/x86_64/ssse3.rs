//! 128-bit kernels: SSE2 plus SSSE3's `pshufb`, which does the nibble-table lookups,
//! gathers the bytes a decoded vector keeps, and puts escapes together.
//!
//! Everything here is reached only through [`KERNELS`], which `available` hands out after
//! checking that the processor has SSSE3.

use super::super::generic::vector_kernels;
use super::super::vector::{kept_lanes_shuffle, lane_wise, Lanes, Vector};
use core::arch::x86_64::*;

vector_kernels!(name: "ssse3", vector: Ssse3, feature: "ssse3");

/// Sixteen bytes. Private to this module, which makes one only inside the functions of
/// `KERNELS`, compiled with SSSE3 and called only when the processor has it: the ground on
/// which the methods below use SSSE3 (see [`Vector`]).
#[derive(Clone, Copy)]
struct Ssse3(__m128i);

/// Sixteen bytes as a vector.
#[inline(always)]
fn load(bytes: &[u8; 16]) -> __m128i {
    // SAFETY: reads exactly the 16 bytes of `bytes`; no alignment is required.
    unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) }
}

/// Writes the bytes of `v` whose bits are set in `keep` (bit `k` for byte `k`, bits 16
/// and up ignored), in order, at `dst`, possibly with bytes after them up to `dst + 16`;
/// returns how many it kept. Both halves are gathered by one shuffle (see
/// [`kept_lanes_shuffle`]), the second written where the first's kept bytes end.
///
/// # Safety
/// The processor has SSSE3, and the 16 bytes from `dst` may be written.
#[inline(always)]
pub(super) unsafe fn store_kept(v: __m128i, keep: u64, dst: *mut u8) -> usize {
    let (indices, first_count, count) = kept_lanes_shuffle(keep as u8, (keep >> 8) as u8);
    // SAFETY: the caller guarantees SSSE3 and room for 16 bytes from `dst`; the second
    // store starts at most 8 bytes on.
    unsafe {
        let gathered = _mm_shuffle_epi8(v, _mm_loadu_si128(indices.as_ptr().cast()));
        _mm_storel_epi64(dst.cast(), gathered);
        _mm_storel_epi64(
            dst.add(first_count).cast(),
            _mm_unpackhi_epi64(gathered, gathered),
        );
    }
    count
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

/// Writes the 48 bytes `%HL` × 16 for the digits in `high` and `low` at `out`'s end plus
/// `offset` (see [`Vector::store_escaped`]).
///
/// # Safety
/// The processor has SSSE3, and `out.len() + offset + 48 <= out.capacity()`.
#[inline(always)]
pub(super) unsafe fn store_escaped(out: &mut Vec<u8>, offset: usize, high: __m128i, low: __m128i) {
    // SAFETY: SSE2 is part of x86-64.
    let (first, second) = unsafe { (_mm_unpacklo_epi8(high, low), _mm_unpackhi_epi8(high, low)) };
    for part in 0..3 {
        // SAFETY: the caller guarantees SSSE3.
        let v = unsafe {
            _mm_or_si128(
                _mm_or_si128(
                    _mm_shuffle_epi8(first, load(&SHUFFLES[2 * part])),
                    _mm_shuffle_epi8(second, load(&SHUFFLES[2 * part + 1])),
                ),
                load(&PERCENTS[part]),
            )
        };
        // SAFETY: the caller guarantees room for 48 bytes.
        unsafe {
            _mm_storeu_si128(
                out.as_mut_ptr().add(out.len() + offset + 16 * part).cast(),
                v,
            )
        }
    }
}

// SAFETY: `Ssse3` is private to this module and made only where the processor has SSSE3
// (see the type); SSE2 is part of x86-64.
unsafe impl Vector for Ssse3 {
    const LANES: usize = 16;
    type Mask = Lanes<16, 1>;

    #[inline(always)]
    fn splat(byte: u8) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        Ssse3(unsafe { _mm_set1_epi8(byte as i8) })
    }

    #[inline(always)]
    fn table(entries: &[u8; 16]) -> Self {
        Ssse3(load(entries))
    }

    #[inline(always)]
    fn load_at(input: &[u8], at: usize) -> Self {
        let bytes: &[u8; 16] = input[at..at + 16].try_into().unwrap_or(&[0; 16]);
        Ssse3(load(bytes))
    }

    #[inline(always)]
    unsafe fn store(self, out: &mut Vec<u8>, offset: usize) {
        // SAFETY: the caller guarantees the 16 bytes lie inside the allocation.
        unsafe { _mm_storeu_si128(out.as_mut_ptr().add(out.len() + offset).cast(), self.0) }
    }

    lane_wise! {
        and => _mm_and_si128,
        or => _mm_or_si128,
        add => _mm_add_epi8,
        sub => _mm_sub_epi8,
        eq => _mm_cmpeq_epi8,
        lookup => _mm_shuffle_epi8,
    }

    #[inline(always)]
    fn le(self, other: Self) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        Ssse3(unsafe { _mm_cmpeq_epi8(_mm_min_epu8(self.0, other.0), self.0) })
    }

    #[inline(always)]
    fn select(self, if_set: Self, otherwise: Self) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        Ssse3(unsafe {
            _mm_or_si128(
                _mm_and_si128(self.0, if_set.0),
                _mm_andnot_si128(self.0, otherwise.0),
            )
        })
    }

    #[inline(always)]
    fn low_nibbles(self) -> Self {
        self.and(Self::splat(0x0F))
    }

    #[inline(always)]
    fn high_nibbles(self) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        Ssse3(unsafe { _mm_srli_epi16(self.0, 4) }).and(Self::splat(0x0F))
    }

    #[inline(always)]
    fn shift_left_4(self) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        Ssse3(unsafe { _mm_slli_epi16(self.0, 4) }).and(Self::splat(0xF0))
    }

    #[inline(always)]
    fn mask(self) -> Self::Mask {
        // SAFETY: SSE2 is part of x86-64.
        Lanes(unsafe { _mm_movemask_epi8(self.0) } as u32 as u64)
    }

    #[inline(always)]
    fn common(self, other: Self) -> Self::Mask {
        Lanes(!self.and(other).eq(Self::splat(0)).mask().0 & 0xFFFF)
    }

    #[inline(always)]
    unsafe fn store_escaped(out: &mut Vec<u8>, offset: usize, high: Self, low: Self) {
        // SAFETY: the processor has SSSE3 (see the type); the caller guarantees the room.
        unsafe { store_escaped(out, offset, high.0, low.0) }
    }

    #[inline(always)]
    unsafe fn store_kept(self, keep: Self::Mask, out: &mut Vec<u8>, offset: usize) -> usize {
        // SAFETY: the processor has SSSE3 (see the type); the caller guarantees room for
        // 16 bytes at `offset`.
        unsafe { store_kept(self.0, keep.0, out.as_mut_ptr().add(out.len() + offset)) }
    }
}
