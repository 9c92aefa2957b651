"""The benchmark workloads, built from ../shared/bench-data/ the same way
crates/urlkit/benches/codec.rs builds them, and Python's urllib.parse timed on them.

  bench-python.py write DIR    writes each workload to DIR (for the Node peer)
  bench-python.py time [RUNS]  best of RUNS (default 5) in-process runs of quote/unquote;
                               prints `workload<TAB>python<TAB>GB/s` lines
"""

import os
import sys
import time
from urllib.parse import quote, unquote

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "bench-data")
ALNUM = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
UNRESERVED = ALNUM | frozenset(b"-._~")


def read(name):
    with open(os.path.join(DATA, name), "rb") as f:
        return f.read()


def escape(data, keep):
    table = [chr(b) if b in keep else "%{:02X}".format(b) for b in range(256)]
    return "".join(table[b] for b in data).encode("ascii")


def workloads():
    """(name, bytes) pairs: decode inputs first, then encode inputs."""
    urls = b"".join(read(n) for n in ("node_files.txt", "isaacs_files.txt", "kasztp.txt"))
    multilingual = read("multilingual.txt")
    return [
        ("decode/urls", urls),
        ("decode/urls-escaped", escape(urls, ALNUM)),
        ("decode/multilingual-escaped", escape(multilingual, UNRESERVED)),
        ("encode/urls", urls),
        ("encode/multilingual", multilingual),
    ]


def best(function, argument, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function(argument)
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "write":
        for name, data in workloads():
            with open(os.path.join(sys.argv[2], name.replace("/", "_")), "wb") as f:
                f.write(data)
    elif len(sys.argv) >= 2 and sys.argv[1] == "time":
        runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
        for name, data in workloads():
            text = data.decode("utf-8")
            if name.startswith("decode/"):
                seconds = best(unquote, text, runs)
            else:
                seconds = best(lambda s: quote(s, safe=""), text, runs)
            print(f"{name}\tpython\t{len(data) / seconds / 1e9:.4f}")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
