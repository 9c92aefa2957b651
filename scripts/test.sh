#!/usr/bin/env bash
# Runs every test of the project. Installs what the tests use when it is missing:
# Node.js and Python 3 (the cross-checks compare urlkit with them).
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]} for the cross-checks"
  apt-get update && apt-get install -y "${missing[@]}"
fi

cargo test --workspace --locked "$@"

# Live mode: the WebAssembly module (built for wasm32 by crates/urlkit-wasm-assets/build.rs)
# must give exactly what the native binary gives, and stream like it.
cargo build --workspace --locked
node --test crates/urlkit-wasm/js/test/*.test.mjs
