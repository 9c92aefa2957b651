#!/usr/bin/env python3
"""Writes a charset-detection evaluation set cut from real human text: the translations
(msgstr) in the gettext catalogs of this machine, /usr/share/locale/*/LC_MESSAGES/*.mo.

Each translation is cleaned of markup a user would not paste (format directives,
accelerator marks, tags), cut at the lengths people paste into a URL decoder, and
encoded into every legacy charset its language is written in that can represent it:

  query      a query value, 5-15 characters (one to a few words)
  path       a path segment or title, 20-60 characters
  paragraph  consecutive translations of one catalog, 100-300 bytes once encoded

Japanese text is also written with its katakana half-width (`ﾃﾞｰﾀ` for `データ`), as
older Japanese systems and phones wrote them, in Shift_JIS and EUC-JP: the samples
of language `ja-halfwidth` (only pieces that have katakana to change). Japanese, Chinese
and Korean text is also written with its Latin letters and digits full-width (`ＵＲＬ`),
languages `ja-fullwidth`, `zh-Hans-fullwidth`, `zh-Hant-fullwidth` and `ko-fullwidth`.

Windows-1258 text is written as Vietnamese software wrote it: a letter the code page
has precomposed stays one byte, every other tone mark follows its letter as a
combining character. Samples that encode to pure ASCII are skipped (every
ASCII-compatible answer would be right).

The split is fixed by catalog: a catalog's domain (its file name, e.g. `coreutils`)
goes wholly to `tune` or wholly to `report`, by a hash of the name, in every language,
so no text of a reported catalog was seen while tuning. Sampling is seeded, so the
same catalogs give the same set. A class (language x charset x length) gets at most
--per-class samples per split, drawn from random catalogs; classes with fewer than
--min-class samples are dropped.

Output, one JSON object a line: {"lang", "charset" (WHATWG name), "length"
("query"|"path"|"paragraph"), "split" ("tune"|"report"), "catalog", "text" (the text
as the charset's decoder gives it back), "hex" (the bytes)}.

Usage: catalog_samples.py [--root /usr/share/locale] [--per-class N] [--seed N] OUT
Needs only the Python standard library. The catalogs carry their packages' licenses;
the set is generated at run time and never committed, and no model is trained on it.
"""
import argparse
import collections
import glob
import hashlib
import json
import os
import random
import re
import struct
import sys
import unicodedata

# locale directory -> (language, [(python codec, WHATWG name)])
W1252 = [("cp1252", "windows-1252")]
W1250 = [("cp1250", "windows-1250"), ("iso8859_2", "ISO-8859-2")]
LOCALES = {
    **{l: (l, W1252) for l in ["de", "fr", "es", "it", "pt", "pt_BR", "nl", "da", "sv", "fi", "nb", "ca"]},
    **{l: (l, W1250) for l in ["cs", "sk", "pl", "hu", "sl", "hr"]},
    "ru": ("ru", [("cp1251", "windows-1251"), ("koi8_r", "KOI8-R"), ("iso8859_5", "ISO-8859-5"), ("cp866", "IBM866")]),
    "uk": ("uk", [("cp1251", "windows-1251"), ("koi8_u", "KOI8-U")]),
    "bg": ("bg", [("cp1251", "windows-1251")]),
    "be": ("be", [("cp1251", "windows-1251")]),
    "sr": ("sr", [("cp1251", "windows-1251")]),
    "mk": ("mk", [("cp1251", "windows-1251")]),
    "el": ("el", [("cp1253", "windows-1253"), ("iso8859_7", "ISO-8859-7")]),
    "he": ("he", [("cp1255", "windows-1255")]),
    "ar": ("ar", [("cp1256", "windows-1256")]),
    "fa": ("fa", [("cp1256", "windows-1256")]),
    "th": ("th", [("cp874", "windows-874")]),
    "tr": ("tr", [("cp1254", "windows-1254")]),
    "vi": ("vi", [("cp1258", "windows-1258")]),
    "lt": ("lt", [("cp1257", "windows-1257")]),
    "lv": ("lv", [("cp1257", "windows-1257")]),
    "et": ("et", [("cp1257", "windows-1257")]),
    "ja": ("ja", [("cp932", "Shift_JIS"), ("euc_jp", "EUC-JP"), ("iso2022_jp", "ISO-2022-JP")]),
    "zh_CN": ("zh-Hans", [("gbk", "GBK")]),
    "zh_TW": ("zh-Hant", [("big5", "Big5")]),
    "ko": ("ko", [("euc_kr", "EUC-KR")]),
}
LENGTHS = {"query": (5, 15), "path": (20, 60), "paragraph": (100, 300)}
# Variants of a locale's text: name (the samples' language) -> (locale directory,
# transform, charsets). A sample of a variant is kept only where the transform changed
# it (otherwise it is the locale's own sample again).
VARIANTS = {
    # Katakana as older Japanese systems and phones wrote them: half-width, a voiced
    # kana as the kana and a separate sound mark (`ﾃﾞｰﾀ` for `データ`).
    "ja-halfwidth": ("ja", "half_width_katakana", [("cp932", "Shift_JIS"), ("euc_jp", "EUC-JP")]),
    # Latin letters and digits written full-width among East Asian text (`ＵＲＬ`, `第１章`).
    "ja-fullwidth": ("ja", "full_width_alphanumerics", [("cp932", "Shift_JIS"), ("euc_jp", "EUC-JP")]),
    "zh-Hans-fullwidth": ("zh_CN", "full_width_alphanumerics", [("gbk", "GBK")]),
    "zh-Hant-fullwidth": ("zh_TW", "full_width_alphanumerics", [("big5", "Big5")]),
    "ko-fullwidth": ("ko", "full_width_alphanumerics", [("euc_kr", "EUC-KR")]),
}


# Each full-width katakana (and the long vowel mark) with its half-width form: the
# inverse of the half-width forms' compatibility decompositions.
HALF_WIDTH_KATAKANA = {
    full: chr(code)
    for code in range(0xFF61, 0xFFA0)
    for full in [unicodedata.normalize("NFKC", chr(code))]
    if len(full) == 1 and "\u30a0" <= full <= "\u30ff"
}


def half_width_katakana(text):
    """`text` with every full-width katakana and the long vowel mark in its half-width
    form (the inverse of their compatibility decompositions): a voiced kana becomes the
    kana and the half-width sound mark. Hiragana, kanji and anything else stay."""
    half = HALF_WIDTH_KATAKANA
    marks = {"\u3099": "\uff9e", "\u309a": "\uff9f"}
    out = []
    after_half = False
    for c in unicodedata.normalize("NFD", text):
        if c in marks and after_half:
            out.append(marks[c])
        elif c in half:
            out.append(half[c])
            after_half = True
            continue
        else:
            out.append(c)
        after_half = False
    return unicodedata.normalize("NFC", "".join(out))


def full_width_alphanumerics(text):
    """`text` with every ASCII letter and digit in its full-width form (U+FF10 to U+FF5A)."""
    return "".join(chr(ord(c) + 0xFEE0) if c.isascii() and c.isalnum() else c for c in text)


TRANSFORMS = {
    "half_width_katakana": half_width_katakana,
    "full_width_alphanumerics": full_width_alphanumerics,
}


def read_mo(path):
    """The msgstr texts of a .mo file (plural forms as separate texts), decoded in the
    catalog's charset; [] for a file that is not a well-formed catalog."""
    try:
        data = open(path, "rb").read()
    except OSError:
        return []
    if len(data) < 20:
        return []
    magic = data[:4]
    if magic == b"\xde\x12\x04\x95":
        order = "<"
    elif magic == b"\x95\x04\x12\xde":
        order = ">"
    else:
        return []
    _revision, count, originals, translations = struct.unpack(order + "4I", data[4:20])
    raw = []
    header = b""
    for i in range(count):
        try:
            olen, ooff = struct.unpack(order + "2I", data[originals + 8 * i : originals + 8 * i + 8])
            tlen, toff = struct.unpack(order + "2I", data[translations + 8 * i : translations + 8 * i + 8])
        except struct.error:
            return []
        msgid = data[ooff : ooff + olen]
        msgstr = data[toff : toff + tlen]
        if not msgid:
            header = msgstr
            continue
        raw.append((msgid, msgstr))
    charset = "utf-8"
    m = re.search(rb"charset=([A-Za-z0-9_.:-]+)", header)
    if m:
        charset = m.group(1).decode("ascii", "replace")
    out = []
    for msgid, msgstr in raw:
        try:
            texts = msgstr.decode(charset).split("\0")
            source = msgid.decode(charset, "replace").split("\0")[0]
        except (LookupError, UnicodeDecodeError):
            continue
        for t in texts:
            if t and t != source:
                out.append(t)
    return out


FORMAT = re.compile(r"%(\d+\$)?[-+ #0']*(\d+|\*)?(\.(\d+|\*))?(hh|h|ll|l|L|q|j|z|t|I64)?[diouxXeEfFgGaAcspnm%]|%\([a-z_]+\)[sd]|\{[^{}]*\}|<[^<>]*>|&[a-z]+;|\$\{?[A-Za-z_]+\}?")


def clean(text):
    """A translation as a person would type it: NFC, no format directives, markup or
    accelerator marks, whitespace collapsed."""
    text = unicodedata.normalize("NFC", text)
    text = FORMAT.sub(" ", text)
    text = re.sub(r"[_&](?=\w)", "", text)
    text = re.sub(r"\s+", " ", text).strip()
    return text


def encode(text, codec):
    """Bytes of `text` in `codec`, or None when the charset cannot represent it. For
    cp1258 a character without a precomposed form is written as base letter plus
    combining marks, keeping the longest precomposed head the code page has."""
    if codec != "cp1258":
        try:
            return text.encode(codec)
        except UnicodeEncodeError:
            return None
    out = bytearray()
    for c in text:
        try:
            out += c.encode(codec)
            continue
        except UnicodeEncodeError:
            pass
        parts = unicodedata.normalize("NFD", c)
        for k in range(len(parts), 0, -1):
            head = unicodedata.normalize("NFC", parts[:k])
            try:
                out += head.encode(codec) + parts[k:].encode(codec)
                break
            except UnicodeEncodeError:
                continue
        else:
            return None
    return bytes(out)


def split_of(domain):
    return "tune" if hashlib.sha1(domain.encode()).digest()[0] % 2 == 0 else "report"


def cut_words(text, low, high, rng):
    """Consecutive words of `text`, from a random word on, `low`-`high` characters
    long, or None."""
    words = text.split(" ")
    starts = list(range(len(words)))
    rng.shuffle(starts)
    for start in starts[:4]:
        piece = ""
        for w in words[start:]:
            candidate = (piece + " " + w) if piece else w
            if len(candidate) > high:
                break
            piece = candidate
        if low <= len(piece) <= high:
            return piece
        if not piece and len(words[start]) > high:
            return words[start][: rng.randint(low, high)]
    return None


def cut_paragraph(texts, index, codec, rng):
    """Consecutive translations from `index` on, cut at a word so that the encoding is
    100-300 bytes, or None."""
    target = rng.randint(*LENGTHS["paragraph"])
    joined = " ".join(texts[index : index + 40])
    words = joined.split(" ")
    piece = ""
    for w in words:
        candidate = (piece + " " + w) if piece else w
        data = encode(candidate, codec)
        if data is None:
            return None
        if len(data) > target:
            break
        piece = candidate
    data = encode(piece, codec)
    if data is None or not 100 <= len(data) <= 300:
        return None
    return piece


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--root", default="/usr/share/locale")
    ap.add_argument("--per-class", type=int, default=60)
    ap.add_argument("--min-class", type=int, default=20)
    ap.add_argument("--seed", type=int, default=16)
    args = ap.parse_args()

    catalogs = collections.defaultdict(lambda: {"tune": [], "report": []})
    # Every locale and variant: (directory, language, transform, charsets).
    sources = {locale: (locale, lang, None, charsets) for locale, (lang, charsets) in LOCALES.items()}
    for name, (locale, transform, charsets) in VARIANTS.items():
        sources[name] = (locale, name, TRANSFORMS[transform], charsets)
    # Each locale directory's catalogs, read once for the locale and its variants.
    read = {}
    for name, (locale, lang, _, _) in sources.items():
        if locale not in read:
            read[locale] = []
            for path in sorted(glob.glob(os.path.join(args.root, locale, "LC_MESSAGES", "*.mo"))):
                domain = os.path.basename(path)[: -len(".mo")]
                texts = [t for t in map(clean, read_mo(path)) if t]
                if texts:
                    read[locale].append((domain, texts))
        for domain, texts in read[locale]:
            catalogs[(name, lang)][split_of(domain)].append((domain, texts))

    count = collections.Counter()
    files = collections.Counter()
    with open(args.out, "w", encoding="utf-8") as out:
        for (name, lang), by_split in sorted(catalogs.items()):
            locale, _, transform, charsets = sources[name]
            for codec, charset in charsets:
                for length, (low, high) in LENGTHS.items():
                    for split, cats in by_split.items():
                        if not cats:
                            continue
                        files[split] += 0
                        rng = random.Random(f"{args.seed}/{name}/{charset}/{length}/{split}")
                        rows = []
                        seen = set()
                        for _ in range(args.per_class * 40):
                            if len(rows) >= args.per_class:
                                break
                            domain, texts = rng.choice(cats)
                            i = rng.randrange(len(texts))
                            if length == "paragraph":
                                piece = cut_paragraph(texts, i, codec, rng)
                            else:
                                piece = cut_words(texts[i], low, high, rng)
                            if transform is not None and piece:
                                changed = transform(piece)
                                piece = changed if changed != piece else None
                            if not piece or piece in seen:
                                continue
                            data = encode(piece, codec)
                            if data is None or data.isascii():
                                continue
                            seen.add(piece)
                            rows.append({
                                "lang": lang, "charset": charset, "length": length, "split": split,
                                "catalog": f"{locale}/{domain}", "text": data.decode(codec), "hex": data.hex(),
                            })
                        if len(rows) < args.min_class:
                            continue
                        for row in rows:
                            out.write(json.dumps(row, ensure_ascii=False) + "\n")
                        count[split] += len(rows)
    used = {s: sum(len(c[s]) for c in catalogs.values()) for s in ("tune", "report")}
    print(
        f"{args.out}: tune {count['tune']} samples from {used['tune']} catalogs, "
        f"report {count['report']} samples from {used['report']} catalogs",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
