//! Byte patterns that settle the charset without statistics: a byte order mark
//! (Encoding Standard §6, "BOM sniff", extended to UTF-32), ISO-2022-JP escape sequences,
//! and UTF-16 without a byte order mark.

use encoding_rs::Encoding;

use crate::charset::Charset;

/// The charset a byte order mark at the start of `bytes` names, and the mark's length.
///
/// Marks are tried longest first, so that the UTF-32LE mark `FF FE 00 00` wins over the
/// UTF-16LE mark `FF FE` it starts with. `None` when `bytes` (empty included) starts
/// with no mark.
pub(super) fn byte_order_mark(bytes: &[u8]) -> Option<(Charset, usize)> {
    const MARKS: [(&[u8], Charset); 5] = [
        (&[0xFF, 0xFE, 0x00, 0x00], Charset::Utf32Le),
        (&[0x00, 0x00, 0xFE, 0xFF], Charset::Utf32Be),
        (super::UTF8_BOM, Charset::UTF_8),
        (&[0xFF, 0xFE], Charset::Whatwg(encoding_rs::UTF_16LE)),
        (&[0xFE, 0xFF], Charset::Whatwg(encoding_rs::UTF_16BE)),
    ];
    MARKS
        .iter()
        .find(|(mark, _)| bytes.starts_with(mark))
        .map(|(mark, charset)| (*charset, mark.len()))
}

/// Whether `bytes` shift into a JIS character set with an ISO-2022-JP escape sequence
/// and decode as ISO-2022-JP without error.
pub(super) fn is_iso_2022_jp(bytes: &[u8]) -> bool {
    bytes.contains(&0x1B)
        && bytes
            .windows(3)
            .any(|w| matches!(w, [0x1B, b'$', b'@' | b'B'] | [0x1B, b'(', b'I' | b'J']))
        && encoding_rs::ISO_2022_JP
            .decode_without_bom_handling_and_without_replacement(bytes)
            .is_some()
}

/// UTF-16 without a byte order mark: text with Latin letters, digits or spaces has a NUL
/// in every code unit's high byte, and hardly anywhere else. `None` for odd lengths,
/// fewer than two code units, too few NULs, or bytes that are not valid UTF-16.
pub(super) fn utf16_without_bom(bytes: &[u8]) -> Option<Charset> {
    if bytes.len() < 4 || !bytes.len().is_multiple_of(2) || memchr::memchr(0, bytes).is_none() {
        return None;
    }
    let units = bytes.len() / 2;
    let even_nul = bytes.iter().step_by(2).filter(|&&b| b == 0).count();
    let odd_nul = bytes.iter().skip(1).step_by(2).filter(|&&b| b == 0).count();
    let (encoding, high, low): (&'static Encoding, _, _) = if odd_nul > even_nul {
        (encoding_rs::UTF_16LE, odd_nul, even_nul)
    } else {
        (encoding_rs::UTF_16BE, even_nul, odd_nul)
    };
    let enough = high * 4 >= units && low * 8 <= high;
    (enough
        && encoding
            .decode_without_bom_handling_and_without_replacement(bytes)
            .is_some())
    .then_some(Charset::Whatwg(encoding))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_utf32le_mark_wins_over_the_utf16le_mark_it_starts_with() {
        assert_eq!(
            byte_order_mark(&[0xFF, 0xFE, 0x00, 0x00, 0x41, 0, 0, 0]),
            Some((Charset::Utf32Le, 4))
        );
        assert_eq!(
            byte_order_mark(&[0xFF, 0xFE, 0x41, 0x00]),
            Some((Charset::Whatwg(encoding_rs::UTF_16LE), 2))
        );
        assert_eq!(byte_order_mark(b""), None);
    }

    #[test]
    fn utf16_needs_nuls_in_one_half_only() {
        let le: Vec<u8> = "hello".encode_utf16().flat_map(u16::to_le_bytes).collect();
        assert_eq!(
            utf16_without_bom(&le),
            Some(Charset::Whatwg(encoding_rs::UTF_16LE))
        );
        assert_eq!(utf16_without_bom(b"\0\0\0\0"), None, "NULs in both halves");
        assert_eq!(utf16_without_bom(&le[..3]), None, "odd length");
    }

    #[test]
    fn an_escape_alone_is_not_iso_2022_jp() {
        assert!(!is_iso_2022_jp(b"\x1B[0m"));
        let (bytes, _, _) = encoding_rs::ISO_2022_JP.encode("東京");
        assert!(is_iso_2022_jp(&bytes));
    }
}
