#!/usr/bin/env python3
"""Runs Python's `chardet` and `charset-normalizer` on the sample set.

Writes JSON lines {"detector", "index", "guess", "same_text"} for the detect-eval binary
(src/main.rs) to score with the same rules as urlkit and chardetng. `guess` is the detector's charset
name as it reports it (null when it gives none); `same_text` says whether Python's own
codec of that name decodes the sample to exactly its text, so that a codec encoding_rs
does not know (cp1125, mac_cyrillic, ...) still counts when it reads the text right.

Usage: python_detectors.py SAMPLES OUT [SPLIT]
With SPLIT (tune or report), only samples of that split are run; `index` is always the
sample's line number in SAMPLES, from 0.
"""
import json
import sys

import chardet
import charset_normalizer


def same_text(sample, data, guess):
    if not guess:
        return False
    utf16 = sample["charset"] in ("UTF-16LE", "UTF-16BE")
    try:
        if utf16 and guess.lower().replace("_", "-") == "utf-16":
            return data.decode("utf-16") == sample["text"]
        return data[2 if utf16 else 0 :].decode(guess) == sample["text"]
    except (LookupError, UnicodeDecodeError):
        return False


def main():
    samples, out = sys.argv[1], sys.argv[2]
    split = sys.argv[3] if len(sys.argv) > 3 else None
    with open(samples, encoding="utf-8") as f, open(out, "w", encoding="utf-8") as w:
        for index, line in enumerate(f):
            sample = json.loads(line)
            if split and sample.get("split", "report") != split:
                continue
            data = bytes.fromhex(sample["hex"])
            best = charset_normalizer.from_bytes(data).best()
            guesses = [
                (f"chardet {chardet.__version__}", chardet.detect(data).get("encoding")),
                (f"charset-normalizer {charset_normalizer.__version__}", best.encoding if best else None),
            ]
            for name, guess in guesses:
                row = {"detector": name, "index": index, "guess": guess, "same_text": same_text(sample, data, guess)}
                w.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
