#!/usr/bin/env bash
# Hardening figures for the web tool (not run by CI: it takes a few minutes).
#   scripts/measure/harden.sh [LOAD_SECONDS] [CONNECTIONS] [FUZZ_SECONDS]
#                                    (defaults: 60 s, 256 connections, no new fuzz run)
# 1. Load: wrk on loopback against POST /api/encode and /api/decode, sampling the server's
#    resident memory every 5 s; errors and non-2xx answers are counted.
# 2. Uploads: many concurrent uploads at the size limit (and one byte over), each result
#    downloaded once; open descriptors of the server before and after, files left in the
#    store, results lost.
# 3. Bad inputs: malformed bodies and hostile paths sent with curl; any 5xx is a failure.
# 4. Faults: the SIGKILL/restart, quota and download-race tests (cargo test).
# 5. Fuzzing: executions and findings per target from fuzz/logs/ (FUZZ_SECONDS > 0 runs
#    scripts/fuzz.sh first).
# Exits 1 when any figure is not what it must be.
set -euo pipefail
cd "$(dirname "$0")/../.."

duration="${1:-60}"
connections="${2:-256}"
fuzz_seconds="${3:-0}"
command -v wrk >/dev/null 2>&1 || { apt-get update && apt-get install -y wrk; }
command -v curl >/dev/null 2>&1 || { apt-get update && apt-get install -y curl; }

cargo build --release --locked -p urlkit-cli
work="$(mktemp -d)"
store="$work/store"
limit=$((8 << 20))
target/release/urlkit serve --addr 127.0.0.1:0 --store "$store" --max-upload "$limit" \
  2>"$work/server.log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do
  grep -q 'serving on' "$work/server.log" && break
  sleep 0.1
done
url="$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$work/server.log" | head -n1)"
[ -n "$url" ] || { cat "$work/server.log"; exit 1; }
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
rss() { awk '/^VmRSS/ {print $2}' "/proc/$server/status"; }
fds() { ls "/proc/$server/fd" | wc -l; }

# 1. Load.
echo "== load: wrk -t2 -c$connections -d${duration}s, encode then decode"
rss_start="$(rss)"
(while kill -0 "$server" 2>/dev/null; do rss >>"$work/rss"; sleep 5; done) &
sampler=$!
load_line=()
for op in encode decode; do
  wrk -t2 -c"$connections" -d"${duration}s" --timeout 10s -s "scripts/measure/load-$op.lua" \
    "$url/api/$op" >"$work/wrk-$op" 2>&1 || fail "wrk $op"
  cat "$work/wrk-$op"
  rps="$(grep -Eo 'requests/s [0-9]+' "$work/wrk-$op" | awk '{print $2}')"
  errors="$(grep -Eo '[0-9]+ errors \(status [0-9]+\)' "$work/wrk-$op" \
    | awk '{gsub(/\)/, "", $4); print $1 + $4}')"
  [ "${errors:-1}" = 0 ] || fail "$op: $errors errors under load"
  load_line+=("$op ${rps:-?} req/s, ${errors:-?} errors")
done
kill "$sampler" 2>/dev/null || true
rss_end="$(rss)"
rss_peak="$(sort -n "$work/rss" | tail -n1)"
echo "RSS samples (KiB): $(tr '\n' ' ' <"$work/rss")"
# Flat: after both runs, no more than 64 MiB above the start.
[ "$rss_end" -le $((rss_start + 65536)) ] || fail "memory grew: $rss_start → $rss_end KiB"

# 2. Uploads at the limit.
echo "== uploads: 32 concurrent at the ${limit}-byte limit, 8 one byte over"
head -c "$limit" /dev/zero | tr '\0' 'a' >"$work/at-limit"
head -c $((limit + 1)) /dev/zero | tr '\0' 'a' >"$work/over-limit"
fds_before="$(fds)"
for i in $(seq 40); do
  file="$work/at-limit"
  [ "$i" -le 32 ] || file="$work/over-limit"
  curl -s -o "$work/up-$i" -w '%{http_code}' -F op=encode -F "file=@$file" \
    "$url/api/files" >"$work/code-$i" &
done
wait_uploads() { for job in $(jobs -p); do [ "$job" = "$server" ] || wait "$job" || true; done; }
wait_uploads
accepted=0; refused=0; downloaded=0
for i in $(seq 40); do
  code="$(cat "$work/code-$i")"
  if [ "$code" = 201 ]; then
    accepted=$((accepted + 1))
    download="$(grep -o '"/api/files/[0-9a-f]*"' "$work/up-$i" | tr -d '"')"
    size="$(curl -s "$url$download" | wc -c)"
    [ "$size" = "$limit" ] && downloaded=$((downloaded + 1))
  elif [ "$code" = 413 ]; then
    refused=$((refused + 1))
  else
    fail "upload $i answered $code"
  fi
done
sleep 1
fds_after="$(fds)"
left="$(find "$store" -type f | wc -l)"
lost=$((accepted - downloaded))
[ "$accepted" = 32 ] && [ "$refused" = 8 ] || fail "uploads: $accepted accepted, $refused refused"
[ "$fds_after" -le "$fds_before" ] || fail "descriptors: $fds_before → $fds_after"
[ "$left" = 0 ] || fail "$left files left in the store"
[ "$lost" = 0 ] || fail "$lost results lost"

# 3. Bad inputs.
echo "== bad inputs"
bad=0; bad_5xx=0
send() {
  local code
  code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 30 "$@" || echo 000)"
  bad=$((bad + 1))
  case "$code" in 5*) bad_5xx=$((bad_5xx + 1)); echo "5xx for: $*" ;; esac
}
for body in '' '{' 'null' '[]' '{}' '{"input":5}' '{"input":null}' '{"input":"x","bogus":1}' \
  '{"input":"x","charset":"klingon"}' '{"input":"x","set":"nope"}' '{"input":"\ud800"}' \
  '{"input":"%zz","strict":true}' '{"input":"x","per_line":"yes"}' '{"input":"x","newline":"cr"}' \
  '{"input":"x","until_stable":true,"per_line":true}' '{"url":5}' '{"url":"a","base":"::"}' \
  '{"base":"rel","reference":"x"}' "$(printf '%*s' 20000 '' | tr ' ' '[')"; do
  for route in encode decode inspect resolve; do
    send -X POST -H 'content-type: application/json' --data-binary "$body" "$url/api/$route"
  done
done
for id in '../x' '%2e%2e' '..%2F..' '..%2F..%2Fetc%2Fpasswd' '%2e%2e%2f%2e%2e' 'x%00' \
  "$(printf 'a%.0s' $(seq 5000))"; do
  send --path-as-is "$url/api/files/$id"
done
{ printf 'X-Long: '; head -c 1000000 /dev/zero | tr '\0' x; echo; } >"$work/long-header"
send -H "@$work/long-header" "$url/healthz"
for i in $(seq 500); do echo "X-Many-$i: v"; done >"$work/many-headers"
send -H "@$work/many-headers" "$url/healthz"
send -X POST -H 'content-type: multipart/form-data; boundary=B' --data-binary 'garbage' "$url/api/files"
send -X POST -H 'content-type: multipart/form-data' --data-binary '--B--' "$url/api/files"
send -F op=rot13 -F "file=@$work/at-limit" "$url/api/files"
send -F "file=@$work/at-limit" "$url/api/files"
send -F op=decode "$url/api/files"
head -c 20000000 /dev/zero | tr '\0' a | sed 's/^/{"input":"/; s/$/"}/' >"$work/huge.json"
send -X POST -H 'content-type: application/json' --data-binary "@$work/huge.json" "$url/api/encode"
[ "$bad_5xx" = 0 ] || fail "$bad_5xx server errors for bad input"
curl -sf "$url/healthz" >/dev/null || fail "server not healthy after bad inputs"
kill "$server"
wait "$server" 2>/dev/null || true

# 4. Faults.
echo "== faults"
fault_log="$work/faults.log"
cargo test --locked -p urlkit-cli --test faults >"$fault_log" 2>&1 || fail "fault tests"
cargo test --locked -p urlkit-web --test hardening >>"$fault_log" 2>&1 || fail "hardening tests"
grep -E '^test |test result' "$fault_log"
faults_ok="$(grep -cE '^test .*(killed|fifty_parallel|full_store|crash).* ok$' "$fault_log" || true)"

# 5. Fuzzing.
if [ "$fuzz_seconds" -gt 0 ]; then
  scripts/fuzz.sh "$fuzz_seconds" || fail "fuzzing found something"
fi

# Executions of a libFuzzer run: its final statistics, or the last progress line while it
# is still running.
fuzz_runs() {
  local runs
  runs="$(grep -Eo 'stat::number_of_executed_units: [0-9]+' "$1" | awk '{print $2}' | tail -n1 || true)"
  [ -n "$runs" ] || runs="$(grep -Eo '^#[0-9]+' "$1" | tail -n1 | tr -d '#' || true)"
  echo "${runs:-0}"
}

echo
echo "== figures"
echo "load held: ${load_line[*]}; ${connections} connections, ${duration}s each"
echo "server RSS: start ${rss_start} KiB, peak ${rss_peak} KiB, end ${rss_end} KiB"
echo "uploads: $accepted at the limit accepted, $refused over it refused; descriptors $fds_before → $fds_after; files left $left"
echo "bad inputs tried: $bad, server errors: $bad_5xx"
echo "faults survived: $faults_ok (SIGKILL during upload, during download, after commit; 50-way download race; full store)"
for log in fuzz/logs/*.log; do
  [ -e "$log" ] || { echo "fuzz: no logs (run scripts/fuzz.sh or pass FUZZ_SECONDS)"; break; }
  target="$(basename "$log" .log)"
  runs="$(fuzz_runs "$log")"
  crashes="$(find "fuzz/artifacts/$target" -type f 2>/dev/null | wc -l)"
  echo "fuzz $target: $runs executions, $crashes findings on disk"
done
echo "files lost: $lost"
[ "$failures" = 0 ] || { echo "$failures check(s) failed"; exit 1; }
