"""What the tests share: the command line to compare with, and the rows to compare on.

The reference for every result is the `urlkit` binary of the same checkout
(`target/debug/urlkit`, or `URLKIT_CLI`), run with `--json` on the same entries: one JSON
line per entry, compared row by row.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Union

import pytest

ROOT = Path(__file__).resolve().parents[3]


def cli_path() -> Path:
    configured = os.environ.get("URLKIT_CLI")
    if configured:
        return Path(configured)
    for profile in ("debug", "release"):
        candidate = ROOT / "target" / profile / "urlkit"
        if candidate.exists():
            return candidate
    raise RuntimeError(
        "the urlkit binary is missing: run `cargo build -p urlkit-cli` or set URLKIT_CLI"
    )


def run_cli(args: Sequence[str], entries: Sequence[Union[str, bytes]] = ()) -> subprocess.CompletedProcess:
    """Runs the command line with `args`, then `--` and each entry as an argument."""
    command: List[Union[str, bytes]] = [str(cli_path()), *args]
    if entries:
        command += ["--", *entries]
    return subprocess.run(command, capture_output=True, timeout=60, check=False)


def cli_json(args: Sequence[str], entries: Sequence[Union[str, bytes]]) -> List[Dict[str, Any]]:
    """One parsed JSON line per entry, from `urlkit ARGS --json -- ENTRIES…`."""
    done = run_cli([*args, "--json"], entries)
    lines = done.stdout.decode("utf-8").splitlines()
    assert len(lines) == len(entries), done.stderr.decode("utf-8", "replace")
    return [json.loads(line) for line in lines]


def cli_get(template: str, urls: Sequence[str]) -> List[Optional[str]]:
    """`urlkit parse --get TEMPLATE -- URLS…`, one value per URL: None where the URL does
    not parse (the command line prints an empty line for it and names it on stderr)."""
    parsed = cli_json(["parse"], urls)
    done = run_cli(["parse", "--get", template], urls)
    lines = done.stdout.decode("utf-8").split("\n")[: len(urls)]
    assert len(lines) == len(urls), done.stderr
    return [None if "error" in p else line for p, line in zip(parsed, lines)]


def without_nones(row: Optional[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    """A struct row as the JSON prints it: absent fields are null in a column."""
    if row is None:
        return None
    return {key: value for key, value in row.items() if value is not None}


# Entries with every kind of finding: malformed escapes, invalid sequences, other charsets,
# `+` and whitespace, nested layers, non-ASCII text, empty.
FIXED_ROWS: List[str] = [
    "",
    "plain",
    "a%20b%26c",
    "100%zz",
    "%",
    "%4",
    "%E9t%C3%A9",
    "%E5%BC%95%E3%81%8D",
    "%83%89%81%5B%83%81%83%93",
    "%C0%E2%EE%F1%F2%E8",
    "q=caf%C3%A9+au+lait",
    "  spaced\tout %20 ",
    "%2520x",
    "%252525",
    "ラーメン and café",
    "https://例子.卷筒纸/引き割り.html?q=%E5%BC%95#top",
    "%F0%9F%98%80%F0%9F%98",
    "%ED%A0%80",
    "a%0Ab",
    "%EF%BB%BFbom",
]

PIECES = ["a", "/", "?", "=", "&", "+", " ", "%20", "%2F", "%E9", "%C3%A9", "%E5%BC%95",
          "%zz", "%", "%4", "é", "引", "%F0%9F%98%80", "%FF", "%25", "%2B", "~", "\t"]


def generated_rows(count: int, seed: int = 13) -> List[str]:
    """Rows of random pieces, every kind of finding among them."""
    rng = random.Random(seed)
    return ["".join(rng.choice(PIECES) for _ in range(rng.randint(0, 12))) for _ in range(count)]


@pytest.fixture(scope="session")
def rows() -> List[str]:
    return FIXED_ROWS + generated_rows(120)


URLS: List[str] = [
    "https://john.doe@www.example.com:123/forum/questions/?tag=networking&order=newest#top",
    "http://例子.卷筒纸/?a=1&a=2",
    "HTTP://Example.COM:80/%7euser/./a/../b?q=caf%C3%A9+au+lait&q=2",
    "https://user:pass@host.example/p%20q?x=%zz#frag%20ment",
    "mailto:someone@example.com",
    "file:///C:/Windows/",
    "http://[2001:db8::7]:8080/c=GB?objectClass?one",
    "http://192.168.0.1.:81/",
    "https://xn--fsqu00a.xn--3lr804guic/引き",
    "  https://trimmed.example/\t ",
    "http://a/b/c/d;p?q=1;r=2",
    "not a url",
    "http://exa mple.com/",
    "https://example.com:99999/",
    "",
]
