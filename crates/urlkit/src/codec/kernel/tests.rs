//! Every fast path against the reference loops: every length 0..=256 at every alignment
//! 0..32, every named encode set and a random custom one, and random inputs.

use super::*;
use proptest::prelude::*;

/// Pieces inputs are made of: literals, escapes (valid, malformed, needing attention),
/// whitespace, `+`, non-ASCII.
const PIECES: &[&[u8]] = &[
    b"a",
    b"Z",
    b"0",
    b"~",
    b"-",
    b"/",
    b"?",
    b"&",
    b"=",
    b"%41",
    b"%e9",
    b"%C3%A9",
    b"%E2%80%AE",
    b"%2",
    b"%zz",
    b"%",
    b"%25",
    b"%0A",
    b"%7f",
    b"%20",
    b"%2B",
    b" ",
    b"\n",
    b"\r\n",
    b"\t",
    b"\x0C",
    b"+",
    b"\xC3\xA9",
    b"\xFF",
    b"\x00",
    b"\x7F",
    b"abcdefghijklmnopqrstuvwxyz",
    b"%E5%BC%95%E3%81%8D%E5%89%B2%E3%82%8A",
    b"%41%42%43%44%45%46%47%48%49%4A%4B%4C",
];

/// A deterministic pseudo-random byte string of `length` bytes built from [`PIECES`].
fn sample(seed: u64, length: usize) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut bytes = Vec::with_capacity(length + 64);
    while bytes.len() < length {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        bytes.extend_from_slice(PIECES[(state % PIECES.len() as u64) as usize]);
    }
    bytes.truncate(length);
    bytes
}

fn stop_tables() -> Vec<StopTable> {
    [(false, false), (false, true), (true, false), (true, true)]
        .into_iter()
        .map(|(strip, plus)| StopTable::new(strip, plus))
        .collect()
}

fn random_set() -> EncodeSet {
    let chars: String = (0x20u8..0x7F)
        .filter(|b| b.wrapping_mul(37) % 5 < 2)
        .map(char::from)
        .collect();
    EncodeSet::ALL
        .with_safe(&chars)
        .and_then(|s| s.with_unsafe("az"))
        .unwrap_or_default()
}

fn escape_tables() -> Vec<EscapeTable> {
    let mut sets: Vec<EncodeSet> = EncodeSet::names()
        .filter_map(|n| EncodeSet::named(n).ok())
        .collect();
    sets.push(random_set());
    let mut tables = Vec::new();
    for set in sets {
        for (space_plus, lowercase) in [(false, false), (true, false), (false, true)] {
            tables.push(EscapeTable::new(set, space_plus, lowercase));
        }
    }
    tables
}

fn check_all(input: &[u8], stops: &[StopTable], escapes: &[EscapeTable], context: &str) {
    for kernels in available() {
        for stop in stops {
            assert_eq!(
                (kernels.first_member)(input, &stop.class),
                (PORTABLE.first_member)(input, &stop.class),
                "{} first_member {context} {input:?}",
                kernels.name
            );
            let mut expected = b"prefix".to_vec();
            let taken = (PORTABLE.decode_span)(input, &stop.class, &mut expected);
            let mut got = b"prefix".to_vec();
            let fast_taken = (kernels.decode_span)(input, &stop.class, &mut got);
            assert_eq!(
                (fast_taken, &got),
                (taken, &expected),
                "{} decode_span {context} {input:?}",
                kernels.name
            );
            if let Some(fast_flagging) = kernels.decode_span_flagging {
                let mut expected = (b"prefix".to_vec(), Vec::new());
                let taken = portable::decode_span_flagging(
                    input,
                    &stop.class,
                    &mut expected.0,
                    &mut expected.1,
                );
                let mut got = (b"prefix".to_vec(), Vec::new());
                let fast_taken = fast_flagging(input, &stop.class, &mut got.0, &mut got.1);
                assert_eq!(
                    (fast_taken, &got),
                    (taken, &expected),
                    "{} decode_span_flagging {context} {input:?}",
                    kernels.name
                );
            }
        }
        for table in escapes {
            let mut expected = b"prefix".to_vec();
            (PORTABLE.escape)(input, table, &mut expected);
            let mut got = b"prefix".to_vec();
            (kernels.escape)(input, table, &mut got);
            assert_eq!(
                got,
                expected,
                "{} escape {:?} {context} {input:?}",
                kernels.name,
                table.set()
            );
        }
    }
}

#[test]
fn fast_paths_match_the_reference_at_every_length_and_alignment() {
    let stops = stop_tables();
    let escapes = escape_tables();
    let buffer = sample(1, 256 + 32);
    for offset in 0..32 {
        for length in 0..=256 {
            let input = &buffer[offset..offset + length];
            check_all(input, &stops, &escapes, &format!("at {offset}"));
        }
    }
}

#[test]
fn fast_paths_match_the_reference_on_uniform_inputs() {
    let stops = stop_tables();
    let escapes = escape_tables();
    let uniform: [&[u8]; 6] = [b"a", b"%41", b"\xE5", b" ", b"%E2", b"%41%42%43%44%45]"];
    for piece in uniform {
        let buffer: Vec<u8> = piece.iter().copied().cycle().take(256 + 32).collect();
        for offset in 0..32 {
            for length in 0..=256 {
                let input = &buffer[offset..offset + length];
                check_all(input, &stops, &escapes, "uniform");
            }
        }
    }
}

#[test]
fn byte_class_lookup_matches_the_encode_set() {
    for table in escape_tables() {
        for byte in 0..=255u8 {
            assert_eq!(table.keep_class.contains(byte), table.keeps(byte), "{byte}");
        }
    }
}

proptest! {
    #[test]
    fn fast_paths_match_the_reference_on_random_input(
        pieces in proptest::collection::vec(0..PIECES.len() + 256, 0..200)
    ) {
        let input: Vec<u8> = pieces
            .iter()
            .flat_map(|&p| match PIECES.get(p) {
                Some(piece) => piece.to_vec(),
                None => vec![(p - PIECES.len()) as u8],
            })
            .collect();
        check_all(&input, &stop_tables(), &escape_tables(), "random");
    }
}
