#!/usr/bin/env bash
# Measures urlkit against its peers on ../shared/bench-data/ and prints one table (GB/s).
#
#   scripts/measure/bench.sh            full run (about 5 minutes)
#   CLI_MB=256 scripts/measure/bench.sh smaller end-to-end file
#
# Rows: decode/encode workloads (criterion for the Rust crates and memcpy; best-of-N
# in-process timing for Python's urllib.parse and Node's encodeURIComponent /
# decodeURIComponent), then the `urlkit` binary end to end on a ~1 GB file, with its peak
# resident memory. Each result column is GB/s; the ratio compares urlkit with the fastest
# peer (memcpy excluded). Then per-line `auto` rows in lines per second (bench-detect.sh:
# generated UTF-8 and mixed legacy-charset lines, beside chardetng, chardet,
# charset-normalizer and cchardet); DETECT=0 leaves them out.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
scripts="$root/scripts/measure"
target="${CARGO_TARGET_DIR:-$root/target}"
cli_mb="${CLI_MB:-1024}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
lines="$work/results.tsv"
: >"$lines"

echo "== criterion (Rust crates, memcpy)" >&2
rm -rf "$target/criterion"
cargo bench -p urlkit --bench codec -- --measurement-time 2 --warm-up-time 1 >&2

echo "== Python urllib.parse" >&2
python3 "$scripts/bench-python.py" time 5 >>"$lines"

echo "== Node encodeURIComponent / decodeURIComponent" >&2
mkdir "$work/inputs"
python3 "$scripts/bench-python.py" write "$work/inputs"
node "$scripts/bench-node.js" "$work/inputs" 10 >>"$lines"

echo "== urlkit end to end on ${cli_mb} MB" >&2
cargo build --release -p urlkit-cli >&2
urlkit="$target/release/urlkit"
repeat() { # repeat SOURCE DEST: SOURCE repeated to about $cli_mb MB
    local size count
    size=$(stat -c %s "$1")
    count=$(((cli_mb * 1024 * 1024 + size - 1) / size))
    for _ in $(seq "$count"); do cat "$1"; done >"$2"
}
repeat "$work/inputs/decode_urls" "$work/urls.txt"
repeat "$work/inputs/decode_urls-escaped" "$work/urls-escaped.txt"
cli() { # cli WORKLOAD INPUT ARGS...: one timed run of the binary, output discarded
    local workload=$1 input=$2 bytes start end rss
    shift 2
    bytes=$(stat -c %s "$input")
    cat "$input" >/dev/null # in the page cache for every run alike
    start=$(date +%s.%N)
    /usr/bin/time -v -o "$work/time.txt" "$urlkit" "$@" -i "$input" -o /dev/null 2>/dev/null
    end=$(date +%s.%N)
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time.txt")
    python3 -c "import sys; b,s,e,r=sys.argv[1:]; print(f'$workload\turlkit\t{int(b)/(float(e)-float(s))/1e9:.4f}\t{int(r)/1024:.1f}')" \
        "$bytes" "$start" "$end" "$rss" >>"$lines"
}
cli "cli decode/urls" "$work/urls.txt" decode
cli "cli decode/urls-escaped" "$work/urls-escaped.txt" decode
cli "cli encode/urls" "$work/urls.txt" encode
rm -f "$work/urls.txt" "$work/urls-escaped.txt"
# One URL a line, clean and dirty, generated and seeded by bench-columns.py (1,000,000
# lines of about 83 bytes each; see the README of this folder): per-line decoding where
# no line needs repair, where 5 % do, and where 1.3 % carry a second layer of encoding.
python3 "$scripts/bench-columns.py" --inputs clean,dirty,percent --write "$work/lines"
for input in clean dirty percent; do
    cli "cli decode -l/lines-$input" "$work/lines/$input.txt" decode -l
done
rm -rf "$work/lines"

echo >&2
python3 "$scripts/bench-table.py" "$target/criterion" "$lines"

if [ "${DETECT:-1}" != 0 ]; then
    echo >&2
    "$scripts/bench-detect.sh"
fi
