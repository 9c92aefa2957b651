#!/usr/bin/env python3
"""Per-line decoding (`urlkit decode -l`, with and without `-c auto`) on the clean, dirty
and percent inputs of `bench-columns.py`, in processor time of the binary (user + system
of the child, the best of `--runs`), and what one line with findings costs against a
clean line of the same length.

    scripts/measure/bench-lines.py [ROWS] [--runs N] [--bin PATH] [--dir DIR]

The inputs are written by `bench-columns.py ROWS --write DIR` (default 500,000 rows, in a
temporary directory unless `--dir` names one that holds them), and `dirty-utf8` beside
them: the dirty lines whose escapes decode to UTF-8, the clean line in place of the others. The lines with findings
are those the generator changed (`dirty`, `dirty-utf8`) or gave a second layer
(`percent`).
A line with findings costs `1 + extra / clean` lines without, where `clean` is the time
per line of the baseline file (`clean` for `dirty` and `dirty-utf8`, `percent-control`
for `percent`: the same lines with the hex digit after each second layer's `%25` made a
`g`, so the same literal `%`s and nothing to report) and `extra` the time the file takes
beyond the baseline, scaled to the baseline's bytes, shared out over the lines with
findings.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
from urllib.parse import unquote_to_bytes

HERE = os.path.dirname(os.path.abspath(__file__))


def cpu_time(command: list[str]) -> float:
    """User + system seconds of one run of `command`, its output thrown away."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def decodes_to_utf8(line: bytes) -> bool:
    try:
        unquote_to_bytes(line).decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def write_dirty_utf8(paths: dict[str, str]) -> None:
    """`dirty-utf8`: the dirty lines whose escapes decode to UTF-8 (a malformed escape, a
    `%25` layer, a control character), the clean line in place of the others (invalid
    UTF-8, which `-c auto` sends through the statistical model)."""
    with open(paths["clean"], "rb") as file:
        clean = file.read().split(b"\n")
    with open(paths["dirty"], "rb") as file:
        dirty = file.read().split(b"\n")
    lines = [d if c == d or decodes_to_utf8(d) else c for c, d in zip(clean, dirty)]
    with open(paths["dirty-utf8"], "wb") as file:
        file.write(b"\n".join(lines))


def write_percent_control(paths: dict[str, str]) -> None:
    """`percent-control`: the percent lines with the hex digit after each `%25` that made a
    second layer turned into `g`, so that nothing is reported: the same bytes and literal
    `%`s as `percent`, without its findings, the baseline its lines are measured against."""
    with open(paths["percent"], "rb") as file:
        text = file.read()
    with open(paths["percent-control"], "wb") as file:
        file.write(re.sub(rb"%25[0-9A-Fa-f](?=[0-9A-Fa-f])", b"%25g", text))


def lines_with_findings(paths: dict[str, str]) -> dict[str, int]:
    """The lines of each input with something to repair or report: in `dirty` and
    `dirty-utf8`, those that differ from the clean line they were made from; in `percent`,
    those with `%25` followed by two hex digits (a second layer)."""
    def read(name: str) -> list[bytes]:
        with open(paths[name], "rb") as file:
            return file.read().split(b"\n")

    clean = read("clean")
    layer = re.compile(rb"%25[0-9A-Fa-f]{2}")
    return {
        "dirty": sum(1 for a, b in zip(clean, read("dirty")) if a != b),
        "dirty-utf8": sum(1 for a, b in zip(clean, read("dirty-utf8")) if a != b),
        "percent": sum(1 for line in read("percent") if layer.search(line)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rows", nargs="?", type=int, default=500_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--bin", default=os.path.join(
        os.environ.get("CARGO_TARGET_DIR", "target"), "release", "urlkit"))
    parser.add_argument("--dir")
    args = parser.parse_args()

    directory = args.dir or tempfile.mkdtemp(prefix="bench-lines-")
    if not os.path.exists(os.path.join(directory, "percent.txt")):
        subprocess.run([sys.executable, os.path.join(HERE, "bench-columns.py"), str(args.rows),
                        "--write", directory], check=True)
    inputs = ["clean", "dirty", "dirty-utf8", "percent-control", "percent"]
    paths = {name: os.path.join(directory, name + ".txt") for name in inputs}
    # The derived inputs are written again when the inputs they come from are newer
    # (the directory rewritten with another row count, say).
    def stale(derived: str, *sources: str) -> bool:
        return not os.path.exists(paths[derived]) or any(
            os.path.getmtime(paths[source]) > os.path.getmtime(paths[derived])
            for source in sources)

    if stale("dirty-utf8", "clean", "dirty"):
        write_dirty_utf8(paths)
    if stale("percent-control", "percent"):
        write_percent_control(paths)
    # What each input's lines with findings are measured against.
    baseline = {"dirty": "clean", "dirty-utf8": "clean", "percent": "percent-control"}
    sizes = {name: os.path.getsize(path) for name, path in paths.items()}
    rows = sum(1 for _ in open(paths["clean"], "rb"))
    found = lines_with_findings(paths)

    print(f"{rows:,} lines; processor time of `{args.bin} decode -l [-c auto] -i FILE -o /dev/null`, "
          f"best of {args.runs}")
    print("| | " + " | ".join(inputs) + " |")
    print("|---|" + "---|" * len(inputs))
    for auto in (False, True):
        extra = ["-c", "auto"] if auto else []
        times = {name: float("inf") for name in inputs}
        # Alternating the inputs, so that a change of load touches them alike.
        for _ in range(args.runs):
            for name in inputs:
                command = [args.bin, "decode", "-l", *extra, "-i", paths[name], "-o", "/dev/null"]
                times[name] = min(times[name], cpu_time(command))
        cells = []
        for name in inputs:
            cell = f"{rows / times[name]:,.0f} lines/s ({times[name]:.3f} s)"
            if name in baseline:
                base = baseline[name]
                scaled = times[name] * sizes[base] / sizes[name]
                line = times[base] / rows
                cost = 1 + (scaled - times[base]) / found[name] / line
                cell += f"; {found[name]:,} lines with findings, each {cost:.1f} {base} lines"
            cells.append(cell)
        print(f"| `decode -l{' -c auto' if auto else ''}` | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
