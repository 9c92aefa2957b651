#!/usr/bin/env python3
"""Decoding and host extraction over one column of generated URLs, urlkit beside the
engines people use for it, single thread unless a row says otherwise. Prints one table.

    scripts/measure/bench-columns.sh [ROWS]        (builds the wheel, installs the peers)

The column: ROWS (default 1,000,000) generated URLs of about 80 bytes with about 12
escapes each, 15 % of them with multibyte UTF-8 escapes. Every engine reads the same
Arrow column (or the same Python list); throughput is input bytes over the wall time of
one run (the best of `--runs`, default 3, for the fast ones).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from typing import Callable, List, Optional

# Every engine on one thread, set before any of them loads.
os.environ["POLARS_MAX_THREADS"] = "1"
os.environ["RAYON_NUM_THREADS"] = "1"

import pyarrow as pa  # noqa: E402
import polars as pl  # noqa: E402

import pyurlkit  # noqa: E402
import pyurlkit.arrow as ua  # noqa: E402
import pyurlkit.polars  # noqa: E402,F401

HOSTS = ["www.example.com", "shop.example.co.uk", "news.example.org", "api.example.net",
         "cdn.example.io", "m.example.jp", "search.example.de", "blog.example.fr"]
WORDS = ["search", "item", "product", "view", "page", "user", "list", "cart", "tag", "news"]
ASCII_ESCAPES = ["%20", "%2F", "%3D", "%26", "%3A", "%2C", "%40", "%3F", "%22", "%2B"]
MULTIBYTE = ["%C3%A9", "%C3%BC", "%E5%BC%95", "%E3%81%8D", "%D0%BF%D1%80", "%E2%82%AC"]


def generate(rows: int, seed: int = 2024) -> List[str]:
    """URLs of about 80 bytes, about 12 escapes each, 15 % with multibyte escapes."""
    rng = random.Random(seed)
    urls = []
    for _ in range(rows):
        multibyte = rng.random() < 0.15
        escapes = [rng.choice(ASCII_ESCAPES) for _ in range(12)]
        if multibyte:
            escapes[rng.randrange(4, 12)] = rng.choice(MULTIBYTE)
            escapes[rng.randrange(4, 12)] = rng.choice(MULTIBYTE)
        words = [rng.choice(WORDS)[: rng.randint(1, 2)] for _ in range(12)]
        path = "".join(w + e for w, e in zip(words[:3], escapes[:3]))
        query = "".join(w + e for w, e in zip(words[3:], escapes[3:]))
        urls.append(f"https://{rng.choice(HOSTS)}/{path}?q={query}")
    return urls


def best(run: Callable[[], object], runs: int) -> float:
    """The shortest wall time of `runs` runs, in seconds."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", nargs="?", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    urls = generate(args.rows)
    column = pa.array(urls, type=pa.string())
    frame = pl.DataFrame({"url": urls})
    size = sum(len(u.encode()) for u in urls)
    escapes = sum(u.count("%") for u in urls) / len(urls)
    multibyte = sum(1 for u in urls if "%C3" in u or "%E" in u or "%D0" in u) / len(urls)
    print(f"{args.rows:,} URLs, {size / len(urls):.1f} bytes and {escapes:.1f} escapes per "
          f"row on average, {multibyte:.0%} with multibyte escapes; {size / 1e6:.1f} MB")
    print(f"python {sys.version.split()[0]}, pyarrow {pa.__version__}, polars {pl.__version__}")
    print()

    table: List[tuple] = []

    def row(name: str, seconds: float, note: str = "", rows_per_second: bool = False) -> None:
        table.append((name, seconds, note, rows_per_second))

    # Every engine's decoded column must equal urlkit's (the data is valid UTF-8). The
    # first column decoded in the process writes into fresh memory; the later ones reuse
    # the buffers of the columns released before them, as batch after batch does.
    decoder = pyurlkit.Decoder()
    started = time.perf_counter()
    first = decoder.column(column)
    first_seconds = time.perf_counter() - started
    reference = pa.array(first).to_pylist()
    del first
    row("urlkit, pyarrow column, first in the process", first_seconds,
        "fresh memory for the output: one run")
    row("urlkit, pyarrow column (pyurlkit.arrow.decode)",
        best(lambda: decoder.column(column), args.runs))
    row("urlkit, pyarrow column with diagnostics",
        best(lambda: decoder.column(column, diagnostics=True), args.runs))
    auto = pyurlkit.Decoder(charset="auto")
    row("urlkit, pyarrow column, charset auto", best(lambda: auto.column(column), args.runs))
    decoded = frame.select(pl.col("url").urlkit.decode())
    assert decoded["url"].to_list() == reference
    row("urlkit, Polars pl.col().urlkit.decode()",
        best(lambda: frame.select(pl.col("url").urlkit.decode()), args.runs))
    row("urlkit, Python loop (Decoder()(s).output)",
        best(lambda: [decoder(u).output for u in urls], 1))

    peers: List[str] = []
    try:
        import duckdb

        con = duckdb.connect()
        con.execute("SET threads = 1")
        con.register("urls", pa.table({"url": column}))
        con.execute("CREATE TABLE t AS SELECT url FROM urls")
        got = [r for (r,) in con.execute("SELECT url_decode(url) FROM t").fetchall()]
        assert got == reference
        scan = best(lambda: con.execute("SELECT sum(length(url)) FROM t").fetchall(), args.runs)
        full = best(lambda: con.execute("SELECT sum(length(url_decode(url))) FROM t").fetchall(),
                    args.runs)
        row("DuckDB url_decode (threads=1)", full - scan,
            f"query {full:.3f} s minus scan {scan:.3f} s")
        peers.append(f"duckdb {duckdb.__version__}")
    except ImportError:
        row("DuckDB url_decode", float("nan"), "duckdb not installed")

    try:
        import chdb

        table_arrow = pa.table({"url": column})  # noqa: F841  (read by chdb's Python())
        settings = "SETTINGS max_threads = 1"
        query = chdb.query

        def clickhouse(expression: str) -> Callable[[], object]:
            return lambda: query(f"SELECT sum(length({expression})) FROM Python(table_arrow) "
                                 f"{settings}", "CSV")

        check = query(f"SELECT decodeURLComponent(url) FROM Python(table_arrow) {settings}",
                      "ArrowTable")
        got = pa.table(check).column(0).to_pylist() if not isinstance(check, pa.Table) \
            else check.column(0).to_pylist()
        assert [g.decode() if isinstance(g, bytes) else g for g in got] == reference
        scan = best(clickhouse("url"), args.runs)
        full = best(clickhouse("decodeURLComponent(url)"), args.runs)
        row("ClickHouse decodeURLComponent (chdb, max_threads=1)", full - scan,
            f"query {full:.3f} s minus scan {scan:.3f} s")
        peers.append(f"chdb {chdb.__version__}")
    except ImportError:
        row("ClickHouse decodeURLComponent", float("nan"), "chdb not installed")

    from urllib.parse import unquote

    row("Python urllib.parse.unquote (loop)", best(lambda: [unquote(u) for u in urls], 1))
    row("Polars map_elements(unquote)",
        best(lambda: frame.select(pl.col("url").map_elements(unquote, return_dtype=pl.String)),
             1))

    hosts: List[tuple] = []
    host_reference = ua.host(column).to_pylist()
    hosts.append(("urlkit host, pyarrow column", best(lambda: ua.host(column), args.runs)))
    hosts.append(("urlkit host, Polars pl.col().urlkit.host()",
                  best(lambda: frame.select(pl.col("url").urlkit.host()), args.runs)))
    try:
        import polars_tldextract as tld

        got = frame.select(tld.fqdn(pl.col("url")))["url"].to_list()
        same = sum(a == b for a, b in zip(got, host_reference))
        hosts.append(("polars-tldextract fqdn",
                      best(lambda: frame.select(tld.fqdn(pl.col("url"))), args.runs),
                      f"same host as urlkit on {same / len(urls):.1%} of rows"))
        peers.append(f"polars-tldextract {getattr(tld, '__version__', '')}".strip())
    except ImportError:
        hosts.append(("polars-tldextract fqdn", float("nan"), "not installed"))
    print("peers: " + ", ".join(peers))
    print()

    print(f"{'decoding':<56}{'MB/s':>9}{'M rows/s':>10}  note")
    for name, seconds, note, _ in table:
        print(f"{name:<56}{size / seconds / 1e6:>9.0f}{len(urls) / seconds / 1e6:>10.2f}  {note}")
    print()
    print(f"{'host extraction':<56}{'MB/s':>9}{'M rows/s':>10}  note")
    for entry in hosts:
        name, seconds = entry[0], entry[1]
        note = entry[2] if len(entry) > 2 else ""
        print(f"{name:<56}{size / seconds / 1e6:>9.0f}{len(urls) / seconds / 1e6:>10.2f}  {note}")

    by_name = {name: seconds for name, seconds, _, _ in table}
    ours = by_name["urlkit, pyarrow column (pyurlkit.arrow.decode)"]
    for name, seconds in by_name.items():
        if name.startswith("ClickHouse"):
            first = by_name["urlkit, pyarrow column, first in the process"]
            print(f"\nurlkit column decoding / ClickHouse: {seconds / ours:.2f}x (aim: 3x); "
                  f"the first column in the process: {seconds / first:.2f}x")


if __name__ == "__main__":
    main()
