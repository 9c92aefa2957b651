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
    assert!(err.contains("line 2, byte 17: invalid port 99999"), "{err}");
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
    assert_eq!(v["query_pairs_not_listed"], 1501);
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
