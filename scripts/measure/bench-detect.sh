#!/usr/bin/env bash
# Per-line charset detection (`urlkit decode -l -c auto`) on generated, seeded URL lines
# (scripts/measure/detect-lines.py): 500,000 lines that decode to valid UTF-8 (about 82
# bytes each) and 20,000 lines in legacy charsets mixed line by line (Shift_JIS, EUC-JP,
# GBK, Big5, EUC-KR, windows-1250 … 1256, windows-874, KOI8-R, ISO-8859-2). Prints one
# table (lines per second, one core) per input:
#
# * the `urlkit` binary end to end, `decode -l` with and without `-c auto` (and with
#   `--json`, which lists every line's runners-up, on the legacy lines);
# * in process (crates/urlkit/examples/detect_lines.rs, processor time): the per-line
#   decode with and without `auto`, detection alone by urlkit and by the chardetng crate
#   called per line, with accuracy on the legacy lines (the rows that rank every UTF-8
#   line's runners-up, as all `auto` did before, on the first 20,000 UTF-8 lines);
# * Python's chardet, charset-normalizer and cchardet (faust-cchardet) per line on the
#   first $PY_ROWS lines (default 2,000), installed by pip into target/bench-venv.
#
#   scripts/measure/bench-detect.sh             (about 3 minutes)
#   UTF8_LINES=50000 LEGACY_LINES=20000 scripts/measure/bench-detect.sh
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
scripts="$root/scripts/measure"
target="${CARGO_TARGET_DIR:-$root/target}"
utf8_lines="${UTF8_LINES:-500000}"
legacy_lines="${LEGACY_LINES:-20000}"
py_rows="${PY_ROWS:-2000}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
results="$work/detect.tsv"
: >"$results"

echo "== generating $utf8_lines UTF-8 and $legacy_lines legacy lines" >&2
python3 "$scripts/detect-lines.py" utf8 "$utf8_lines" "$work/utf8.txt"
python3 "$scripts/detect-lines.py" legacy "$legacy_lines" "$work/legacy.txt"

echo "== urlkit end to end" >&2
cargo build --release -p urlkit-cli >&2
urlkit="$target/release/urlkit"
cli() { # cli NAME LABEL INPUT ARGS...: one timed run of the binary (user + system time)
    local name=$1 label=$2 input=$3 lines
    shift 3
    lines=$(wc -l <"$input")
    cat "$input" >/dev/null # in the page cache for every run alike
    /usr/bin/time -f '%U %S' -o "$work/time.txt" "$urlkit" "$@" -i "$input" -o /dev/null 2>/dev/null
    python3 -c "import sys; u,s=open(sys.argv[2]).read().split(); print(f'$name\t$label\t{int(sys.argv[1])/(float(u)+float(s)):.0f}\t-')" \
        "$lines" "$work/time.txt" >>"$results"
}
cli utf8 "urlkit decode -l" "$work/utf8.txt" decode -l
cli utf8 "urlkit decode -l -c auto" "$work/utf8.txt" decode -l -c auto
cli legacy "urlkit decode -l" "$work/legacy.txt" decode -l
cli legacy "urlkit decode -l -c auto" "$work/legacy.txt" decode -l -c auto
cli legacy "urlkit decode -l -c auto --json" "$work/legacy.txt" decode -l -c auto --json

echo "== in process: urlkit and chardetng" >&2
cargo build --release -p urlkit --example detect_lines >&2
ROWS="decode -l,decode -l -c auto,urlkit detect,chardetng" \
    "$target/release/examples/detect_lines" utf8 "$work/utf8.txt" >>"$results"
head -20000 "$work/utf8.txt" >"$work/utf8-20k.txt"
ROWS="decode -l -c auto (runners-up),urlkit detect (runners-up)" \
    "$target/release/examples/detect_lines" utf8 "$work/utf8-20k.txt" >>"$results"
"$target/release/examples/detect_lines" legacy "$work/legacy.txt" "$work/legacy.txt.labels" >>"$results"

echo "== Python: chardet, charset-normalizer, cchardet" >&2
venv="$target/bench-venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check chardet charset-normalizer faust-cchardet >&2
"$venv/bin/python" "$scripts/bench-detect.py" time utf8 "$work/utf8.txt" - "$py_rows" >>"$results"
"$venv/bin/python" "$scripts/bench-detect.py" time legacy "$work/legacy.txt" "$work/legacy.txt.labels" "$py_rows" >>"$results"

echo >&2
python3 "$scripts/bench-detect.py" table "$results"
