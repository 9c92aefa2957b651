//! The `urlkit` binary's input/output and exit-status contract (PRODUCT §3), driven for
//! real.

use std::io::Write;
use std::process::{Output, Stdio};

mod common;

fn urlkit(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = common::urlkit_command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("urlkit runs");
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    output
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn each_text_argument_is_an_entry_printed_with_a_newline() {
    let output = urlkit(&["encode", "a b", "引き"], b"ignored");
    assert!(output.status.success());
    assert_eq!(stdout(&output), "a%20b\n%E5%BC%95%E3%81%8D\n");
    let output = urlkit(&["decode", "a%20b", "%E5%BC%95%E3%81%8D"], b"");
    assert_eq!(stdout(&output), "a b\n引き\n");
}

#[test]
fn stdin_is_one_entry_encode_adds_a_newline_and_decode_writes_exact_bytes() {
    let output = urlkit(&["encode"], b"line one\nline two");
    assert_eq!(stdout(&output), "line%20one%0Aline%20two\n");
    let output = urlkit(&["decode"], b"%00%FF%41");
    assert_eq!(output.stdout, "\u{0}\u{FFFD}A".as_bytes());
    let output = urlkit(&["decode", "--binary"], b"%00%FF%41");
    assert_eq!(output.stdout, b"\x00\xFFA");
    let output = urlkit(&["decode"], b"");
    assert!(output.status.success() && output.stdout.is_empty());
}

#[test]
fn per_line_mode_writes_one_result_per_line_with_the_chosen_separator() {
    let output = urlkit(&["encode", "-l"], b"a b\r\nc/d\n\ne");
    assert_eq!(stdout(&output), "a%20b\nc%2Fd\n\ne\n");
    let output = urlkit(&["decode", "-l", "--newline", "crlf"], b"a%20b\n%41\n");
    assert_eq!(stdout(&output), "a b\r\nA\r\n");
}

#[test]
fn per_line_findings_name_their_line_and_the_byte_in_it() {
    let output = urlkit(&["decode", "-l"], b"a%20b\r\nc%ZZ\n\xff%41\n");
    assert_eq!(stdout(&output), "a b\nc%ZZ\n\u{FFFD}A\n");
    let messages = stderr(&output);
    assert!(
        messages.contains("line 2, byte 1 (byte 8 of the input): \"%\" is not followed"),
        "{messages}"
    );
    assert!(
        messages.contains("line 3, byte 0 (byte 12 of the input)"),
        "{messages}"
    );
    // One entry: the offset alone.
    let output = urlkit(&["decode"], b"c%ZZ");
    assert!(
        stderr(&output).contains("warning: byte 1: "),
        "{}",
        stderr(&output)
    );
}

#[test]
fn decoding_removes_unencoded_whitespace_unless_asked_to_keep_it() {
    let output = urlkit(&["decode"], b"%E5%BC\n%95 x\ty");
    assert_eq!(stdout(&output), "引xy");
    let output = urlkit(&["decode", "--keep-whitespace"], b"a b%20c");
    assert_eq!(stdout(&output), "a b c");
}

#[test]
fn plus_handling_and_form_alias() {
    assert_eq!(stdout(&urlkit(&["decode", "a+b"], b"")), "a+b\n");
    assert_eq!(
        stdout(&urlkit(&["decode", "--plus-space", "a+b"], b"")),
        "a b\n"
    );
    assert_eq!(
        stdout(&urlkit(&["decode", "--form", "a+b%2B"], b"")),
        "a b+\n"
    );
    assert_eq!(
        stdout(&urlkit(&["encode", "-s", "form", "a b+*~"], b"")),
        "a+b%2B*%7E\n"
    );
    assert_eq!(
        stdout(&urlkit(&["encode", "--space-plus", "a b"], b"")),
        "a+b\n"
    );
}

#[test]
fn sets_safe_unsafe_and_lowercase() {
    let run = |args: &[&str]| stdout(&urlkit(args, b""));
    assert_eq!(run(&["encode", "-s", "component", "(it's)!"]), "(it's)!\n");
    assert_eq!(
        run(&["encode", "-s", "uri", "a/b?c=d#e f"]),
        "a/b?c=d#e%20f\n"
    );
    assert_eq!(run(&["encode", "--safe", "/", "a/b c"]), "a/b%20c\n");
    assert_eq!(run(&["encode", "--unsafe", "a", "abc"]), "%61bc\n");
    assert_eq!(run(&["encode", "--lowercase", "é"]), "%c3%a9\n");
    assert_eq!(run(&["encode", "-s", "all", "a1"]), "%61%31\n");
    assert_eq!(
        run(&["encode", "-s", "iri", "http://example.com/引き割り.html"]),
        "http://example.com/%E5%BC%95%E3%81%8D%E5%89%B2%E3%82%8A.html\n"
    );
}

/// An argument is text: its characters stay whatever the charset. Stdin is bytes: read whole
/// in the charset, with a warning about the literal non-ASCII byte.
#[test]
fn arguments_are_text_and_stdin_is_bytes() {
    let output = urlkit(&["decode", "-c", "latin1", "漢%FC"], b"");
    assert_eq!(stdout(&output), "漢ü\n");
    assert!(
        !stderr(&output).contains("literal-non-ascii"),
        "{}",
        stderr(&output)
    );
    let output = urlkit(&["decode", "-c", "latin1"], "漢%FC".as_bytes());
    assert_eq!(stdout(&output), "æ¼¢ü");
    assert!(
        stderr(&output).contains("byte 0: literal non-ASCII byte 0xE6"),
        "{}",
        stderr(&output)
    );
}

/// PHP's `urlencode` and .NET's `HttpUtility.UrlEncode` are the form set with adjustments:
/// space stays `+` whatever else is added or removed, unless the space itself is named.
#[test]
fn the_form_set_keeps_space_as_plus_with_safe_and_unsafe() {
    let run = |args: &[&str]| stdout(&urlkit(args, b""));
    assert_eq!(
        run(&["encode", "-s", "form", "--unsafe=*", "--", "a b*"]),
        "a+b%2A\n"
    );
    assert_eq!(
        run(&["encode", "-s", "form", "--safe=/", "--", "a b/"]),
        "a+b/\n"
    );
    assert_eq!(
        run(&["encode", "-s", "form", "--unsafe= ", "--", "a b"]),
        "a%20b\n"
    );
}

#[test]
fn legacy_charsets_both_ways_and_character_references() {
    let run = |args: &[&str]| stdout(&urlkit(args, b""));
    assert_eq!(
        run(&["encode", "-c", "sjis", "ラーメン"]),
        "%83%89%81%5B%83%81%83%93\n"
    );
    assert_eq!(
        run(&["decode", "-c", "shift_jis", "%83%89%81%5B%83%81%83%93"]),
        "ラーメン\n"
    );
    assert_eq!(run(&["encode", "-c", "latin1", "†"]), "%86\n");
    assert_eq!(run(&["encode", "-c", "iso-8859-2", "¢"]), "%26%23162%3B\n");
    assert_eq!(run(&["encode", "-c", "utf-16le", "A€"]), "A%00%AC%20\n");
    assert_eq!(run(&["encode", "-c", "utf-32be", "A"]), "%00%00%00A\n");
    assert_eq!(run(&["decode", "-c", "utf-32le", "A%00%00%00"]), "A\n");
    assert_eq!(run(&["encode", "-c", "cp437", "é"]), "%82\n");
    assert_eq!(run(&["decode", "-c", "437", "%82"]), "é\n");
}

#[test]
fn malformed_escapes_are_kept_and_reported_with_their_offset() {
    let output = urlkit(&["decode", "100%zz%4"], b"");
    assert!(output.status.success());
    assert_eq!(stdout(&output), "100%zz%4\n");
    let messages = stderr(&output);
    assert!(
        messages.contains("byte 3") && messages.contains("byte 6"),
        "{messages}"
    );
}

#[test]
fn strict_mode_rejects_with_exit_status_1_and_names_the_offset() {
    let output = urlkit(&["decode", "--strict", "ab%zz"], b"");
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("byte 2"), "{}", stderr(&output));
    let output = urlkit(&["decode", "--strict", "-c", "utf-8"], b"ok%C3");
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("byte 2"));
    let output = urlkit(&["encode", "--strict", "-c", "latin1", "a€ж"], b"");
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(
        message.contains("U+0436") && message.contains("byte 4"),
        "{message}"
    );
}

#[test]
fn a_name_that_names_nothing_names_its_flag_and_where_names_are_listed() {
    for (args, flag) in [
        (&["decode", "-c", "klingon", "x"][..], "--charset"),
        (&["encode", "-s", "nope", "x"][..], "--set"),
    ] {
        let output = urlkit(args, b"");
        assert_eq!(output.status.code(), Some(2));
        let message = stderr(&output);
        assert!(
            message.contains(flag) && message.contains("`urlkit charsets` lists"),
            "{message}"
        );
    }
    // A value of the wrong form is not sent to the list.
    let message = stderr(&urlkit(&["encode", "--safe", "é", "x"], b""));
    assert!(
        message.contains("--safe") && !message.contains("urlkit charsets"),
        "{message}"
    );
}

#[test]
fn wrong_usage_gives_exit_status_2() {
    assert_eq!(
        urlkit(&["encode", "-c", "klingon", "x"], b"").status.code(),
        Some(2)
    );
    assert_eq!(
        urlkit(&["encode", "-s", "nope", "x"], b"").status.code(),
        Some(2)
    );
    assert_eq!(
        urlkit(&["encode", "--safe", "é", "x"], b"").status.code(),
        Some(2)
    );
    assert_eq!(
        urlkit(&["encode", "--no-such-flag"], b"").status.code(),
        Some(2)
    );
    assert_eq!(urlkit(&["frobnicate"], b"").status.code(), Some(2));
}

#[test]
fn json_output_lists_output_charset_and_diagnostics() {
    let output = urlkit(&["decode", "--json", "-c", "latin1", "%E9%zz"], b"");
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["output"], "é%zz");
    assert_eq!(value["charset"], "windows-1252");
    assert_eq!(value["diagnostics"][0]["code"], "malformed-escape");
    assert_eq!(value["diagnostics"][0]["offset"], 3);
}

#[test]
fn until_stable_peels_every_layer() {
    let output = urlkit(&["decode", "--until-stable", "--json", "a%252520b"], b"");
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["output"], "a b");
    assert_eq!(value["depth"], 3);
    assert_eq!(value["layers"], serde_json::json!(["a%2520b", "a%20b"]));
    assert_eq!(
        stdout(&urlkit(&["decode", "--until-stable", "%2520"], b"")),
        " \n"
    );
}

#[test]
fn auto_detects_the_charset_and_detect_prints_its_name_first() {
    // "日本語のテキストです" in Shift_JIS.
    let sjis = "%93%FA%96%7B%8C%EA%82%CC%83e%83L%83X%83g%82%C5%82%B7";
    assert_eq!(
        stdout(&urlkit(&["decode", "-c", "auto", sjis], b"")),
        "日本語のテキストです\n"
    );
    let output = urlkit(&["detect", sjis], b"");
    assert_eq!(stdout(&output).split_whitespace().next(), Some("Shift_JIS"));
    let output = urlkit(&["detect"], "%EF%BB%BFhello".as_bytes());
    assert_eq!(stdout(&output).split_whitespace().next(), Some("UTF-8"));
}

#[test]
fn files_in_and_out() {
    let dir = std::env::temp_dir().join(format!("urlkit-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in.txt");
    let output = dir.join("out.txt");
    std::fs::write(&input, b"%41%42\n%43").unwrap();
    let run = urlkit(
        &[
            "decode",
            "-i",
            input.to_str().unwrap(),
            "-o",
            output.to_str().unwrap(),
        ],
        b"",
    );
    assert!(run.status.success());
    assert_eq!(std::fs::read(&output).unwrap(), b"ABC");
    let missing = urlkit(
        &["decode", "-i", dir.join("missing").to_str().unwrap()],
        b"",
    );
    assert_eq!(missing.status.code(), Some(1));
    assert!(stderr(&missing).contains("missing"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn large_input_streams_to_the_same_result() {
    // 12 MiB of escapes crosses many 1 MiB read chunks at every phase of an escape.
    let unit = "%E5%BC%95a%20 ";
    let text = unit.repeat(12 * 1024 * 1024 / unit.len());
    let output = urlkit(&["decode"], text.as_bytes());
    assert!(output.status.success());
    let expected = "引a ".repeat(12 * 1024 * 1024 / unit.len());
    assert!(output.stdout == expected.as_bytes());
    let round = urlkit(&["encode"], &output.stdout);
    let expected_encoding = "%E5%BC%95a%20".repeat(12 * 1024 * 1024 / unit.len()) + "\n";
    assert!(round.stdout == expected_encoding.as_bytes());
}

#[test]
fn help_shows_examples_and_points_to_charsets() {
    let help = stdout(&urlkit(&["encode", "--help"], b""));
    assert!(help.contains("Examples:") && help.contains("urlkit charsets"));
    let list = stdout(&urlkit(&["charsets"], b""));
    for needle in [
        "Shift_JIS",
        "latin1",
        "sjis",
        "cp1251",
        "UTF-32LE",
        "IBM437",
        "IBM869",
        "special-query",
    ] {
        assert!(list.contains(needle), "{needle}");
    }
}

#[test]
fn iri_display_decodes_only_non_ascii_escapes() {
    let output = urlkit(
        &[
            "decode",
            "--iri",
            "http://example.com/%E5%BC%95%E3%81%8D%E5%89%B2%E3%82%8A.html?a=%2F%20",
        ],
        b"",
    );
    assert_eq!(
        stdout(&output),
        "http://example.com/引き割り.html?a=%2F%20\n"
    );
    let round = urlkit(
        &[
            "encode",
            "-s",
            "iri",
            "http://example.com/引き割り.html?a=%2F%20",
        ],
        b"",
    );
    assert_eq!(
        stdout(&round),
        "http://example.com/%E5%BC%95%E3%81%8D%E5%89%B2%E3%82%8A.html?a=%2F%20\n"
    );
}
