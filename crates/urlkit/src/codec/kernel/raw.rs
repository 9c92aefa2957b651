//! Writing into a vector's spare capacity, shared by the vector kernels.

/// Writes what each byte of `bytes` becomes by an escape table's expansion (up to three
/// bytes, their count in the top byte of the entry) at `out`'s end plus `offset`, and
/// returns the new offset.
///
/// # Safety
/// `out.len() + offset + 3 * bytes.len() + 1 <= out.capacity()`.
#[inline]
pub(super) unsafe fn store_expanded(
    out: &mut Vec<u8>,
    mut offset: usize,
    bytes: &[u8],
    expansion: &[u32; 256],
) -> usize {
    let end = out.len();
    let base = out.as_mut_ptr();
    for &byte in bytes {
        let entry = expansion[byte as usize];
        // SAFETY: each entry writes 4 bytes (little-endian, as on every target with a
        // vector kernel) of which it keeps at most 3; the caller guarantees room for 3 per
        // byte plus 1.
        unsafe { base.add(end + offset).cast::<u32>().write_unaligned(entry) };
        offset += (entry >> 24) as usize;
    }
    offset
}

/// Sets `out`'s length to include `written` more bytes.
///
/// # Safety
/// Those bytes were all written and lie within the capacity.
#[inline]
pub(super) unsafe fn commit(out: &mut Vec<u8>, written: usize) {
    // SAFETY: guaranteed by the caller.
    unsafe { out.set_len(out.len() + written) }
}
