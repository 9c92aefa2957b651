//! Packs the charset-detection model, `src/detect/model.txt` (one tab-separated record a
//! line: `L code charsets`, then that language's `U char count` and `B pair count`), into
//! the compact form `src/detect/model.rs` reads, less than half the size: every language as its
//! code and charsets, then its character counts and its pair counts, each list sorted and
//! written as LEB128 deltas. A malformed line stops the build with its line number.

use std::collections::BTreeMap;
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=src/detect/model.txt");
    let text = std::fs::read_to_string("src/detect/model.txt")
        .unwrap_or_else(|e| panic!("src/detect/model.txt: {e}"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR is set by cargo"));
    std::fs::write(out.join("detect_model.bin"), pack(&text))
        .unwrap_or_else(|e| panic!("writing the packed model: {e}"));
}

#[derive(Default)]
struct Language<'a> {
    code: &'a str,
    charsets: &'a str,
    unigrams: BTreeMap<u32, u32>,
    bigrams: BTreeMap<(u32, u32), u32>,
}

fn pack(text: &str) -> Vec<u8> {
    let mut languages: Vec<Language> = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let bad =
            |why: &str| -> ! { panic!("src/detect/model.txt:{}: {why}: {line:?}", number + 1) };
        let fields: Vec<&str> = line.split('\t').collect();
        let [kind, key, value] = fields[..] else {
            bad("expected three tab-separated fields")
        };
        if kind == "L" {
            languages.push(Language {
                code: key,
                charsets: value,
                ..Language::default()
            });
            continue;
        }
        let Some(language) = languages.last_mut() else {
            bad("a count before the first language")
        };
        let Ok(count) = value.parse::<u32>() else {
            bad("the count is not a number")
        };
        let chars: Vec<u32> = key.chars().map(u32::from).collect();
        match (kind, &chars[..]) {
            ("U", &[c]) => {
                language.unigrams.insert(c, count);
            }
            ("B", &[a, b]) => {
                language.bigrams.insert((a, b), count);
            }
            _ => bad("expected U with one character or B with two"),
        }
    }
    let mut packed = Vec::with_capacity(text.len() / 2);
    for language in &languages {
        for s in [language.code, language.charsets] {
            leb128(&mut packed, s.len() as u32);
            packed.extend_from_slice(s.as_bytes());
        }
        leb128(&mut packed, language.unigrams.len() as u32);
        let mut previous = 0;
        for (&c, &count) in &language.unigrams {
            leb128(&mut packed, c - previous);
            leb128(&mut packed, count);
            previous = c;
        }
        leb128(&mut packed, language.bigrams.len() as u32);
        let mut previous: Option<(u32, u32)> = None;
        for (&(a, b), &count) in &language.bigrams {
            // The first character as a delta; the second as a delta when the first repeats.
            match previous {
                Some((pa, pb)) if pa == a => {
                    leb128(&mut packed, 0);
                    leb128(&mut packed, b - pb);
                }
                Some((pa, _)) => {
                    leb128(&mut packed, a - pa);
                    leb128(&mut packed, b);
                }
                None => {
                    leb128(&mut packed, a + 1);
                    leb128(&mut packed, b);
                }
            }
            leb128(&mut packed, count);
            previous = Some((a, b));
        }
    }
    packed
}

fn leb128(out: &mut Vec<u8>, mut value: u32) {
    loop {
        let byte = (value & 0x7F) as u8;
        value >>= 7;
        if value == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}
