#!/usr/bin/env bash
# Runs every test of the project and ends with one summary line. Installs what the tests
# use when it is missing: Node.js and Python 3 (the cross-checks compare urlkit with them),
# Chromium and npm (the browser tests drive the web tool in Debian's Chromium with
# playwright-core), curl (the TLS check of `urlkit serve`).
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
command -v curl >/dev/null 2>&1 || missing+=(curl)
[ -x /usr/bin/chromium ] || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]} for the cross-checks and browser tests"
  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
fi

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0

cargo test --workspace --locked "$@" 2>&1 | tee -a "$log" || status=1

# Live mode: the WebAssembly module (built for wasm32 by crates/urlkit-wasm-assets/build.rs)
# must give exactly what the native binary gives, and stream like it.
cargo build --workspace --locked || status=1
node --test --test-reporter=tap crates/urlkit-wasm/js/test/*.test.mjs 2>&1 | tee -a "$log" || status=1

# The browser tests: Chromium driving the page of the server binary built above.
(cd tests-browser && npm ci --no-audit --no-fund --silent && npm test) 2>&1 \
  | tee -a "$log" || status=1

passed=$(grep -Eo 'test result: [a-zA-Z]+\. [0-9]+ passed' "$log" | grep -Eo '[0-9]+ passed' | awk '{s+=$1} END {print s+0}')
failed=$(grep -Eo '[0-9]+ failed;' "$log" | awk '{s+=$1} END {print s+0}')
node_passed=$(grep -Eo '^# pass [0-9]+' "$log" | awk '{s+=$3} END {print s+0}')
node_failed=$(grep -Eo '^# fail [0-9]+' "$log" | awk '{s+=$3} END {print s+0}')
summary="all tests: $((passed + node_passed)) passed, $((failed + node_failed)) failed"
mkdir -p target
echo "$summary" > target/test-summary.txt
echo
echo "$summary"
exit "$status"
