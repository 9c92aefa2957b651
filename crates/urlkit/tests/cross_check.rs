//! Cross-checks on generated inputs against the machine's Node.js and Python: the results
//! must equal `encodeURIComponent`, `encodeURI`, `URLSearchParams`, `decodeURIComponent`
//! and `urllib.parse` for the matching sets.
//!
//! They need those programs, so a plain `cargo test` lists them as ignored, by name;
//! `scripts/test.sh` runs them (`--run-ignored all`), having installed what they need.

use std::io::Write;
use std::process::{Command, Stdio};
use urlkit::{DecodeOptions, EncodeOptions, EncodeSet};
use urlkit_testdata::Random;

/// A string mixing ASCII (all of it, controls included), Latin, CJK, emoji.
fn text(random: &mut Random) -> String {
    let len = random.below(16) as usize;
    (0..len)
        .map(|_| {
            let code = match random.below(6) {
                0..=2 => random.below(0x80) as u32,
                3 => 0x80 + random.below(0x700) as u32,
                4 => 0x3000 + random.below(0x7000) as u32,
                _ => 0x1F300 + random.below(0x300) as u32,
            };
            char::from_u32(code).unwrap_or('x')
        })
        .collect()
}

fn inputs(count: usize, seed: u64) -> Vec<String> {
    let mut random = Random::new(seed);
    let mut list: Vec<String> = (0..count).map(|_| text(&mut random)).collect();
    list.push(" !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".to_string());
    list.push(String::new());
    list
}

/// Runs `program args…` with `input` on stdin and returns stdout as JSON.
fn run_json(program: &str, args: &[&str], input: &serde_json::Value) -> serde_json::Value {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{program} is needed for the cross-checks: {e}"));
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.to_string().as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{program} failed");
    serde_json::from_slice(&output.stdout).unwrap()
}

fn encode_with(set: EncodeSet, space_plus: bool, text: &str) -> String {
    urlkit::encode(
        text.as_bytes(),
        &EncodeOptions {
            set,
            space_plus,
            ..EncodeOptions::default()
        },
    )
    .text()
}

const NODE_SCRIPT: &str = r#"
let data = '';
process.stdin.on('data', c => data += c).on('end', () => {
  const inputs = JSON.parse(data);
  console.log(JSON.stringify(inputs.map(s => ({
    component: encodeURIComponent(s),
    uri: encodeURI(s),
    form: new URLSearchParams([["", s]]).toString().slice(1),
    back: decodeURIComponent(encodeURIComponent(s)),
  }))));
});
"#;

#[test]
#[ignore = "needs Node.js; scripts/test.sh runs it"]
fn matches_node_encode_uri_component_encode_uri_and_url_search_params() {
    let list = inputs(2000, 0x5eed_0001);
    let results = run_json("node", &["-e", NODE_SCRIPT], &serde_json::json!(list));
    for (text, result) in list.iter().zip(results.as_array().unwrap()) {
        assert_eq!(
            encode_with(EncodeSet::COMPONENT, false, text),
            result["component"],
            "{text:?}"
        );
        assert_eq!(
            encode_with(EncodeSet::URI, false, text),
            result["uri"],
            "{text:?}"
        );
        assert_eq!(
            encode_with(EncodeSet::FORM, true, text),
            result["form"],
            "{text:?}"
        );
        // Node decodes what we encode back to the text.
        let ours = encode_with(EncodeSet::UNRESERVED, false, text);
        let decoded = urlkit::decode(
            ours.as_bytes(),
            &DecodeOptions {
                keep_whitespace: true,
                ..DecodeOptions::default()
            },
        );
        assert_eq!(decoded.text(), result["back"].as_str().unwrap(), "{text:?}");
    }
}

const PYTHON_SCRIPT: &str = r#"
import json, sys
from urllib.parse import quote, quote_plus, unquote_to_bytes
data = json.load(sys.stdin)
out = {
  "quote": [quote(s, safe='') for s in data["texts"]],
  "quote_plus": [quote_plus(s, safe='') for s in data["texts"]],
  "unquote": [list(unquote_to_bytes(s)) for s in data["encoded"]],
}
print(json.dumps(out))
"#;

/// Percent-encoded-looking strings with valid, broken and stray escapes.
fn encodedish(count: usize, seed: u64) -> Vec<String> {
    let mut random = Random::new(seed);
    (0..count)
        .map(|_| {
            let mut s = String::new();
            for _ in 0..random.below(12) {
                match random.below(5) {
                    0 => s.push_str(&format!("%{:02X}", random.below(256))),
                    1 => s.push_str(&format!("%{:02x}", random.below(256))),
                    2 => s.push('%'),
                    3 => s.push_str("%G1"),
                    _ => s.push(char::from_u32(0x21 + random.below(0x5E) as u32).unwrap()),
                }
            }
            s
        })
        .collect()
}

#[test]
#[ignore = "needs Python 3; scripts/test.sh runs it"]
fn matches_python_quote_quote_plus_and_unquote() {
    let texts = inputs(2000, 0x5eed_0002);
    let encoded = encodedish(2000, 0x5eed_0003);
    let results = run_json(
        "python3",
        &["-c", PYTHON_SCRIPT],
        &serde_json::json!({"texts": texts, "encoded": encoded}),
    );
    for (text, expected) in texts.iter().zip(results["quote"].as_array().unwrap()) {
        assert_eq!(
            encode_with(EncodeSet::UNRESERVED, false, text),
            *expected,
            "{text:?}"
        );
    }
    for (text, expected) in texts.iter().zip(results["quote_plus"].as_array().unwrap()) {
        // quote_plus(safe='') keeps the unreserved set and writes space as `+`.
        assert_eq!(
            encode_with(EncodeSet::UNRESERVED, true, text),
            *expected,
            "{text:?}"
        );
    }
    let binary = DecodeOptions {
        binary: true,
        keep_whitespace: true,
        ..DecodeOptions::default()
    };
    for (input, expected) in encoded.iter().zip(results["unquote"].as_array().unwrap()) {
        let expected: Vec<u8> = expected
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b.as_u64().unwrap() as u8)
            .collect();
        assert_eq!(
            urlkit::decode(input.as_bytes(), &binary).output,
            expected,
            "{input:?}"
        );
    }
}
