#!/usr/bin/env python3
"""Silent connections against a server on 127.0.0.1, for harden.sh.

    silent.py HOST PORT COUNT WAIT_SECONDS

Opens COUNT TCP connections that send nothing, then asks GET /healthz on a new connection
every half second and notes its status and time, for WAIT_SECONDS; finally counts how many
of the silent connections the server has closed (end of file or reset on read). Prints one
line of figures as `key=value` pairs.
"""

import socket
import sys
import time


def health(host, port):
    started = time.monotonic()
    try:
        with socket.create_connection((host, port), timeout=5) as s:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
            answer = b""
            while True:
                chunk = s.recv(4096)
                if not chunk:
                    break
                answer += chunk
        status = answer[9:12].decode() if answer.startswith(b"HTTP/1.1 ") else "none"
    except OSError:
        status = "error"
    return status, time.monotonic() - started


def closed(sock):
    """Whether the server has closed `sock` (reading what it sent before, such as a 503)."""
    # Without a timeout: a socket with one waits for it before every non-blocking read.
    sock.setblocking(False)
    while True:
        try:
            if sock.recv(65536, socket.MSG_DONTWAIT) == b"":
                return True
        except BlockingIOError:
            return False
        except OSError:
            return True


def main():
    host, port, count, wait = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    sockets = []
    refused_connect = 0
    for _ in range(count):
        try:
            sockets.append(socket.create_connection((host, port), timeout=5))
        except OSError:
            refused_connect += 1
    opened = time.monotonic()
    statuses = {}
    slowest = 0.0
    while time.monotonic() - opened < wait:
        status, took = health(host, port)
        statuses[status] = statuses.get(status, 0) + 1
        slowest = max(slowest, took)
        time.sleep(0.5)
    # Closed by the server: a 503 refusal answered and closed also counts as closed.
    gone = sum(1 for s in sockets if closed(s))
    for s in sockets:
        s.close()
    health_counts = ",".join(f"{k}:{v}" for k, v in sorted(statuses.items()))
    print(
        f"opened={len(sockets)} connect_failed={refused_connect} closed_by_server={gone} "
        f"after_s={wait:g} healthz={health_counts} healthz_slowest_s={slowest:.3f}"
    )


if __name__ == "__main__":
    main()
