#!/usr/bin/env bash
# Runs every test of the project. Installs what the tests use when it is missing:
# Node.js and Python 3 (the cross-checks compare urlkit with them), Chromium and npm (the
# browser tests drive the web tool in Debian's Chromium with playwright-core), curl (the
# TLS check of `urlkit serve`).
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

cargo test --workspace --locked "$@"

# The browser tests: the server binary, then Chromium driving the page.
cargo build --locked -p urlkit-cli
(cd tests-browser && npm ci --no-audit --no-fund --silent && npm test)
