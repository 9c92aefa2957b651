#!/usr/bin/env python3
"""Decoding and host extraction over one column of generated URLs, urlkit beside the
engines people use for it, single thread unless a row says otherwise. Prints one table.

    scripts/measure/bench-columns.sh [ROWS] [--runs N] [--inputs clean,dirty,percent]
    scripts/measure/bench-columns.py [ROWS] --write DIR    (the inputs as text files)

The columns: ROWS (default 1,000,000) generated URLs of about 80 bytes with about 12
escapes each, 15 % of them with multibyte UTF-8 escapes (`clean`); the same with 5 % of
the rows given something to repair or report (`dirty`: a malformed escape, a `%25`
layer, invalid UTF-8 or a control character, in equal shares); the same with a literal
`%` in the text now and then (`percent`: 1.3 % of the rows get `multiple-layers`); and,
named in `--inputs` only, the dirty input with one kind of finding each
(`dirty-malformed`, `dirty-layers`, `dirty-invalid`, `dirty-control`), and
`invalid-every-row` (invalid UTF-8 in every row: a column in another charset read as
UTF-8). All are seeded:
every run decodes the same rows. Every engine reads the same Arrow column
(or the same Python list); throughput is input bytes over the wall time of one run (the
best of `--runs`, default 3, for the fast ones).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import time
from typing import Callable, List, Optional

# Every engine on one thread, set before any of them loads.
os.environ["POLARS_MAX_THREADS"] = "1"
os.environ["RAYON_NUM_THREADS"] = "1"

# The engines are imported by `load_engines`, so that `--write` needs none of them.
pa = pc = pl = pyurlkit = ua = None


def load_engines() -> None:
    global pa, pc, pl, pyurlkit, ua
    import pyarrow as pa
    import pyarrow.compute as pc
    import polars as pl

    import pyurlkit
    import pyurlkit.arrow as ua
    import pyurlkit.polars  # noqa: F401

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


# What the dirty inputs put into a row, each with the finding the decoder makes of it:
# malformed escapes, a second layer of encoding, invalid UTF-8 and control characters.
DIRTY = [
    ("%zz", "malformed-escape"), ("%4g", "malformed-escape"), ("100%", "malformed-escape"),
    ("%2520", "multiple-layers"), ("%253D", "multiple-layers"), ("%252F", "multiple-layers"),
    ("%C3", "invalid-sequence"), ("%FF", "invalid-sequence"), ("%E5%BC", "invalid-sequence"),
    ("%00", "control-character"), ("%07", "control-character"), ("%7F", "control-character"),
]


def generate_dirty(rows: int, share: float, seed: int = 2024,
                   finding: Optional[str] = None) -> List[str]:
    """The clean URLs of `generate` with `share` of the rows (chosen by the seed) given one
    of the pieces of `DIRTY` in their query, each kind as often as the others, or only
    the pieces of one `finding`."""
    rng = random.Random(seed + 1)
    urls = generate(rows, seed)
    pieces = [entry for entry in DIRTY if finding in (None, entry[1])]
    for row in rng.sample(range(rows), round(rows * share)):
        piece, _ = rng.choice(pieces)
        url = urls[row]
        at = rng.randrange(url.index("?") + 3, len(url) + 1)
        # Not inside an escape: the piece goes before the `%` of one it would cut.
        while at < len(url) and "%" in url[max(at - 2, 0):at]:
            at -= 1
        urls[row] = url[:at] + piece + url[at:]
    return urls


def generate_percent(rows: int, seed: int = 2024) -> List[str]:
    """The clean URLs of `generate` whose text holds a literal `%` now and then, encoded
    as `%25`: one word in 37 is a percentage (`50%25`); where the next escape follows it
    (`50%25%20`) nothing is wrong, but where the next word starts with hex digits
    (`50%25ab`) the decoder reports `multiple-layers`, as in double-encoded logs."""
    rng = random.Random(seed + 2)
    urls = generate(rows, seed)
    for row, url in enumerate(urls):
        parts = re.split(r"(%[0-9A-F]{2})", url)
        for k in range(2, len(parts), 2):
            if rng.random() < 1 / 37:
                parts[k] = f"{rng.randint(1, 99)}%25" + parts[k]
        urls[row] = "".join(parts)
    return urls


INPUTS = {
    "clean": lambda rows: generate(rows),
    "dirty": lambda rows: generate_dirty(rows, 0.05),
    "percent": lambda rows: generate_percent(rows),
    # The dirty input one finding at a time (not run unless named in `--inputs`).
    "dirty-malformed": lambda rows: generate_dirty(rows, 0.05, finding="malformed-escape"),
    "dirty-layers": lambda rows: generate_dirty(rows, 0.05, finding="multiple-layers"),
    "dirty-invalid": lambda rows: generate_dirty(rows, 0.05, finding="invalid-sequence"),
    "dirty-control": lambda rows: generate_dirty(rows, 0.05, finding="control-character"),
    # Every row with bytes that are not UTF-8: a column in another charset read as UTF-8.
    "invalid-every-row": lambda rows: generate_dirty(rows, 1.0, finding="invalid-sequence"),
}


def best(run: Callable[[], object], runs: int) -> float:
    """The shortest wall time of `runs` runs, in seconds."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return min(times)


def decoding(urls: List[str], runs: int, clean: bool) -> dict:
    """Seconds per run of each decoding engine on `urls`, by row name (NaN where an engine
    is missing). On clean input every engine's column must equal urlkit's; on dirty input
    the engines repair differently (ClickHouse and DuckDB keep invalid UTF-8 as it is), so
    only the row count is compared. The slow Python loops run on clean input only."""
    column = pa.array(urls, type=pa.string())
    frame = pl.DataFrame({"url": urls})
    times: dict = {}

    # The first column decoded in the process writes into fresh memory; the later ones
    # reuse the buffers of the columns released before them, as batch after batch does.
    decoder = pyurlkit.Decoder()
    started = time.perf_counter()
    first = decoder.column(column)
    first_seconds = time.perf_counter() - started
    reference = pa.array(first).to_pylist()
    del first
    if clean:
        times["urlkit, pyarrow column, first in the process"] = first_seconds
    times["urlkit, pyarrow column (pyurlkit.arrow.decode)"] = best(
        lambda: decoder.column(column), runs)
    times["urlkit, pyarrow column with diagnostics"] = best(
        lambda: decoder.column(column, diagnostics=True), runs)
    reports = pa.array(decoder.column(column, diagnostics=True)).field("diagnostics")
    times[ROWS_WITH_FINDINGS] = sum(1 for n in pc.list_value_length(reports).to_pylist() if n)
    auto = pyurlkit.Decoder(charset="auto")
    times["urlkit, pyarrow column, charset auto"] = best(lambda: auto.column(column), runs)
    decoded = frame.select(pl.col("url").urlkit.decode())
    assert decoded["url"].to_list() == reference
    times["urlkit, Polars pl.col().urlkit.decode()"] = best(
        lambda: frame.select(pl.col("url").urlkit.decode()), runs)
    if clean:
        times["urlkit, Python loop (Decoder()(s).output)"] = best(
            lambda: [decoder(u).output for u in urls], 1)

    def same(got: list) -> None:
        assert len(got) == len(reference)
        if clean:
            assert got == reference

    try:
        import duckdb

        con = duckdb.connect()
        con.execute("SET threads = 1")
        con.register("urls", pa.table({"url": column}))
        con.execute("CREATE TABLE t AS SELECT url FROM urls")
        try:
            same([r for (r,) in con.execute("SELECT url_decode(url) FROM t").fetchall()])
            scan = best(lambda: con.execute("SELECT sum(length(url)) FROM t").fetchall(), runs)
            full = best(
                lambda: con.execute("SELECT sum(length(url_decode(url))) FROM t").fetchall(),
                runs)
            times["DuckDB url_decode (threads=1)"] = full - scan
        except duckdb.Error:
            # url_decode refuses a column whose decoded bytes are not UTF-8.
            times["DuckDB url_decode (threads=1)"] = float("nan")
    except ImportError:
        times["DuckDB url_decode (threads=1)"] = float("nan")

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
        got = (check if isinstance(check, pa.Table) else pa.table(check)).column(0)
        if clean:
            same([g.decode() if isinstance(g, bytes) else g for g in got.to_pylist()])
        else:
            # Invalid UTF-8 is kept as it is: rows that pyarrow cannot read as text.
            assert len(got) == len(reference)
        scan = best(clickhouse("url"), runs)
        full = best(clickhouse("decodeURLComponent(url)"), runs)
        times[CLICKHOUSE] = full - scan
    except ImportError:
        times[CLICKHOUSE] = float("nan")

    if clean:
        from urllib.parse import unquote

        times["Python urllib.parse.unquote (loop)"] = best(lambda: [unquote(u) for u in urls], 1)
        times["Polars map_elements(unquote)"] = best(
            lambda: frame.select(pl.col("url").map_elements(unquote, return_dtype=pl.String)),
            1)
    return times


ROWS_WITH_FINDINGS = "rows with findings"
CLICKHOUSE = "ClickHouse decodeURLComponent (chdb, max_threads=1)"
OURS = "urlkit, pyarrow column (pyurlkit.arrow.decode)"
WITH_DIAGNOSTICS = "urlkit, pyarrow column with diagnostics"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", nargs="?", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--inputs", default="clean,dirty,percent",
                        help="comma-separated, of: " + ", ".join(INPUTS))
    parser.add_argument("--write", metavar="DIR",
                        help="write each input as DIR/NAME.txt, one URL a line, and stop")
    args = parser.parse_args()
    names = [n for n in args.inputs.split(",") if n]

    if args.write:
        os.makedirs(args.write, exist_ok=True)
        for name in names:
            with open(os.path.join(args.write, f"{name}.txt"), "w") as f:
                f.write("\n".join(INPUTS[name](args.rows)) + "\n")
        return

    load_engines()
    inputs = {name: INPUTS[name](args.rows) for name in names}
    urls = inputs.get("clean") or generate(args.rows)
    size = sum(len(u.encode()) for u in urls)
    escapes = sum(u.count("%") for u in urls) / len(urls)
    multibyte = sum(1 for u in urls if "%C3" in u or "%E" in u or "%D0" in u) / len(urls)
    print(f"{args.rows:,} URLs, {size / len(urls):.1f} bytes and {escapes:.1f} escapes per "
          f"row on average, {multibyte:.0%} with multibyte escapes; {size / 1e6:.1f} MB")
    print("clean: as generated; dirty: 5 % of the rows with one malformed escape, `%25` "
          "layer, invalid UTF-8 or control character; percent: a literal `%` (`%25`) in "
          "one word in 37, a second layer reported on 1.3 % of the rows")
    print(f"python {sys.version.split()[0]}, pyarrow {pa.__version__}, polars {pl.__version__}")
    print()

    sizes = {name: sum(len(u.encode()) for u in rows) for name, rows in inputs.items()}
    results = {name: decoding(rows, args.runs, name == "clean") for name, rows in inputs.items()}
    column = pa.array(urls, type=pa.string())
    frame = pl.DataFrame({"url": urls})

    hosts: List[tuple] = []
    host_reference = ua.host(column).to_pylist()
    hosts.append(("urlkit host, pyarrow column", best(lambda: ua.host(column), args.runs)))
    hosts.append(("urlkit host, Polars pl.col().urlkit.host()",
                  best(lambda: frame.select(pl.col("url").urlkit.host()), args.runs)))
    peers: List[str] = []
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
    for module in ("duckdb", "chdb"):
        try:
            peers.append(f"{module} {__import__(module).__version__}")
        except ImportError:
            peers.append(f"{module} not installed")
    print("peers: " + ", ".join(peers))
    print()

    rows = list(dict.fromkeys(r for times in results.values() for r in times
                              if r != ROWS_WITH_FINDINGS))
    header = "".join(f"{name + ' MB/s':>15}" for name in names)
    print(f"{'decoding':<56}{header}  (M rows/s of the first)")
    for row in rows:
        cells = ""
        for name in names:
            seconds = results[name].get(row)
            cells += f"{sizes[name] / seconds / 1e6:>15.0f}" if seconds else f"{'-':>15}"
        first = results[names[0]].get(row)
        rate = f"{len(urls) / first / 1e6:.2f}" if first else ""
        print(f"{row:<56}{cells}  {rate}")
    print()
    print(f"{'host extraction (clean)':<56}{'MB/s':>9}{'M rows/s':>10}  note")
    for entry in hosts:
        name, seconds = entry[0], entry[1]
        note = entry[2] if len(entry) > 2 else ""
        print(f"{name:<56}{size / seconds / 1e6:>9.0f}{len(urls) / seconds / 1e6:>10.2f}  {note}")

    print()
    for name in names:
        times = results[name]
        clickhouse = times.get(CLICKHOUSE, float("nan"))
        line = (f"{name}: urlkit / ClickHouse {clickhouse / times[OURS]:.2f}x (aim 3x), "
                f"with diagnostics {clickhouse / times[WITH_DIAGNOSTICS]:.2f}x (aim 1x)")
        if "first in the process" in " ".join(times):
            first = times["urlkit, pyarrow column, first in the process"]
            line += f"; the first column in the process {clickhouse / first:.2f}x"
        print(line)
    if "clean" in results:
        clean_row = results["clean"][OURS] / len(urls)
        for name in names:
            if name == "clean":
                continue
            marked = results[name][ROWS_WITH_FINDINGS]
            extra = (results[name][OURS] * sizes["clean"] / sizes[name] - results["clean"][OURS])
            print(f"{name}: {marked:,} rows with a finding; each costs {extra / marked * 1e9:.0f} "
                  f"ns more than a clean row ({clean_row * 1e9:.0f} ns): "
                  f"{1 + extra / marked / clean_row:.2f}x a clean row (aim: at most 2x)")


if __name__ == "__main__":
    main()
