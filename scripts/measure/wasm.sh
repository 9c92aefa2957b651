#!/usr/bin/env bash
# Prints the live-mode figures: the WebAssembly module's size (raw and gzip) and the time
# to decode 1 MB of percent-encoded text in Node and in headless Chromium (installed with
# apt-get when missing), plus how long building the module takes from scratch with --cold.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "${1:-}" = "--cold" ]; then
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  start=$(date +%s%N)
  cargo build --locked --quiet --package urlkit-wasm --lib --target wasm32-unknown-unknown \
    --profile wasm --target-dir "$scratch"
  elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
  echo "cold build of the module (all its dependencies, wasm profile): $((elapsed_ms / 1000)).$(printf %03d $((elapsed_ms % 1000))) s"
fi

# The same build crates/urlkit-wasm-assets/build.rs runs.
cargo build --locked --quiet --package urlkit-wasm-assets
# The rule of build.rs and the Node harness: CARGO_TARGET_DIR (relative to the root) or target/.
wasm=${CARGO_TARGET_DIR:-target}/wasm/wasm32-unknown-unknown/wasm/urlkit_wasm.wasm

if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "installing chromium for the browser timing"
  apt-get update -qq && apt-get install -y -qq chromium >/dev/null
fi
node scripts/measure/wasm.mjs "$wasm"
