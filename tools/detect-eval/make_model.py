#!/usr/bin/env python3
"""Trains the character model behind urlkit's statistical charset guess.

For every language the detector knows, counts characters and character pairs in
training text: the most frequent words of the language from the `wordfreq` package
(word frequency lists built from Wikipedia, subtitles, news, books and web text; data
under CC BY-SA 4.0), each weighted by its frequency (for Thai, which wordfreq lacks, the
Thai National Corpus word frequencies shipped in the `pythainlp` package), plus, from
the `faker` package, lorem
word lists, job titles, colour names, month and day names. Faker's person names,
addresses and company names are *not* used (except for Estonian, which has few other
sources): the faker sample set (make_samples.py) comes from those. Big5 (traditional
Chinese) is trained on wordfreq's Chinese words converted with OpenCC's s2tw tables
(opencc-purepy, MIT; OpenCC data, Apache 2.0); Estonian also on the words of the
Estonian hunspell dictionary (Debian's myspell-et: the Institute of the Estonian
Language's licence, which allows distribution with the licence kept, and LGPL-2.1).
The gettext catalogs that catalog_samples.py cuts the evaluation from are never read.

Text is normalised before counting exactly as crates/urlkit/src/detect/model.rs normalises decoded text:
lower-cased; ASCII that is not a letter becomes a space (a word boundary).

Output (crates/urlkit/src/detect/model.txt, packed into a compact binary form by the
crate's build.rs), one
record a line, tab separated:
  L <lang> <charsets, comma separated>   starts a language
  U <char> <count>                        unigram
  B <char><char> <count>                  bigram (pairs seen at least MIN_PAIR times)
Usage: make_model.py [--out FILE]
Needs: pip install faker wordfreq && pip install --no-deps pythainlp (only its data
file is read) opencc-purepy (simplified to traditional Chinese) && apt-get install
myspell-et (Estonian words). The output is committed; building urlkit needs none of these.
"""
import argparse
import collections
import importlib
import os
import unicodedata

# language -> (charsets it is written in, faker locales to train on); the wordfreq
# language is the key before any "-" (none for the Nordic group and Estonian; Thai
# takes the Thai National Corpus counts instead).
LANGS = {
    "ja": ("Shift_JIS,EUC-JP,ISO-2022-JP", ["ja_JP"]),
    "zh-Hans": ("GBK", ["zh_CN"]),
    "zh-Hant": ("Big5", ["zh_TW"]),
    "ko": ("EUC-KR", ["ko_KR"]),
    "ru": ("windows-1251,KOI8-R,ISO-8859-5,IBM866", ["ru_RU"]),
    "uk": ("windows-1251,KOI8-U,ISO-8859-5,IBM866", ["uk_UA"]),
    "bg": ("windows-1251,ISO-8859-5", ["bg_BG", "mk_MK"]),
    "el": ("windows-1253,ISO-8859-7", ["el_GR"]),
    "he": ("windows-1255", ["he_IL"]),
    "ar": ("windows-1256", ["ar_AA", "ar_PS", "ar_SA", "ar_DZ"]),
    "fa": ("windows-1256", ["fa_IR"]),
    "th": ("windows-874", ["th_TH"]),
    "tr": ("windows-1254", ["tr_TR", "az_AZ"]),
    "cs": ("windows-1250,ISO-8859-2", ["cs_CZ", "sk_SK"]),
    "pl": ("windows-1250,ISO-8859-2", ["pl_PL"]),
    "hu": ("windows-1250,ISO-8859-2", ["hu_HU"]),
    "sl": ("windows-1250,ISO-8859-2", ["sl_SI", "hr_HR", "ro_RO"]),
    "de": ("windows-1252", ["de_DE", "de_AT", "de_CH"]),
    "fr": ("windows-1252", ["fr_FR", "fr_CA"]),
    "es": ("windows-1252", ["es_ES", "es_MX", "es_AR"]),
    "pt": ("windows-1252", ["pt_PT", "pt_BR"]),
    "it": ("windows-1252", ["it_IT"]),
    "nl": ("windows-1252", ["nl_NL", "nl_BE"]),
    "nordic": ("windows-1252", ["da_DK", "sv_SE", "no_NO", "fi_FI", "is_IS"]),
    "da": ("windows-1252", []),
    "sv": ("windows-1252", []),
    "fi": ("windows-1252", []),
    "vi": ("windows-1258", ["vi_VN"]),
    "lt": ("windows-1257", []),
    "lv": ("windows-1257", []),
    "et": ("windows-1257,windows-1252", ["et_EE"]),
    "ca": ("windows-1252", []),
    "nb": ("windows-1252", []),
    "sk": ("windows-1250,ISO-8859-2", []),
    "sh": ("windows-1250,ISO-8859-2", []),
    "mk": ("windows-1251,ISO-8859-5", []),
}
# Languages that wordfreq lacks take faker's person names too (make_samples.py has no
# samples in them).
EXTRA_PROVIDERS = {"et": ["person"]}
# Estonian, which wordfreq lacks, also takes the words of the Estonian hunspell
# dictionary (Debian package myspell-et: the Institute of the Estonian Language's word
# list, under its licence that allows use, copying and distribution with the licence
# kept, and LGPL-2.1), each word counted once.
HUNSPELL = {"et": "/usr/share/hunspell/et_EE.dic"}
PROVIDERS = ["lorem", "job", "color", "date_time", "currency"]
MIN_PAIR = 2
WORDFREQ_WORDS = 25000
MAX_PAIRS = 3000
TOTAL = 1_000_000


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from strings(k)
            yield from strings(v)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            yield from strings(v)


def training_text(lang, locales):
    out = []
    for locale in locales:
        for provider in PROVIDERS + EXTRA_PROVIDERS.get(lang, []):
            try:
                mod = importlib.import_module(f"faker.providers.{provider}.{locale}")
            except ImportError:
                continue
            cls = getattr(mod, "Provider", None)
            if cls is None:
                continue
            for name, value in vars(cls).items():
                if name.startswith("_") or callable(value):
                    continue
                for s in strings(value):
                    if "{{" in s or "#" in s or "%" in s:
                        continue
                    out.append(s)
    return out


def normalise(text):
    text = unicodedata.normalize("NFC", text).lower()
    return "".join(c if ord(c) >= 0x80 or c.isalpha() else " " for c in text)


def thai_text():
    """(word, weight) pairs from pythainlp's copy of the Thai National Corpus counts."""
    import importlib.util

    spec = importlib.util.find_spec("pythainlp")
    if spec is None:
        return []
    path = os.path.join(spec.submodule_search_locations[0], "corpus", "tnc_freq.txt")
    pairs = []
    for line in open(path, encoding="utf-8"):
        word, _, count = line.rstrip("\n").partition("\t")
        if count.isdigit() and any("\u0e00" <= c <= "\u0e7f" for c in word):
            pairs.append((word, int(count)))
    pairs.sort(key=lambda kv: -kv[1])
    return pairs[:WORDFREQ_WORDS]


def hunspell_text(lang):
    """(word, weight) pairs from a hunspell dictionary: every word once, affix flags
    dropped; [] when the dictionary is not installed."""
    path = HUNSPELL.get(lang)
    if not path or not os.path.exists(path):
        return []
    aff = path[: -len(".dic")] + ".aff"
    encoding = "iso-8859-15"
    for line in open(aff, encoding="latin-1"):
        if line.startswith("SET "):
            encoding = line.split()[1].strip()
    words = []
    with open(path, encoding=encoding, errors="replace") as f:
        next(f, None)  # the word count
        for line in f:
            word = line.split("/")[0].strip()
            if word:
                words.append((word, 1.0))
    return words


def wordfreq_text(lang):
    """(word, weight) pairs: the language's frequent words, weight in uses per million."""
    import wordfreq

    key = lang.split("-")[0]
    if key == "th":
        return thai_text()
    if key in ("nordic", "et"):
        return []
    try:
        freqs = wordfreq.get_frequency_dict(key)
    except LookupError:
        return []
    top = sorted(freqs.items(), key=lambda kv: -kv[1])[:WORDFREQ_WORDS]
    if lang == "zh-Hant":
        # wordfreq's Chinese list is in simplified characters; Big5 text is written in
        # traditional ones (Taiwan's standard forms, converted by OpenCC's s2tw).
        from opencc_purepy import OpenCC

        s2tw = OpenCC("s2tw")
        top = [(s2tw.convert(w), f) for w, f in top]
    return [(w, f * 1e6) for w, f in top]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "../../crates/urlkit/src/detect/model.txt"))
    args = ap.parse_args()
    lines = []
    for lang, (charsets, locales) in LANGS.items():
        uni = collections.Counter()
        bi = collections.Counter()
        weighted = [(s, 1.0) for s in training_text(lang, locales)] + wordfreq_text(lang)
        weighted += hunspell_text(lang)
        for s, w in weighted:
            t = " " + normalise(s) + " "
            for c in t[1:-1]:
                uni[c] += w
            for i in range(len(t) - 1):
                bi[t[i : i + 2]] += w
        # Every language is scaled to the same total so smoothing treats all alike.
        scale = TOTAL / max(1.0, sum(uni.values()))
        uni = collections.Counter({c: max(1, round(n * scale)) for c, n in uni.items()})
        pairs = sorted(bi.items(), key=lambda kv: -kv[1])[:MAX_PAIRS]
        bi = collections.Counter({p: round(n * scale) for p, n in pairs})
        lines.append(f"L\t{lang}\t{charsets}")
        for c, n in sorted(uni.items()):
            if c not in "\t\n":
                lines.append(f"U\t{c}\t{n}")
        for p, n in sorted(bi.items()):
            if n >= MIN_PAIR and "\t" not in p and "\n" not in p:
                lines.append(f"B\t{p}\t{n}")
        print(f"{lang}: {sum(uni.values())} chars, {len(uni)} distinct, {len(bi)} pairs")
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes)")


if __name__ == "__main__":
    main()
