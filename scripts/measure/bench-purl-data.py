#!/usr/bin/env python3
"""Generates the PURL benchmark's records, the same ones for urlkit, nginx and Apache.

    bench-purl-data.py N DIR

Record i (0 <= i < N) is, by i % 100:
  0-96  a 302 redirect   /r/i   -> https://example.org/r/i/item.html
  97-98 a partial prefix /p/i/  -> https://example.org/p/i/ (the rest of the path and the
        query appended)
  99    negotiated 303   /n/i   -> text/html https://example.org/n/i.html,
                                   text/turtle https://example.org/n/i.ttl (fallback: html)
Writes into DIR:
  records.jsonl      for `urlkit purl import`
  nginx-redirects.map, nginx-negotiated.map, nginx-partial.conf  (included by nginx.conf)
  apache-redirects.txt, apache-partial.txt, apache-html.txt, apache-turtle.txt
                     (RewriteMap txt files, turned into dbm by httxt2dbm)
"""
import json
import os
import sys


def main() -> None:
    if len(sys.argv) != 3 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 100:
        sys.exit("usage: bench-purl-data.py N DIR   (N: records, at least 100)")
    n, out = int(sys.argv[1]), sys.argv[2]
    os.makedirs(out, exist_ok=True)
    base = "https://example.org"
    files = {
        name: open(os.path.join(out, name), "w", encoding="ascii", buffering=1 << 20)
        for name in [
            "records.jsonl",
            "nginx-redirects.map",
            "nginx-negotiated.map",
            "nginx-partial.conf",
            "apache-redirects.txt",
            "apache-partial.txt",
            "apache-html.txt",
            "apache-turtle.txt",
        ]
    }
    jsonl = files["records.jsonl"]
    for i in range(n):
        kind = i % 100
        if kind < 97:
            name, target = f"/r/{i}", f"{base}/r/{i}/item.html"
            record = {"type": "redirect", "target": target}
            files["nginx-redirects.map"].write(f"{name} {target};\n")
            files["apache-redirects.txt"].write(f"{name} {target}\n")
        elif kind < 99:
            name, target = f"/p/{i}/", f"{base}/p/{i}/"
            record = {"type": "partial", "target": target}
            files["nginx-partial.conf"].write(
                f"location ^~ {name} {{ rewrite ^{name}(.*)$ {target}$1 redirect; }}\n"
            )
            files["apache-partial.txt"].write(f"{name} {target}\n")
        else:
            name = f"/n/{i}"
            html, turtle = f"{base}/n/{i}.html", f"{base}/n/{i}.ttl"
            record = {
                "type": "negotiate",
                "offers": [
                    {"media_type": "text/html", "target": html},
                    {"media_type": "text/turtle", "target": turtle},
                ],
                "fallback": html,
            }
            files["nginx-negotiated.map"].write(f"0:{name} {html};\n1:{name} {turtle};\n")
            files["apache-html.txt"].write(f"{name} {html}\n")
            files["apache-turtle.txt"].write(f"{name} {turtle}\n")
        jsonl.write(json.dumps({"name": name, "record": record}, separators=(",", ":")))
        jsonl.write("\n")
    for f in files.values():
        f.close()


if __name__ == "__main__":
    main()
