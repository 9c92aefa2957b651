#!/usr/bin/env bash
# Runs the fuzz targets of fuzz/ (cargo-fuzz, nightly toolchain), each for SECONDS.
#   scripts/fuzz.sh [SECONDS] [TARGET]...      (defaults: 30 s, every target)
# Seeds the corpora from conformance/ (scripts/fuzz-seeds.py), builds once, runs
# the targets one after another, and prints per target the executions and the findings
# (crash inputs saved in fuzz/artifacts/TARGET/). Logs go to fuzz/logs/TARGET.log.
# Exits 1 when a target found something. Installs cargo-fuzz when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-30}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(decode encode stream url api_json multipart purl columns)
fi
command -v cargo-fuzz >/dev/null 2>&1 || cargo install cargo-fuzz --locked
rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal

python3 scripts/fuzz-seeds.py >/dev/null
mkdir -p fuzz/logs
# The server embeds the WebAssembly module; the fuzz build (nightly, sanitizers) reuses the
# one the stable build made instead of building it again.
prebuilt="$PWD/target/wasm/wasm32-unknown-unknown/wasm/urlkit_wasm.wasm"
if [ -z "${URLKIT_WASM_FILE:-}" ] && [ ! -f "$prebuilt" ]; then
  cargo build --locked -p urlkit-wasm-assets
fi
export URLKIT_WASM_FILE="${URLKIT_WASM_FILE:-$prebuilt}"
(cd fuzz && cargo +nightly fuzz build)

status=0
for target in "${targets[@]}"; do
  log="fuzz/logs/$target.log"
  if (cd fuzz && cargo +nightly fuzz run "$target" -- -max_total_time="$seconds" \
      -timeout=10 -rss_limit_mb=2048 -print_final_stats=1) >"$log" 2>&1; then
    result="no findings"
  else
    result="FINDING (see $log and fuzz/artifacts/$target/)"
    status=1
  fi
  runs="$(grep -Eo 'stat::number_of_executed_units: [0-9]+' "$log" | awk '{print $2}' | tail -n1 || true)"
  [ -n "$runs" ] || runs="$(grep -Eo '^#[0-9]+' "$log" | tail -n1 | tr -d '#' || true)"
  echo "fuzz $target: $runs executions in ${seconds}s, $result"
  if [ "$result" != "no findings" ]; then
    # Enough to reproduce the finding from the CI log alone.
    grep -m4 -E -A1 "panicked at|ERROR: libFuzzer|SUMMARY:" "$log" | sed 's/^/  /' || true
    for artifact in "fuzz/artifacts/$target"/*; do
      [ -f "$artifact" ] && echo "  $artifact (base64): $(head -c 4096 "$artifact" | base64 -w0)"
    done
  fi
done
exit "$status"
