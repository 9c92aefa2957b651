//! Streaming UTF-8 validation: the codec's fast path for the default charset.

/// Validates (and optionally copies) a stream of UTF-8 chunks, holding an incomplete
/// character at a chunk's end until the next chunk completes it.
///
/// Invalid sequences are reported as `(start, length)` with `start` relative to the
/// current chunk (negative for held-over bytes); when copying, each becomes U+FFFD, using
/// the "maximal subpart" rule of the Encoding Standard, as Rust's `from_utf8` does.
#[derive(Clone, Debug, Default)]
pub(crate) struct Utf8Stream {
    carry: [u8; 4],
    carry_len: usize,
}

/// U+FFFD in UTF-8: what an invalid sequence becomes.
pub(crate) const REPLACEMENT: &[u8] = "\u{FFFD}".as_bytes();

impl Utf8Stream {
    /// Validates `chunk`; with `WRITE`, appends the valid text (and U+FFFD for each invalid
    /// sequence) to `out`.
    pub(crate) fn feed<const WRITE: bool>(
        &mut self,
        chunk: &[u8],
        out: &mut Vec<u8>,
        mut invalid: impl FnMut(isize, usize),
    ) {
        let mut start = 0usize;
        if self.carry_len > 0 {
            let held = self.carry_len;
            self.carry_len = 0;
            let take = chunk.len().min(4);
            let mut joined = [0u8; 8];
            joined[..held].copy_from_slice(&self.carry[..held]);
            joined[held..held + take].copy_from_slice(&chunk[..take]);
            let joined = &joined[..held + take];
            let mut position = 0;
            // Resolve the held bytes; `start` is where the plain scan of `chunk` resumes.
            loop {
                let (valid_end, error_len) = match std::str::from_utf8(&joined[position..]) {
                    Ok(_) => (joined.len(), None),
                    Err(error) => (position + error.valid_up_to(), Some(error.error_len())),
                };
                if valid_end >= held {
                    // The held character is complete: write it and its tail from `chunk`.
                    let tail = tail_of_completed(&joined[position..held], chunk);
                    if WRITE {
                        out.extend_from_slice(&joined[position..held]);
                        out.extend_from_slice(&chunk[..tail]);
                    }
                    start = tail;
                    break;
                }
                match error_len {
                    Some(Some(length)) => {
                        if WRITE {
                            out.extend_from_slice(&joined[position..valid_end]);
                            out.extend_from_slice(REPLACEMENT);
                        }
                        invalid(valid_end as isize - held as isize, length);
                        position = valid_end + length;
                        if position >= held {
                            start = position - held;
                            break;
                        }
                    }
                    _ => {
                        // Still incomplete: the chunk is shorter than the character.
                        if WRITE {
                            out.extend_from_slice(&joined[position..valid_end]);
                        }
                        let rest = &joined[valid_end..];
                        self.carry[..rest.len()].copy_from_slice(rest);
                        self.carry_len = rest.len();
                        return;
                    }
                }
            }
        }
        let mut position = start;
        loop {
            match validate(&chunk[position..]) {
                Ok(_) => {
                    if WRITE {
                        out.extend_from_slice(&chunk[position..]);
                    }
                    return;
                }
                Err((valid_up_to, error_len)) => {
                    let valid_end = position + valid_up_to;
                    if WRITE {
                        out.extend_from_slice(&chunk[position..valid_end]);
                    }
                    match error_len {
                        Some(length) => {
                            if WRITE {
                                out.extend_from_slice(REPLACEMENT);
                            }
                            invalid(valid_end as isize, length);
                            position = valid_end + length;
                        }
                        None => {
                            let rest = &chunk[valid_end..];
                            self.carry[..rest.len()].copy_from_slice(rest);
                            self.carry_len = rest.len();
                            return;
                        }
                    }
                }
            }
        }
    }

    /// Appends the bytes held over from the last chunk to `out` and forgets them; returns
    /// how many there were (see [`validate_in_place`](Self::validate_in_place)).
    pub(crate) fn move_carry_into(&mut self, out: &mut Vec<u8>) -> usize {
        let held = self.carry_len;
        out.extend_from_slice(&self.carry[..held]);
        self.carry_len = 0;
        held
    }

    /// Holds `bytes` over again, undoing [`move_carry_into`](Self::move_carry_into).
    pub(crate) fn restore_carry(&mut self, bytes: &[u8]) {
        self.carry[..bytes.len()].copy_from_slice(bytes);
        self.carry_len = bytes.len();
    }

    /// Validates `out[start..]` where it is, as `feed::<true>` would copy it there: when it
    /// is valid, an incomplete character at its end is moved out of `out` and held for the
    /// next chunk, and the result is `Ok`. When it has an invalid sequence nothing is
    /// changed and the result is the length of the valid bytes before it; the caller then
    /// feeds the rest the usual way.
    pub(crate) fn validate_in_place(
        &mut self,
        out: &mut Vec<u8>,
        start: usize,
    ) -> Result<(), usize> {
        debug_assert_eq!(self.carry_len, 0);
        match validate(&out[start..]) {
            Ok(_) => Ok(()),
            Err((valid_up_to, None)) => {
                let end = start + valid_up_to;
                self.restore_carry(&out[end..]);
                out.truncate(end);
                Ok(())
            }
            Err((valid_up_to, Some(_))) => Err(valid_up_to),
        }
    }

    /// Ends the stream: held-over bytes are an incomplete sequence (U+FFFD when writing).
    pub(crate) fn finish<const WRITE: bool>(
        &mut self,
        out: &mut Vec<u8>,
        mut invalid: impl FnMut(isize, usize),
    ) {
        if self.carry_len > 0 {
            if WRITE {
                out.extend_from_slice(REPLACEMENT);
            }
            invalid(-(self.carry_len as isize), self.carry_len);
            self.carry_len = 0;
        }
    }
}

/// Where `bytes` stop being UTF-8, as `std::str::from_utf8` reports it (same rules, same
/// error positions, vectorised): the length of the valid prefix and the length of the
/// invalid sequence (`None`: incomplete at the end).
#[inline]
pub(crate) fn validate(bytes: &[u8]) -> Result<(), (usize, Option<usize>)> {
    simdutf8::compat::from_utf8(bytes)
        .map(|_| ())
        .map_err(|e| (e.valid_up_to(), e.error_len()))
}

/// Whether `bytes` are UTF-8 (vectorised, like [`validate`], without the error's place).
#[inline]
pub(crate) fn is_utf8(bytes: &[u8]) -> bool {
    simdutf8::basic::from_utf8(bytes).is_ok()
}

/// The length of the longest prefix of `bytes` that is UTF-8 (all of them when they are).
pub(crate) fn valid_up_to(bytes: &[u8]) -> usize {
    validate(bytes).map_or_else(|(valid, _)| valid, |()| bytes.len())
}

/// Inputs up to this length are repaired in one pass of [`repair_short_into`]
/// ([`repair_into`]): the vector validator reads a short input a block at a time and,
/// to place an error, runs the standard one over the block that holds it anyway.
pub(crate) const SHORT_INPUT: usize = 256;

/// [`repair_into`] in one pass, for a short input (a row, a line): ASCII is passed over
/// eight bytes at a time and each other character read where it starts, where the
/// standard library's chunks go byte by byte. The parts are the standard's maximal
/// subparts: a lead byte and the continuation bytes after it that fit, up to the first
/// that does not (which starts the next part), or a byte that begins no character.
fn repair_short_into(bytes: &[u8], out: &mut Vec<u8>, mut broken: impl FnMut(usize, usize)) {
    const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
    // `bytes[copied..at]` are UTF-8 and not yet appended.
    let (mut copied, mut at) = (0, 0);
    while at < bytes.len() {
        let high = next_eight(bytes, at) & HIGH_BITS;
        if high == 0 {
            // Past the end when the bytes left are ASCII: the loop ends.
            at += 8;
            continue;
        }
        at += high.trailing_zeros() as usize / 8;
        // The continuation bytes the lead byte wants, and the range of the first (the
        // others are 80-BF): overlong forms, surrogates and code points above U+10FFFF
        // are ruled out by it.
        let (wanted, first_range) = match bytes[at] {
            0xC2..=0xDF => (1, 0x80..=0xBF),
            0xE0 => (2, 0xA0..=0xBF),
            0xE1..=0xEC | 0xEE..=0xEF => (2, 0x80..=0xBF),
            0xED => (2, 0x80..=0x9F),
            0xF0 => (3, 0x90..=0xBF),
            0xF1..=0xF3 => (3, 0x80..=0xBF),
            0xF4 => (3, 0x80..=0x8F),
            _ => (0, 0x80..=0xBF),
        };
        let mut length = 1;
        while length <= wanted {
            let range = if length == 1 {
                first_range.clone()
            } else {
                0x80..=0xBF
            };
            if !bytes
                .get(at + length)
                .is_some_and(|byte| range.contains(byte))
            {
                break;
            }
            length += 1;
        }
        if wanted > 0 && length == wanted + 1 {
            at += length;
            continue;
        }
        out.extend_from_slice(&bytes[copied..at]);
        out.extend_from_slice(REPLACEMENT);
        broken(at, length);
        at += length;
        copied = at;
    }
    out.extend_from_slice(&bytes[copied..]);
}

/// The eight bytes of `bytes` from `at` (which is inside them) as a little-endian word,
/// with zeros (ASCII) for those past the end: the last eight bytes read and shifted when
/// fewer are left, so that a short input's end is read a word at a time too.
#[inline(always)]
pub(crate) fn next_eight(bytes: &[u8], at: usize) -> u64 {
    let word = |eight: &[u8]| u64::from_le_bytes(eight.try_into().unwrap_or_default());
    match bytes.get(at..at + 8) {
        Some(eight) => word(eight),
        None if bytes.len() >= 8 => {
            let missing = at + 8 - bytes.len();
            word(&bytes[bytes.len() - 8..]) >> (8 * missing)
        }
        None => {
            let mut padded = [0u8; 8];
            padded[..bytes.len() - at].copy_from_slice(&bytes[at..]);
            u64::from_le_bytes(padded)
        }
    }
}

/// Appends `bytes` to `out` with each maximal part of a sequence that is not UTF-8 made
/// one U+FFFD (a sequence the end cuts short: one for what is there), as the decoders
/// repair their output; `broken` is told where each part starts in `bytes` and how long
/// it is.
pub(crate) fn repair_into(bytes: &[u8], out: &mut Vec<u8>, mut broken: impl FnMut(usize, usize)) {
    // While what is left is long, the vector validator finds the next error.
    let mut position = 0;
    while bytes.len() - position > SHORT_INPUT {
        let Err((valid, length)) = validate(&bytes[position..]) else {
            out.extend_from_slice(&bytes[position..]);
            return;
        };
        out.extend_from_slice(&bytes[position..position + valid]);
        out.extend_from_slice(REPLACEMENT);
        let length = length.unwrap_or(bytes.len() - position - valid);
        broken(position + valid, length);
        position += valid + length;
    }
    repair_short_into(&bytes[position..], out, |first, length| {
        broken(position + first, length)
    });
}

/// How many bytes of `chunk` complete the character whose first bytes are `held`.
fn tail_of_completed(held: &[u8], chunk: &[u8]) -> usize {
    if held.is_empty() {
        return 0;
    }
    let width = match held[0] {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    };
    (width - held.len()).min(chunk.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(chunks: &[&[u8]]) -> (Vec<u8>, Vec<(isize, usize)>) {
        let mut stream = Utf8Stream::default();
        let mut out = Vec::new();
        let mut found = Vec::new();
        let mut base = 0isize;
        for chunk in chunks {
            stream.feed::<true>(chunk, &mut out, |s, l| found.push((base + s, l)));
            base += chunk.len() as isize;
        }
        stream.finish::<true>(&mut out, |s, l| found.push((base + s, l)));
        (out, found)
    }

    #[test]
    fn every_split_of_mixed_input_gives_the_whole_result() {
        let input: &[u8] = b"a\xE2\x80\xA0b\xF0\x9F\x98\x80\xFFc\xE2\x80d\xC3";
        let whole = run(&[input]);
        assert_eq!(
            whole.0,
            "a\u{2020}b\u{1F600}\u{FFFD}c\u{FFFD}d\u{FFFD}".as_bytes()
        );
        assert_eq!(whole.1, vec![(9, 1), (11, 2), (14, 1)]);
        for i in 0..=input.len() {
            for j in i..=input.len() {
                let split = run(&[&input[..i], &input[i..j], &input[j..]]);
                assert_eq!(split, whole, "split at {i}, {j}");
            }
        }
    }

    /// Where each part that is not UTF-8 starts and how long it is, by the standard
    /// library's chunks.
    fn standard_parts(bytes: &[u8]) -> Vec<(usize, usize)> {
        let mut parts = Vec::new();
        let mut at = 0;
        for chunk in bytes.utf8_chunks() {
            at += chunk.valid().len();
            if !chunk.invalid().is_empty() {
                parts.push((at, chunk.invalid().len()));
                at += chunk.invalid().len();
            }
        }
        parts
    }

    #[test]
    fn short_repair_splits_every_pair_of_bytes_as_the_standard_library_does() {
        for first in 0..=u8::MAX {
            for second in 0..=u8::MAX {
                for after in [
                    &b""[..],
                    b"A",
                    b"\x80",
                    b"\xBF",
                    b"\xA0\x80",
                    b"\xC3",
                    b"0123456789",
                ] {
                    let mut bytes = b"ab".to_vec();
                    bytes.extend_from_slice(&[first, second]);
                    bytes.extend_from_slice(after);
                    let (mut out, mut parts) = (Vec::new(), Vec::new());
                    repair_short_into(&bytes, &mut out, |at, length| parts.push((at, length)));
                    assert_eq!(parts, standard_parts(&bytes), "{bytes:x?}");
                    assert_eq!(
                        out,
                        String::from_utf8_lossy(&bytes).as_bytes(),
                        "{bytes:x?}"
                    );
                }
            }
        }
    }

    proptest::proptest! {
        /// The one-pass repair of short inputs ([`repair_short_into`]) finds every part
        /// that is not UTF-8 where the vector validator does, and the repair is the
        /// standard library's lossy conversion, on inputs either side of [`SHORT_INPUT`].
        #[test]
        fn short_and_long_inputs_are_repaired_as_the_standard_library_repairs_them(
            pieces in proptest::collection::vec(
                proptest::sample::select(vec![
                    &b"a"[..], b"%", b"\xC3\xA9", b"\xE2\x82\xAC", b"\xF0\x9F\x98\x80",
                    b"\xC3", b"\xE2\x82", b"\xF0\x9F", b"\x80", b"\xFF", b"\xED\xA0\x80",
                ]),
                0..160,
            ),
        ) {
            let bytes = pieces.concat();
            // Every part the vector validator finds, one error after another.
            let mut parts = Vec::new();
            let mut position = 0;
            while let Err((valid, length)) = validate(&bytes[position..]) {
                let length = length.unwrap_or(bytes.len() - position - valid);
                parts.push((position + valid, length));
                position += valid + length;
            }
            let mut repaired = Vec::new();
            let mut reported = Vec::new();
            repair_into(&bytes, &mut repaired, |first, length| reported.push((first, length)));
            proptest::prop_assert_eq!(reported, parts);
            proptest::prop_assert_eq!(
                String::from_utf8(repaired).unwrap(),
                String::from_utf8_lossy(&bytes).into_owned()
            );
        }
    }
}
