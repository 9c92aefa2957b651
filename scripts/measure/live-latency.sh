#!/usr/bin/env bash
# Live mode's keystroke-to-result latency in headless Chromium for 1 KB, 100 KB, 1 MB and
# 2 MB inputs (or the sizes in KB given), beside the browser's own cost of a keystroke in a
# text box of that size. URLKIT_BIN=path/to/urlkit measures another build of the page.
#
#   scripts/measure/live-latency.sh [KILOBYTES]...
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -n "${URLKIT_BIN:-}" ] || cargo build --locked -p urlkit-cli
(cd tests-browser && npm ci --no-audit --no-fund --silent)
cd tests-browser
exec node measure-latency.mjs "$@"
