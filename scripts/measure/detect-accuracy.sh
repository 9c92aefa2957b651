#!/usr/bin/env bash
# Charset-detection accuracy on real text: samples cut from the gettext catalogs of this
# machine (/usr/share/locale/*/LC_MESSAGES/*.mo) at query, path and paragraph lengths and
# encoded into every legacy charset their language is written in, generated afresh by
# tools/detect-eval/catalog_samples.py (catalogs are split by name into a tune and a report
# half; the figures are on the report half). Prints, for urlkit, the chardetng crate,
# Python's chardet and charset-normalizer: accuracy per length and per charset family;
# then the classes (language x charset x length) where urlkit is behind chardetng, urlkit's
# confusion pairs, and the reliability table and expected calibration error of urlkit's
# confidence.
#
# A measurement, not a test: a machine with fewer catalogs gives a smaller set.
# Usage: scripts/measure/detect-accuracy.sh [--split tune|report|all] [--classes] [--misses]
#        SAMPLES=FILE scripts/measure/detect-accuracy.sh   (score an existing sample file)
set -euo pipefail
cd "$(dirname "$0")/../.."
tools=tools/detect-eval
split=report
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --split) split="$2"; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
samples="${SAMPLES:-$work/samples.jsonl}"
if [ -z "${SAMPLES:-}" ]; then
  python3 "$tools/catalog_samples.py" "$samples"
fi
python3 -m pip install --quiet --disable-pip-version-check chardet charset-normalizer >&2
python3_split=$split
[ "$split" = all ] && python3_split=""
python3 "$tools/python_detectors.py" "$samples" "$work/guesses.jsonl" $python3_split
cargo run --quiet --release -p detect-eval -- \
    --samples "$samples" --python "$work/guesses.jsonl" --split "$split" "${args[@]}"
