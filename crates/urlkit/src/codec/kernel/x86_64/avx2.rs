//! 256-bit kernels: AVX2 scans, copies and decodes 32 bytes at a time; the bytes a decoded
//! vector keeps are gathered, and escapes written, with the 128-bit code of `ssse3`, a
//! half at a time.
//!
//! Everything here is reached only through [`KERNELS`], which `available` hands out after
//! checking that the processor has AVX2 and POPCNT (every processor with AVX2 has it; the
//! count of the bytes a decoded vector keeps is one instruction with it).

use super::super::generic::vector_kernels;
use super::super::vector::{lane_wise, Lanes, Vector};
use super::ssse3;
use core::arch::x86_64::*;

vector_kernels!(name: "avx2", vector: Avx2, feature: "avx2,popcnt");

/// 32 bytes. Private to this module, which makes one only inside the functions of
/// `KERNELS`, compiled with AVX2 and called only when the processor has it: the ground on
/// which the methods below use AVX2 (see [`Vector`]). AVX2 implies SSSE3.
#[derive(Clone, Copy)]
struct Avx2(__m256i);

/// Sixteen bytes as a vector.
#[inline(always)]
fn load16(bytes: &[u8; 16]) -> __m128i {
    // SAFETY: reads exactly the 16 bytes of `bytes`; no alignment is required.
    unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) }
}

// SAFETY: `Avx2` is private to this module and made only where the processor has AVX2
// (see the type).
unsafe impl Vector for Avx2 {
    const LANES: usize = 32;
    type Mask = Lanes<32, 1>;

    #[inline(always)]
    fn splat(byte: u8) -> Self {
        // SAFETY: the processor has AVX2 (see the type).
        Avx2(unsafe { _mm256_set1_epi8(byte as i8) })
    }

    #[inline(always)]
    fn table(entries: &[u8; 16]) -> Self {
        // SAFETY: the processor has AVX2 (see the type).
        Avx2(unsafe { _mm256_broadcastsi128_si256(load16(entries)) })
    }

    #[inline(always)]
    fn load_at(input: &[u8], at: usize) -> Self {
        let bytes: &[u8; 32] = input[at..at + 32].try_into().unwrap_or(&[0; 32]);
        // SAFETY: the processor has AVX2 (see the type); reads exactly the 32 bytes of
        // `bytes`, with no alignment required.
        Avx2(unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) })
    }

    #[inline(always)]
    unsafe fn store(self, out: &mut Vec<u8>, offset: usize) {
        // SAFETY: the processor has AVX2 (see the type); the caller guarantees the 32
        // bytes lie inside the allocation.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(out.len() + offset).cast(), self.0) }
    }

    lane_wise! {
        and => _mm256_and_si256,
        or => _mm256_or_si256,
        add => _mm256_add_epi8,
        sub => _mm256_sub_epi8,
        eq => _mm256_cmpeq_epi8,
        lookup => _mm256_shuffle_epi8,
    }

    #[inline(always)]
    fn le(self, other: Self) -> Self {
        // SAFETY: the processor has AVX2 (see the type).
        Avx2(unsafe { _mm256_cmpeq_epi8(_mm256_min_epu8(self.0, other.0), self.0) })
    }

    #[inline(always)]
    fn select(self, if_set: Self, otherwise: Self) -> Self {
        // SAFETY: the processor has AVX2 (see the type).
        Avx2(unsafe { _mm256_blendv_epi8(otherwise.0, if_set.0, self.0) })
    }

    #[inline(always)]
    fn low_nibbles(self) -> Self {
        self.and(Self::splat(0x0F))
    }

    #[inline(always)]
    fn high_nibbles(self) -> Self {
        // SAFETY: the processor has AVX2 (see the type).
        Avx2(unsafe { _mm256_srli_epi16(self.0, 4) }).and(Self::splat(0x0F))
    }

    #[inline(always)]
    fn shift_left_4(self) -> Self {
        // SAFETY: the processor has AVX2 (see the type).
        Avx2(unsafe { _mm256_slli_epi16(self.0, 4) }).and(Self::splat(0xF0))
    }

    #[inline(always)]
    fn mask(self) -> Self::Mask {
        // SAFETY: the processor has AVX2 (see the type).
        Lanes(unsafe { _mm256_movemask_epi8(self.0) } as u32 as u64)
    }

    #[inline(always)]
    fn common(self, other: Self) -> Self::Mask {
        Lanes(!self.and(other).eq(Self::splat(0)).mask().0 & 0xFFFF_FFFF)
    }

    #[inline(always)]
    unsafe fn store_escaped(out: &mut Vec<u8>, offset: usize, high: Self, low: Self) {
        // SAFETY: the processor has AVX2, hence SSSE3 (see the type); the caller guarantees
        // room for the 96 bytes, 48 from each half.
        unsafe {
            let (high_first, low_first) = (
                _mm256_castsi256_si128(high.0),
                _mm256_castsi256_si128(low.0),
            );
            ssse3::store_escaped(out, offset, high_first, low_first);
            let (high_second, low_second) = (
                _mm256_extracti128_si256(high.0, 1),
                _mm256_extracti128_si256(low.0, 1),
            );
            ssse3::store_escaped(out, offset + 48, high_second, low_second);
        }
    }

    #[inline(always)]
    unsafe fn store_kept(self, keep: Self::Mask, out: &mut Vec<u8>, offset: usize) -> usize {
        // SAFETY: the processor has AVX2, hence SSSE3 (see the type); the caller guarantees
        // room for 32 bytes at `offset`, and the second half's 16 start at most 16 on.
        unsafe {
            let dst = out.as_mut_ptr().add(out.len() + offset);
            let first = ssse3::store_kept(_mm256_castsi256_si128(self.0), keep.0, dst);
            let second = _mm256_extracti128_si256(self.0, 1);
            first + ssse3::store_kept(second, keep.0 >> 16, dst.add(first))
        }
    }
}
