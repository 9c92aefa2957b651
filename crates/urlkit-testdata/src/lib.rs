//! What urlkit's tests share: the conformance data kept in the repository
//! (`conformance/`, see its README for each file's source, version and license) and a small
//! deterministic generator, so a failing case can be replayed from its seed.
//!
//! For tests only: every function panics with the file's path when the data cannot be read.

#![deny(missing_docs)]

use serde_json::Value;
use std::path::{Path, PathBuf};

/// The repository's `conformance/` folder.
pub fn conformance_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../conformance")
}

/// The text of `conformance/PATH` (`wpt/urltestdata.json`, `rfc3986-resolve.json`, …).
///
/// Panics naming the file when it cannot be read.
pub fn conformance_text(path: &str) -> String {
    let full = conformance_dir().join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// `conformance/PATH` read as JSON.
///
/// Panics naming the file when it cannot be read or is not JSON.
pub fn conformance(path: &str) -> Value {
    parse(path, &conformance_text(path))
}

/// `conformance/PATH` read as JSON after every lone UTF-16 surrogate escape (`\uD800`
/// without its pair), which a Rust string cannot hold, is replaced by `\uFFFD` — as a
/// browser's UTF-8 encoder replaces it before the URL parser sees it.
///
/// Panics naming the file when it cannot be read or is not JSON.
pub fn conformance_with_surrogates_replaced(path: &str) -> Value {
    parse(path, &replace_lone_surrogates(&conformance_text(path)))
}

fn parse(path: &str, text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("conformance/{path}: {e}"))
}

fn replace_lone_surrogates(json: &str) -> String {
    let b = json.as_bytes();
    let unit = |i: usize| -> Option<u16> {
        if b.get(i) == Some(&b'\\') && b.get(i + 1) == Some(&b'u') {
            u16::from_str_radix(json.get(i + 2..i + 6)?, 16).ok()
        } else {
            None
        }
    };
    let mut out = String::with_capacity(json.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            if let Some(u) = unit(i) {
                let high = (0xD800..0xDC00).contains(&u);
                let low = (0xDC00..0xE000).contains(&u);
                let paired = high && unit(i + 6).is_some_and(|n| (0xDC00..0xE000).contains(&n));
                if paired {
                    out.push_str(&json[i..i + 12]);
                    i += 12;
                } else {
                    out.push_str(if high || low {
                        "\\uFFFD"
                    } else {
                        &json[i..i + 6]
                    });
                    i += 6;
                }
                continue;
            }
            out.push_str(&json[i..i + 2]);
            i += 2;
            continue;
        }
        let c = json[i..].chars().next().unwrap_or('\u{FFFD}');
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// The URL API's attributes (`href`, `protocol`, `username`, `password`, `host`,
/// `hostname`, `port`, `pathname`, `search`, `hash`, `origin`), as `new URL()` gives
/// them, of the JSON of a URL report (`urlkit::inspect::whatwg::UrlReport`, printed by
/// `urlkit parse --json`), to compare with `urltestdata.json` and `setters_tests.json`.
pub fn url_api_attributes(report: &Value) -> Vec<(&'static str, String)> {
    let text = |key: &str| report[key].as_str().unwrap_or("").to_owned();
    let hostname = text("host");
    let port = report["port"]
        .as_u64()
        .map(|p| p.to_string())
        .unwrap_or_default();
    let host = if port.is_empty() {
        hostname.clone()
    } else {
        format!("{hostname}:{port}")
    };
    let prefixed = |prefix: &str, key: &str| match report[key].as_str() {
        Some(v) if !v.is_empty() => format!("{prefix}{v}"),
        _ => String::new(),
    };
    vec![
        ("href", text("href")),
        ("protocol", format!("{}:", text("scheme"))),
        ("username", text("user")),
        ("password", text("password")),
        ("host", host),
        ("hostname", hostname),
        ("port", port),
        ("pathname", text("path")),
        ("search", prefixed("?", "query")),
        ("hash", prefixed("#", "fragment")),
        ("origin", text("origin")),
    ]
}

/// Where the URL API's attributes of a report (JSON, as [`url_api_attributes`] reads it)
/// differ from those `expected` names (an object of `urltestdata.json` or the `expected`
/// of `setters_tests.json`; attributes it does not name are not compared).
pub fn url_api_differences(expected: &Value, report: &Value) -> Vec<String> {
    url_api_attributes(report)
        .into_iter()
        .filter_map(|(name, got)| {
            let want = expected.get(name)?.as_str()?;
            (want != got).then(|| format!("{name}: expected {want:?}, got {got:?}"))
        })
        .collect()
}

/// A small deterministic generator (xorshift64), so a failure reproduces from its seed.
#[derive(Clone, Debug)]
pub struct Random(u64);

impl Random {
    /// A generator from `seed` (0 is replaced, as xorshift cannot leave it).
    pub fn new(seed: u64) -> Self {
        Random(if seed == 0 {
            0x2545_F491_4F6C_DD1D
        } else {
            seed
        })
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// `length` bytes.
    pub fn bytes(&mut self, length: usize) -> Vec<u8> {
        (0..length).map(|_| self.next_u64() as u8).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogates_become_replacement_characters_and_pairs_stay() {
        let replaced = replace_lone_surrogates(r#"["\uD800x", "\uD83D\uDE00", "\u00E9", "\\u"]"#);
        assert_eq!(replaced, r#"["\uFFFDx", "\uD83D\uDE00", "\u00E9", "\\u"]"#);
    }

    #[test]
    fn the_generator_repeats_from_its_seed() {
        let (mut a, mut b) = (Random::new(7), Random::new(7));
        assert_eq!(a.bytes(16), b.bytes(16));
        assert_ne!(Random::new(0).next_u64(), 0);
    }
}
