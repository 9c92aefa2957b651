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
# 6. Silent connections: 2,000 connections that send nothing (`silent.py`), health checks
#    meanwhile, and how many the server closed after its header timeout; then the same
#    under `prlimit --nofile=300` with 320 of them.
# 7. Memory: the peak resident memory of the heaviest requests known (`bodies.py`), each on
#    a fresh server; with BEFORE=path/to/urlkit, also of that binary, for comparison.
# 8. Caps: uploads past --max-uploads, the rate limit per client, a Content-Length of 20 GB,
#    a form of 100,000 repeated fields, `decode --until-stable` on a 200 MB line.
# 9. Compression: each asset's size as sent with and without gzip.
# 10. Second pass (`attacks.py`): 40,000 keys in an inspector `set`; a `trim_query` pattern of
#    16,380 stars against 16,380 pairs, by the API and the page; 20 HTTP/2 connections that
#    only ping, at --max-connections 20; 16 uploads trickling from one client; a page form of
#    8 M empty fields (peak memory); the rate limit on /readyz, /metrics, 404 and 405.
# 11. The command line: `urlkit edit` combinations past the limit, a 100 MB line through
#    `parse` and `edit --sort-query`, a failing 2 MB line, a 50 MB host of invalid UTF-8.
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
pid=""
trap 'kill $pid 2>/dev/null || true; rm -rf "$work"' EXIT

# A server: `start ARGS...` runs $binary (through $launcher, if any) on a fresh store
# ($store) and sets $pid and $url; `stop` ends it.
binary=target/release/urlkit
launcher=()
start() {
  local log="$work/started.log"
  store="$work/store-$RANDOM"
  "${launcher[@]}" "$binary" serve --addr 127.0.0.1:0 --store "$store" "$@" 2>"$log" &
  pid=$!
  for _ in $(seq 100); do
    grep -q 'serving on' "$log" && break
    sleep 0.1
  done
  url="$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$log" | head -n1)"
  [ -n "$url" ] || { cat "$log"; exit 1; }
}
stop() { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }

limit=$((8 << 20))
# Room for the 40 uploads at once of section 2 (the cap itself is measured in section 8).
start --max-upload "$limit" --max-uploads 64
server=$pid
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
    download="$(grep -o '"/api/files/[^"]*"' "$work/up-$i" | tr -d '"')"
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
stop

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

# 6. Silent connections.
echo "== silent connections"
start --header-timeout 5s
silent_line="$(python3 scripts/measure/silent.py 127.0.0.1 "${url##*:}" 2000 9)"
echo "2000 silent, --header-timeout 5s: $silent_line"
echo "$silent_line" | grep -q 'closed_by_server=2000 ' || fail "silent connections left open: $silent_line"
stop
if [ -n "${BEFORE:-}" ]; then
  binary="$BEFORE"
  start --header-timeout 5s
  echo "before: $(python3 scripts/measure/silent.py 127.0.0.1 "${url##*:}" 2000 9)"
  stop
  binary=target/release/urlkit
fi
launcher=(prlimit --nofile=300)
start --header-timeout 5s
limited_line="$(python3 scripts/measure/silent.py 127.0.0.1 "${url##*:}" 320 9)"
echo "320 silent under prlimit --nofile=300: $limited_line"
if grep -q 'Too many open files' "$work/started.log"; then fail "the server ran out of descriptors"; fi
stop
launcher=()

# 7. Memory of the heaviest requests.
echo "== memory of the heaviest requests"
mkdir -p "$work/bodies"
python3 scripts/measure/bodies.py "$work/bodies" >"$work/bodies.list"
peak_of() { # BINARY FILE ROUTE CONTENT_TYPE
  binary="$1"
  start
  local answer hwm
  answer="$(curl -s -o /dev/null -w '%{http_code} %{size_download}' --max-time 120 \
    --data-binary "@$work/bodies/$2" -H "content-type: $4" "$url$3" || echo "000 0")"
  hwm="$(awk '/^VmHWM/ {print int($2 / 1024)}' "/proc/$pid/status")"
  stop
  echo "$hwm MiB peak; answer $answer bytes"
}
memory_lines=()
worst=0
while read -r file route content_type; do
  line="$(peak_of target/release/urlkit "$file" "$route" "$content_type")"
  peak="${line%% *}"
  [ "$peak" -gt "$worst" ] && worst="$peak" && worst_name="$file"
  if [ -n "${BEFORE:-}" ]; then
    line="$line; before: $(peak_of "$BEFORE" "$file" "$route" "$content_type")"
  fi
  echo "$file ($route): $line"
  memory_lines+=("$file: $line")
done <"$work/bodies.list"
binary=target/release/urlkit

# 8. Caps.
echo "== caps"
start --max-uploads 4 --idle-timeout 20s
head -c $((4 << 20)) /dev/zero | tr '\0' a >"$work/upload"
cap_jobs=()
for i in $(seq 12); do
  curl -s -o /dev/null -w '%{http_code}\n' --limit-rate 1M -F op=encode -F "file=@$work/upload" \
    "$url/api/files" >"$work/cap-$i" &
  cap_jobs+=($!)
done
for job in "${cap_jobs[@]}"; do wait "$job" || true; done
uploads_created="$(cat "$work"/cap-* | grep -c '^201$' || true)"
uploads_busy="$(cat "$work"/cap-* | grep -c '^503$' || true)"
echo "12 uploads at once at 1 MB/s, --max-uploads 4: $uploads_created stored, $uploads_busy refused (503)"
[ "$uploads_created" -ge 4 ] && [ $((uploads_created + uploads_busy)) = 12 ] \
  || fail "upload cap: $uploads_created stored, $uploads_busy refused of 12"
big_started=$(date +%s%N)
big="$(curl -s -o /dev/null -w '%{http_code}' --max-time 30 -X POST -H 'content-type: application/json' \
  -H 'content-length: 20000000000' "$url/api/decode" || true)"
big_ms=$(( ($(date +%s%N) - big_started) / 1000000 ))
echo "Content-Length 20 GB, no body: $big in $big_ms ms"
[ "$big" = 413 ] || fail "a 20 GB Content-Length answered $big"
python3 - "$work/repeated" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write('--B\r\nContent-Disposition: form-data; name="op"\r\n\r\ndecode\r\n')
    f.write('--B\r\nContent-Disposition: form-data; name="per_line"\r\n\r\non\r\n' * 100000)
    f.write('--B\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n%41\r\n--B--\r\n')
PY
repeated="$(curl -s -o /dev/null -w '%{http_code} %{time_total}' --max-time 300 \
  -H 'content-type: multipart/form-data; boundary=B' --data-binary "@$work/repeated" "$url/api/files")"
echo "multipart with 100,000 repeated fields: $repeated (status, seconds)"
stop
start --rate-limit 20/s
wrk -t1 -c4 -d5s "$url/api/openapi.json" >"$work/wrk-rate" 2>&1 || true
rate_total="$(grep -Eo '[0-9]+ requests in' "$work/wrk-rate" | awk '{print $1}')"
rate_limited="$(grep -Eo 'Non-2xx or 3xx responses: [0-9]+' "$work/wrk-rate" | awk '{print $NF}')"
retry_after=""
for _ in $(seq 100); do
  retry_after="$(curl -s -D - -o /dev/null "$url/api/openapi.json" | tr -d '\r' \
    | awk -F': ' 'tolower($1) == "retry-after" {print $2}')"
  [ -n "$retry_after" ] && break
done
echo "rate limit 20/s (burst 40), wrk 5 s from one address: $rate_total requests, ${rate_limited:-0} answered 429; Retry-After: ${retry_after:-none}"
[ "${rate_limited:-0}" -gt 0 ] || fail "the rate limit never answered 429"
stop
python3 -c "import sys; sys.stdout.write('%' + '25' * 100000000 + '41\n')" >"$work/line-200mb"
until_stable_line="$( { /usr/bin/time -f '%M KiB peak, %e s' target/release/urlkit decode --until-stable -l \
  -i "$work/line-200mb" >/dev/null; } 2>&1 | tr '\n' ' ' || true)"
echo "decode --until-stable -l on one 200 MB line: $until_stable_line"
rm -f "$work/line-200mb" "$work/upload" "$work/repeated"

# 9. Compression.
echo "== compressed assets"
start
compression_lines=()
for asset in urlkit.wasm urlkit.mjs app.js style.css; do
  plain="$(curl -s "$url/assets/$asset" | wc -c)"
  packed="$(curl -s -H 'accept-encoding: gzip' "$url/assets/$asset" | wc -c)"
  compression_lines+=("$asset $plain → $packed bytes")
  [ "$packed" -lt "$plain" ] || fail "$asset not compressed"
done
echo "gzip: ${compression_lines[*]}"
stop

# 10. Second pass.
echo "== second pass"
port_of() { echo "${url##*:}"; }
start
rss_before_form="$(awk '/^VmHWM/ {print int($2 / 1024)}' "/proc/$pid/status")"
inspect_set_line="$(python3 scripts/measure/attacks.py inspect-set 127.0.0.1 "$(port_of)")"
inspect_trim_line="$(python3 scripts/measure/attacks.py inspect-trim 127.0.0.1 "$(port_of)")"
page_trim_line="$(python3 scripts/measure/attacks.py page-trim 127.0.0.1 "$(port_of)")"
form_line="$(python3 scripts/measure/attacks.py form-fields 127.0.0.1 "$(port_of)")"
form_line="$form_line peak=${rss_before_form}→$(awk '/^VmHWM/ {print int($2 / 1024)}' "/proc/$pid/status")MiB"
stop
echo "inspect set of 40,000 keys: $inspect_set_line"
echo "inspect trim_query, 16,380 stars: $inspect_trim_line"
echo "page inspector, the same trim: $page_trim_line"
echo "page form of 8 M empty fields: $form_line"
for line in "$inspect_set_line" "$inspect_trim_line" "$page_trim_line"; do
  seconds="$(echo "$line" | grep -o 'seconds=[0-9.]*' | cut -d= -f2)"
  awk -v s="$seconds" 'BEGIN { exit !(s < 1) }' || fail "a bounded request took $seconds s: $line"
done
echo "$form_line" | grep -q 'status=400' || fail "the 8 M-field form was not refused: $form_line"
start --max-connections 20 --header-timeout 5s
h2_line="$(python3 scripts/measure/attacks.py h2-ping 127.0.0.1 "$(port_of)" 20 14)"
stop
echo "20 HTTP/2 connections pinging every 2 s, --max-connections 20, --header-timeout 5s: $h2_line"
echo "$h2_line" | grep -q 'closed_by_server=20 ' || fail "ping-only connections stayed open: $h2_line"
start --idle-timeout 5s --trusted-proxy 127.0.0.1
trickle_line="$(python3 scripts/measure/attacks.py trickle 127.0.0.1 "$(port_of)" 16 20)"
stop
echo "16 uploads trickling a byte every 4 s from one client, --idle-timeout 5s: $trickle_line"
echo "$trickle_line" | grep -q 'other_client=201 ' || fail "another client's upload was refused: $trickle_line"
start --rate-limit 20/s
rate_paths_line="$(python3 scripts/measure/attacks.py rate 127.0.0.1 "$(port_of)" /readyz /metrics /no-such-page DELETE:/api/encode)"
stop
echo "rate limit 20/s, 300 requests in a row each: $rate_paths_line"
echo "$rate_paths_line" | grep -q '=0/300' && fail "a path escaped the rate limit: $rate_paths_line"
# 11. The command line, apart from the server: `urlkit edit` combinations refused before
#     any is made, one 100 MB line through `parse` and `edit --sort-query`, a failing
#     2 MB line's stderr, a 50 MB host of invalid UTF-8. Each: exit status, seconds, peak
#     resident memory and bytes of stderr.
echo "== command line"
cli_lines=()
# `cli NAME INPUT ARGS...`: runs the binary on INPUT (a file, stdin) with ARGS, at most
# 60 s; sets $cli_status, $cli_seconds, $cli_kib and $cli_stderr and records the figures.
cli() {
  local name="$1" input="$2"
  shift 2
  cli_status=0
  timeout 60 /usr/bin/time -f '%e %M' -o "$work/cli-time" target/release/urlkit "$@" \
    <"$input" >/dev/null 2>"$work/cli-err" || cli_status=$?
  cli_seconds=">60"; cli_kib=99999999
  read -r cli_seconds cli_kib < <(tail -n1 "$work/cli-time" 2>/dev/null) || true
  cli_stderr="$(wc -c <"$work/cli-err")"
  cli_lines+=("$name: exit $cli_status, ${cli_seconds} s, ${cli_kib} KiB peak, ${cli_stderr} bytes of stderr")
  echo "${cli_lines[-1]}"
}
echo 'http://h/' >"$work/cli-url"
hundred() { seq -s ' ' "$1" $(($1 + 99)); }
cli "5 --iterate of 100 values" "$work/cli-url" edit --iterate "path=$(hundred 0)" \
  --iterate "query=$(hundred 100)" --iterate "fragment=$(hundred 200)" \
  --iterate "user=$(hundred 300)" --iterate "password=$(hundred 400)"
[ "$cli_status" = 2 ] && [ "$cli_kib" -lt 65536 ] || fail "--iterate combinations not refused at once"
pairs13="$(printf '{a,b}%.0s' $(seq 13))"
cli "--expand, 2 --set of {a,b}x13" "$work/cli-url" edit --expand \
  --set "path=$pairs13" --set "query=$pairs13"
[ "$cli_status" = 2 ] && [ "$cli_kib" -lt 65536 ] || fail "--set alternatives not refused at once"
pairs7="$(printf '{a,b}%.0s' $(seq 7))"
echo "http://h/$pairs7" >"$work/cli-url7"
cli "--expand, a URL of {a,b}x7 x --set of {a,b}x7" "$work/cli-url7" edit --expand \
  --set "query=$pairs7"
[ "$cli_status" = 1 ] && grep -q '16384 combinations' "$work/cli-err" \
  || fail "a URL expansion times a --set expansion not refused"
python3 -c "import sys; sys.stdout.write('http://h/?' + 'b=1&a=2&' * 12500000 + '\n')" \
  >"$work/cli-100mb"
# Bounds on the peak for one 100 MB line of 25 M pairs (before: 1.21 GB in parse, 3.36 GB
# and 30 s in edit --sort-query).
cli "parse, one 100 MB line" "$work/cli-100mb" parse
[ "$cli_kib" -lt $((8 * 100000)) ] || fail "parse: ${cli_kib} KiB for a 100 MB line"
cli "edit --sort-query, one 100 MB line" "$work/cli-100mb" edit --sort-query
[ "$cli_kib" -lt $((10 * 100000)) ] || fail "edit --sort-query: ${cli_kib} KiB for a 100 MB line"
rm -f "$work/cli-100mb"
python3 -c "import sys; sys.stdout.buffer.write(b'http://h:x/' + b'\x01' * 2000000 + b'\n')" \
  >"$work/cli-2mb"
cli "edit, a failing 2 MB line" "$work/cli-2mb" edit --set path=x
[ "$cli_stderr" -lt 4096 ] || fail "a failing 2 MB line gave $cli_stderr bytes of stderr"
python3 -c "import sys; sys.stdout.buffer.write(b'http://' + b'\xff' * 50000000 + b'/\n')" \
  >"$work/cli-host"
cli "parse, a 50 MB host of invalid UTF-8" "$work/cli-host" parse
[ "$cli_status" = 1 ] && [ "$cli_stderr" -lt 4096 ] || fail "a 50 MB invalid host: exit $cli_status"
rm -f "$work/cli-2mb" "$work/cli-host"

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
echo "silent connections: $silent_line"
echo "silent connections under nofile=300: $limited_line"
echo "heaviest request: $worst_name at $worst MiB peak"
printf '  %s\n' "${memory_lines[@]}"
echo "upload cap 4, 12 at once: $uploads_created stored, $uploads_busy refused with 503"
echo "rate limit 20/s: $rate_total requests in 5 s, ${rate_limited:-0} answered 429 (Retry-After: ${retry_after:-none})"
echo "Content-Length 20 GB: $big in $big_ms ms; 100,000 repeated form fields: $repeated"
echo "decode --until-stable -l, one 200 MB line: $until_stable_line"
echo "gzip: ${compression_lines[*]}"
echo "inspect set of 40,000 keys: $inspect_set_line"
echo "inspect trim_query of 16,380 stars: $inspect_trim_line; by the page: $page_trim_line"
echo "page form of 8 M empty fields: $form_line"
echo "HTTP/2 ping-only connections: $h2_line"
echo "uploads trickling from one client: $trickle_line"
echo "rate limit on other paths: $rate_paths_line"
printf 'command line: %s\n' "${cli_lines[@]}"
[ "$failures" = 0 ] || { echo "$failures check(s) failed"; exit 1; }
