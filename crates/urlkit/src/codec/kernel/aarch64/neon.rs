//! 128-bit NEON kernels: `tbl` does the nibble-table lookups and gathers the bytes a
//! decoded vector keeps, and the interleaving store (`st3`) puts escapes together three
//! bytes a lane, sixteen escapes at a time.
//!
//! Everything here is reached only through [`KERNELS`], which `available` hands out after
//! checking that the processor has NEON.

use super::super::generic::vector_kernels;
use super::super::vector::{kept_lanes_shuffle, lane_wise, Lanes, Vector};
use core::arch::aarch64::*;

vector_kernels!(name: "neon", vector: Neon, feature: "neon");

/// Sixteen bytes. Private to this module, which makes one only inside the functions of
/// `KERNELS`, compiled with NEON and called only when the processor has it: the ground on
/// which the methods below use NEON (see [`Vector`]).
#[derive(Clone, Copy)]
struct Neon(uint8x16_t);

/// Sixteen bytes as a vector.
#[inline(always)]
fn load(bytes: &[u8; 16]) -> uint8x16_t {
    // SAFETY: the processor has NEON (see [`Neon`]); reads exactly the 16 bytes of
    // `bytes`.
    unsafe { vld1q_u8(bytes.as_ptr()) }
}

// SAFETY: `Neon` is private to this module and made only where the processor has NEON
// (see the type).
unsafe impl Vector for Neon {
    const LANES: usize = 16;
    /// A nibble a lane, as `shrn` narrows a comparison.
    type Mask = Lanes<16, 4>;

    #[inline(always)]
    fn splat(byte: u8) -> Self {
        // SAFETY: the processor has NEON (see the type).
        Neon(unsafe { vdupq_n_u8(byte) })
    }

    #[inline(always)]
    fn table(entries: &[u8; 16]) -> Self {
        Neon(load(entries))
    }

    #[inline(always)]
    fn load_at(input: &[u8], at: usize) -> Self {
        let bytes: &[u8; 16] = input[at..at + 16].try_into().unwrap_or(&[0; 16]);
        Neon(load(bytes))
    }

    #[inline(always)]
    unsafe fn store(self, out: &mut Vec<u8>, offset: usize) {
        // SAFETY: the processor has NEON (see the type); the caller guarantees the 16
        // bytes lie inside the allocation.
        unsafe { vst1q_u8(out.as_mut_ptr().add(out.len() + offset), self.0) }
    }

    lane_wise! {
        and => vandq_u8,
        or => vorrq_u8,
        add => vaddq_u8,
        sub => vsubq_u8,
        eq => vceqq_u8,
        le => vcleq_u8,
        lookup => vqtbl1q_u8,
    }

    #[inline(always)]
    fn select(self, if_set: Self, otherwise: Self) -> Self {
        // SAFETY: the processor has NEON (see the type).
        Neon(unsafe { vbslq_u8(self.0, if_set.0, otherwise.0) })
    }

    #[inline(always)]
    fn low_nibbles(self) -> Self {
        self.and(Self::splat(0x0F))
    }

    #[inline(always)]
    fn high_nibbles(self) -> Self {
        // SAFETY: the processor has NEON (see the type).
        Neon(unsafe { vshrq_n_u8(self.0, 4) })
    }

    #[inline(always)]
    fn shift_left_4(self) -> Self {
        // SAFETY: the processor has NEON (see the type).
        Neon(unsafe { vshlq_n_u8(self.0, 4) })
    }

    #[inline(always)]
    fn mask(self) -> Self::Mask {
        // SAFETY: the processor has NEON (see the type).
        Lanes(unsafe {
            vget_lane_u64(
                vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(self.0), 4)),
                0,
            )
        })
    }

    #[inline(always)]
    fn common(self, other: Self) -> Self::Mask {
        // SAFETY: the processor has NEON (see the type).
        Neon(unsafe { vtstq_u8(self.0, other.0) }).mask()
    }

    #[inline(always)]
    unsafe fn store_escaped(out: &mut Vec<u8>, offset: usize, high: Self, low: Self) {
        let triples = uint8x16x3_t(Self::splat(b'%').0, high.0, low.0);
        // SAFETY: the processor has NEON (see the type); the caller guarantees room for
        // 48 bytes.
        unsafe { vst3q_u8(out.as_mut_ptr().add(out.len() + offset), triples) }
    }

    #[inline(always)]
    unsafe fn store_kept(self, keep: Self::Mask, out: &mut Vec<u8>, offset: usize) -> usize {
        let (indices, first_count, count) =
            kept_lanes_shuffle(lane_bits(keep.0 as u32), lane_bits((keep.0 >> 32) as u32));
        // SAFETY: the processor has NEON (see the type); `indices` is 16 bytes; the caller
        // guarantees room for 16 bytes at `offset`, and the second store of 8 starts at
        // most 8 on.
        unsafe {
            let gathered = vqtbl1q_u8(self.0, vld1q_u8(indices.as_ptr().cast()));
            let dst = out.as_mut_ptr().add(out.len() + offset);
            vst1_u8(dst, vget_low_u8(gathered));
            vst1_u8(dst.add(first_count), vget_high_u8(gathered));
        }
        count
    }
}

/// Eight lanes of a mask as a nibble a lane (as [`Vector::mask`] gives them) turned into a
/// bit a lane, lane `k` in bit `k` (for [`kept_lanes_shuffle`]).
#[inline(always)]
fn lane_bits(nibbles: u32) -> u8 {
    let bits = nibbles & 0x1111_1111;
    let pairs = (bits | bits >> 3) & 0x0303_0303;
    let quads = (pairs | pairs >> 6) & 0x000F_000F;
    (quads | quads >> 12) as u8
}
