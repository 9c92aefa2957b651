//! The operations the vector kernels are written in: a [`Vector`] of bytes and a [`Mask`]
//! of its lanes, implemented once per instruction set (`x86_64::ssse3`, `x86_64::avx2`,
//! `aarch64::neon`). The algorithms themselves are in `generic`, written once over this
//! trait.

/// One vector of bytes (lanes) of an instruction set, with what the kernels do to it.
///
/// Everything is `#[inline(always)]`, so the generic bodies and these methods all fold
/// into the `#[target_feature]` function of the instruction-set module that instantiates
/// them, which is what lets the intrinsics inline.
///
/// # Safety
///
/// The methods are safe to call, but use instructions the processor may lack. An
/// implementation keeps that sound by being private to its instruction-set module, which
/// uses it only inside functions compiled for that instruction set and reached only after
/// the processor was found to support it (the module's `KERNELS`, handed out by
/// `available`). No other code can name the type, so no other code can make a value of it
/// or call its methods.
pub(super) unsafe trait Vector: Copy {
    /// Bytes in a vector.
    const LANES: usize;
    /// A bit set per lane, as comparisons give it.
    type Mask: Mask;

    /// `byte` in every lane.
    fn splat(byte: u8) -> Self;
    /// A 16-entry table for [`lookup`](Vector::lookup), in every 128-bit part of a wider
    /// vector.
    fn table(entries: &[u8; 16]) -> Self;
    /// The [`LANES`](Vector::LANES) bytes of `input` from `at`; `at + LANES <=
    /// input.len()` is checked.
    fn load_at(input: &[u8], at: usize) -> Self;
    /// Writes the vector at `out`'s spare capacity plus `offset`, without changing its
    /// length.
    ///
    /// # Safety
    /// `out.len() + offset + LANES <= out.capacity()`.
    unsafe fn store(self, out: &mut Vec<u8>, offset: usize);

    /// Bitwise and.
    fn and(self, other: Self) -> Self;
    /// Bitwise or.
    fn or(self, other: Self) -> Self;
    /// Lane-wise wrapping addition.
    fn add(self, other: Self) -> Self;
    /// Lane-wise wrapping subtraction.
    fn sub(self, other: Self) -> Self;
    /// All ones in the lanes where the two are equal, zero elsewhere.
    fn eq(self, other: Self) -> Self;
    /// All ones in the lanes where `self <= other` (unsigned), zero elsewhere.
    fn le(self, other: Self) -> Self;
    /// `if_set` in the lanes where `self` is all ones, `otherwise` where it is zero.
    fn select(self, if_set: Self, otherwise: Self) -> Self;
    /// Each byte's low four bits.
    fn low_nibbles(self) -> Self;
    /// Each byte shifted right by four.
    fn high_nibbles(self) -> Self;
    /// Each byte shifted left by four.
    fn shift_left_4(self) -> Self;
    /// Lane `i` of `self` (a [`table`](Vector::table)) at the index in lane `i` of
    /// `indices`, which must be below 16.
    fn lookup(self, indices: Self) -> Self;

    /// The lanes that are all ones (the others must be zero).
    fn mask(self) -> Self::Mask;
    /// The lanes where `self` and `other` have a bit set in common.
    fn common(self, other: Self) -> Self::Mask;

    /// Writes `%`, lane `i` of `high` and lane `i` of `low` for every lane `i`
    /// (`3 * LANES` bytes) at `out`'s spare capacity plus `offset`.
    ///
    /// # Safety
    /// `out.len() + offset + 3 * LANES <= out.capacity()`.
    unsafe fn store_escaped(out: &mut Vec<u8>, offset: usize, high: Self, low: Self);

    /// Writes the lanes of `self` set in `keep`, in order, at `out`'s spare capacity
    /// plus `offset`, possibly with bytes after them; returns how many it kept.
    ///
    /// # Safety
    /// `out.len() + offset + LANES <= out.capacity()`.
    unsafe fn store_kept(self, keep: Self::Mask, out: &mut Vec<u8>, offset: usize) -> usize;
}

/// Implements [`Vector`] methods that are one intrinsic on two vectors (`and => vandq_u8`),
/// for a vector type wrapping its instruction set's vector as field `.0`.
macro_rules! lane_wise {
    ($($method:ident => $intrinsic:ident),* $(,)?) => {
        $(
            #[inline(always)]
            fn $method(self, other: Self) -> Self {
                // SAFETY: a value of the implementing type exists only where the processor
                // has its instruction set (see `Vector`).
                Self(unsafe { $intrinsic(self.0, other.0) })
            }
        )*
    };
}
pub(super) use lane_wise;

/// The lanes of a vector picked out by a comparison.
pub(super) trait Mask: Copy {
    /// Whether any lane is set.
    fn any(self) -> bool;
    /// Whether every lane is set.
    fn all(self) -> bool;
    /// The first lane set; at least the number of lanes when none is.
    fn first(self) -> usize;
    /// How many lanes are set.
    fn count(self) -> usize;
    /// The first `count` lanes (every lane when `count` is the number of lanes or more).
    fn first_lanes(count: usize) -> Self;
    /// The lanes set in both.
    fn and(self, other: Self) -> Self;
    /// The lanes set in either.
    fn or(self, other: Self) -> Self;
    /// The lanes set in `self` and not in `other`.
    fn without(self, other: Self) -> Self;
    /// Every lane moved `by` lanes on (lane `k` to lane `k + by`), those moved past the
    /// last dropped.
    fn later(self, by: usize) -> Self;
    /// Every lane moved `by` lanes back (lane `k` to lane `k - by`), those moved before
    /// the first dropped.
    fn earlier(self, by: usize) -> Self;
}

/// A mask as the bits of an integer, `STRIDE` bits a lane (all set or all clear), lane 0
/// lowest, for a vector of `LANES` lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Lanes<const LANES: u32, const STRIDE: u32>(pub(super) u64);

impl<const LANES: u32, const STRIDE: u32> Lanes<LANES, STRIDE> {
    /// Every lane set.
    const FULL: u64 = if LANES * STRIDE >= 64 {
        u64::MAX
    } else {
        (1 << (LANES * STRIDE)) - 1
    };
}

impl<const LANES: u32, const STRIDE: u32> Mask for Lanes<LANES, STRIDE> {
    #[inline(always)]
    fn any(self) -> bool {
        self.0 != 0
    }

    #[inline(always)]
    fn all(self) -> bool {
        self.0 == Self::FULL
    }

    #[inline(always)]
    fn first(self) -> usize {
        (self.0.trailing_zeros() / STRIDE) as usize
    }

    #[inline(always)]
    fn count(self) -> usize {
        (self.0.count_ones() / STRIDE) as usize
    }

    #[inline(always)]
    fn first_lanes(count: usize) -> Self {
        if count >= LANES as usize {
            Lanes(Self::FULL)
        } else {
            Lanes((1 << (count as u32 * STRIDE)) - 1)
        }
    }

    #[inline(always)]
    fn and(self, other: Self) -> Self {
        Lanes(self.0 & other.0)
    }

    #[inline(always)]
    fn or(self, other: Self) -> Self {
        Lanes(self.0 | other.0)
    }

    #[inline(always)]
    fn without(self, other: Self) -> Self {
        Lanes(self.0 & !other.0)
    }

    #[inline(always)]
    fn later(self, by: usize) -> Self {
        Lanes(self.0 << (by as u32 * STRIDE) & Self::FULL)
    }

    #[inline(always)]
    fn earlier(self, by: usize) -> Self {
        Lanes(self.0 >> (by as u32 * STRIDE))
    }
}

/// How a 16-byte vector's kept lanes are gathered (for [`Vector::store_kept`]): `first`
/// and `second` are the lanes kept of its first and second eight (bit `k` for lane `k`
/// of each). Returns the 16 shuffle indices, as two `u64`s from the lowest byte, that
/// gather each half's kept lanes to the start of that half, how many the first half keeps
/// (where the second half's are to be written) and how many both keep.
#[inline(always)]
pub(super) fn kept_lanes_shuffle(first: u8, second: u8) -> ([u64; 2], usize, usize) {
    let first_count = first.count_ones() as usize;
    // The second half's indices point into the vector's upper eight bytes.
    let indices = [
        KEPT_LANES[usize::from(first)],
        KEPT_LANES[usize::from(second)] | 0x0808_0808_0808_0808,
    ];
    (
        indices,
        first_count,
        first_count + second.count_ones() as usize,
    )
}

/// For each set of eight lanes to keep (bit `k` for lane `k`): the indices of the kept
/// lanes in order, as the bytes of a `u64` from the lowest, then `0x80` (a shuffle index
/// that gives zero).
static KEPT_LANES: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut keep = 0;
    while keep < 256 {
        let mut indices = [0x80u8; 8];
        let (mut lane, mut kept) = (0, 0);
        while lane < 8 {
            if keep >> lane & 1 == 1 {
                indices[kept] = lane as u8;
                kept += 1;
            }
            lane += 1;
        }
        table[keep] = u64::from_le_bytes(indices);
        keep += 1;
    }
    table
};
