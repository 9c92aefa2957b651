"""The benchmark workloads, built from ../shared/bench-data/ the same way benches/codec.rs
builds them. Run as a script to write each workload to a directory (for the Node peer)."""

import os
import sys

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "bench-data")
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


if __name__ == "__main__":
    out = sys.argv[1]
    for name, data in workloads():
        with open(os.path.join(out, name.replace("/", "_")), "wb") as f:
            f.write(data)
