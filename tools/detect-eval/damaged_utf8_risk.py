#!/usr/bin/env python3
"""How often legacy text would be taken for damaged UTF-8 by the rule of `urlkit`'s
`detect::damaged_utf8` (crates/urlkit/src/detect/mod.rs), at several weights.

Every prefix (cut at every byte, as URLs and queries are cut anywhere) of every
translation in the gettext catalogs of this machine, encoded into each legacy charset
its language is written in (the languages and charsets of `catalog_samples.py`), that
is not valid UTF-8 (valid UTF-8 is UTF-8 already, damaged or not) is scored as the rule
scores it: each valid multi-byte character one step, two for three or four bytes; each
invalid sequence inside (a maximal subpart) `inside` steps against; a character cut at
the very end `cut` steps against; the text settles as UTF-8 when the characters come out
ahead by at least one step. Every such settling is a wrong answer. Prints, per language
and charset, the prefixes tried and how many settle for each pair of weights.

Usage: damaged_utf8_risk.py [--root /usr/share/locale] [--weights INSIDE:CUT ...]
(default weights 8:8 8:6 8:4 8:2, the first number the rule's inside weight). Needs
only the Python standard library; takes a few minutes.
"""
import argparse
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from catalog_samples import LOCALES, encode, read_mo  # noqa: E402


def damage(prefix):
    """(steps of the valid multi-byte characters, invalid sequences inside, 1 when a
    character is cut at the very end) of `prefix`, which is not UTF-8."""
    steps = inside = cut = 0
    rest = prefix
    while True:
        try:
            rest.decode("utf-8")
            valid, error = rest, None
        except UnicodeDecodeError as e:
            valid, error = rest[: e.start], e
        steps += sum(1 for b in valid if b >= 0xC0) + sum(1 for b in valid if b >= 0xE0)
        if error is None:
            return steps, inside, cut
        if error.end == len(rest) and error.reason == "unexpected end of data":
            return steps, inside, 1
        inside += 1
        rest = rest[error.end :]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default="/usr/share/locale")
    parser.add_argument("--weights", nargs="*", default=["8:8", "8:6", "8:4", "8:2"])
    args = parser.parse_args()
    weights = [tuple(int(w) for w in pair.split(":")) for pair in args.weights]
    totals = {w: 0 for w in weights}
    tried_total = 0
    for directory, (language, charsets) in sorted(LOCALES.items()):
        texts = []
        for path in sorted(glob.glob(os.path.join(args.root, directory, "LC_MESSAGES", "*.mo"))):
            texts.extend(read_mo(path))
        for codec, name in charsets:
            tried = 0
            settled = {w: 0 for w in weights}
            for text in texts:
                encoded = encode(text, codec)
                if not encoded or encoded.isascii():
                    continue
                for end in range(1, len(encoded) + 1):
                    prefix = encoded[:end]
                    try:
                        prefix.decode("utf-8")
                        continue
                    except UnicodeDecodeError:
                        pass
                    tried += 1
                    steps, inside, cut = damage(prefix)
                    for w in weights:
                        if steps - w[0] * inside - w[1] * cut >= 1:
                            settled[w] += 1
            if tried:
                cells = "  ".join(f"{i}:{c} {settled[(i, c)]}" for i, c in weights)
                print(f"{language:8} {name:13} {tried:9} prefixes  settled at {cells}")
            tried_total += tried
            for w in weights:
                totals[w] += settled[w]
    cells = "  ".join(f"{i}:{c} {totals[(i, c)]}" for i, c in weights)
    print(f"{'all':22} {tried_total:9} prefixes  settled at {cells}")


if __name__ == "__main__":
    main()
