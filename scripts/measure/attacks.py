#!/usr/bin/env python3
"""The attacks of the second hardening pass, against a server on 127.0.0.1, for harden.sh.

    attacks.py ATTACK HOST PORT [ARGS...]

Each prints one line of figures as `key=value` pairs:

    inspect-set          /api/inspect with 40,000 keys in `set` (429 KB): status, seconds
    inspect-trim         /api/inspect with 16,380 pairs and a pattern of 16,380 `*b`
    page-trim            the page's inspector form with the same query and pattern
    h2-ping COUNT SECS   COUNT h2c connections that send the preface, SETTINGS and then a
                         PING every 2 s and never a request, for SECS seconds; /healthz on a
                         new connection meanwhile, and how many ping connections the server
                         closed
    trickle COUNT SECS   COUNT uploads from one client (X-Forwarded-For 192.0.2.1), each
                         sending a byte every 4 s, for SECS seconds; meanwhile one upload
                         from that client and one from another (192.0.2.2)
    form-fields          a page form of 8 M empty fields (16 MB)
    rate PATH...         300 requests in a row to each PATH; how many were answered 429
"""

import json
import socket
import struct
import sys
import threading
import time
import urllib.parse


def exchange(host, port, request, timeout=120):
    """Sends `request`, reads until the server closes; returns (status, seconds)."""
    started = time.monotonic()
    try:
        with socket.create_connection((host, port), timeout=timeout) as s:
            try:
                s.sendall(request)
            except OSError:
                pass  # answered and closed before the whole body was sent (a 413, say)
            answer = b""
            while True:
                try:
                    chunk = s.recv(65536)
                except ConnectionResetError:
                    break
                if not chunk:
                    break
                answer += chunk
        status = answer[9:12].decode() if answer.startswith(b"HTTP/1.1 ") else "none"
    except OSError as error:
        status = f"error:{type(error).__name__}"
    return status, time.monotonic() - started


def post(host, port, path, content_type, body, extra=b""):
    head = (
        f"POST {path} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n"
        f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
    ).encode()
    return exchange(host, port, head + extra + b"\r\n" + body)


def figures(**values):
    print(" ".join(f"{k}={v:.2f}" if isinstance(v, float) else f"{k}={v}" for k, v in values.items()))


def inspect_set(host, port):
    keys = {str(i): "v" for i in range(40_000)}
    body = json.dumps({"url": "http://a/", "set": keys}, separators=(",", ":")).encode()
    status, seconds = post(host, port, "/api/inspect", "application/json", body)
    figures(bytes=len(body), status=status, seconds=seconds)


TRIM_QUERY = "&".join(["a"] * 16_380)
TRIM_PATTERN = "*b" * 16_380


def inspect_trim(host, port):
    request = {"url": "http://a/?" + TRIM_QUERY, "trim_query": [TRIM_PATTERN]}
    body = json.dumps(request, separators=(",", ":")).encode()
    status, seconds = post(host, port, "/api/inspect", "application/json", body)
    figures(bytes=len(body), status=status, seconds=seconds)


def page_trim(host, port):
    body = urllib.parse.urlencode(
        {"op": "inspect-query", "url": "http://a/?" + TRIM_QUERY, "trim_query": TRIM_PATTERN}
    ).encode()
    status, seconds = post(host, port, "/", "application/x-www-form-urlencoded", body)
    figures(bytes=len(body), status=status, seconds=seconds)


def frame(kind, flags, stream, payload):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def health(host, port):
    status, seconds = exchange(host, port, b"GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", 10)
    return status, seconds


def h2_ping(host, port, count, seconds):
    preface = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + frame(4, 0, 0, b"")
    ping = frame(6, 0, 0, b"12345678")
    connections = []
    for _ in range(count):
        try:
            s = socket.create_connection((host, port), timeout=5)
            s.sendall(preface)
            connections.append(s)
        except OSError:
            pass
    closed = set()
    started = time.monotonic()
    statuses = {}
    while time.monotonic() - started < seconds:
        for i, s in enumerate(connections):
            if i in closed:
                continue
            try:
                s.sendall(ping)
                s.setblocking(False)
                try:
                    if s.recv(65536) == b"":
                        closed.add(i)
                except BlockingIOError:
                    pass
                s.setblocking(True)
            except OSError:
                closed.add(i)
        status, _ = health(host, port)
        statuses[status] = statuses.get(status, 0) + 1
        time.sleep(2)
    figures(
        connections=len(connections),
        closed_by_server=len(closed),
        healthz=",".join(f"{k}x{v}" for k, v in sorted(statuses.items())),
        seconds=time.monotonic() - started,
    )


def upload_head(client, length):
    return (
        f"POST /api/files HTTP/1.1\r\nHost: a\r\nX-Forwarded-For: {client}\r\nConnection: close\r\n"
        f"Content-Type: multipart/form-data; boundary=B\r\nContent-Length: {length}\r\n\r\n"
    ).encode()


UPLOAD_START = (
    b'--B\r\nContent-Disposition: form-data; name="op"\r\n\r\nencode\r\n'
    b'--B\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nx'
)


def whole_upload(host, port, client):
    body = UPLOAD_START + b"abc\r\n--B--\r\n"
    return exchange(host, port, upload_head(client, len(body)) + body, 30)


def trickle(host, port, count, seconds):
    results = []

    def one():
        try:
            with socket.create_connection((host, port), timeout=seconds + 30) as s:
                s.sendall(upload_head("192.0.2.1", 100_000) + UPLOAD_START)
                started = time.monotonic()
                s.settimeout(4)
                answer = b""
                while time.monotonic() - started < seconds:
                    try:
                        s.sendall(b"x")
                        chunk = s.recv(65536)
                        if not chunk:
                            break
                        answer += chunk
                    except socket.timeout:
                        continue
                    except OSError:
                        break
                status = answer[9:12].decode() if answer.startswith(b"HTTP/1.1 ") else "open"
                results.append((status, time.monotonic() - started))
        except OSError:
            results.append(("error", 0.0))

    threads = [threading.Thread(target=one) for _ in range(count)]
    for t in threads:
        t.start()
    time.sleep(2)
    same, _ = whole_upload(host, port, "192.0.2.1")
    other, _ = whole_upload(host, port, "192.0.2.2")
    for t in threads:
        t.join()
    ended = {}
    for status, _ in results:
        ended[status] = ended.get(status, 0) + 1
    longest = max((s for _, s in results), default=0.0)
    figures(
        trickling=count,
        same_client=same,
        other_client=other,
        trickles_ended=",".join(f"{k}x{v}" for k, v in sorted(ended.items())),
        longest_held=longest,
    )


def form_fields(host, port):
    body = b"op=decode" + b"&" * 8_000_000 + b"&a=" * 2_000_000
    status, seconds = post(host, port, "/", "application/x-www-form-urlencoded", body[: 16 * 1024 * 1024 - 64])
    figures(bytes=min(len(body), 16 * 1024 * 1024 - 64), status=status, seconds=seconds)


def rate(host, port, paths):
    out = {}
    for path in paths:
        method, _, target = path.partition(":")
        if not target:
            method, target = "GET", path
        limited = 0
        for _ in range(300):
            status, _ = exchange(host, port, f"{method} {target} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n".encode(), 10)
            limited += status == "429"
        out[f"{method}_{target}"] = f"{limited}/300"
    figures(**out)


def main():
    attack, host, port, *rest = sys.argv[1:]
    port = int(port)
    if attack == "inspect-set":
        inspect_set(host, port)
    elif attack == "inspect-trim":
        inspect_trim(host, port)
    elif attack == "page-trim":
        page_trim(host, port)
    elif attack == "h2-ping":
        h2_ping(host, port, int(rest[0]), float(rest[1]))
    elif attack == "trickle":
        trickle(host, port, int(rest[0]), float(rest[1]))
    elif attack == "form-fields":
        form_fields(host, port)
    elif attack == "rate":
        rate(host, port, rest)
    else:
        sys.exit(f"unknown attack {attack!r}; see the top of this file")


if __name__ == "__main__":
    main()
