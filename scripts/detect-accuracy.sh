#!/usr/bin/env bash
# Charset-detection accuracy, side by side on the committed sample set:
# urlkit, the chardetng crate, Python's chardet and charset-normalizer.
# Prints one table: detector, long-sample accuracy, short-sample accuracy, overall.
set -euo pipefail
cd "$(dirname "$0")/.."
eval_dir=crates/urlkit/detect-eval
samples="${1:-$eval_dir/samples.jsonl}"
python3 -m pip install --quiet --disable-pip-version-check chardet charset-normalizer >&2
guesses="$(mktemp)"
trap 'rm -f "$guesses"' EXIT
python3 "$eval_dir/python_detectors.py" "$samples" "$guesses"
cargo run --quiet -p urlkit --example detect_eval -- \
    --samples "$samples" --python "$guesses" --table-only
