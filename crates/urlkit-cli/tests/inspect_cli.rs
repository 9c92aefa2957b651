//! The inspector's commands, driving the real `urlkit` binary.

use std::io::Write;
use std::process::{Output, Stdio};

mod common;

fn urlkit(args: &[&str], stdin: &str) -> Output {
    let mut child = common::urlkit_command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn urlkit");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("wait")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn parse_json_prints_url_api_attributes_and_extras() {
    let o = urlkit(
        &["parse", "--json", "http://例子.卷筒纸:80/a%20b?x=1&x=2#f"],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(
        v["href"],
        "http://xn--fsqu00a.xn--3lr804guic/a%20b?x=1&x=2#f"
    );
    assert_eq!(v["host_unicode"], "例子.卷筒纸");
    assert_eq!(v["host_type"], "domain");
    assert_eq!(v["path_segments"], serde_json::json!(["a b"]));
    assert_eq!(
        v["query_pairs"],
        serde_json::json!([["x", "1"], ["x", "2"]])
    );
    assert_eq!(v["warnings"][0]["code"], "explicit-default-port");
}

#[test]
fn parse_json_reports_errors_per_line_and_exits_1() {
    let o = urlkit(
        &["parse", "--json"],
        "https://ok.example/\nhttp://a:99999/\n",
    );
    assert_eq!(o.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["hostname"], "ok.example");
    assert_eq!(lines[1]["input"], "http://a:99999/");
    assert_eq!(lines[1]["position"], 9);
    assert!(stderr(&o).contains("line 2, byte 9"), "{}", stderr(&o));
}

#[test]
fn parse_table_shows_the_components() {
    let url =
        "https://john.doe@www.example.com:123/forum/questions/?tag=networking&order=newest#top";
    let o = urlkit(&["parse", url], "");
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0));
    for want in [
        "scheme",
        "userinfo",
        "www.example.com",
        "123",
        "/forum/questions/",
        "\"tag\" = \"networking\"",
        "top",
    ] {
        assert!(out.contains(want), "{want} missing from:\n{out}");
    }
}

#[test]
fn parse_table_shows_the_readable_iri_form() {
    let o = urlkit(&["parse", "http://例子.卷筒纸/引き割り.html?q=%2F"], "");
    let out = stdout(&o);
    assert!(
        out.contains("display       http://例子.卷筒纸/引き割り.html?q=%2F\n"),
        "{out}"
    );
    assert!(
        out.contains("/%E5%BC%95%E3%81%8D%E5%89%B2%E3%82%8A.html"),
        "{out}"
    );
}

#[test]
fn parse_rfc3986_splits_generic_syntax() {
    let o = urlkit(
        &[
            "parse",
            "--rfc3986",
            "--json",
            "ldap://[2001:db8::7]/c=GB?objectClass?one",
        ],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["host"], "[2001:db8::7]");
    assert_eq!(v["path"], "/c=GB");
    assert_eq!(v["query"], "objectClass?one");
    let o = urlkit(&["parse", "--rfc3986", "mailto:John.Doe@example.com"], "");
    assert!(
        stdout(&o).contains("path          John.Doe@example.com"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn get_prints_one_line_per_url() {
    let input = "http://x.org/a?utm=1&b=%41+c#f\nnot a url\r\nfile:///etc/passwd\n";
    let o = urlkit(
        &["parse", "--get", "{host}|{port}|{query:b}|{:query}"],
        input,
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "x.org|80|A c|utm=1&b=%41+c\n\n|||\n");
    assert!(stderr(&o).contains("line 2"), "{}", stderr(&o));
}

#[test]
fn get_with_base_resolves_first() {
    let o = urlkit(
        &[
            "parse",
            "--base",
            "https://h.example/a/b",
            "--get",
            "{url}",
            "../c?d",
        ],
        "",
    );
    assert_eq!(stdout(&o), "https://h.example/c?d\n");
}

#[test]
fn a_byte_order_mark_opening_stdin_is_not_part_of_the_first_url() {
    let o = urlkit(
        &["parse", "--get", "{host}"],
        "\u{FEFF}https://a.example/\r\nhttps://b.example/\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "a.example\nb.example\n");
    // Only the opening one: further down it is the URL's own (bad) text.
    let o = urlkit(
        &["parse", "--get", "{host}"],
        "https://a.example/\n\u{FEFF}https://b.example/\n",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("line 2"), "{}", stderr(&o));
}

#[test]
fn bad_template_is_a_usage_error() {
    let o = urlkit(&["parse", "--get", "{nope}", "http://a/"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("template byte 0"), "{}", stderr(&o));
}

#[test]
fn resolve_follows_rfc_3986_and_whatwg_on_request() {
    let o = urlkit(&["resolve", "http://a/b/c/d;p?q", "../g", "?y", "g:h"], "");
    assert_eq!(stdout(&o), "http://a/b/g\nhttp://a/b/c/d;p?y\ng:h\n");
    let o = urlkit(&["resolve", "--whatwg", "http://a/b/c", "..\\x"], "");
    assert_eq!(stdout(&o), "http://a/x\n");
    let o = urlkit(&["resolve", "relative/base", "g"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no scheme"), "{}", stderr(&o));
}

#[test]
fn relativize_inverts_resolve() {
    let o = urlkit(&["relativize", "http://a/b/c/d;p?q", "http://a/b/g"], "");
    assert_eq!(stdout(&o), "../g\n");
}

#[test]
fn normalize_and_compare() {
    let o = urlkit(&["normalize", "HTTP://Example.COM:80/%7euser/./a/../b"], "");
    assert_eq!(stdout(&o), "http://example.com/~user/b\n");
    let o = urlkit(
        &["compare", "http://A:80/%7euser/./x", "http://a/~user/x"],
        "",
    );
    assert_eq!(o.status.code(), Some(0));
    let o = urlkit(&["compare", "http://a/x?q=1", "https://a/x?q=2"], "");
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains("scheme") && out.contains("query") && !out.contains("path "),
        "{out}"
    );
}

#[test]
fn idn_converts_both_ways() {
    let o = urlkit(
        &["idn", "--to-ascii", "http://例子.卷筒纸", "例子.卷筒纸"],
        "",
    );
    assert_eq!(
        stdout(&o),
        "http://xn--fsqu00a.xn--3lr804guic/\nxn--fsqu00a.xn--3lr804guic\n"
    );
    let o = urlkit(
        &["idn", "--to-unicode", "http://xn--fsqu00a.xn--3lr804guic/"],
        "",
    );
    assert_eq!(stdout(&o), "http://例子.卷筒纸/\n");
    let o = urlkit(&["idn", "--to-unicode", "xn--80ak6aa92e.com"], "");
    assert!(
        stderr(&o).contains("looks like the Latin \"apple\""),
        "{}",
        stderr(&o)
    );
    let o = urlkit(&["idn", "x"], "");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn base58_round_trips_and_rejects_bad_characters() {
    let o = urlkit(&["base58", "encode", "hello world"], "");
    assert_eq!(stdout(&o), "StV1DL6CwTryKyV\n");
    let o = urlkit(&["base58", "decode", "StV1DL6CwTryKyV"], "");
    assert_eq!(stdout(&o), "hello world\n");
    let o = urlkit(&["base58", "decode", "--hex", "1112"], "");
    assert_eq!(stdout(&o), "00000001\n");
    let o = urlkit(&["base58", "encode"], "hello world");
    assert_eq!(stdout(&o), "StV1DL6CwTryKyV\n");
    let o = urlkit(&["base58", "decode", "St0V"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("byte 2"), "{}", stderr(&o));
}

#[test]
fn help_shows_examples() {
    for cmd in [
        "parse",
        "resolve",
        "relativize",
        "normalize",
        "compare",
        "idn",
        "base58",
    ] {
        let o = urlkit(&[cmd, "--help"], "");
        assert!(stdout(&o).contains("Examples:"), "{cmd}");
    }
}

/// Every urltestdata.json case through the binary's `parse --json`, grouped by base: the
/// output must be exactly the library's report, which `crates/urlkit/tests/inspect_wpt_url.rs`
/// checks against the expected values (and where the list of the `url` crate's known
/// failures lives). Inputs go as arguments; those with a NUL byte, which an argument cannot
/// carry, go through stdin.
#[test]
fn urltestdata_through_the_binary_matches_the_library() {
    use std::collections::BTreeMap;
    use urlkit::inspect::whatwg;
    use urlkit::inspect::Url;

    let data = urlkit_testdata::conformance("wpt/urltestdata.json");
    let mut by_base: BTreeMap<Option<String>, Vec<String>> = BTreeMap::new();
    for case in data.as_array().unwrap().iter().filter(|c| c.is_object()) {
        let base = case["base"].as_str().map(str::to_owned);
        if base.as_deref().is_some_and(|b| Url::parse(b).is_err()) {
            continue; // `--base` rejects it as a usage error; the library test covers these.
        }
        by_base
            .entry(base)
            .or_default()
            .push(case["input"].as_str().unwrap().to_owned());
    }
    let mut checked = 0;
    for (base, inputs) in &by_base {
        let base_url = base.as_deref().map(|b| Url::parse(b).unwrap());
        let (args, piped): (Vec<&String>, Vec<&String>) =
            inputs.iter().partition(|i| !i.contains('\0'));
        let mut runs: Vec<(Vec<&String>, bool)> = Vec::new();
        if !args.is_empty() {
            runs.push((args, false));
        }
        let piped: Vec<&String> = piped
            .into_iter()
            .filter(|i| !i.contains(['\n', '\r']))
            .collect();
        if !piped.is_empty() {
            runs.push((piped, true));
        }
        for (batch, via_stdin) in runs {
            let mut argv: Vec<&str> = vec!["parse", "--json"];
            if let Some(b) = base {
                argv.extend(["--base", b.as_str()]);
            }
            let stdin: String = if via_stdin {
                batch.iter().map(|i| format!("{i}\n")).collect()
            } else {
                argv.push("--");
                argv.extend(batch.iter().map(|s| s.as_str()));
                String::new()
            };
            let o = urlkit(&argv, &stdin);
            let lines: Vec<serde_json::Value> = stdout(&o)
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            assert_eq!(lines.len(), batch.len(), "base {base:?}");
            for (input, got) in batch.iter().zip(&lines) {
                match whatwg::report(input, base_url.as_ref()) {
                    Ok(report) => {
                        assert_eq!(*got, serde_json::to_value(&report).unwrap(), "{input:?}")
                    }
                    Err(e) => {
                        assert_eq!(got["input"], input.as_str());
                        assert_eq!(got["error"], e.message.as_str(), "{input:?}");
                        assert_eq!(got["position"], e.position, "{input:?}");
                    }
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 850, "{checked}");
}
