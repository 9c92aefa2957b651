//! trurl's own test suite (`conformance/trurl/tests.json`, from curl/trurl) run through
//! `urlkit edit`: every case whose meaning urlkit shares must give trurl's output and exit
//! status, and every other case is listed once below, in [`SKIPPED`], with the reason.
//!
//! How a case is compared:
//! * The arguments are passed to `urlkit edit` as they are, from `conformance/trurl` (for
//!   `-f testfiles/…`). Cases in [`ADAPTED`] lean on trurl's scheme guessing
//!   (`example.com` for `http://example.com`), which the URL Standard has no room for;
//!   they run with the scheme written out and must then give trurl's output.
//! * Exit status: trurl's usage errors (a missing or malformed option, two options that
//!   contradict each other, no input for a URL: 2 to 8, 11 and 12) are urlkit's usage
//!   error, 2; a URL that fails (9 with `--verify`, 10 for a `must:` or `strict:`
//!   placeholder) is urlkit's 1.
//! * Standard output: text as it is. trurl stops at its first error, where urlkit writes a
//!   line for every input (empty for one that failed), so when trurl fails its output
//!   must be the start of urlkit's. trurl's JSON (one array of `{url, parts, params}`)
//!   is compared with urlkit's JSON lines on what both say: the URL (`href`), the scheme,
//!   host and port, and the decoded query pairs (`params` against `query_pairs`).
//! * Standard error: empty where trurl's is empty, not empty where trurl writes something
//!   (the words are urlkit's own).

mod common;

use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::Stdio;

/// The cases urlkit does not share, by their index in `tests.json` (from 0; trurl's
/// `test.py` numbers them from 1), each with why.
const SKIPPED: &[(usize, &str)] = &[
    (3, "`hp://example.com` is `hp://example.com/` in libcurl, which gives every URL with a host the path `/`; a non-special URL keeps its empty path in the URL Standard"),
    (4, "no URL at all: urlkit reads URLs from stdin then, and an empty stdin is an empty list (trurl: \"not enough input\")"),
    (5, "`ftp.example.com` guesses the scheme from the host name (libcurl); the URL Standard needs a scheme"),
    (21, "imap: is not special in the URL Standard, so its port 143 is not the default one dropped (libcurl knows imap's default)"),
    (30, "libcurl decodes %2e and %61 in paths (`/.a%13`); the URL Standard keeps escapes as written (`/%2e%61%13`)"),
    (31, "libcurl decodes unreserved escapes in the query; the URL Standard keeps them"),
    (32, "libcurl decodes unreserved escapes in the fragment; the URL Standard keeps them"),
    (33, "libcurl decodes unreserved escapes and lower-cases the others (`%fa`); the URL Standard keeps them as written"),
    (36, "`{options}` is libcurl's IMAP login options, a component the URL Standard does not have"),
    (39, "an IPv6 zone id (`%eth0`) is refused by the URL Standard"),
    (40, "`{zoneid}` and IPv6 zone ids are not part of the URL Standard"),
    (41, "`{zoneid}` and IPv6 zone ids are not part of the URL Standard"),
    (48, "trurl's build without upper-case hex (case 210 is the same edit with upper-case hex, which urlkit passes)"),
    (51, "`--set query=user=me` percent-encodes `=` in trurl; the URL Standard's search setter keeps it (`?user=me`)"),
    (65, "a space in the query is `+` in libcurl; the URL Standard writes `%20`"),
    (72, "the URL Standard drops `:443` from `https://hello:443/` when it parses, so setting ftp gives `ftp://hello/foo` (libcurl keeps the port as written)"),
    (75, "libcurl re-encodes query pairs (`%20` as `+`); the URL Standard keeps `tra%20cker` as written"),
    (83, "the URL Standard lower-cases the host of a special URL (`https://example.com/`); libcurl keeps `EXAMPLE`"),
    (86, "libcurl re-encodes the query pairs it sorts (`%20` as `+`); urlkit sorts them as written"),
    (94, "trurl shows a decoded NUL as `.`; urlkit leaves the escape of a control character encoded (`mr%00smith`) so that each URL stays on one line"),
    (96, "the URL Standard's protocol setter does not turn a special URL (https:) into a non-special one (sftp:, moo:)"),
    (100, "libcurl re-encodes the query (`%20` as `+`) when it writes the URL; the URL Standard keeps it as written"),
    (116, "IMAP login options and IPv6 zone ids are not part of the URL Standard"),
    (120, "trurl skips an empty URL with a note and exits 0; urlkit keeps one output line per input (empty for the one that fails) and exits 1"),
    (122, "trurl skips lines longer than 4 KiB with a note; urlkit reads a line of any length"),
    (123, "trurl skips blank lines and trims spaces around a URL in a file; urlkit keeps one output line per input line, and a blank line is a URL that fails"),
    (124, "trurl skips URLs without a scheme with a note and exits 0; urlkit keeps one output line per input (empty for those that fail) and exits 1"),
    (125, "trurl's JSON is one array, `[]` for no URL; urlkit's is one object per line, nothing for no URL"),
    (126, "a space in the query is `+` in libcurl; the URL Standard writes `%20`"),
    (127, "`\\` in a path is libcurl's `%5c`; in the URL Standard it is `/` for special schemes"),
    (128, "`\\` in a path is libcurl's `%5c`; in the URL Standard it is `/` for special schemes"),
    (129, "`\\` in a path is libcurl's `%5c`; in the URL Standard it is `/` for special schemes"),
    (130, "`\\` in a path is libcurl's `%5c`; in the URL Standard it is `/` for special schemes"),
    (131, "trurl's build without upper-case hex writes `%5c`; the URL Standard keeps `%5C` as written"),
    (143, "`xn-----` is not valid Punycode: the URL Standard refuses the host, where libcurl keeps it and trurl notes the failed conversion"),
    (142, "`xn-----` is not valid Punycode: the URL Standard refuses the host, where libcurl keeps it"),
    (144, "trurl skips lines longer than 4 KiB with a note; urlkit reads a line of any length"),
    (145, "`--curl` limits schemes to those libcurl supports, which is not urlkit's list to keep"),
    (164, "trurl prints nothing for a query that decodes to a NUL; urlkit leaves the escape of a control character encoded (`name=mr%00smith`)"),
    (166, "a guessed scheme counts as absent for `scheme?=` in libcurl; the URL Standard has no guessed scheme"),
    (168, "trurl's JSON `parts` are decoded (the path `/\\u0018`); urlkit's JSON has the path as written beside its decoded segments, compared by case 169"),
    (170, "libcurl decodes unreserved escapes in paths and lower-cases the others (`/tao/%2fB/`); the URL Standard keeps them"),
    (171, "libcurl decodes unreserved escapes in paths and lower-cases the others; the URL Standard keeps them"),
    (172, "libcurl decodes unreserved escapes in the host, path and query; the URL Standard decodes the host only (`example.com/h%61s/?wh%61t`)"),
    (176, "trurl writes the control character U+0018 decoded; urlkit leaves escapes of control characters encoded so that each URL stays on one line"),
    (182, "libcurl lower-cases escapes in the query (`%5d`); the URL Standard keeps them as written"),
    (183, "libcurl lower-cases escapes in the query (`%5d`); the URL Standard keeps them as written"),
    (184, "libcurl decodes unreserved escapes in the user and writes `/` for an empty path; the URL Standard keeps `us%65r` and the empty path of a non-special URL"),
    (185, "IMAP login options are not part of the URL Standard"),
    (187, "libcurl percent-encodes `;` in the password (`pwd%3bgiraffe`); the URL Standard's userinfo set keeps `;`"),
    (203, "libcurl drops empty query pieces from every URL; the URL Standard keeps `?e&&` as written (urlkit drops them when it edits the query)"),
    (204, "libcurl drops empty query pieces from every URL; the URL Standard keeps `?e&` as written"),
    (205, "libcurl drops empty query pieces from every URL; the URL Standard keeps them as written"),
    (206, "libcurl drops empty query pieces from every URL; the URL Standard keeps them as written"),
    (207, "`\\` in a path is libcurl's `%5C`; in the URL Standard it is `/` for special schemes"),
    (208, "`\\` in a path is libcurl's `%5C`; in the URL Standard it is `/` for special schemes"),
    (209, "`\\` in a path is libcurl's `%5C`; in the URL Standard it is `/` for special schemes"),
    (211, "`\\` in a path is libcurl's `%5C`; in the URL Standard it is `/` for special schemes"),
];

/// The cases that rely on trurl's scheme guessing, run with the scheme written out: the
/// index, the argument as trurl's test gives it, and as urlkit's run gives it.
const ADAPTED: &[(usize, &str, &str)] = &[
    (0, "example.com", "http://example.com"),
    (9, "localhost", "http://localhost"),
    (10, "localhost", "http://localhost"),
    (54, "localhost", "http://localhost"),
    (55, "localhost", "http://localhost"),
    (81, "example.com:29", "http://example.com:29"),
    (
        85,
        "[2001:0db8:0000:0000:0000:ff00:0042:8329]",
        "http://[2001:0db8:0000:0000:0000:ff00:0042:8329]",
    ),
    (87, "foo?a=bCd=eCe=f", "http://foo?a=bCd=eCe=f"),
    (88, "localhost", "http://localhost"),
    (89, "localhost", "http://localhost"),
    (90, "localhost", "http://localhost"),
    (91, "localhost", "http://localhost"),
    (93, "hej?a=b&a=c&a=d&b=a", "http://hej?a=b&a=c&a=d&b=a"),
    (99, "hello@localhost", "http://hello@localhost"),
    (102, "example.com", "http://example.com"),
    (103, "example.com", "http://example.com"),
    (103, "other.com", "http://other.com"),
    (104, "localhost", "http://localhost"),
    (111, "localhost?foo&bar=ar", "http://localhost?foo&bar=ar"),
    (
        151,
        "example.org/?quest=best",
        "http://example.org/?quest=best",
    ),
    (152, "example.com", "http://example.com"),
    (
        155,
        "0?00%000000000000000000000=0000000000",
        "http://0?00%000000000000000000000=0000000000",
    ),
    (
        156,
        "0?0%000000000000000000000000000000000",
        "http://0?0%000000000000000000000000000000000",
    ),
    (
        157,
        "0?0%000000000000000000000000000000000=000%0000000000",
        "http://0?0%000000000000000000000000000000000=000%0000000000",
    ),
    (158, "example.com", "http://example.com"),
    (159, "example.com:88", "http://example.com:88"),
    (160, "example.com", "http://example.com"),
    (161, "example.com", "http://example.com"),
    (162, "example.com", "http://example.com"),
    (163, "example.com", "http://example.com"),
];

fn trurl_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../conformance/trurl")
}

fn cases() -> Vec<Value> {
    let text = std::fs::read_to_string(trurl_dir().join("tests.json")).expect("tests.json");
    match serde_json::from_str(&text).expect("tests.json is JSON") {
        Value::Array(cases) => cases,
        other => panic!("tests.json is not a list: {other}"),
    }
}

/// urlkit's exit status for trurl's.
fn urlkit_status(trurl: i64) -> i32 {
    match trurl {
        0 => 0,
        // --verify's bad URL, and a --get placeholder a URL cannot fill (must:, strict:).
        9 | 10 => 1,
        _ => 2,
    }
}

/// What both JSON outputs say about a URL: its serialization, scheme, host and port, and
/// its decoded query pairs.
fn shared_json(url: &str, scheme: &Value, host: &Value, port: &Value, params: Vec<Value>) -> Value {
    json!({"url": url, "scheme": scheme, "host": host, "port": port, "params": params})
}

fn from_trurl(v: &Value) -> Value {
    let parts = &v["parts"];
    let params = v["params"].as_array().cloned().unwrap_or_default();
    let port = parts
        .get("port")
        .and_then(Value::as_str)
        .map_or(Value::Null, |p| json!(p.parse::<u16>().expect("a port")));
    shared_json(
        v["url"].as_str().expect("url"),
        &parts["scheme"],
        parts.get("host").unwrap_or(&Value::Null),
        &port,
        params,
    )
}

fn from_urlkit(v: &Value) -> Value {
    let params = v["query_pairs"]
        .as_array()
        .expect("query_pairs")
        .iter()
        .map(|p| json!({"key": p[0], "value": p[1]}))
        .collect();
    shared_json(
        v["href"].as_str().expect("href"),
        &v["scheme"],
        &v["host"],
        &v["port"],
        params,
    )
}

/// Runs case `index`; `Err` says how urlkit's answer differs.
fn run_case(index: usize, case: &Value) -> Result<(), String> {
    let mut args: Vec<String> = case["input"]["arguments"]
        .as_array()
        .expect("arguments")
        .iter()
        .map(|a| a.as_str().expect("an argument").to_owned())
        .collect();
    for &(_, from, to) in ADAPTED.iter().filter(|(i, _, _)| *i == index) {
        let at = args
            .iter()
            .position(|a| a == from)
            .unwrap_or_else(|| panic!("case {index} has no argument {from:?}"));
        args[at] = to.to_owned();
    }
    let output = common::urlkit_command()
        .arg("edit")
        .args(&args)
        .current_dir(trurl_dir())
        .stdin(Stdio::null())
        .output()
        .expect("run urlkit");
    let expected = &case["expected"];
    let status = output.status.code().unwrap_or(-1);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let trurl_status = expected["returncode"].as_i64().expect("returncode");
    let failing = trurl_status != 0;
    let mut wrong = Vec::new();
    if status != urlkit_status(trurl_status) {
        wrong.push(format!(
            "exit status {status}, not {} (trurl's {trurl_status})",
            urlkit_status(trurl_status)
        ));
    }
    match &expected["stdout"] {
        Value::String(want) => {
            let same = if failing {
                stdout.starts_with(want.as_str())
            } else {
                stdout == *want
            };
            if !same {
                wrong.push(format!("stdout {stdout:?}, not {want:?}"));
            }
        }
        Value::Array(want) => {
            let got: Vec<Value> = stdout
                .lines()
                .map(|l| serde_json::from_str::<Value>(l).unwrap_or(Value::Null))
                .filter(|v| v.get("error").is_none())
                .map(|v| from_urlkit(&v))
                .collect();
            let want: Vec<Value> = want.iter().map(from_trurl).collect();
            let same = if failing {
                got.starts_with(&want)
            } else {
                got == want
            };
            if !same {
                wrong.push(format!("JSON {got:?}, not {want:?}"));
            }
        }
        other => panic!("case {index}: stdout {other}"),
    }
    match &expected["stderr"] {
        Value::String(s) if s.is_empty() && !stderr.is_empty() => {
            wrong.push(format!("stderr {stderr:?}, not empty"))
        }
        Value::String(s) if !s.is_empty() && stderr.is_empty() => {
            wrong.push("stderr empty, where trurl writes to it".into())
        }
        Value::Bool(true) | Value::Array(_) if stderr.is_empty() => {
            wrong.push("stderr empty, where trurl writes to it".into())
        }
        _ => {}
    }
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "case {index} (trurl's test {}) {:?}: {}",
            index + 1,
            args,
            wrong.join("; ")
        ))
    }
}

#[test]
fn every_trurl_case_urlkit_shares_gives_trurls_answer() {
    let cases = cases();
    assert_eq!(cases.len(), 213, "tests.json changed: review the lists");
    let mut failures = Vec::new();
    let mut ran = 0;
    for (index, case) in cases.iter().enumerate() {
        if SKIPPED.iter().any(|(i, _)| *i == index) {
            continue;
        }
        ran += 1;
        if let Err(e) = run_case(index, case) {
            failures.push(e);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {ran} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_lists_name_real_cases_once_with_a_reason() {
    let cases = cases();
    let mut seen = std::collections::BTreeSet::new();
    for (index, reason) in SKIPPED {
        assert!(*index < cases.len(), "no case {index}");
        assert!(seen.insert(*index), "case {index} is listed twice");
        assert!(reason.len() > 20, "case {index} needs a reason");
    }
    for (index, from, _) in ADAPTED {
        assert!(
            !seen.contains(index),
            "case {index} is both skipped and adapted"
        );
        let args = cases[*index]["input"]["arguments"].as_array().unwrap();
        assert!(
            args.iter().any(|a| a == from),
            "case {index} has no {from:?}"
        );
    }
}

/// trurl's JSON lists no pairs for `?&&&` (case 110), and neither does urlkit's, as the
/// URL Standard's urlencoded parser skips empty pieces.
#[test]
fn empty_query_pieces_are_no_pairs_in_json() {
    let o = common::urlkit(&["edit", "--json", "https://curl.se/?&&&"], "");
    assert_eq!(o.status.code(), Some(0));
    let v: Value = serde_json::from_str(common::stdout(&o).trim()).unwrap();
    assert_eq!(v["href"], "https://curl.se/?&&&");
    assert_eq!(v["query_pairs"], json!([]));
}
