//! The hot loops: escaping bytes against an encode set and finding the bytes the decoder
//! must look at.
//!
//! Each function takes a slice in and appends to the caller's buffer, so no call allocates
//! per byte and a vectorised version can replace the loop body without changing callers.
//! The plain loops here are the reference that faster paths are tested against.

use crate::sets::EncodeSet;

const UPPER_HEX: &[u8; 16] = b"0123456789ABCDEF";
const LOWER_HEX: &[u8; 16] = b"0123456789abcdef";

/// Everything the escaping loop needs, expanded once per encoder.
#[derive(Clone, Debug)]
pub struct EscapeTable {
    /// `keep[b]`: byte `b` is written as it is.
    keep: [bool; 256],
    /// The set the table was built from.
    set: EncodeSet,
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
        EscapeTable {
            keep,
            set,
            space_plus,
            hex: if lowercase { LOWER_HEX } else { UPPER_HEX },
        }
    }

    /// The encode set behind this table.
    pub fn set(&self) -> EncodeSet {
        self.set
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
}

/// Appends `input` to `out`, each byte the table does not keep written as `%XX` (or `+`).
///
/// Every input is valid: bytes are bytes. `out` grows by at most `3 * input.len()`.
pub fn escape_into(input: &[u8], table: &EscapeTable, out: &mut Vec<u8>) {
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

/// Bytes the percent decoder must stop at.
#[derive(Clone, Debug)]
pub struct StopTable {
    stop: [bool; 256],
}

/// The whitespace the decoder removes unless told to keep it: space, tab, CR, LF, FF.
pub const fn is_removable_whitespace(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\r' | b'\n' | 0x0C)
}

impl StopTable {
    /// Stops at `%`, at removable whitespace when `strip_whitespace`, at `+` when
    /// `plus_space`.
    pub fn new(strip_whitespace: bool, plus_space: bool) -> Self {
        let mut stop = [false; 256];
        stop[b'%' as usize] = true;
        stop[b'+' as usize] = plus_space;
        if strip_whitespace {
            for b in [b' ', b'\t', b'\r', b'\n', 0x0C] {
                stop[b as usize] = true;
            }
        }
        StopTable { stop }
    }

    /// Whether the decoder must look at `byte`.
    #[inline]
    pub fn stops(&self, byte: u8) -> bool {
        self.stop[byte as usize]
    }
}

/// The length of the prefix of `input` the decoder copies unchanged.
#[inline]
pub fn literal_run(input: &[u8], table: &StopTable) -> usize {
    input
        .iter()
        .position(|&b| table.stops(b))
        .unwrap_or(input.len())
}

/// The value of an ASCII hex digit, or `None`.
#[inline]
pub fn hex_value(byte: u8) -> Option<u8> {
    match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        b'A'..=b'F' => Some(byte - b'A' + 10),
        b'a'..=b'f' => Some(byte - b'a' + 10),
        _ => None,
    }
}
