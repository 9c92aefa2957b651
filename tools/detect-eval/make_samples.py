#!/usr/bin/env python3
"""Writes the charset-detection sample set (samples.jsonl) from real text.

Text comes from the `faker` package's locale data (person names, addresses, cities,
streets, company names) and from ../shared/bench-data/multilingual.txt. The language
model in src/detect_model.txt is trained on *other* faker data (lorem word lists, job
titles, colours, month and day names; see make_model.py), so samples and training text
do not overlap by construction.

Each line: {"lang", "charset", "class": "long"|"short", "text", "hex"}.
`charset` is a WHATWG label that encoding_rs understands. Long samples are 100-300
bytes; short ones 4-10 characters. Legacy-charset samples that encode to pure ASCII are
skipped (every ASCII-compatible answer would be right), and so are pure-ASCII
UTF-8 samples.

Usage: make_samples.py [--seed N] --out FILE   (needs: pip install faker)
The set is generated, not committed; SAMPLES=FILE scripts/measure/detect-accuracy.sh scores it.
"""
import argparse
import json
import os
import random
import unicodedata

import faker

# language -> (faker locales, legacy charsets as (python codec, WHATWG label))
LANGS = {
    "ja": (["ja_JP"], [("cp932", "Shift_JIS"), ("euc_jp", "EUC-JP"), ("iso2022_jp", "ISO-2022-JP")]),
    "zh-Hans": (["zh_CN"], [("gb18030", "GBK")]),
    "zh-Hant": (["zh_TW"], [("big5", "Big5")]),
    "ko": (["ko_KR"], [("cp949", "EUC-KR")]),
    "ru": (["ru_RU"], [("cp1251", "windows-1251"), ("koi8_r", "KOI8-R"), ("iso8859_5", "ISO-8859-5"), ("cp866", "IBM866")]),
    "el": (["el_GR"], [("cp1253", "windows-1253"), ("iso8859_7", "ISO-8859-7")]),
    "he": (["he_IL"], [("cp1255", "windows-1255")]),
    "ar": (["ar_SA", "ar_EG", "ar_JO"], [("cp1256", "windows-1256")]),
    "fa": (["fa_IR"], [("cp1256", "windows-1256")]),
    "th": (["th_TH"], [("cp874", "windows-874")]),
    "tr": (["tr_TR"], [("cp1254", "windows-1254")]),
    "cs": (["cs_CZ"], [("cp1250", "windows-1250"), ("iso8859_2", "ISO-8859-2")]),
    "pl": (["pl_PL"], [("cp1250", "windows-1250"), ("iso8859_2", "ISO-8859-2")]),
    "hu": (["hu_HU"], [("cp1250", "windows-1250"), ("iso8859_2", "ISO-8859-2")]),
    "de": (["de_DE", "de_AT", "de_CH"], [("cp1252", "windows-1252")]),
    "fr": (["fr_FR", "fr_CA"], [("cp1252", "windows-1252")]),
    "es": (["es_ES", "es_MX"], [("cp1252", "windows-1252")]),
    "pt": (["pt_PT", "pt_BR"], [("cp1252", "windows-1252")]),
}
LATIN = {"tr", "cs", "pl", "hu", "de", "fr", "es", "pt"}
UNICODE = [("utf-8", "UTF-8"), ("utf-16-le", "UTF-16LE"), ("utf-16-be", "UTF-16BE")]
BOMS = {"UTF-16LE": b"\xff\xfe", "UTF-16BE": b"\xfe\xff"}
METHODS = ["name", "address", "city", "street_name", "company", "last_name", "first_name"]

N_LONG = 12
N_SHORT = 24
N_LONG_UNICODE = 4
N_SHORT_UNICODE = 8


def prepare(text, codec):
    text = unicodedata.normalize("NFC", text.replace("\n", " "))
    if codec == "cp1256":
        # Persian keyboards type U+06CC; windows-1256 has only the Arabic yeh.
        text = text.replace("\u06cc", "\u064a")
    return text


def encode(text, codec, label):
    try:
        data = text.encode(codec)
    except UnicodeEncodeError:
        return None
    if data.decode(codec) != text:
        return None
    return BOMS.get(label, b"") + data


def phrases(rng, fakers, latin):
    """Yields real names, places and company names from the locale data.

    For languages not written in Latin script, values with Latin letters are skipped:
    faker falls back to English for some fields ("Street", "LLC").
    """
    while True:
        f = rng.choice(fakers)
        method = rng.choice(METHODS)
        try:
            value = getattr(f, method)()
        except AttributeError:
            continue
        if not latin and any("a" <= c.lower() <= "z" for c in value):
            continue
        yield value


def short_pieces(value):
    """Short candidates: whole values and their words, 4-10 characters."""
    out = [value] + value.split()
    return [p.strip(",.()") for p in out if 4 <= len(p.strip(",.()")) <= 10]


def make(lang, locales, codec, label, cls, count, rng, extra):
    fakers = [faker.Faker(l) for l in locales]
    for f in fakers:
        f.seed_instance(rng.randrange(1 << 30))
    gen = phrases(rng, fakers, lang in LATIN)
    seen = set()
    out = []
    tries = 0
    utf16 = label in ("UTF-16LE", "UTF-16BE")
    while len(out) < count and tries < 20000:
        tries += 1
        if cls == "short":
            pool = short_pieces(next(gen))
            if extra and rng.random() < 0.3:
                pool = [w for w in short_pieces(rng.choice(extra))]
            if not pool:
                continue
            text = prepare(rng.choice(pool), codec)
        else:
            target = rng.randrange(100, 300)
            parts = []
            while True:
                if extra and rng.random() < 0.3:
                    piece = rng.choice(extra)
                else:
                    piece = next(gen)
                cand = prepare(" ".join(parts + [piece]), codec)
                data = encode(cand, codec, label)
                if data is None:
                    continue
                if len(data) > 300:
                    break
                parts.append(piece)
                if len(data) >= target:
                    break
            text = prepare(" ".join(parts), codec)
        data = encode(text, codec, label)
        if data is None or text in seen:
            continue
        if cls == "long" and not 100 <= len(data) <= 300:
            continue
        if not utf16 and all(b < 0x80 for b in data):
            continue
        seen.add(text)
        out.append({"lang": lang, "charset": label, "class": cls, "text": text, "hex": data.hex()})
    return out


def extra_text(path):
    """Lines of multilingual.txt by script: Hindi, Persian, Czech."""
    by_lang = {"hi": [], "fa": [], "cs": []}
    if not os.path.exists(path):
        return by_lang
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if not line:
            continue
        if any("\u0900" <= c <= "\u097f" for c in line):
            lang = "hi"
        elif any("\u0600" <= c <= "\u06ff" for c in line):
            lang = "fa"
        else:
            lang = "cs"
        # Sentences of at most ~60 characters keep long samples under 300 bytes.
        for sentence in line.replace("?", ".").replace("!", ".").split("."):
            sentence = sentence.strip()
            if 8 <= len(sentence) <= 60:
                by_lang[lang].append(sentence)
    return by_lang


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--out", required=True)
    ap.add_argument("--bench", default=os.path.join(os.path.dirname(__file__), "../../../../shared/bench-data/multilingual.txt"))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    extra = extra_text(args.bench)
    rows = []
    for lang, (locales, charsets) in LANGS.items():
        more = extra.get(lang, [])
        for codec, label in charsets:
            rows += make(lang, locales, codec, label, "long", N_LONG, rng, more)
            rows += make(lang, locales, codec, label, "short", N_SHORT, rng, more)
        for codec, label in UNICODE:
            nl, ns = (N_LONG, N_SHORT) if label == "UTF-8" else (N_LONG_UNICODE, N_SHORT_UNICODE)
            rows += make(lang, locales, codec, label, "long", nl, rng, more)
            rows += make(lang, locales, codec, label, "short", ns, rng, more)
    # Hindi has no legacy WHATWG charset: UTF-8 only, from multilingual.txt.
    if extra["hi"]:
        rows += make("hi", ["hi_IN"], "utf-8", "UTF-8", "long", N_LONG, rng, extra["hi"])
        rows += make("hi", ["hi_IN"], "utf-8", "UTF-8", "short", N_SHORT, rng, extra["hi"])
    with open(args.out, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} samples to {args.out}")


if __name__ == "__main__":
    main()
