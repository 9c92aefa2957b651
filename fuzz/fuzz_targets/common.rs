//! Option bits taken from the front of a fuzz input, shared by the codec targets.

#![allow(dead_code)]

use std::sync::OnceLock;
use urlkit::detect::Ranking;
use urlkit::{
    Charset, CharsetChoice, DecodeOptions, Diagnostic, EncodeOptions, EncodeSet, Newline,
};

/// Every charset, in a fixed order (listed once: building the list is not cheap).
pub fn charsets() -> &'static [Charset] {
    static LIST: OnceLock<Vec<Charset>> = OnceLock::new();
    LIST.get_or_init(|| Charset::all().into_iter().map(|(c, _)| c).collect())
}

/// Every named encode set, in a fixed order.
pub fn sets() -> &'static [EncodeSet] {
    static LIST: OnceLock<Vec<EncodeSet>> = OnceLock::new();
    LIST.get_or_init(|| {
        EncodeSet::names()
            .map(|n| EncodeSet::named(n).expect("a listed set"))
            .collect()
    })
}

/// The `iri` set, which keeps non-ASCII characters literal.
pub fn iri() -> EncodeSet {
    static SET: OnceLock<EncodeSet> = OnceLock::new();
    *SET.get_or_init(|| EncodeSet::named("iri").expect("the iri set"))
}

/// Splits `data` into option bytes (missing ones are zero) and the rest.
pub fn split<const N: usize>(data: &[u8]) -> ([u8; N], &[u8]) {
    let mut head = [0u8; N];
    let n = data.len().min(N);
    head[..n].copy_from_slice(&data[..n]);
    (head, &data[n..])
}

/// Decode options from two bytes: the charset (one value past the list is `auto`) and flags
/// (bit 6 asks detection for its runners-up).
pub fn decode_options(charset: u8, flags: u8) -> DecodeOptions {
    let all = charsets();
    let index = charset as usize % (all.len() + 1);
    DecodeOptions {
        charset: all
            .get(index)
            .map_or(CharsetChoice::Auto, |c| CharsetChoice::Fixed(*c)),
        plus_space: flags & 1 != 0,
        keep_whitespace: flags & 2 != 0,
        binary: flags & 4 != 0,
        per_line: flags & 8 != 0,
        newline: if flags & 16 != 0 {
            Newline::CrLf
        } else {
            Newline::Lf
        },
        text: flags & 32 != 0,
        ranking: if flags & 64 != 0 {
            Ranking::RunnersUp
        } else {
            Ranking::Charset
        },
    }
}

/// Encode options from three bytes: the charset, the set and flags (bit 5 adds `/:@` as
/// safe, bit 6 makes `~.` unsafe).
pub fn encode_options(charset: u8, set: u8, flags: u8) -> EncodeOptions {
    let all = charsets();
    let sets = sets();
    let mut set = sets[set as usize % sets.len()];
    if flags & 32 != 0 {
        set = set.with_safe("/:@").expect("ASCII");
    }
    if flags & 64 != 0 {
        set = set.with_unsafe("~.").expect("ASCII");
    }
    EncodeOptions {
        charset: all[charset as usize % all.len()],
        set,
        space_plus: flags & 1 != 0,
        lowercase: flags & 2 != 0,
        binary: flags & 4 != 0,
        per_line: flags & 8 != 0,
        newline: if flags & 16 != 0 {
            Newline::CrLf
        } else {
            Newline::Lf
        },
    }
}

/// Findings in input order (a stream reports a chunk's findings stage by stage).
pub fn sorted(mut list: Vec<Diagnostic>) -> Vec<Diagnostic> {
    list.sort_by(|a, b| (a.offset, a.code.as_str()).cmp(&(b.offset, b.code.as_str())));
    list
}
