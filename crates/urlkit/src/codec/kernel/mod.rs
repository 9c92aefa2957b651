//! The hot loops: escaping bytes against an encode set and finding the bytes the decoder
//! must look at.
//!
//! Each function takes a slice in and appends to the caller's buffer, so no call allocates
//! per byte. The plain loops in [`portable`] (this file) are the reference; the vector
//! kernels do the same work many bytes at a time. Tests (`tests.rs`) compare every kernel
//! the processor runs with the reference, on every length 0–300 at every alignment and
//! with an escape at every position; `measure.rs` (feature `measure-kernels`) prints each kernel's throughput.
//!
//! Byte classes are ASCII-only sets looked up with two 16-entry tables (one indexed by the
//! low nibble, one by the high nibble), which is what a byte shuffle instruction does a
//! vector at a time, so any encode set, custom ones included, takes the fast path.
//!
//! # Where things are
//!
//! * `generic.rs`: the vector kernels, written once: `first_member` (the first byte of a
//!   class), `escape` and `decode_span` (a vector of literals copied as it is, a vector
//!   holding escapes decoded whole, its digits squeezed out by a shuffle table). A change
//!   to what a kernel does is made here, for every instruction set at once.
//! * `vector.rs`: the [`Vector`](vector::Vector) trait those kernels are written in (load,
//!   store, splat, and/or, add/sub, compare, select, nibble shifts, table lookup, masks of
//!   lanes as integers), and the few steps that depend on the register's shape:
//!   writing `%HL` for every lane, and writing the lanes a mask keeps one after the other
//!   (with a shuffle table, `kept_lanes_shuffle`, eight lanes at a time).
//! * `x86_64/ssse3.rs` (128-bit), `x86_64/avx2.rs` (256-bit) and `aarch64/neon.rs`
//!   (128-bit): one vector type each, a thin implementation of the trait in the
//!   instruction set's intrinsics, and a `vector_kernels!` line that instantiates the
//!   generic kernels with it. A new instruction set is a new such file.
//! * `x86_64/avx512.rs`: 512-bit decoding with AVX-512's byte compress (the same way of
//!   decoding a whole block, with one instruction where the others shuffle from a table),
//!   written on its own; it scans and escapes with the AVX2 kernels.
//! * `raw.rs`: writing into a vector's spare capacity, shared by the kernels.
//!
//! # How a kernel is chosen
//!
//! A [`Kernels`] is one set of function pointers per instruction-set level. `available`
//! lists those the processor runs, slowest (the reference) first, after checking its
//! features at run time (`x86_64::available`, `aarch64::available`); [`kernels`] takes the
//! last, once, and the public functions here call through it.
//!
//! # Why the unsafe code is sound
//!
//! The generic bodies are `#[inline(always)]`, and `vector_kernels!` instantiates each
//! inside a function compiled with `#[target_feature(enable = "...")]`, so the whole loop
//! is compiled for that instruction set and its intrinsics inline. Calling that function is
//! sound because the module's `KERNELS` is handed out only after the feature was detected.
//! A vector type is private to its module and made only inside those functions, which is
//! why its safe trait methods may use the instruction set. Writes past a vector's length
//! (`store`, `store_escaped`, `raw`) are `unsafe fn`s whose callers show, in a `SAFETY`
//! comment, that the room was reserved.

use crate::sets::EncodeSet;
use std::sync::OnceLock;

#[cfg(target_arch = "aarch64")]
mod aarch64;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod generic;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod raw;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod vector;
#[cfg(target_arch = "x86_64")]
mod x86_64;

#[cfg(all(test, feature = "measure-kernels"))]
mod measure;
#[cfg(test)]
mod tests;

const UPPER_HEX: &[u8; 16] = b"0123456789ABCDEF";
const LOWER_HEX: &[u8; 16] = b"0123456789abcdef";

/// A set of ASCII bytes, as a table indexed by the low nibble whose entry has bit `h` set
/// when the byte `h << 4 | low` is in the set. Bytes `0x80..=0xFF` are never members.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ByteClass {
    pub(crate) low: [u8; 16],
}

/// The high-nibble half of every [`ByteClass`] lookup: bit `h` for `h < 8`, nothing above.
pub(crate) const HIGH_NIBBLE_BITS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0];

impl ByteClass {
    /// The class holding the bytes whose bit is set in `bits` (bit `n`: byte `n`).
    pub(crate) const fn from_bits(bits: u128) -> Self {
        let mut low = [0u8; 16];
        let mut byte = 0;
        while byte < 128 {
            if bits & (1u128 << byte) != 0 {
                low[byte & 15] |= 1 << (byte >> 4);
            }
            byte += 1;
        }
        ByteClass { low }
    }

    /// Whether `byte` is in the class.
    #[inline]
    pub(crate) fn contains(&self, byte: u8) -> bool {
        self.low[(byte & 15) as usize] & HIGH_NIBBLE_BITS[(byte >> 4) as usize] != 0
    }
}

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn bits_of(table: &[bool; 256]) -> u128 {
    (0..128)
        .filter(|&b| table[b])
        .fold(0, |bits, b| bits | 1u128 << b)
}

/// Everything the escaping loop needs, expanded once per encoder.
#[derive(Clone, Debug)]
pub struct EscapeTable {
    /// `keep[b]`: byte `b` is written as it is.
    keep: [bool; 256],
    /// What the vector loops read (there are none on other processors).
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    vector: VectorTables,
    /// Space becomes `+` (when space is not kept).
    space_plus: bool,
    /// Hex digits used in escapes.
    hex: &'static [u8; 16],
}

impl EscapeTable {
    /// The table for `set`, writing space as `+` when `space_plus` and escapes in upper-case
    /// hex unless `lowercase`.
    pub fn new(set: EncodeSet, space_plus: bool, lowercase: bool) -> Self {
        let mut keep = set.table();
        if space_plus {
            keep[b' ' as usize] = false;
        }
        let hex = if lowercase { LOWER_HEX } else { UPPER_HEX };
        EscapeTable {
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            vector: VectorTables::new(&keep, space_plus, hex),
            keep,
            space_plus,
            hex,
        }
    }

    /// Whether `byte` is written as it is.
    #[inline]
    pub fn keeps(&self, byte: u8) -> bool {
        self.keep[byte as usize]
    }

    /// Appends `byte` as `%XX` (or `+` for space when so configured) without consulting
    /// the keep-list.
    #[inline]
    pub fn push_escaped(&self, byte: u8, out: &mut Vec<u8>) {
        if byte == b' ' && self.space_plus {
            out.push(b'+');
        } else {
            out.extend_from_slice(&[
                b'%',
                self.hex[(byte >> 4) as usize],
                self.hex[(byte & 15) as usize],
            ]);
        }
    }

    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    pub(crate) fn keep_class(&self) -> &ByteClass {
        &self.vector.keep_class
    }

    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    pub(crate) fn unescaped_class(&self) -> &ByteClass {
        &self.vector.unescaped_class
    }

    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    pub(crate) fn expansion(&self) -> &[u32; 256] {
        &self.vector.expansion
    }

    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    pub(crate) fn hex(&self) -> &[u8; 16] {
        self.hex
    }
}

/// The parts of an [`EscapeTable`] the vector loops read.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[derive(Clone, Debug)]
struct VectorTables {
    /// The kept bytes as a nibble-table class.
    keep_class: ByteClass,
    /// Bytes that are not written as `%XX`: the kept ones, and space when it becomes `+`.
    unescaped_class: ByteClass,
    /// What each byte becomes: up to three output bytes, and the count in the top byte.
    /// Boxed so encoders stay small to move.
    expansion: Box<[u32; 256]>,
}

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
impl VectorTables {
    /// The tables for the bytes `keep` says are written as they are, with space written
    /// as `+` when `space_plus` (and not kept), and escapes in the digits of `hex`.
    fn new(keep: &[bool; 256], space_plus: bool, hex: &[u8; 16]) -> Self {
        let mut expansion = Box::new([0u32; 256]);
        for (byte, slot) in expansion.iter_mut().enumerate() {
            let bytes = if keep[byte] {
                [byte as u8, 0, 0, 1]
            } else if byte == usize::from(b' ') && space_plus {
                [b'+', 0, 0, 1]
            } else {
                [b'%', hex[byte >> 4], hex[byte & 15], 3]
            };
            *slot = u32::from_le_bytes(bytes);
        }
        let keep_bits = bits_of(keep);
        let plus_bits = if space_plus { 1u128 << b' ' } else { 0 };
        VectorTables {
            keep_class: ByteClass::from_bits(keep_bits),
            unescaped_class: ByteClass::from_bits(keep_bits | plus_bits),
            expansion,
        }
    }
}

/// Appends `input` to `out`, each byte the table does not keep written as `%XX` (or `+`).
///
/// Every input is valid: bytes are bytes. `out` grows by at most `3 * input.len()`.
pub fn escape_into(input: &[u8], table: &EscapeTable, out: &mut Vec<u8>) {
    (kernels().escape)(input, table, out)
}

/// Bytes the percent decoder must stop at.
#[derive(Clone, Debug)]
pub struct StopTable {
    pub(crate) class: ByteClass,
}

/// The whitespace the decoder removes unless told to keep it: space, tab, CR, LF, FF.
const REMOVABLE_WHITESPACE_BITS: u128 =
    1 << b' ' | 1 << b'\t' | 1 << b'\r' | 1 << b'\n' | 1 << 0x0C;

/// The whitespace the decoder removes unless told to keep it, as a byte class.
pub(crate) const REMOVABLE_WHITESPACE: ByteClass = ByteClass::from_bits(REMOVABLE_WHITESPACE_BITS);

/// Whether `byte` is whitespace the decoder removes unless told to keep it.
#[inline]
pub fn is_removable_whitespace(byte: u8) -> bool {
    REMOVABLE_WHITESPACE.contains(byte)
}

impl StopTable {
    /// Stops at `%`, at removable whitespace when `strip_whitespace`, at `+` when
    /// `plus_space`.
    pub fn new(strip_whitespace: bool, plus_space: bool) -> Self {
        let mut bits = 1u128 << b'%';
        if plus_space {
            bits |= 1 << b'+';
        }
        if strip_whitespace {
            bits |= REMOVABLE_WHITESPACE_BITS;
        }
        StopTable {
            class: ByteClass::from_bits(bits),
        }
    }

    /// Whether the decoder must look at `byte`.
    #[inline]
    pub fn stops(&self, byte: u8) -> bool {
        self.class.contains(byte)
    }
}

/// The length of the prefix of `input` the decoder copies unchanged.
#[inline]
pub fn literal_run(input: &[u8], table: &StopTable) -> usize {
    (kernels().first_member)(input, &table.class)
}

/// The value of an ASCII hex digit, or `None`.
#[inline]
pub fn hex_value(byte: u8) -> Option<u8> {
    let value = HEX_VALUES[usize::from(byte)];
    (value < 16).then_some(value)
}

/// Each byte's value as a hex digit, [`NOT_HEX`] for any other byte: a table rather
/// than comparisons, whose branches a processor mispredicts on text that mixes digits
/// and letters (every escape of a URL).
const HEX_VALUES: [u8; 256] = {
    let mut values = [NOT_HEX; 256];
    let mut byte = 0;
    while byte < 256 {
        values[byte] = match byte as u8 {
            digit @ b'0'..=b'9' => digit - b'0',
            letter @ b'A'..=b'F' => letter - b'A' + 10,
            letter @ b'a'..=b'f' => letter - b'a' + 10,
            _ => NOT_HEX,
        };
        byte += 1;
    }
    values
};

/// [`HEX_VALUES`]' mark of a byte that is not a hex digit: its high bit keeps the OR of
/// two digits' values at 16 or more.
const NOT_HEX: u8 = 0x80;

/// Decoded byte values the percent decoder must see one at a time, because they may need
/// a diagnostic: C0 controls, DEL, `%` (a second layer?) and 0xE2 (a bidi control?).
#[inline]
pub(crate) fn needs_attention(value: u8) -> bool {
    value < 0x20 || value == 0x7F || value == b'%' || value == 0xE2
}

/// Decodes the longest prefix of `input` that needs no decision from the decoder's state
/// machine, appending to `out`, and returns how many input bytes it took.
///
/// Bytes outside `stops` are copied; `%XX` with two hex digits becomes the byte unless
/// [`needs_attention`] says otherwise; `+` in `stops` becomes a space; any other byte in
/// `stops` (removable whitespace) is dropped. It ends before a `%` that is not followed by
/// two hex digits inside `input`, before an escape that needs attention, or at the end.
///
/// Some fast paths also decode escapes that need attention: the offset in `input` of each
/// such escape is appended to `flagged`, for the caller to look at afterwards.
#[inline]
pub(crate) fn decode_span_flagging(
    input: &[u8],
    stops: &StopTable,
    out: &mut Vec<u8>,
    flagged: &mut Vec<usize>,
) -> usize {
    match kernels().decode_span_flagging {
        Some(decode) => decode(input, &stops.class, out, flagged),
        None => (kernels().decode_span)(input, &stops.class, out),
    }
}

/// The fast paths behind the functions above, one set per instruction-set level.
pub(crate) struct Kernels {
    /// A name for test messages.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) name: &'static str,
    /// The index of the first byte of the input in the class, or the input's length.
    pub(crate) first_member: fn(&[u8], &ByteClass) -> usize,
    /// [`escape_into`].
    pub(crate) escape: fn(&[u8], &EscapeTable, &mut Vec<u8>),
    /// [`decode_span_flagging`] without flagging: it stops before every escape that needs
    /// attention. The vector kernels run whole vectors up to the input's end (its last
    /// bytes in a padded copy on the stack), so a short input never goes byte by byte.
    pub(crate) decode_span: DecodeSpan,
    /// [`decode_span_flagging`], where it does better than `decode_span`.
    pub(crate) decode_span_flagging: Option<DecodeSpanFlagging>,
    /// [`decode_span_flagging`] without the offsets of the escapes that need attention,
    /// for a caller that makes no findings: where it does better than noting them.
    pub(crate) decode_span_quiet: Option<DecodeSpan>,
    /// [`decode_span_quiet`](Self::decode_span_quiet) that never stops: a `%` without two
    /// hex digits after it inside the input is copied as it is, as a lenient decoder keeps
    /// it, its offset appended to the last argument, and decoding goes on after it, so all
    /// of the input is taken (its length is returned). For a caller that drops findings.
    pub(crate) decode_span_lenient: Option<DecodeSpanFlagging>,
}

/// The signature of [`Kernels::decode_span`] and [`Kernels::decode_span_quiet`].
pub(crate) type DecodeSpan = fn(&[u8], &ByteClass, &mut Vec<u8>) -> usize;

/// The signature of [`Kernels::decode_span_flagging`].
pub(crate) type DecodeSpanFlagging = fn(&[u8], &ByteClass, &mut Vec<u8>, &mut Vec<usize>) -> usize;

/// The plain loops: the reference every fast path is tested against.
pub(crate) static PORTABLE: Kernels = Kernels {
    name: "portable",
    first_member: portable::first_member,
    escape: portable::escape,
    decode_span: portable::decode_span,
    decode_span_flagging: Some(portable::decode_span_flagging),
    decode_span_quiet: None,
    decode_span_lenient: Some(portable::decode_span_lenient),
};

/// The fastest kernels this processor runs, detected once.
#[inline]
pub(crate) fn kernels() -> &'static Kernels {
    static CHOSEN: OnceLock<&'static Kernels> = OnceLock::new();
    CHOSEN.get_or_init(|| available().last().copied().unwrap_or(&PORTABLE))
}

/// Every set of kernels this processor runs, slowest (the reference) first.
pub(crate) fn available() -> Vec<&'static Kernels> {
    #[cfg(target_arch = "x86_64")]
    let vector = x86_64::available();
    #[cfg(target_arch = "aarch64")]
    let vector = aarch64::available();
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    let vector: Vec<&'static Kernels> = Vec::new();
    std::iter::once(&PORTABLE).chain(vector).collect()
}

/// The reference loops, also used by the fast paths for the last few bytes of an input.
pub(crate) mod portable {
    use super::{needs_attention, ByteClass, EscapeTable, HEX_VALUES};

    pub(crate) fn first_member(input: &[u8], class: &ByteClass) -> usize {
        input
            .iter()
            .position(|&b| class.contains(b))
            .unwrap_or(input.len())
    }

    pub(crate) fn escape(input: &[u8], table: &EscapeTable, out: &mut Vec<u8>) {
        out.reserve(input.len() + input.len() / 2);
        let mut start = 0;
        while start < input.len() {
            let run = input[start..]
                .iter()
                .position(|&b| !table.keeps(b))
                .unwrap_or(input.len() - start);
            out.extend_from_slice(&input[start..start + run]);
            start += run;
            while start < input.len() && !table.keeps(input[start]) {
                table.push_escaped(input[start], out);
                start += 1;
            }
        }
    }

    /// The high bit of each byte of `word` that is `sought`, exactly (no borrow from one
    /// byte into the next), the others clear.
    #[inline(always)]
    pub(crate) fn bytes_equal(word: u64, sought: u8) -> u64 {
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        // Zero where a byte is `sought`.
        let x = word ^ (ONES * u64::from(sought));
        !(((x & !HIGH) + !HIGH) | x) & HIGH
    }

    /// The escape at the start of `input`, if it is `%` and two hex digits.
    #[inline]
    pub(crate) fn escape_at(input: &[u8]) -> Option<u8> {
        match input {
            [b'%', high, low, ..] => {
                // Both digits looked up before one test of both (see `HEX_VALUES`).
                let (high, low) = (
                    HEX_VALUES[usize::from(*high)],
                    HEX_VALUES[usize::from(*low)],
                );
                ((high | low) < 16).then_some(high << 4 | low)
            }
            _ => None,
        }
    }

    pub(crate) fn decode_span(input: &[u8], stops: &ByteClass, out: &mut Vec<u8>) -> usize {
        span::<false, false>(input, stops, out, &mut Vec::new())
    }

    /// See [`Kernels::decode_span_lenient`](super::Kernels::decode_span_lenient).
    pub(crate) fn decode_span_lenient(
        input: &[u8],
        stops: &ByteClass,
        out: &mut Vec<u8>,
        kept: &mut Vec<usize>,
    ) -> usize {
        span::<true, true>(input, stops, out, kept)
    }

    pub(crate) fn decode_span_flagging(
        input: &[u8],
        stops: &ByteClass,
        out: &mut Vec<u8>,
        flagged: &mut Vec<usize>,
    ) -> usize {
        span::<true, false>(input, stops, out, flagged)
    }

    /// With `LENIENT` (and `FLAG`), a `%` that starts no escape is copied, its offset
    /// appended to `flagged` in place of those of the escapes that need attention, and the
    /// span goes on after it.
    fn span<const FLAG: bool, const LENIENT: bool>(
        input: &[u8],
        stops: &ByteClass,
        out: &mut Vec<u8>,
        flagged: &mut Vec<usize>,
    ) -> usize {
        let mut i = 0;
        while i < input.len() {
            let byte = input[i];
            if !stops.contains(byte) {
                out.push(byte);
                i += 1;
            } else if byte == b'%' {
                match escape_at(&input[i..]) {
                    Some(value) if FLAG || !needs_attention(value) => {
                        if !LENIENT && needs_attention(value) {
                            flagged.push(i);
                        }
                        out.push(value);
                        i += 3;
                    }
                    None if LENIENT => {
                        flagged.push(i);
                        out.push(b'%');
                        i += 1;
                    }
                    _ => break,
                }
            } else if byte == b'+' {
                out.push(b' ');
                i += 1;
            } else {
                i += 1;
            }
        }
        i
    }
}
