//! `urlkit edit` and `urlkit inspect`, driving the real binary: trurl's edits with trurl's
//! option names, errors naming the line, the byte and the component, and the inspector's
//! bounded answers.

mod common;

use common::{stderr, stdout, urlkit};

/// `urlkit edit ARGS… URL` succeeds and prints `expected` (one URL per line).
fn edits_to(args: &[&str], url: &str, expected: &str) {
    let mut argv = vec!["edit"];
    argv.extend(args);
    argv.push(url);
    let o = urlkit(&argv, "");
    assert_eq!(o.status.code(), Some(0), "{argv:?}: {}", stderr(&o));
    assert_eq!(stdout(&o), expected, "{argv:?}");
}

#[test]
fn set_and_clear_follow_the_url_standard() {
    edits_to(
        &["--set", "host=example.org", "--set", "port="],
        "http://a.example:8080/x",
        "http://example.org/x\n",
    );
    edits_to(&["-s", "path=a b"], "http://h/x", "http://h/a%20b\n");
    edits_to(&["--set", "scheme=HTTPS"], "http://h:443/", "https://h/\n");
    edits_to(&["--set", "protocol=wss"], "ws://h/", "wss://h/\n");
    edits_to(
        &["--set", "hostport=b.example:81"],
        "http://a/",
        "http://b.example:81/\n",
    );
    edits_to(
        &["--clear", "query", "--clear", "fragment", "--clear", "user"],
        "https://u:p@a.example/?q=1#f",
        "https://:p@a.example/\n",
    );
    edits_to(
        &["--set", "query=a b", "--set", "fragment=#x"],
        "http://h/",
        "http://h/?a%20b#x\n",
    );
}

#[test]
fn appends_trims_and_sorts_as_trurl_does() {
    edits_to(
        &["--append", "path=four"],
        "http://twelve/three?hello",
        "http://twelve/three/four?hello\n",
    );
    edits_to(
        &["--append", "query=search=life"],
        "http://host?name=hello",
        "http://host/?name=hello&search=life\n",
    );
    // Appended text is encoded, so the pairs read back exactly as given.
    edits_to(
        &["-a", "query=a b=c&d", "-a", "path=x/y"],
        "http://h/p",
        "http://h/p/x%2Fy?a+b=c%26d\n",
    );
    edits_to(
        &["--qtrim", "a*"],
        "https://example.com?a12=hej&a23=moo&b12=foo",
        "https://example.com/?b12=foo\n",
    );
    edits_to(
        &["--trim", "query=utm_*"],
        "https://e.example/?utm_source=x&id=7&utm_medium=y",
        "https://e.example/?id=7\n",
    );
    edits_to(
        &["--qtrim", "*"],
        "https://e.example/?a=1#f",
        "https://e.example/#f\n",
    );
    edits_to(
        &["--sort-query"],
        "http://alpha/?one=real&two=fake&three=alsoreal",
        "http://alpha/?one=real&three=alsoreal&two=fake\n",
    );
    edits_to(
        &["--sort-query", "--query-separator", ";"],
        "http://h/?b=1;a=2",
        "http://h/?a=2;b=1\n",
    );
}

#[test]
fn redirect_resolves_against_each_url() {
    edits_to(
        &["--redirect", "../here.html"],
        "https://curl.se/we/are.html",
        "https://curl.se/here.html\n",
    );
    edits_to(
        &["--redirect", "//other.example/x"],
        "https://a.example/y",
        "https://other.example/x\n",
    );
}

#[test]
fn alternatives_and_iterations_give_every_combination() {
    edits_to(
        &["--expand"],
        "https://{www,api}.example.com/{a,b}",
        "https://www.example.com/a\nhttps://www.example.com/b\nhttps://api.example.com/a\nhttps://api.example.com/b\n",
    );
    edits_to(
        &["--expand"],
        "https://{,www.}e.example/\\{x\\}",
        "https://e.example/%7Bx%7D\nhttps://www.e.example/%7Bx%7D\n",
    );
    edits_to(
        &["--iterate", "scheme=ftp https", "--iterate", "port=22 80"],
        "http://example.com",
        "ftp://example.com:22/\nftp://example.com:80/\nhttps://example.com:22/\nhttps://example.com:80/\n",
    );
    edits_to(
        &["--expand", "--set", "port={81,82}"],
        "http://h/",
        "http://h:81/\nhttp://h:82/\n",
    );
    let o = urlkit(&["edit", "--expand", "http://{a/"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("byte 7"), "{}", stderr(&o));
}

#[test]
fn errors_name_the_line_the_byte_and_the_component_and_keep_the_lines_aligned() {
    let o = urlkit(
        &["edit", "--set", "port=8080"],
        "http://a.example/\nhttp://b.example:99999/\nmailto:x@y\nhttp://c.example/\n",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o),
        "http://a.example:8080/\n\n\nhttp://c.example:8080/\n"
    );
    let err = stderr(&o);
    assert!(
        err.contains("line 2, byte 17: port: invalid port 99999"),
        "{err}"
    );
    assert!(err.contains("line 3: port: a URL without a host"), "{err}");

    let o = urlkit(&["edit", "--set", "scheme=mailto", "http://a/"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("scheme: the URL Standard does not turn a special URL"),
        "{}",
        stderr(&o)
    );

    let o = urlkit(&["edit", "--json", "--set", "host=a b", "http://x/"], "");
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["component"], "host");
    assert!(
        v["error"].as_str().unwrap().contains("byte 1 of the value"),
        "{v}"
    );
}

#[test]
fn bad_options_are_usage_errors() {
    for args in [
        &["edit", "--set", "nope=1", "http://a/"][..],
        &["edit", "--set", "port", "http://a/"],
        &["edit", "--append", "host=x", "http://a/"],
        &["edit", "--trim", "path=x", "http://a/"],
        &["edit", "--clear", "colour", "http://a/"],
        &["edit", "--get", "{nope}", "http://a/"],
    ] {
        let o = urlkit(args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).starts_with("urlkit: "),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn json_and_get_show_the_edited_url() {
    let o = urlkit(
        &[
            "edit",
            "--json",
            "--set",
            "host=例子.卷筒纸",
            "--sort-query",
            "http://a/?b=2&a=1",
        ],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["input"], "http://a/?b=2&a=1");
    assert_eq!(v["href"], "http://xn--fsqu00a.xn--3lr804guic/?a=1&b=2");
    assert_eq!(v["host_unicode"], "例子.卷筒纸");
    assert_eq!(
        v["query_pairs"],
        serde_json::json!([["a", "1"], ["b", "2"]])
    );
    let o = urlkit(
        &[
            "parse",
            "--get",
            "{hostport} {query:a}",
            "--append",
            "query=a=x y",
            "http://h:81/",
        ],
        "",
    );
    assert_eq!(stdout(&o), "h:81 x y\n");
}

#[test]
fn rfc3986_edits_keep_what_a_browser_would_rewrite() {
    edits_to(
        &[
            "--rfc3986",
            "--set",
            "host=ldap.example",
            "--set",
            "port=389",
        ],
        "ldap://[2001:db8::7]/c=GB?objectClass?one",
        "ldap://ldap.example:389/c=GB?objectClass?one\n",
    );
    edits_to(
        &["--rfc3986", "--set", "path=a b/c", "--set", "scheme=urn"],
        "x:y",
        "urn:a%20b/c\n",
    );
    let o = urlkit(&["edit", "--rfc3986", "--set", "port=1", "mailto:x@y"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("port: the URI has no authority"),
        "{}",
        stderr(&o)
    );
    let o = urlkit(
        &[
            "parse",
            "--rfc3986",
            "--get",
            "{host} {port} {path}",
            "ldap://h:389/c=GB",
        ],
        "",
    );
    assert_eq!(stdout(&o), "h 389 /c=GB\n");
}

#[test]
fn inspect_answers_requests_as_the_server_does() {
    let o = urlkit(
        &[
            "inspect",
            r#"{"url": "https://a.example/p?b=2&a=1", "set": {"hostname": "b.example", "port": "8443"}, "append_query": ["c=3"], "trim_query": ["b"], "sort_query": true}"#,
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["whatwg"]["href"], "https://b.example:8443/p?a=1&c=3");
    assert_eq!(v["rfc3986"]["input"], "https://b.example:8443/p?a=1&c=3");
    assert!(v["whatwg"]["diagram"].as_str().unwrap().contains("query"));

    let o = urlkit(
        &["inspect"],
        "{\"url\": \"http://a/\", \"set\": {\"port\": \"99999\"}}\n{\"url\": \"x\", \"colour\": 1}\n",
    );
    assert_eq!(o.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["error"]["code"], "edit-refused");
    assert_eq!(lines[0]["error"]["field"], "set.port");
    assert_eq!(lines[1]["error"]["code"], "invalid-request");
}

/// A URL with more query pairs, path segments and warnings than a report lists: the lists
/// stop at their caps and count the rest.
#[test]
fn reports_list_at_most_a_thousand_pairs_and_segments_and_count_the_rest() {
    let url = format!("http://h/{}?{}", "s/".repeat(1500), "a=1&".repeat(2500));
    let o = urlkit(&["parse", "--json", &url], "");
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["query_pairs"].as_array().unwrap().len(), 1000);
    // The empty piece after the last `&` is no pair (as the URL Standard reads a query).
    assert_eq!(v["query_pairs_not_listed"], 1500);
    assert_eq!(v["path_segments"].as_array().unwrap().len(), 1000);
    assert_eq!(v["path_segments_not_listed"], 501);
    assert!(v["diagram"].is_null(), "a URL this long is not drawn");

    let request = serde_json::json!({ "url": "x".repeat(70_000) }).to_string();
    let o = urlkit(&["inspect", &request], "");
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["error"]["field"], "url");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("65536"),
        "{v}"
    );
}

#[test]
fn help_shows_examples_and_the_bounds() {
    for cmd in ["edit", "inspect"] {
        let o = urlkit(&[cmd, "--help"], "");
        assert!(stdout(&o).contains("Examples:"), "{cmd}");
    }
    let o = urlkit(&["inspect", "--help"], "");
    assert!(stdout(&o).contains("1,000 query"), "{}", stdout(&o));
    let o = urlkit(&["parse", "--help"], "");
    assert!(stdout(&o).contains("1,000 query pairs"), "{}", stdout(&o));
}

#[test]
fn url_file_is_read_after_the_arguments_and_errors_name_its_lines() {
    let path = std::env::temp_dir().join(format!("urlkit-url-file-{}.txt", std::process::id()));
    std::fs::write(&path, "http://a.example/\r\nhttp://b.example:99999/\n").unwrap();
    let file = path.to_str().unwrap();
    let o = urlkit(
        &[
            "edit",
            "--set",
            "port=81",
            "http://arg.example/",
            "-f",
            file,
        ],
        "",
    );
    std::fs::remove_file(&path).unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o),
        "http://arg.example:81/\nhttp://a.example:81/\n\n"
    );
    assert!(stderr(&o).contains("line 2, byte 17"), "{}", stderr(&o));
    let o = urlkit(&["edit", "--url-file", "-"], "http://c.example/x\n");
    assert_eq!(stdout(&o), "http://c.example/x\n");
    let o = urlkit(&["parse", "-f", "/nonexistent/urls.txt"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("cannot read /nonexistent/urls.txt"),
        "{}",
        stderr(&o)
    );
}

/// Runs the binary with `args` and no input, its address space capped at `limit` bytes,
/// so that a command building what it should only count fails to allocate instead of
/// taking the machine's memory.
fn urlkit_within(limit: u64, args: &[&str]) -> std::process::Output {
    use std::os::unix::process::CommandExt;
    let mut command = common::urlkit_command();
    command.args(args).stdin(std::process::Stdio::null());
    // SAFETY: setrlimit is async-signal-safe; the closure touches nothing else.
    unsafe {
        command.pre_exec(move || {
            let cap = libc::rlimit {
                rlim_cur: limit as libc::rlim_t,
                rlim_max: limit as libc::rlim_t,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &cap) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    command.output().expect("urlkit runs")
}

const GIB: u64 = 1 << 30;

/// `{a,b}` `n` times: 2^n alternatives.
fn pairs(n: usize) -> String {
    "{a,b}".repeat(n)
}

#[test]
fn iterations_are_counted_and_refused_before_any_is_made() {
    let hundred: Vec<String> = (0..5)
        .map(|k| {
            let values: Vec<String> = (0..100).map(|v| format!("{k}{v}")).collect();
            format!(
                "{}={}",
                ["path", "query", "fragment", "user", "password"][k],
                values.join(" ")
            )
        })
        .collect();
    let mut argv = vec!["edit"];
    for item in &hundred {
        argv.extend(["--iterate", item.as_str()]);
    }
    argv.push("http://h/");
    let o = urlkit_within(GIB, &argv);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("10000000000 combinations of --iterate values; at most 10000"),
        "{err}"
    );
    assert!(o.stdout.is_empty());

    // Past what a usize holds: still a count, not an overflow.
    let set = |c: &str| format!("{c}={}", pairs(40));
    let (a, b) = (set("path"), set("query"));
    let o = urlkit_within(
        GIB,
        &["edit", "--expand", "--set", &a, "--set", &b, "http://h/"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!(
            "more than {} combinations of --set alternatives; at most 10000",
            usize::MAX
        )),
        "{}",
        stderr(&o)
    );
}

#[test]
fn set_alternatives_are_counted_with_the_iterations() {
    // Two values of 2^13 alternatives each: 67,108,864 edit lists, refused at once.
    let (a, b) = (
        format!("path={}", pairs(13)),
        format!("query={}", pairs(13)),
    );
    let o = urlkit_within(
        GIB,
        &["edit", "--expand", "--set", &a, "--set", &b, "http://h/"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("67108864 combinations of --set alternatives; at most 10000"),
        "{}",
        stderr(&o)
    );

    // Alternatives and iterations together.
    let a = format!("path={}", pairs(7));
    let o = urlkit_within(
        GIB,
        &["edit", "--expand", "--set", &a, "--iterate", "port=1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79", "http://h/"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("10112 combinations of --set alternatives and --iterate values"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_url_expansion_times_the_options_is_refused_for_its_line() {
    // 2^7 URLs × 2^7 paths: 16,384 combinations, past the limit together.
    let url = format!("http://h/{}", pairs(7));
    let set = format!("query={}", pairs(7));
    let o = urlkit(
        &["edit", "--expand", "--set", &set, "-f", "-"],
        &format!("http://first/\n{url}\nhttp://last/\n"),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    // The lines still match: 128 for the first URL, one empty for the refused one, 128.
    assert_eq!(lines.len(), 128 + 1 + 128, "{}", stderr(&o));
    assert_eq!(lines[0], "http://first/?aaaaaaa");
    assert_eq!(lines[127], "http://first/?bbbbbbb");
    assert_eq!(lines[128], "");
    assert_eq!(lines[129], "http://last/?aaaaaaa");
    let err = stderr(&o);
    assert!(err.contains("line 2: --expand: 16384 combinations (128 URLs from the alternatives × 128 edit lists from the options); at most 10000"), "{err}");

    // A URL alone past the limit is refused for its line too, naming the count.
    let o = urlkit(
        &["edit", "--expand", &format!("http://h/{}", pairs(60))],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o)
            .contains("--expand: 1152921504606846976 URLs from the alternatives; at most 10000"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn expansions_at_the_limit_are_made_in_order() {
    // 10 URLs × 1,000 edit lists: exactly the limit, every one printed in order.
    let url = "http://h/{0,1,2,3,4,5,6,7,8,9}";
    let digits = "0 1 2 3 4 5 6 7 8 9";
    let o = urlkit(
        &[
            "edit",
            "--expand",
            "--set",
            "query={0,1,2,3,4,5,6,7,8,9}{0,1,2,3,4,5,6,7,8,9}",
            "--iterate",
            &format!("fragment={digits}"),
            url,
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let expected: Vec<String> = (0..10)
        .flat_map(|p| (0..1000).map(move |q| format!("http://h/{p}?{:02}#{}", q / 10, q % 10)))
        .collect();
    assert_eq!(out.lines().collect::<Vec<_>>(), expected);
}

#[test]
fn a_huge_failing_url_is_quoted_by_a_bounded_excerpt_with_its_position() {
    // 2 MB of control characters, which quoting whole writes as six bytes each.
    let line = format!("http://h:x/{}", "\u{1}".repeat(2_000_000));
    let cases: [(&[&str], &str); 3] = [
        (&["edit", "--set", "path=y"], "line 1, byte 9: "),
        (&["parse", "--json"], "line 1, byte 9: "),
        (&["parse", "--get", "{host}"], "line 1, byte 9: "),
    ];
    for (args, position) in cases {
        let o = urlkit(args, &format!("{line}\n"));
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = stderr(&o);
        assert!(
            o.stderr.len() < 4096,
            "{args:?}: {} bytes of stderr",
            o.stderr.len()
        );
        assert!(err.contains("… (2000011 bytes)"), "{args:?}: {err}");
        assert!(err.contains(position), "{args:?}: {err}");
        assert!(
            err.starts_with("urlkit: \"http://h:x/\\u{1}"),
            "{args:?}: {err}"
        );
    }

    // A host the parser rejects is quoted by an excerpt in the message too.
    let line = format!("http://[{}]/", "1:".repeat(1_000_000));
    for args in [
        &["parse"][..],
        &["edit", "--sort-query"],
        &["edit", "--rfc3986", "--set", "port=1"],
    ] {
        let o = urlkit(args, &format!("{line}\n"));
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(
            o.stderr.len() < 4096,
            "{args:?}: {} bytes of stderr",
            o.stderr.len()
        );
        assert!(
            stderr(&o).contains("(2000010 bytes)"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn a_host_of_invalid_utf8_is_refused_with_an_excerpt() {
    let mut line = b"http://".to_vec();
    line.extend(std::iter::repeat_n(0xFF_u8, 1_000_000));
    line.extend(b"/\n");
    let mut child = common::urlkit_command()
        .arg("parse")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn urlkit");
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), &line).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(o.stderr.len() < 4096, "{} bytes of stderr", o.stderr.len());
    // Each invalid byte is read as U+FFFD (three bytes), which the host cannot hold.
    assert!(err.contains("… (3000008 bytes)"), "{err}");
    assert!(err.contains("line 1, byte 7: "), "{err}");
}

#[test]
fn query_edits_run_in_trurls_order_and_drop_empty_pieces() {
    // Trims run before appends: the appended `a` stays.
    edits_to(
        &["--qtrim", "a", "-a", "query=a=ciao", "-a", "query=b=salve"],
        "https://example.org/foo?a=hi&b=hello&x=y",
        "https://example.org/foo?b=hello&x=y&a=ciao&b=salve\n",
    );
    edits_to(
        &["--sort-query"],
        "https://example.com?a=b&c=d&",
        "https://example.com/?a=b&c=d\n",
    );
    edits_to(
        &["--sort-query", "--trim", "query=a"],
        "https://example.com?a=b&&c=d&",
        "https://example.com/?c=d\n",
    );
    // No query edit: the query stays as written.
    edits_to(&["-s", "port=1"], "http://h/?e&&", "http://h:1/?e&&\n");
}

#[test]
fn replace_takes_the_first_parameter_of_the_name_and_replace_append_adds_it() {
    edits_to(
        &["--replace", "b=f o"],
        "https://example.com?a=123&b=321&b=987",
        "https://example.com/?a=123&b=f+o\n",
    );
    edits_to(&["--replace", "k=v"], "http://h/?a=1", "http://h/?a=1\n");
    edits_to(
        &["--replace-append", "k=v"],
        "http://h/?a=1",
        "http://h/?a=1&k=v\n",
    );
    edits_to(
        &["--force-replace", "k"],
        "http://h/?k=1&a=2",
        "http://h/?k&a=2\n",
    );
    // Names are compared decoded.
    edits_to(
        &["--replace", "a b=2"],
        "http://h/?a%20b=1",
        "http://h/?a+b=2\n",
    );
    let o = urlkit(&["edit", "--replace", "", "http://h/"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--replace: no parameter given"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_conditional_set_fills_only_what_the_url_lacks() {
    edits_to(&["--set", "port?=99"], "http://h:88/", "http://h:88/\n");
    edits_to(&["--set", "port?=99"], "http://h/", "http://h:99/\n");
    edits_to(
        &["--set", "query?=a=1", "--set", "fragment?=f"],
        "http://h/?q#g",
        "http://h/?q#g\n",
    );
    edits_to(&["--set", "user?=u"], "http://h/", "http://u@h/\n");
    edits_to(&["--set", "scheme?=https"], "ftp://h/", "ftp://h/\n");
    edits_to(
        &["--rfc3986", "--set", "port?=389", "--set", "host?=x"],
        "ldap://h/c=GB",
        "ldap://h:389/c=GB\n",
    );
}

#[test]
fn contradictory_options_are_usage_errors_naming_both() {
    for (args, first, second) in [
        (
            vec!["--set", "port=144", "--set", "port=145"],
            "--set \"port=144\"",
            "--set \"port=145\"",
        ),
        (
            vec!["--set", "host=x", "--iterate", "host=a b"],
            "--set \"host=x\"",
            "--iterate \"host=a b\"",
        ),
        (
            vec!["--iterate", "port=1 2", "--iterate", "port=3"],
            "--iterate \"port=1 2\"",
            "--iterate \"port=3\"",
        ),
        (
            vec!["--set", "port?=1", "--set", "port=2"],
            "--set \"port?=1\"",
            "--set \"port=2\"",
        ),
        (vec!["--punycode", "--as-idn"], "--punycode", "--as-idn"),
    ] {
        let mut argv = vec!["edit"];
        argv.extend(&args);
        argv.push("sftp://odd/");
        let o = urlkit(&argv, "");
        assert_eq!(o.status.code(), Some(2), "{argv:?}");
        assert_eq!(stdout(&o), "", "{argv:?}");
        let err = stderr(&o);
        assert!(
            err.contains(first) && err.contains(second),
            "{argv:?}: {err}"
        );
    }
}

/// `urlkit edit ARGS…` with stdin `/dev/null`.
fn without_stdin(args: &[&str]) -> std::process::Output {
    common::urlkit_command()
        .arg("edit")
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run urlkit")
}

#[test]
fn set_alone_makes_a_url_unless_stdin_is_a_list() {
    let o = without_stdin(&["-s", "host=moo", "-s", "scheme=https", "-s", "port=999"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "https://moo:999/\n");
    let o = without_stdin(&["-s", "scheme=irc", "-s", "host=curl.se"]);
    assert_eq!(stdout(&o), "irc://curl.se/\n");
    let o = without_stdin(&["-s", "scheme=https", "--iterate", "host=a b"]);
    assert_eq!(stdout(&o), "https://a/\nhttps://b/\n");
    // From a pipe, each line is a URL to edit, and an empty list is no URL.
    let o = urlkit(&["edit", "-s", "host=moo"], "http://a/x\n");
    assert_eq!(stdout(&o), "http://moo/x\n");
    let o = urlkit(&["edit", "-s", "scheme=https", "-s", "host=moo"], "");
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), ""));
    // Without a scheme and a host there is nothing to make.
    for args in [["-s", "host=curl.se"], ["-s", "scheme=imap"]] {
        let o = without_stdin(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).contains("not enough input for a URL"),
            "{}",
            stderr(&o)
        );
    }
    // A scheme the setters refuse names the scheme.
    let o = without_stdin(&["-s", "scheme=1x", "-s", "host=h"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("scheme"), "{}", stderr(&o));
}

#[test]
fn output_options_show_ports_and_hosts_as_trurl_does() {
    edits_to(
        &["--keep-port"],
        "https://hello:443/foo",
        "https://hello:443/foo\n",
    );
    edits_to(&[], "https://hello:443/foo", "https://hello/foo\n");
    edits_to(
        &["--keep-port", "-s", "port=443", "--get", "{url} {port}"],
        "https://curl.se:22/",
        "https://curl.se:443/ 443\n",
    );
    edits_to(
        &["--keep-port", "-s", "scheme=https"],
        "ftp://hello:443/foo",
        "https://hello:443/foo\n",
    );
    // A port dropped by a clear is not kept.
    edits_to(
        &["--keep-port", "--clear", "port"],
        "https://h:443/",
        "https://h/\n",
    );
    edits_to(&["--default-port"], "https://h/p", "https://h:443/p\n");
    edits_to(
        &["--default-port", "--get", "{port}"],
        "imap://curl.se/we/are.html",
        "143\n",
    );
    edits_to(
        &["--as-idn"],
        "http://xn--rksmrgs-5wao1o/",
        "http://räksmörgås/\n",
    );
    edits_to(
        &["--as-idn", "--get", "{host} {puny:host}"],
        "http://xn--rksmrgs-5wao1o/",
        "räksmörgås xn--rksmrgs-5wao1o\n",
    );
    edits_to(
        &["--urlencode", "-g", "{query:b}\\t{query-all:a}"],
        "https://example.org/foo?a=1&b=%23&a=%26#hello",
        "%23\t1 %26\n",
    );
}

#[test]
fn must_and_strict_placeholders_fail_their_line_only() {
    let o = urlkit(
        &["edit", "--get", "{host} {must:query:id}"],
        "https://a/?id=1\nhttps://b/?x=2\nhttps://c/?id=\n",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "a 1\n\nc \n");
    let err = stderr(&o);
    assert!(
        err.contains("line 2: query: --get template byte 7: must:query:id"),
        "{err}"
    );
    let o = urlkit(
        &["edit", "--get", "{strict:query}"],
        "https://curl.se?name=mr%00smith\n",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("line 1: query:"), "{}", stderr(&o));
    assert!(stderr(&o).contains("%00"), "{}", stderr(&o));
    // Without strict: the escape of a control character stays encoded.
    edits_to(
        &["--get", "{query}"],
        "https://curl.se?name=mr%00smith",
        "name=mr%00smith\n",
    );
}

#[test]
fn verify_stops_at_the_first_url_that_fails() {
    let o = urlkit(
        &["edit", "--verify", "--set", "port=1"],
        "http://a/\nhttp://b:99999/\nhttp://c/\n",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "http://a:1/\n");
    let err = stderr(&o);
    assert!(err.contains("line 2, byte 9: port:"), "{err}");
    assert!(!err.contains("c/"), "{err}");
}
