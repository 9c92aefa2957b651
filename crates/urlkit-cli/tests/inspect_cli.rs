//! The inspector's commands, driving the real `urlkit` binary.

mod common;

use common::{stderr, stdout, urlkit};

#[test]
fn parse_json_prints_components_in_the_order_a_url_reads() {
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
    let line = stdout(&o);
    let at = |key: &str| line.find(&format!("\"{key}\":")).expect(key);
    let order = [
        "href", "scheme", "user", "password", "host", "port", "path", "query", "fragment",
    ];
    assert!(order.windows(2).all(|w| at(w[0]) < at(w[1])), "{line}");
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
    assert_eq!(lines[0]["host"], "ok.example");
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
        "user",
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
        &[
            "parse",
            "--get",
            "{host}|{port}|{default:port}|{query:b}|{:query}",
        ],
        input,
    );
    assert_eq!(o.status.code(), Some(1));
    // {port} is the port in the URL (none here), {default:port} falls back to the scheme's.
    assert_eq!(stdout(&o), "x.org||80|A c|utm=1&b=%41+c\n\n||||\n");
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
    // The shortest reference, as the help promises: `/x`, not `../../../../x`.
    let o = urlkit(&["relativize", "http://a/b/c/d/e/f", "http://a/x"], "");
    assert_eq!(stdout(&o), "/x\n");
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

/// Every urltestdata.json case through the binary's `parse --json`, grouped by base, checked
/// against the expected attributes. Inputs go as arguments; those with a NUL byte, which an
/// argument cannot carry, go through stdin.
#[test]
fn every_urltestdata_case_passes_through_parse_json() {
    use std::collections::BTreeMap;
    let data = urlkit_testdata::conformance("wpt/urltestdata.json");
    let mut by_base: BTreeMap<Option<String>, Vec<&serde_json::Value>> = BTreeMap::new();
    for case in data.as_array().unwrap().iter().filter(|c| c.is_object()) {
        by_base
            .entry(case["base"].as_str().map(str::to_owned))
            .or_default()
            .push(case);
    }
    let mut checked = 0;
    let mut failures = Vec::new();
    for (base, cases) in &by_base {
        // By the way each input can go: as an argument, a stdin line, or an inspect
        // request (JSON escapes carry a NUL and a newline both).
        let mut ways: [Vec<&serde_json::Value>; 3] = Default::default();
        for case in cases {
            let input = case["input"].as_str().unwrap();
            let way = match (input.contains('\0'), input.contains(['\n', '\r'])) {
                (false, _) => 0,
                (true, false) => 1,
                (true, true) => 2,
            };
            ways[way].push(case);
        }
        for (way, batch) in ways.iter().enumerate() {
            if batch.is_empty() {
                continue;
            }
            let inputs: Vec<&str> = batch.iter().map(|c| c["input"].as_str().unwrap()).collect();
            let mut argv: Vec<&str> = vec!["parse", "--json"];
            if let Some(b) = base {
                argv.extend(["--base", b.as_str()]);
            }
            let stdin: String = match way {
                0 => {
                    argv.push("--");
                    argv.extend(&inputs);
                    String::new()
                }
                1 => inputs.iter().map(|i| format!("{i}\n")).collect(),
                _ => {
                    argv = vec!["inspect"];
                    inputs
                        .iter()
                        .map(|i| format!("{}\n", serde_json::json!({"url": i, "base": base})))
                        .collect()
                }
            };
            let o = urlkit(&argv, &stdin);
            if base.is_some() && o.status.code() == Some(2) {
                // A base that is not a URL is a usage error; its cases all expect failure.
                assert!(batch.iter().all(|c| c["failure"] == true), "base {base:?}");
                checked += batch.len();
                continue;
            }
            let lines: Vec<serde_json::Value> = stdout(&o)
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .map(
                    |answer: serde_json::Value| match answer.get("whatwg_error") {
                        // An inspect answer: its WHATWG view, or its error as `parse --json`
                        // prints one.
                        Some(e) if e.is_object() => {
                            serde_json::json!({"error": e["message"], "position": e["position"]})
                        }
                        Some(_) => answer["whatwg"].clone(),
                        None => answer,
                    },
                )
                .collect();
            assert_eq!(lines.len(), batch.len(), "base {base:?}");
            for (case, got) in batch.iter().zip(&lines) {
                let input = case["input"].as_str().unwrap();
                let wrong = if case["failure"] == true {
                    match got["error"].as_str() {
                        Some(_) if got["position"].as_u64().is_some() => vec![],
                        _ => vec![format!("expected a failure with its position, got {got}")],
                    }
                } else {
                    urlkit_testdata::url_api_differences(case, got)
                };
                if !wrong.is_empty() {
                    failures.push(format!("{input:?} base {base:?}: {}", wrong.join("; ")));
                }
                checked += 1;
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(checked > 850, "{checked}");
}

/// `value` with the characters `--expand` reads (`{`, `}`, `,`, `\\`) escaped.
fn literal(value: &str) -> String {
    let mut out = String::new();
    for c in value.chars() {
        if matches!(c, '{' | '}' | ',' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Every setters_tests.json case through the binary: `urlkit edit --set` (one run per
/// attribute: every URL against every value with `--expand`, and the lines of the
/// matching pairs read), and the cases whose value holds a NUL, which an argument cannot
/// carry, as `urlkit inspect` requests on stdin. A value the setter refuses must leave its
/// line empty with the component named on stderr, and the standard must leave that URL
/// unchanged.
#[test]
fn every_setters_tests_case_passes_through_the_binary() {
    let data = urlkit_testdata::conformance("wpt/setters_tests.json");
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut requests = String::new();
    let mut requested = Vec::new();
    let mut refused = Vec::new();
    for (attribute, cases) in data.as_object().unwrap() {
        let Some(cases) = cases.as_array() else {
            continue;
        };
        let cases: Vec<&serde_json::Value> =
            cases.iter().filter(|c| c["href"].is_string()).collect();
        // The URL API's `host` is `hostport` here; `host` is the host name.
        let component = if attribute == "host" {
            "hostport"
        } else {
            attribute
        };
        let (plain, with_nul): (Vec<_>, Vec<_>) = cases
            .into_iter()
            .partition(|c| !c["new_value"].as_str().unwrap().contains('\0'));
        for case in with_nul {
            let request = serde_json::json!({
                "url": case["href"],
                "set": {component: case["new_value"]},
            });
            requests.push_str(&format!("{request}\n"));
            requested.push((attribute.clone(), case));
        }
        let values: Vec<String> = plain
            .iter()
            .map(|c| literal(c["new_value"].as_str().unwrap()))
            .collect();
        let set = format!("{component}={{{}}}", values.join(","));
        let mut argv = vec!["edit", "--expand", "--json", "--set", set.as_str(), "--"];
        let hrefs: Vec<String> = plain
            .iter()
            .map(|c| literal(c["href"].as_str().unwrap()))
            .collect();
        argv.extend(hrefs.iter().map(String::as_str));
        let o = urlkit(&argv, "");
        let lines: Vec<serde_json::Value> = stdout(&o)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), plain.len() * plain.len(), "{attribute}");
        for (i, case) in plain.iter().enumerate() {
            let got = &lines[i * plain.len() + i];
            let what = format!("{attribute} = {} on {}", case["new_value"], case["href"]);
            failures.extend(setter_result(&what, case, got, &mut refused));
            checked += 1;
        }
    }
    let o = urlkit(&["inspect"], &requests);
    let answers: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), requested.len());
    for ((attribute, case), answer) in requested.iter().zip(&answers) {
        let what = format!(
            "{attribute} = {} on {} (inspect)",
            case["new_value"], case["href"]
        );
        let got = if answer["error"].is_object() {
            serde_json::json!({"input": case["href"], "error": answer["error"]["message"], "component": answer["error"]["field"]})
        } else {
            answer["whatwg"].clone()
        };
        failures.extend(setter_result(&what, case, &got, &mut refused));
        checked += 1;
    }
    failures.extend(changed_by_the_standard(&refused));
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(checked > 250, "{checked}");
}

/// What is wrong with one setter's outcome (a report, or an error line) against its case.
/// A refusal is right when it names a component and the standard leaves the URL as it
/// was: those cases are added to `refused`, checked together afterwards.
fn setter_result<'a>(
    what: &str,
    case: &'a serde_json::Value,
    got: &serde_json::Value,
    refused: &mut Vec<(String, &'a serde_json::Value)>,
) -> Vec<String> {
    if got["error"].is_string() {
        if got["component"].as_str().is_none_or(|c| c.is_empty()) {
            return vec![format!(
                "{what}: refused without naming the component: {got}"
            )];
        }
        refused.push((what.to_owned(), case));
        return vec![];
    }
    urlkit_testdata::url_api_differences(&case["expected"], got)
        .into_iter()
        .map(|d| format!("{what}: {d}"))
        .collect()
}

/// The refused cases whose expected URL is not their URL as it was.
fn changed_by_the_standard(refused: &[(String, &serde_json::Value)]) -> Vec<String> {
    let mut argv = vec!["parse", "--get", "{url}", "--"];
    argv.extend(refused.iter().map(|(_, c)| c["href"].as_str().unwrap()));
    let o = urlkit(&argv, "");
    let unchanged: Vec<String> = stdout(&o).lines().map(str::to_owned).collect();
    assert_eq!(unchanged.len(), refused.len());
    refused
        .iter()
        .zip(&unchanged)
        .filter(|((_, case), href)| {
            case["expected"]["href"]
                .as_str()
                .is_some_and(|e| e != *href)
        })
        .map(|((what, _), _)| format!("{what}: refused, but the standard changes the URL"))
        .collect()
}
