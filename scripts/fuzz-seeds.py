#!/usr/bin/env python3
"""Writes the fuzz seed corpora (fuzz/corpus/TARGET/) from the repository's conformance/.

Each seed is one conformance case turned into the input layout its target expects (option
bytes first, then the text).
Usage: scripts/fuzz-seeds.py [CONFORMANCE_DIR]
"""
import hashlib
import json
import os
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
conformance = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "conformance")
corpus = os.path.join(root, "fuzz", "corpus")


def load(name):
    path = os.path.join(conformance, name)
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if isinstance(data, dict):
        data = data.get("cases", [])
    return [case for case in data if isinstance(case, dict)]


counts = {}


def seed(target, data):
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    directory = os.path.join(corpus, target)
    os.makedirs(directory, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data)
    counts[target] = counts.get(target, 0) + 1


urls = load("wpt/urltestdata.json")
resolve = load("rfc3986-resolve.json")
percent = load("wpt/percent-encoding.json")
form = load("wpt/urlencoded-parser-data.json")
toascii = load("wpt/toascii.json")

texts = []
for case in percent:
    texts.append(case["input"])
    for encoded in case.get("output", {}).values():
        texts.append(encoded)
for case in form:
    texts.append(case["input"])
for case in urls[:400]:
    texts.append(case["input"])

for i, text in enumerate(texts):
    raw = text.encode("utf-8", "surrogatepass")
    seed("decode", bytes([i % 256, (i * 7) % 256]) + raw)
    seed("encode", bytes([i % 256, (i * 3) % 256, (i * 5) % 128]) + raw)
    seed("stream", bytes([i % 2, i % 256, (i * 3) % 256, (i * 5) % 128, i % 256]) + raw)
    seed("api_json", b"\x00" + json.dumps({"input": text, "set": "component"}).encode())
    seed("api_json", b"\x01" + json.dumps({"input": text, "charset": "auto", "per_line": True}).encode())
    if i % 4 == 0:
        # Option fields before the file, as the page and the API send them.
        options = [
            [],
            [("strict", "true")],
            [("charset", "auto"), ("plus_space", "on")],
            [("set", "component"), ("lowercase", "true")],
            [("per_line", "true"), ("newline", "crlf")],
            [("keep_whitespace", "1"), ("charset", "shift_jis")],
        ][(i // 4) % 6]
        fields = [("op", "decode" if i % 8 else "encode")] + options
        body = "".join(
            f"--XyZ\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            for name, value in fields
        )
        body += (
            "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n"
            + text
            + "\r\n--XyZ--\r\n"
        )
        seed("multipart", body)

for case in urls:
    base = case.get("base") or "http://a/b/c/d;p?q"
    seed("url", case["input"] + "\n" + base)
    seed("api_json", b"\x02" + json.dumps({"url": case["input"], "base": case.get("base")}).encode())
for case in resolve:
    seed("url", case["ref"] + "\n" + case["base"])
    seed("api_json", b"\x03" + json.dumps({"base": case["base"], "reference": case["ref"]}).encode())
for case in toascii:
    if "input" in case:
        seed("url", "http://" + case["input"] + "/x\nhttp://a/")

# Persistent-URL records: a name, a record as the API takes it, a request's path, query,
# Accept and Accept-Language, one a line.
purl_records = [
    ("/net/a", {"type": "redirect", "target": "https://example.org/a"}, "/net/a", "", "", ""),
    ("/net/p/", {"type": "partial", "status": 307, "target": "https://example.org/base/?k=v#top"},
     "/net/p/x/../y%2F/z", "q=1&r", "", ""),
    ("/net/n", {"type": "negotiate", "offers": [
        {"media_type": "text/html", "language": "en", "target": "https://e.org/n.html"},
        {"media_type": "text/turtle", "target": "https://e.org/n.ttl"}],
        "fallback": "https://e.org/n"},
     "/net/n", "", "text/*;q=0.5, text/turtle, */*;q=0.1", "en-GB, fr;q=0.2"),
    ("/net/c", {"type": "chain", "to": "/net/a"}, "/net/c", "", "", ""),
    ("/net/g", {"type": "gone", "message": "withdrawn"}, "/net/%67", "", "", ""),
]
for case in urls[:200]:
    purl_records.append(("/net/u/", {"type": "partial", "target": case["input"]},
                         "/net/u/" + case["input"], "a=b", "text/html", "*"))
for name, record, path, query, accept, language in purl_records:
    seed("purl", "\n".join([name, json.dumps(record), path, query, accept, language]))

# Columns: rows laid end to end, each after a byte that gives its length (at most 63),
# the clean texts mixed with rows that have something to repair or report.
dirty_rows = [b"%zz", b"100%", b"%4", b"%2541", b"%25", b"%C3", b"%FF", b"%E5%BC", b"%00",
              b"%E2%80%AE", b"a b", b"%C3%A9t%C3%A9"]
short = [t.encode("utf-8", "surrogatepass") for t in texts]
short = [t for t in short if len(t) < 64]
for i in range(0, len(short), 6):
    rows = short[i:i + 6] + [dirty_rows[(i // 6) % len(dirty_rows)]]
    body = b"".join(bytes([len(row)]) + row for row in rows)
    # Charset (utf-8, windows-1252, auto), then flags: bit 0 plus, 1 keep whitespace,
    # 2 text, 3 strict, bits 4-5 how rows with findings are run (stop, drop, mark).
    seed("columns", bytes([(i // 6) % 3, ((i // 6) * 16 + (i // 18)) % 64]) + body)

for target in sorted(counts):
    print(f"{target}: {counts[target]} seeds")
