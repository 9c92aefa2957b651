#!/usr/bin/env python3
"""The time from an edit through one resolver to its effect on the others.

    bench-purl-pg-edits.py TOKEN WRITER OTHER... [--edits E] [--name /net/bench-edit]

WRITER and each OTHER are a resolver's host:port. Creates the record NAME through WRITER
(with TOKEN, which must be allowed to write it), then changes it E times (default 100),
one after the other: each change is a PUT of a new target at the current version, and its
time to effect is from just before the PUT is sent until every OTHER answers a GET of
NAME with the new Location (each polled on a kept-alive connection as fast as it answers).
Prints the PUT's own time and the time to effect, p50 and max, in milliseconds.
"""
import http.client
import json
import statistics
import sys
import time


def main() -> None:
    args = sys.argv[1:]
    edits, name = 100, "/net/bench-edit"
    if "--edits" in args:
        at = args.index("--edits")
        edits = int(args[at + 1])
        del args[at : at + 2]
    if "--name" in args:
        at = args.index("--name")
        name = args[at + 1]
        del args[at : at + 2]
    if len(args) < 3:
        sys.exit(__doc__)
    token, writer, others = args[0], args[1], args[2:]
    conn = lambda hostport: http.client.HTTPConnection(*hostport.rsplit(":", 1), timeout=10)
    write = conn(writer)
    readers = [conn(o) for o in others]

    def put(target: str, precondition: tuple) -> int:
        body = json.dumps({"type": "redirect", "target": target})
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        headers[precondition[0]] = precondition[1]
        write.request("PUT", f"/-/api/purls{name}", body=body, headers=headers)
        response = write.getresponse()
        response.read()
        return response.status

    status = put("https://example.org/edit/0", ("If-None-Match", "*"))
    if status != 201:
        sys.exit(f"creating {name} through {writer}: {status}")
    put_ms, effect_ms = [], []
    deadline_s = 10.0
    for version in range(1, edits + 1):
        target = f"https://example.org/edit/{version}"
        started = time.perf_counter()
        status = put(target, ("If-Match", f'"{version}"'))
        put_ms.append((time.perf_counter() - started) * 1000)
        if status != 200:
            sys.exit(f"edit {version}: {status}")
        for reader in readers:
            while True:
                reader.request("GET", name)
                response = reader.getresponse()
                response.read()
                if response.getheader("Location") == target:
                    break
                if time.perf_counter() - started > deadline_s:
                    sys.exit(f"edit {version}: not seen within {deadline_s} s")
        effect_ms.append((time.perf_counter() - started) * 1000)
    p50 = lambda xs: statistics.median(xs)
    print(
        f"EDITS {edits} put_p50_ms {p50(put_ms):.2f} put_max_ms {max(put_ms):.2f} "
        f"effect_p50_ms {p50(effect_ms):.2f} effect_max_ms {max(effect_ms):.2f}"
    )


if __name__ == "__main__":
    main()
