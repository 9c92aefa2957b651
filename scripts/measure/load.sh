#!/usr/bin/env bash
# Load test of the web tool on loopback: POST /api/decode with a 1 KB body under wrk.
#   scripts/measure/load.sh [SECONDS] [CONNECTIONS]      (defaults: 15 s, 64 connections)
# Builds the release binary, starts `urlkit serve` on a free port of 127.0.0.1 and stops it
# afterwards. Installs wrk (Debian package) when it is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."

duration="${1:-15}"
connections="${2:-64}"
command -v wrk >/dev/null 2>&1 || { apt-get update && apt-get install -y wrk; }

cargo build --release --locked -p urlkit-cli
log="$(mktemp)"
target/release/urlkit serve --addr 127.0.0.1:0 2>"$log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 100); do
  grep -q 'serving on' "$log" && break
  sleep 0.1
done
url="$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$log" | head -n1)"
[ -n "$url" ] || { cat "$log"; exit 1; }

echo "wrk -t2 -c$connections -d${duration}s --latency -s scripts/measure/load-decode.lua $url/api/decode"
wrk -t2 -c"$connections" -d"${duration}s" --latency -s scripts/measure/load-decode.lua "$url/api/decode"
