"""Per-line charset detection in Python, and the table of bench-detect.sh.

  bench-detect.py time NAME FILE LABELS ROWS   detects the charset of each of the first
      ROWS lines of FILE (percent-encoded; the bytes their escapes stand for) with chardet,
      charset-normalizer and cchardet (faust-cchardet), each line on its own; prints
      `NAME<TAB>library<TAB>lines/s<TAB>accuracy` rows (accuracy: the share of lines whose
      answer reads the bytes as the charset in LABELS does; `-` when LABELS is `-`)
  bench-detect.py table FILE   prints the rows gathered in FILE as one table per input

Each figure is the best of three runs in processor time (time.process_time).
"""

import sys
import time
from urllib.parse import unquote_to_bytes

# WHATWG names as Python's codecs know them.
CODECS = {"windows-874": "cp874"}


def reading(charset, data):
    """`data` decoded in `charset` (None when Python has no such codec or no answer)."""
    if not charset:
        return None
    try:
        return data.decode(CODECS.get(charset, charset), errors="replace")
    except LookupError:
        return None


def detectors():
    import cchardet
    import chardet
    import charset_normalizer

    def normalizer(data):
        best = charset_normalizer.from_bytes(data).best()
        return best.encoding if best else None

    return [
        ("chardet", lambda data: chardet.detect(data)["encoding"]),
        ("charset-normalizer", normalizer),
        ("cchardet", lambda data: cchardet.detect(data)["encoding"]),
    ]


def time_rows(name, path, labels_path, rows):
    with open(path, "rb") as f:
        lines = [unquote_to_bytes(l.rstrip(b"\n")) for l in f][:rows]
    labels = None
    if labels_path != "-":
        with open(labels_path) as f:
            labels = [l.strip() for l in f][: len(lines)]
    for library, detect in detectors():
        best, answers = float("inf"), []
        for _ in range(3):
            start = time.process_time()
            answers = [detect(line) for line in lines]
            best = min(best, time.process_time() - start)
        accuracy = "-"
        if labels:
            right = sum(
                1
                for answer, label, line in zip(answers, labels, lines)
                if reading(answer, line) is not None and reading(answer, line) == reading(label, line)
            )
            accuracy = f"{right / len(lines):.4f}"
        print(f"{name}\t{library}\t{len(lines) / best:.0f}\t{accuracy}", flush=True)


def table(path):
    inputs, rows = [], {}
    with open(path) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 3:
                continue
            name = fields[0]
            if name not in inputs:
                inputs.append(name)
            rows.setdefault(name, []).append(fields[1:] + ["-"] * (4 - len(fields)))
    for name in inputs:
        header = [f"{name} (per line)", "lines/s", "accuracy"]
        body = [[r[0], f"{float(r[1]):,.0f}", r[2]] for r in rows[name]]
        widths = [max(len(r[i]) for r in body + [header]) for i in range(3)]
        show = lambda row: "| " + " | ".join(c.ljust(w) for c, w in zip(row, widths)) + " |"
        print(show(header))
        print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
        for row in body:
            print(show(row))
        print()


def main():
    if len(sys.argv) == 6 and sys.argv[1] == "time":
        time_rows(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    elif len(sys.argv) == 3 and sys.argv[1] == "table":
        table(sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
