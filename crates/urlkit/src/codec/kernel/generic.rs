//! The vector kernels, written once over [`Vector`]: finding the first byte of a class,
//! escaping, and decoding a span of literals and escapes.
//!
//! Each function is `#[inline(always)]` and does nothing on its own: an instruction-set
//! module instantiates it with its vector type inside a `#[target_feature]` function (with
//! [`vector_kernels!`]), and the whole body is compiled there, for that instruction set.

use super::raw::{commit, store_expanded};
use super::vector::{Mask, Vector};
use super::{needs_attention, ByteClass, EscapeTable, HIGH_NIBBLE_BITS};

/// A [`ByteClass`] as two vector tables.
#[derive(Clone, Copy)]
struct Lookup<V> {
    low: V,
    high: V,
}

impl<V: Vector> Lookup<V> {
    #[inline(always)]
    fn new(class: &ByteClass) -> Self {
        Lookup {
            low: V::table(&class.low),
            high: V::table(&HIGH_NIBBLE_BITS),
        }
    }

    /// The lanes of `v` whose byte is in the class.
    #[inline(always)]
    fn members(self, v: V) -> V::Mask {
        let by_low = self.low.lookup(v.low_nibbles());
        let by_high = self.high.lookup(v.high_nibbles());
        by_low.common(by_high)
    }
}

/// The index of the first byte of `input` in `class`, or the input's length.
///
/// The last bytes, fewer than a vector, are looked at with vector loads too: the input's
/// last vector again (its lanes already looked at ignored), or, in an input shorter than
/// a vector, a copy on the stack whose lanes past the input are ignored.
#[inline(always)]
pub(super) fn first_member<V: Vector>(input: &[u8], class: &ByteClass) -> usize {
    let lookup = Lookup::<V>::new(class);
    let mut i = 0;
    while i + V::LANES <= input.len() {
        let found = lookup.members(V::load_at(input, i));
        if found.any() {
            return i + found.first();
        }
        i += V::LANES;
    }
    if i == input.len() {
        return i;
    }
    let (start, found) = if let Some(last) = input.len().checked_sub(V::LANES) {
        let seen = V::Mask::first_lanes(i - last);
        (last, lookup.members(V::load_at(input, last)).without(seen))
    } else {
        const { assert!(V::LANES <= TAIL_ROOM) };
        let mut copy = [0; TAIL_ROOM];
        copy_short(input, &mut copy);
        let inside = V::Mask::first_lanes(input.len());
        (0, lookup.members(V::load_at(&copy, 0)).and(inside))
    };
    if found.any() {
        start + found.first()
    } else {
        input.len()
    }
}

/// Appends `input` to `out` escaped by `table`, a vector at a time: copied when every
/// byte is kept, written as `%HL` from the hex table when none is, else byte by byte from
/// the table's expansion.
#[inline(always)]
pub(super) fn escape<V: Vector>(input: &[u8], table: &EscapeTable, out: &mut Vec<u8>) {
    out.reserve(input.len() * 3 + 1);
    let keep = Lookup::<V>::new(table.keep_class());
    let plain = Lookup::<V>::new(table.unescaped_class());
    let hex = V::table(table.hex());
    let expansion = table.expansion();
    let mut written = 0;
    let mut i = 0;
    while i + V::LANES <= input.len() {
        let v = V::load_at(input, i);
        // Room for each branch: `written <= 3 * i`, and 3 * input.len() + 1 bytes were
        // reserved, so the `3 * LANES` bytes a block can take fit.
        if keep.members(v).all() {
            // SAFETY: the block's output fits in the reserve (see above).
            unsafe { v.store(out, written) };
            written += V::LANES;
        } else if !plain.members(v).any() {
            let high = hex.lookup(v.high_nibbles());
            let low = hex.lookup(v.low_nibbles());
            // SAFETY: the block's output fits in the reserve (see above).
            unsafe { V::store_escaped(out, written, high, low) };
            written += 3 * V::LANES;
        } else {
            let block = &input[i..i + V::LANES];
            // SAFETY: the block's output fits in the reserve (see above).
            written = unsafe { store_expanded(out, written, block, expansion) };
        }
        i += V::LANES;
    }
    // SAFETY: as above for the last bytes; then every byte up to `written` was written.
    unsafe {
        written = store_expanded(out, written, &input[i..], expansion);
        commit(out, written);
    }
}

/// The values of the hex digits in `v`, and all ones in the lanes that hold one (the
/// value in the other lanes is meaningless).
#[inline(always)]
fn hex_values<V: Vector>(v: V) -> (V, V) {
    let digit = v.sub(V::splat(b'0'));
    let is_digit = digit.le(V::splat(9));
    let letter = v.or(V::splat(0x20)).sub(V::splat(b'a'));
    let is_letter = letter.le(V::splat(5));
    let value = is_digit.select(digit, letter.add(V::splat(10)));
    (value, is_digit.or(is_letter))
}

/// All ones in the lanes whose decoded byte [needs attention](needs_attention).
#[inline(always)]
fn attention<V: Vector>(values: V) -> V {
    debug_assert!(needs_attention(0xE2) && needs_attention(0x7F) && needs_attention(0x1F));
    let control = values.le(V::splat(0x1F));
    let delete = values.eq(V::splat(0x7F));
    let percent = values.eq(V::splat(b'%'));
    let bidi_lead = values.eq(V::splat(0xE2));
    control.or(delete).or(percent.or(bidi_lead))
}

/// Room for the last bytes of an input, fewer than a vector and two, and the `%` padding
/// after them that lets [`decode_span`] finish them with vector loads (see
/// [`span_blocks`]).
const TAIL_ROOM: usize = 128;

/// [`Kernels::decode_span`](super::Kernels::decode_span): a vector of input at a time,
/// copied as it is when it holds no byte of `stops`, else decoded whole, without a branch
/// per escape (see [`span_blocks`]); stops where the reference stops.
///
/// The last bytes of the input, fewer than a vector and two, are copied into a buffer on
/// the stack with `%` bytes after them and decoded there by the same loop: `%` never
/// continues an escape (it is not a hex digit), so the loop stops at the padding at the
/// latest, exactly where the reference stops at the input's end, and a short input (a
/// column's row, the span between two findings) never goes byte by byte.
#[inline(always)]
pub(super) fn decode_span<V: Vector>(input: &[u8], stops: &ByteClass, out: &mut Vec<u8>) -> usize {
    debug_assert!(stops.contains(b'%'), "the padding must stop the loop");
    let lookup = Lookup::<V>::new(stops);
    let i = match span_blocks::<V>(input, lookup, out) {
        Ok(i) => i,
        Err(stopped) => return stopped,
    };
    let rest = &input[i..];
    if rest.is_empty() {
        return i;
    }
    // Room for the loop to load a vector and the two bytes after it at any byte of the
    // rest and at the first byte of the padding.
    const { assert!(2 * (V::LANES + 2) <= TAIL_ROOM) };
    let mut padded = [b'%'; TAIL_ROOM];
    copy_short(rest, &mut padded);
    let taken = match span_blocks::<V>(&padded, lookup, out) {
        Ok(taken) | Err(taken) => taken,
    };
    debug_assert!(taken <= rest.len());
    i + taken
}

/// Copies `from`, fewer than 64 bytes, to the start of `to` with two copies of a fixed
/// size that overlap (the first and the last bytes), which compile to a few moves where a
/// copy of any length is a call.
#[inline(always)]
fn copy_short(from: &[u8], to: &mut [u8; TAIL_ROOM]) {
    #[inline(always)]
    fn ends<const N: usize>(from: &[u8], to: &mut [u8; TAIL_ROOM]) {
        let last = from.len() - N;
        let (head, tail): ([u8; N], [u8; N]) = (
            from[..N].try_into().unwrap(),
            from[last..].try_into().unwrap(),
        );
        to[..N].copy_from_slice(&head);
        to[last..last + N].copy_from_slice(&tail);
    }
    match from.len() {
        32..64 => ends::<32>(from, to),
        16..32 => ends::<16>(from, to),
        8..16 => ends::<8>(from, to),
        4..8 => ends::<4>(from, to),
        length => to[..length].copy_from_slice(from),
    }
}

/// The loop of [`decode_span`] over whole vectors of `input`: `Err` with the offset where
/// it stopped before a byte it leaves to the caller, or `Ok` with the offset of the last
/// bytes, fewer than a vector and two, that it did not reach.
///
/// A vector with no byte of `stops` is copied as it is. Any other is decoded whole: the
/// escapes in it (a `%` and two hex digits, read from the vectors one and two bytes on, so
/// an escape in the last two lanes takes its digits from beyond the vector) replaced by
/// their values, `+` by a space when `stops` holds it, the other bytes of `stops` and the
/// escapes' digits dropped, and the lanes kept written one after the other
/// ([`Vector::store_kept`]). It ends before the first `%` that does not start a valid
/// escape or whose value needs attention. Vectors follow one another every `LANES` bytes
/// with no branch on where the escapes fall: the digits an escape took from beyond its
/// vector are dropped from the next.
#[inline(always)]
fn span_blocks<V: Vector>(
    input: &[u8],
    lookup: Lookup<V>,
    out: &mut Vec<u8>,
) -> Result<usize, usize> {
    out.reserve(input.len() + V::LANES);
    // Output bytes written past `out.len()`; never more than `i`.
    let mut written = 0;
    let mut i = 0;
    // The first lanes of this vector that are the digits of an escape the vector before
    // decoded (lane 0, or lanes 0 and 1).
    let mut carried = V::Mask::first_lanes(0);
    while i + V::LANES + 2 <= input.len() {
        let v = V::load_at(input, i);
        let stop = lookup.members(v);
        if !stop.or(carried).any() {
            // SAFETY: `written + LANES <= i + LANES <= input.len()`, within the reserve.
            unsafe { v.store(out, written) };
            written += V::LANES;
            i += V::LANES;
            continue;
        }
        if stop.count() == 1 && !carried.any() {
            let at = stop.first();
            if !matches!(input[i + at], b'%' | b'+') {
                // One byte to drop (a line break): the bytes before it are copied, and the
                // next vector starts after it.
                // SAFETY: `written + LANES <= i + LANES <= input.len()`, within the reserve.
                unsafe { v.store(out, written) };
                written += at;
                i += at + 1;
                continue;
            }
        }
        let is_percent = v.eq(V::splat(b'%'));
        let percent = stop.and(is_percent.mask());
        let is_plus = v.eq(V::splat(b'+'));
        let plus = stop.and(is_plus.mask());
        let dropped = stop.without(percent).without(plus);
        let spaces = if plus.any() {
            is_plus.select(V::splat(b' '), v)
        } else {
            v
        };
        if !percent.any() {
            // Whitespace to drop, `+` to turn into spaces, digits carried: no escape.
            let keep = V::Mask::first_lanes(V::LANES).without(dropped.or(carried));
            // SAFETY: `written + LANES <= i + LANES <= input.len()`, within the reserve.
            written += unsafe { spaces.store_kept(keep, out, written) };
            carried = V::Mask::first_lanes(0);
            i += V::LANES;
            continue;
        }
        let (high, high_ok) = hex_values(V::load_at(input, i + 1));
        let (low, low_ok) = hex_values(V::load_at(input, i + 2));
        let values = high.shift_left_4().or(low);
        // An escape starts in each lane holding a `%` followed by two hex digits whose
        // value needs no attention.
        let valid = percent.and(high_ok.and(low_ok).mask());
        let escape = valid.without(attention(values).mask());
        // The vector ends before the first `%` that starts no such escape. Digits are
        // never a `%`, so that `%` is no escape's digit.
        let cut = percent.without(escape).first();
        let inside = V::Mask::first_lanes(cut);
        let digits = escape.later(1).or(escape.later(2)).or(carried);
        let keep = inside.without(digits).without(dropped);
        // Every `%` kept starts an escape: those that start none are at or after `cut`.
        let decoded = is_percent.select(values, spaces);
        // SAFETY: `written + LANES <= i + LANES <= input.len()`, within the reserve.
        written += unsafe { decoded.store_kept(keep, out, written) };
        if cut < V::LANES {
            // SAFETY: every byte up to `written` was stored above.
            unsafe { commit(out, written) };
            return Err(i + cut);
        }
        // An escape in the next to last lane takes the next vector's first byte, one in
        // the last lane its first two.
        carried = escape
            .earlier(V::LANES - 2)
            .or(escape.earlier(V::LANES - 1));
        i += V::LANES;
    }
    // The digits the last vector took from beyond it are taken too.
    i += carried.count();
    // SAFETY: every byte up to `written` was stored above.
    unsafe { commit(out, written) };
    Ok(i)
}

/// Defines an instruction-set module's `KERNELS` and their entry points, `first_member`,
/// `escape` and `decode_span`: each instantiates the generic body of that name with the
/// module's vector type inside a function compiled with
/// `#[target_feature(enable = $feature)]`, and calls it. The call is sound because
/// `available` hands out the module's `KERNELS` only when the processor has the feature.
macro_rules! vector_kernels {
    (name: $name:literal, vector: $vector:ty, feature: $feature:literal) => {
        pub(super) static KERNELS: $crate::codec::kernel::Kernels =
            $crate::codec::kernel::Kernels {
                name: $name,
                first_member,
                escape,
                decode_span,
                decode_span_flagging: None,
                decode_span_quiet: None,
                decode_span_lenient: None,
            };

        pub(super) fn first_member(
            input: &[u8],
            class: &$crate::codec::kernel::ByteClass,
        ) -> usize {
            #[target_feature(enable = $feature)]
            fn run(input: &[u8], class: &$crate::codec::kernel::ByteClass) -> usize {
                $crate::codec::kernel::generic::first_member::<$vector>(input, class)
            }
            // SAFETY: `KERNELS` is handed out only when the processor has the feature.
            unsafe { run(input, class) }
        }

        pub(super) fn escape(
            input: &[u8],
            table: &$crate::codec::kernel::EscapeTable,
            out: &mut Vec<u8>,
        ) {
            #[target_feature(enable = $feature)]
            fn run(input: &[u8], table: &$crate::codec::kernel::EscapeTable, out: &mut Vec<u8>) {
                $crate::codec::kernel::generic::escape::<$vector>(input, table, out)
            }
            // SAFETY: `KERNELS` is handed out only when the processor has the feature.
            unsafe { run(input, table, out) }
        }

        pub(super) fn decode_span(
            input: &[u8],
            stops: &$crate::codec::kernel::ByteClass,
            out: &mut Vec<u8>,
        ) -> usize {
            #[target_feature(enable = $feature)]
            fn run(
                input: &[u8],
                stops: &$crate::codec::kernel::ByteClass,
                out: &mut Vec<u8>,
            ) -> usize {
                $crate::codec::kernel::generic::decode_span::<$vector>(input, stops, out)
            }
            // SAFETY: `KERNELS` is handed out only when the processor has the feature.
            unsafe { run(input, stops, out) }
        }
    };
}
pub(super) use vector_kernels;
