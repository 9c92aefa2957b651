#!/usr/bin/env python3
"""Writes the heaviest request bodies harden.sh knows, each just under the server's 16 MiB
limit for text (or the 512 KiB limit of the inspector), into DIR, one file per request:

    bodies.py DIR

Each line printed is `FILE ROUTE CONTENT_TYPE`, for harden.sh to send.
"""

import json
import os
import sys
import urllib.parse

TEXT_LIMIT = 16 * 1024 * 1024 - 64
INSPECT_LIMIT = 512 * 1024 - 64


def main():
    out = sys.argv[1]
    bodies = []

    def write(name, route, content_type, text):
        with open(os.path.join(out, name), "w") as f:
            f.write(text)
        bodies.append((name, route, content_type))

    n = (TEXT_LIMIT - 40) // 2
    # Every layer nearly as long as the input: 17 layers of 16 MB.
    write("until-deep.json", "/api/decode", "application/json",
          '{"input":"%' + "25" * n + '41","until_stable":true}')
    # Millions of malformed escapes under until_stable: one finding each.
    write("until-malformed.json", "/api/decode", "application/json",
          '{"input":"%2541' + "%zz" * ((TEXT_LIMIT - 40) // 3) + '","until_stable":true}')
    # Millions of tiny JSON values in a field nobody asked for.
    write("json-values.json", "/api/encode", "application/json",
          '{"input":"","x":[' + "0," * ((TEXT_LIMIT - 40) // 2) + "0]}")
    # Control characters: each escaped as \u00XX (six bytes) in the answer.
    write("control.json", "/api/decode", "application/json",
          '{"input":"' + "%01" * ((TEXT_LIMIT - 20) // 3) + '"}')
    # A finding on every one of millions of lines.
    write("per-line.json", "/api/decode", "application/json",
          '{"input":"' + "%zz\\n" * ((TEXT_LIMIT - 40) // 5) + '","per_line":true}')
    # The inspector: a URL of a million query pairs.
    write("inspect.json", "/api/inspect", "application/json",
          json.dumps({"url": "http://a/?" + "a=b&" * ((INSPECT_LIMIT - 40) // 4)}))
    # The page's inspector without JavaScript (form post): the same, form-encoded.
    pairs = (TEXT_LIMIT - 100) // len(urllib.parse.quote("a=b&", safe=""))
    write("page-inspect.form", "/", "application/x-www-form-urlencoded",
          "op=inspect&url=" + urllib.parse.quote("http://a/?" + "a=b&" * pairs, safe=""))
    for name, route, content_type in bodies:
        print(name, route, content_type)


if __name__ == "__main__":
    main()
