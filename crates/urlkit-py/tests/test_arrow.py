"""Column functions on Arrow arrays, compared with the command line row by row."""

from __future__ import annotations

import pyarrow as pa
import pytest

import pyurlkit
import pyurlkit.arrow as ua
from conftest import URLS, cli_get, cli_json, without_nones


def test_decoded_column_equals_the_command_line_with_its_findings(rows):
    for options, flags in [({}, []), ({"charset": "auto"}, ["-c", "auto"]),
                           ({"until_stable": True, "plus_space": True},
                            ["--until-stable", "--plus-space"])]:
        expected = cli_json(["decode", *flags], rows)
        column = ua.decode(pa.array(rows), diagnostics=True, **options)
        assert column.type.field("output").type == pa.string()
        for row, got, want in zip(rows, column.to_pylist(), expected):
            assert without_nones(got) == want, row
        plain = ua.decode(pa.array(rows), **options).to_pylist()
        assert plain == [want["output"] for want in expected]


def test_encoded_column_equals_the_command_line(rows):
    expected = cli_json(["encode", "-c", "shift_jis", "-s", "component"], rows)
    column = ua.encode(pa.array(rows), diagnostics=True, charset="shift_jis", set="component")
    for row, got, want in zip(rows, column.to_pylist(), expected):
        assert without_nones(got) == want, row


@pytest.mark.parametrize("arrow_type", [pa.string(), pa.large_string(), pa.string_view(),
                                        pa.binary(), pa.large_binary()])
def test_every_string_and_binary_layout_is_read_and_nulls_stay_null(arrow_type):
    values = ["a%20b", None, "%E5%BC%95", "", None, "%zz"]
    source = pa.array([None if v is None else (v.encode() if arrow_type in
                       (pa.binary(), pa.large_binary()) else v) for v in values], arrow_type)
    decoded = ua.decode(source)
    assert decoded.to_pylist() == ["a b", None, "引", "", None, "%zz"]
    large = arrow_type in (pa.large_string(), pa.large_binary())
    assert decoded.type == (pa.large_string() if large else pa.string())
    findings = ua.decode(source, diagnostics=True).to_pylist()
    assert findings[1] is None
    assert findings[5]["diagnostics"][0]["offset"] == 0


def test_runs_of_rows_decode_as_each_row_alone(rows):
    # Rows that lie end to end in a buffer are decoded in runs; the scalar decoder takes
    # one row at a time. Rows that would join across their boundary sit side by side: a
    # character or a bidi control cut in two, an escape cut after its `%`.
    cut = ["caf%C3", "%A9", "x%E2", "%80%AEy", "%4", "1x", "%", "41", "a\n", "b",
           "https://example.com/%C3", "%A9%E2%82%AC/and/more/bytes"]
    pool = rows + cut
    column = [None if i % 97 == 5 else pool[(i * 7) % len(pool)] for i in range(3000)]
    column[1000:1000 + len(cut)] = cut
    for options in ({}, {"plus_space": True}, {"keep_whitespace": True}):
        alone = pyurlkit.Decoder(**options)
        for arrow_type in (pa.string(), pa.large_string(), pa.string_view(), pa.binary()):
            binary = arrow_type == pa.binary()
            values = [v.encode() if binary and v is not None else v for v in column]
            source = pa.array(values, arrow_type).slice(7, 2900)
            outputs = ua.decode(source, **options).to_pylist()
            results = ua.decode(source, diagnostics=True, **options).to_pylist()
            for row, output, result in zip(values[7:2907], outputs, results):
                if row is None:
                    assert output is None and result is None
                else:
                    assert output == alone(row).output, (options, arrow_type, row)
                    assert result == alone(row).to_dict(), (options, arrow_type, row)


def test_big_results_stay_whole_while_their_buffers_are_reused():
    # Outputs of several megabytes are lent to Arrow, and the last one released serves
    # the next column: no result may see another's bytes.
    rows = [f"caf%C3%A9%20{i}" for i in range(400_000)]
    expected = [f"café {i}" for i in range(400_000)]
    first = pa.array(ua.decode(pa.array(rows)))
    backwards = pa.array(ua.decode(pa.array(rows[::-1])))
    part = first.slice(5, 3)
    del first
    again = pa.array(ua.decode(pa.array(rows)))
    assert part.to_pylist() == expected[5:8]
    del part
    with_findings = pa.array(ua.decode(pa.array(rows[:300_000] + ["%zz"]), diagnostics=True))
    assert again.to_pylist() == expected
    assert backwards.to_pylist() == expected[::-1]
    outputs = with_findings.field("output").to_pylist()
    assert outputs[:-1] == expected[:300_000] and outputs[-1] == "%zz"
    # A result with diagnostics lends several big buffers of one kind (the offsets of its
    # output, charset, findings and counts), and a few of each are kept for the next.
    charsets = with_findings.field("charset")
    del with_findings, again, backwards
    source = pa.array([None] + rows[:300_000] + ["%zz"])
    results = [pa.array(ua.decode(source, diagnostics=True)) for _ in range(3)]
    assert charsets.to_pylist() == ["UTF-8"] * 300_001
    for result in results:
        seen = result.to_pylist()
        assert seen[0] is None
        assert [row["output"] for row in seen[1:]] == expected[:300_000] + ["%zz"]
        clean = {
            "charset": "UTF-8",
            "diagnostics": [],
            "diagnostics_not_listed": 0,
            "diagnostic_counts": [],
        }
        assert all({k: row[k] for k in clean} == clean for row in seen[1:-1])
        assert seen[-1]["diagnostic_counts"] == [{"code": "malformed-escape", "count": 1}]
        assert seen[-1]["diagnostics"][0]["offset"] == 0


def test_a_slice_reads_only_its_rows():
    values = pa.array(["%41", "%42", None, "%44", "%45"])
    assert ua.decode(values.slice(1, 3)).to_pylist() == ["B", None, "D"]


def test_chunked_arrays_stay_chunked():
    chunked = pa.chunked_array([["%41", "b%20"], [], ["%zz"]])
    decoded = ua.decode(chunked)
    assert isinstance(decoded, pa.ChunkedArray)
    assert decoded.to_pylist() == ["A", "b ", "%zz"]
    empty = ua.decode(pa.chunked_array([], type=pa.string()))
    assert empty.to_pylist() == []


def test_binary_output_is_a_binary_column():
    decoded = ua.decode(pa.array(["%FF%00", None]), binary=True)
    assert decoded.type == pa.binary()
    assert decoded.to_pylist() == [b"\xff\x00", None]


def test_strict_column_names_the_row_and_offset():
    with pytest.raises(pyurlkit.RejectedError) as raised:
        ua.decode(pa.array(["fine", None, "also %41", "bad %4"]), strict=True)
    assert (raised.value.row, raised.value.offset, raised.value.code) == \
        (3, 4, "malformed-escape")
    assert "row 3" in str(raised.value)


def test_options_are_checked_before_any_row():
    with pytest.raises(pyurlkit.SettingError) as raised:
        ua.encode(pa.array(["x"]), set="klingon")
    assert raised.value.argument == "set"


def test_other_columns_are_refused_with_their_type():
    with pytest.raises(TypeError, match="(?i)int64"):
        ua.decode(pa.array([1, 2]))
    with pytest.raises(TypeError, match="Arrow array"):
        pyurlkit.Decoder().column(["not", "arrow"])


GETS = ["{host}", "{path}", "{path:raw}", "{query:q}", "{:query:q}", "{query-all:q}",
        "{scheme}://{host}:{port}{path}", "{host:unicode}", "{user}:{password}#{fragment}"]


@pytest.mark.parametrize("template", GETS)
def test_templates_equal_parse_get(template):
    assert ua.get(pa.array(URLS), template).to_pylist() == cli_get(template, URLS)


# Hosts the URL Standard's parser keeps as they are, and every way one can be otherwise:
# case, escapes, whitespace, userinfo, ports, IPv4 forms, Punycode, Unicode, empty labels.
TRICKY_SCHEMES = ["http://", "https://", "HTTPS://", "ftp://", "ws://", "https:", "https:///",
                  "https:\\\\", " https://", "ht\ttps://", "file://", "foo://"]
TRICKY_HOSTS = ["example.com", "EXAMPLE.com", "ex-ample.co.uk.", "a..b", ".", "..", "-a-.b-",
                "1.2.3.4", "1.2.3", "0x7f.1", "example.123", "example.0x1", "123", "a.b.09",
                "xn--fsqu00a.xn--3lr804guic", "xn--a", "a.xn--b", "例子.cn", "ex%41mple.com",
                "exa mple.com", "exa\tmple.com", "a_b.com", "[::1]", "user@host.com",
                "host.com:8080", "host.com:99999", "host.com:", "", "ｅｘａｍｐｌｅ.com"]
TRICKY_TAILS = ["", "/", "/p?q#f", "?x", "#y", "\\path", " ", "\t", "/a b/%zz"]


def test_host_equals_parse_get_on_tricky_urls():
    urls = [s + h + t for s in TRICKY_SCHEMES for h in TRICKY_HOSTS for t in TRICKY_TAILS]
    assert ua.host(pa.array(urls)).to_pylist() == cli_get("{host}", urls)


def test_shortcuts_are_their_templates():
    column = pa.array(URLS)
    assert ua.host(column).to_pylist() == cli_get("{host}", URLS)
    assert ua.path(column).to_pylist() == cli_get("{path}", URLS)
    assert ua.path(column, raw=True).to_pylist() == cli_get("{path:raw}", URLS)
    assert ua.query_param(column, "q").to_pylist() == cli_get("{query:q}", URLS)


def test_parsed_column_equals_parse_json():
    expected = cli_json(["parse"], URLS)
    for url, want, report in zip(URLS, expected, ua.parse(pa.array(URLS)).to_pylist()):
        if "error" in want:
            assert (report["error"], report["position"]) == (want["error"], want["position"])
            assert report["href"] is None
            continue
        report["query_pairs"] = [[p["name"], p["value"]] for p in report["query_pairs"]]
        for name, value in want.items():
            # The drawing of the URL is for the eye; the struct column leaves it out.
            if name not in ("input", "spans", "diagram"):
                assert report[name] == value, (url, name)
        assert "spans" not in report and "diagram" not in report
        assert report["error"] is None


def test_url_columns_keep_nulls_and_take_a_base():
    values = pa.array([None, "../x?q=1", "y"])
    assert ua.host(values, base="https://h.example/a/b").to_pylist() == \
        [None, "h.example", "h.example"]
    assert ua.path(values, base="https://h.example/a/b").to_pylist() == [None, "/x", "/a/y"]
    assert ua.query_param(values, "q", base="https://h.example/").to_pylist() == [None, "1", ""]
    assert ua.parse(values).to_pylist()[0] is None
    with pytest.raises(pyurlkit.UrlError):
        ua.host(values, base="relative")
    with pytest.raises(pyurlkit.SettingError, match="template"):
        ua.get(values, "{nope}")


def test_arrow_results_cross_by_the_capsule_protocol():
    result = pyurlkit.Decoder().column(pa.array(["%41", None]))
    assert len(result) == 2
    assert "ArrowArray" in repr(result)
    assert pa.array(result).to_pylist() == ["A", None]


def test_string_rows_are_text_and_binary_rows_are_bytes():
    text = ua.decode(pa.array(["漢%FC"]), charset="latin1").to_pylist()
    raw = ua.decode(pa.array(["漢%FC".encode()], pa.binary()), charset="latin1").to_pylist()
    assert (text, raw) == (["漢ü"], ["æ¼¢ü"])
