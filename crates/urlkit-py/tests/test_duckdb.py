"""DuckDB: urlkit's column functions as SQL functions over Arrow (`create_function` with
`type="arrow"`), compared with the command line row by row."""

from __future__ import annotations

import duckdb
import pyarrow as pa
import pytest

import pyurlkit.arrow as ua
from conftest import URLS, cli_get, cli_json


@pytest.fixture(scope="module")
def con():
    con = duckdb.connect()
    # The recipe of the README.
    con.create_function("urlkit_decode", lambda urls: ua.decode(urls, charset="auto"),
                        ["VARCHAR"], "VARCHAR", type="arrow")
    # A URL that does not parse has no host: null, which DuckDB accepts with "special".
    con.create_function("urlkit_host", lambda urls: ua.host(urls), ["VARCHAR"], "VARCHAR",
                        type="arrow", null_handling="special")
    yield con
    con.close()


def test_decode_in_sql_equals_the_command_line(con, rows):
    expected = cli_json(["decode", "-c", "auto"], rows)
    table = pa.table({"id": list(range(len(rows))), "url": rows})
    con.register("urls", table)
    got = con.sql("select urlkit_decode(url) from urls order by id").fetchall()
    assert [value for (value,) in got] == [want["output"] for want in expected]


def test_host_in_sql_equals_the_command_line(con):
    expected = cli_get("{host}", URLS)
    con.register("links", pa.table({"id": list(range(len(URLS))), "url": URLS}))
    got = con.sql("select urlkit_host(url) from links order by id").fetchall()
    assert [value for (value,) in got] == expected


def test_nulls_stay_null_and_bad_bytes_are_repaired(con):
    got = con.sql("select urlkit_decode(x) from (values (null), ('%E9t%C3%A9')) t(x)").fetchall()
    assert got == [(None,), (cli_json(["decode", "-c", "auto"], ["%E9t%C3%A9"])[0]["output"],)]
