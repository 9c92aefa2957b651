"""The `.urlkit` namespace of Polars expressions and series, compared with the command
line row by row."""

from __future__ import annotations

import polars as pl
import pytest

import pyurlkit
import pyurlkit.polars  # noqa: F401  (registers the namespace)
from conftest import URLS, cli_get, cli_json, without_nones


def test_decode_expression_equals_the_command_line(rows):
    expected = cli_json(["decode", "-c", "auto"], rows)
    frame = pl.DataFrame({"url": rows + [None]})
    out = frame.with_columns(
        decoded=pl.col("url").urlkit.decode(charset="auto"),
        report=pl.col("url").urlkit.decode(charset="auto", diagnostics=True),
    )
    assert out["decoded"].to_list() == [want["output"] for want in expected] + [None]
    reports = out["report"].to_list()
    assert reports[-1] is None
    for row, got, want in zip(rows, reports, expected):
        assert without_nones(got) == want, row


def test_encode_on_a_lazy_frame_has_its_schema_before_it_runs(rows):
    expected = cli_json(["encode", "-s", "form"], rows)
    lazy = pl.LazyFrame({"text": rows}).select(
        encoded=pl.col("text").urlkit.encode(set="form"),
        report=pl.col("text").urlkit.encode(set="form", diagnostics=True),
    )
    schema = lazy.collect_schema()
    assert schema["encoded"] == pl.String
    assert isinstance(schema["report"], pl.Struct)
    out = lazy.collect()
    assert out["encoded"].to_list() == [want["output"] for want in expected]
    assert out.schema == schema


def test_url_expressions_equal_the_command_line():
    expected = cli_json(["parse"], URLS)
    out = pl.DataFrame({"url": URLS}).select(
        host=pl.col("url").urlkit.host(),
        path=pl.col("url").urlkit.path(),
        q=pl.col("url").urlkit.query_param("q"),
        origin=pl.col("url").urlkit.get("{scheme}://{host}:{port}"),
        parsed=pl.col("url").urlkit.parse(),
    )
    assert out["host"].to_list() == cli_get("{host}", URLS)
    assert out["path"].to_list() == cli_get("{path}", URLS)
    assert out["q"].to_list() == cli_get("{query:q}", URLS)
    assert out["origin"].to_list() == cli_get("{scheme}://{host}:{port}", URLS)
    for url, want, parsed in zip(URLS, expected, out["parsed"].to_list()):
        if "error" in want:
            assert parsed["position"] == want["position"]
            continue
        assert parsed["href"] == want["href"], url
        assert parsed["path_segments"] == want["path_segments"], url


def test_series_namespace_and_several_chunks():
    series = pl.concat([pl.Series("u", ["%41", None]), pl.Series("u", ["b%20"])], rechunk=False)
    assert series.n_chunks() == 2
    decoded = series.urlkit.decode()
    assert decoded.name == "u"
    assert decoded.to_list() == ["A", None, "b "]
    assert series.urlkit.host().to_list() == [None, None, None]


def test_bad_options_raise_when_the_expression_is_built():
    with pytest.raises(pyurlkit.SettingError) as raised:
        pl.col("url").urlkit.decode(charset="klingon")
    assert raised.value.argument == "charset"


def test_strict_rejection_surfaces_with_its_row():
    frame = pl.DataFrame({"url": ["ok", "%zz"]})
    with pytest.raises(Exception, match="row 1"):
        frame.select(pl.col("url").urlkit.decode(strict=True))


def test_rows_out_of_their_buffers_order_decode_as_each_row_alone(rows):
    # Polars keeps long strings in buffers that a sort or a filter leaves in another order
    # than the rows: runs of rows that lie end to end are taken where they are.
    long_rows = [f"https://example.com/{i:04d}/{row}" for i, row in enumerate(rows * 8)]
    frame = pl.DataFrame({"url": long_rows + rows})
    alone = pyurlkit.Decoder()
    for shuffled in (frame, frame.sort("url"), frame.filter(pl.int_range(pl.len()) % 3 != 1),
                     frame.sample(fraction=1.0, shuffle=True, seed=7)):
        got = shuffled.select(pl.col("url").urlkit.decode())["url"].to_list()
        assert got == [alone(url).output for url in shuffled["url"].to_list()]
