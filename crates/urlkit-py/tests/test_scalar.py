"""The functions on single values, compared with the command line row by row."""

from __future__ import annotations

import random
import re

import pytest

import pyurlkit
from conftest import URLS, cli_json, run_cli

# Keyword arguments and the command-line flags that say the same.
DECODE_OPTIONS = [
    ({}, []),
    ({"charset": "auto"}, ["-c", "auto"]),
    ({"charset": "shift_jis"}, ["-c", "shift_jis"]),
    ({"charset": "cp1251", "plus_space": True}, ["-c", "cp1251", "--plus-space"]),
    ({"keep_whitespace": True}, ["--keep-whitespace"]),
    ({"until_stable": True}, ["--until-stable"]),
    ({"per_line": True, "newline": "crlf"}, ["-l", "--newline", "crlf"]),
]

ENCODE_OPTIONS = [
    ({}, []),
    ({"set": "component"}, ["-s", "component"]),
    ({"set": "form"}, ["-s", "form"]),
    ({"charset": "shift_jis", "lowercase": True}, ["-c", "shift_jis", "--lowercase"]),
    ({"charset": "latin1", "set": "path", "safe": "@", "unsafe": "="},
     ["-c", "latin1", "-s", "path", "--safe", "@", "--unsafe", "="]),
    ({"space_plus": True, "set": "iri"}, ["--space-plus", "-s", "iri"]),
]


@pytest.mark.parametrize("options,flags", DECODE_OPTIONS)
def test_decode_equals_the_command_line_row_by_row(rows, options, flags):
    expected = cli_json(["decode", *flags], rows)
    for row, want in zip(rows, expected):
        assert pyurlkit.decode(row, **options).to_dict() == want, row


@pytest.mark.parametrize("options,flags", ENCODE_OPTIONS)
def test_encode_equals_the_command_line_row_by_row(rows, options, flags):
    expected = cli_json(["encode", *flags], rows)
    for row, want in zip(rows, expected):
        assert pyurlkit.encode(row, **options).to_dict() == want, row


def test_bytes_in_equal_text_in_and_binary_gives_bytes():
    assert pyurlkit.decode(b"%E5%BC%95").output == "引"
    assert pyurlkit.decode("%E5%BC%95%FF", binary=True).output == b"\xe5\xbc\x95\xff"
    # Bytes that are not UTF-8 are escaped as they are, and reported.
    result = pyurlkit.encode(b"a\xff")
    assert result.output == "a%FF"
    assert [d.code for d in result.diagnostics] == ["invalid-input"]
    assert result.diagnostics[0].offset == 1


def test_auto_says_what_it_detected():
    result = pyurlkit.decode("%83%89%81%5B%83%81%83%93", charset="auto")
    assert result.output == "ラーメン"
    assert result.charset == "Shift_JIS"
    assert result.detected.charset == "Shift_JIS"
    assert result.detected.reason == "statistical guess"


def test_lenient_mode_never_raises_and_says_where(rows):
    rng = random.Random(7)
    alphabet = "%0123456789abcdefABCDEFzZ+ \t\né引\x00"
    for _ in range(400):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        raw = bytes(rng.randrange(256) for _ in range(rng.randint(0, 30)))
        for value in (text, raw):
            for result in (pyurlkit.decode(value), pyurlkit.decode(value, charset="auto"),
                           pyurlkit.encode(value), pyurlkit.encode(value, charset="sjis")):
                size = len(value.encode() if isinstance(value, str) else value)
                for finding in result.diagnostics:
                    assert 0 <= finding.offset <= size
    result = pyurlkit.decode("ok%zz%E9")
    assert [(d.code, d.offset) for d in result.diagnostics] == [
        ("malformed-escape", 2), ("invalid-sequence", 5)]


@pytest.mark.parametrize("entry", ["ok%zz", "%E9", "a%41%4", "%C3%A9%FF"])
def test_strict_raises_at_the_offset_the_command_line_names(entry):
    with pytest.raises(pyurlkit.RejectedError) as raised:
        pyurlkit.decode(entry, strict=True)
    done = run_cli(["decode", "--strict"], [entry])
    assert done.returncode == 1
    cli_offset = int(re.search(rb"byte (\d+)", done.stderr).group(1))
    error = raised.value
    assert error.offset == cli_offset
    assert error.row is None
    assert f"byte {cli_offset}" in str(error)
    lenient = pyurlkit.decode(entry)
    assert error.code == lenient.diagnostics[0].code


def test_strict_encoding_rejects_what_the_charset_cannot_hold():
    with pytest.raises(pyurlkit.RejectedError) as raised:
        pyurlkit.encode("ab€", charset="shift_jis", strict=True)
    assert raised.value.code == "unencodable-character"
    assert raised.value.offset == 2
    assert isinstance(raised.value, ValueError)


@pytest.mark.parametrize("options,argument", [
    ({"charset": "klingon"}, "charset"),
    ({"set": "nope"}, "set"),
    ({"safe": "é"}, "safe"),
    ({"unsafe": "€"}, "unsafe"),
    ({"newline": "cr"}, "newline"),
])
def test_a_bad_encode_option_names_its_argument(options, argument):
    with pytest.raises(pyurlkit.SettingError) as raised:
        pyurlkit.encode("x", **options)
    assert raised.value.argument == argument
    assert str(raised.value).startswith(f"{argument}: ")


def test_a_bad_decode_option_names_its_argument():
    with pytest.raises(pyurlkit.SettingError) as raised:
        pyurlkit.decode("x", charset="ebcdic-klingon")
    assert raised.value.argument == "charset"
    with pytest.raises(pyurlkit.SettingError) as raised:
        pyurlkit.Decoder(until_stable=True, per_line=True)
    assert raised.value.argument == "until_stable"
    with pytest.raises(TypeError):
        pyurlkit.decode("x", sett="x")


def test_coders_take_only_their_own_keywords_with_their_types():
    with pytest.raises(TypeError, match="unexpected keyword argument 'set'"):
        pyurlkit.Decoder(set="path")
    with pytest.raises(TypeError, match="unexpected keyword argument 'until_stable'"):
        pyurlkit.Encoder(until_stable=True)
    with pytest.raises(TypeError, match="strict must be True or False, not int"):
        pyurlkit.Decoder(strict=1)
    with pytest.raises(TypeError, match="charset must be a str or None, not bytes"):
        pyurlkit.Encoder(charset=b"utf-8")
    assert pyurlkit.Encoder(set=None, space_plus=True)("a b").output == "a+b"
    assert pyurlkit.Decoder(binary=True)("%FF").output == b"\xff"


def test_detect_equals_the_command_line():
    entries = ["%C0%E2%EE%F1", "%83%89%81%5B", "plain", "", "%E5%BC%95"]
    for entry, want in zip(entries, cli_json(["detect"], entries)):
        assert pyurlkit.detect(entry).to_dict() == want


def test_parse_equals_the_command_line():
    for url, want in zip(URLS, cli_json(["parse"], URLS)):
        if "error" in want:
            with pytest.raises(pyurlkit.UrlError) as raised:
                pyurlkit.parse(url)
            assert raised.value.position == want["position"]
            assert raised.value.message == want["error"]
            continue
        got = pyurlkit.parse(url)
        got["query_pairs"] = [list(pair) for pair in got["query_pairs"]]
        got["warnings"] = [w.to_dict() for w in got["warnings"]]
        assert list(got) == list(want), "the fields of parse --json, in its order"
        for name, value in want.items():
            assert got[name] == value, (url, name)


def test_parse_against_a_base():
    assert pyurlkit.parse("../c?x=1", base="https://example.com/a/b")["href"] == \
        "https://example.com/c?x=1"
    with pytest.raises(pyurlkit.UrlError):
        pyurlkit.parse("x", base="no base")


def test_resolve_normalize_and_idn_equal_the_command_line():
    references = ["../g", "?y", "#s", "g;x?y#s", "../../../g", "//g"]
    done = run_cli(["resolve", "http://a/b/c/d;p?q"], references)
    assert [pyurlkit.resolve("http://a/b/c/d;p?q", r) for r in references] == \
        done.stdout.decode().splitlines()
    uris = ["HTTP://A:80/%7euser/./x", "http://a/?b=2&a=1", "https://Ex.com:443/a/../%41"]
    done = run_cli(["normalize"], uris)
    assert [pyurlkit.normalize(u) for u in uris] == done.stdout.decode().splitlines()
    done = run_cli(["normalize", "--sort-query"], uris)
    assert [pyurlkit.normalize(u, sort_query=True) for u in uris] == \
        done.stdout.decode().splitlines()
    names = ["例子.卷筒纸", "Bücher.example", "EXAMPLE.com"]
    done = run_cli(["idn", "--to-ascii"], names)
    ascii_names = [pyurlkit.idn(n) for n in names]
    assert ascii_names == done.stdout.decode().splitlines()
    done = run_cli(["idn", "--to-unicode"], ascii_names)
    assert [pyurlkit.idn(n, to="unicode") for n in ascii_names] == \
        done.stdout.decode().splitlines()


def test_idn_errors_say_where():
    with pytest.raises(pyurlkit.UrlError) as raised:
        pyurlkit.idn("ok.exa mple")
    assert raised.value.position == 6
    with pytest.raises(pyurlkit.SettingError):
        pyurlkit.idn("x", to="ebcdic")
    with pytest.raises(pyurlkit.UrlError):
        pyurlkit.resolve("no-scheme", "x")


def test_text_keeps_its_characters_and_bytes_are_read_in_the_charset():
    # A str is text, as the command line's arguments are: its literal characters stay.
    assert pyurlkit.decode("漢%FC", charset="latin1").output == "漢ü"
    # bytes are read in the charset, as the command line reads stdin and files.
    read = pyurlkit.decode("漢%FC".encode(), charset="latin1")
    assert read.output == "æ¼¢ü"
    assert [d.code for d in read.diagnostics] == ["literal-non-ascii"]
    assert read.to_dict()["diagnostic_counts"] == [{"code": "literal-non-ascii", "count": 1}]


def test_findings_carry_their_line_and_column_per_line():
    got = pyurlkit.decode("ok\nx%zz", per_line=True).to_dict()
    (want,) = cli_json(["decode", "--per-line"], ["ok\nx%zz"])
    assert got == want
    assert got["diagnostics"][0]["line"] == 2 and got["diagnostics"][0]["column"] == 2
