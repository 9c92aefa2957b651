//! Base58 with the Bitcoin alphabet (`123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz`):
//! no `0`, `O`, `I` or `l`, so that identifiers carried in URLs survive being read aloud.
//! Each leading zero byte is written as a leading `1`.

use std::fmt;

const ALPHABET: &[u8; 58] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

const fn decode_table() -> [u8; 128] {
    let mut t = [0xFF; 128];
    let mut i = 0;
    while i < 58 {
        t[ALPHABET[i] as usize] = i as u8;
        i += 1;
    }
    t
}

static DECODE: [u8; 128] = decode_table();

/// A character outside the Bitcoin alphabet: which kind, which one and where.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Base58Error {
    /// What kind of character, for a caller that words it itself.
    pub kind: Base58Problem,
    /// Byte offset of the character in the input.
    pub position: usize,
    /// The offending character.
    pub character: char,
}

/// The kinds of [`Base58Error`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Base58Problem {
    /// `0`, `O`, `I` or `l`: the look-alikes Base58 leaves out.
    LookAlike,
    /// Any other character outside the alphabet (punctuation, whitespace, non-ASCII).
    OutsideAlphabet,
}

impl fmt::Display for Base58Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hint = match self.kind {
            Base58Problem::LookAlike => " (Base58 leaves out 0, O, I and l)",
            Base58Problem::OutsideAlphabet => "",
        };
        write!(
            f,
            "byte {}: {:?} is not a Base58 character{hint}",
            self.position, self.character
        )
    }
}

impl std::error::Error for Base58Error {}

/// Encodes bytes as Base58 (Bitcoin alphabet). Every input is accepted; the empty input
/// gives the empty string.
pub fn encode(input: &[u8]) -> String {
    let zeros = input.iter().take_while(|&&b| b == 0).count();
    // Digits in base 58, least significant first.
    let mut digits: Vec<u8> = Vec::with_capacity(input.len() * 138 / 100 + 1);
    for &byte in &input[zeros..] {
        let mut carry = u32::from(byte);
        for d in digits.iter_mut() {
            carry += u32::from(*d) << 8;
            *d = (carry % 58) as u8;
            carry /= 58;
        }
        while carry > 0 {
            digits.push((carry % 58) as u8);
            carry /= 58;
        }
    }
    let mut out = String::with_capacity(zeros + digits.len());
    out.push_str(&"1".repeat(zeros));
    out.extend(
        digits
            .iter()
            .rev()
            .map(|&d| char::from(ALPHABET[usize::from(d)])),
    );
    out
}

/// Decodes Base58 (Bitcoin alphabet) into bytes; each leading `1` becomes a zero byte.
///
/// Bad input: the first character outside the alphabet (including whitespace, `0`, `O`, `I`
/// and `l`) is an error naming it and its byte offset.
pub fn decode(input: &str) -> Result<Vec<u8>, Base58Error> {
    let zeros = input.bytes().take_while(|&b| b == b'1').count();
    // Bytes, least significant first.
    let mut bytes: Vec<u8> = Vec::with_capacity(input.len() * 733 / 1000 + 1);
    for (position, character) in input.char_indices().skip(zeros) {
        let value = DECODE
            .get(u32::from(character) as usize)
            .copied()
            .filter(|&v| v != 0xFF)
            .ok_or(Base58Error {
                kind: match character {
                    '0' | 'O' | 'I' | 'l' => Base58Problem::LookAlike,
                    _ => Base58Problem::OutsideAlphabet,
                },
                position,
                character,
            })?;
        let mut carry = u32::from(value);
        for b in bytes.iter_mut() {
            carry += u32::from(*b) * 58;
            *b = (carry & 0xFF) as u8;
            carry >>= 8;
        }
        while carry > 0 {
            bytes.push((carry & 0xFF) as u8);
            carry >>= 8;
        }
    }
    let mut out = vec![0u8; zeros];
    out.extend(bytes.iter().rev());
    Ok(out)
}
