#!/usr/bin/env bash
# The PURL resolver beside nginx and Apache httpd on the same generated records, on loopback.
#   scripts/measure/bench-purl.sh [N] [--seconds S] [--runs R] [--connections C] [--dir DIR]
#                                 [--install]
# N records (default 1,000,000: 97 % 302 redirects, 2 % partial prefixes, 1 % negotiated
# 303s; bench-purl-data.py), loaded into a new database with `urlkit purl import`, served by
# `urlkit purl serve` (URLKIT_BIN, default target/release/urlkit), by nginx (a `map` of the
# same names and `return 302`; a `location` per partial prefix; negotiation by a regex on
# Accept) and by Apache httpd (mod_rewrite with dbm RewriteMaps, as w3id.org-style services
# run, event MPM), each pinned to core 0 (taskset), wrk (one thread, C connections, default
# 64) pinned to core 1. Prints, per server: requests/s, p50, p99 and the server's processor
# time per request (user and system of its processes, and the user part alone: the
# server's own code; the rest is the kernel's sockets) for one hot name, names at random,
# partial names with suffixes and negotiated 303s (the best of R runs of S seconds, default
# 1 run of 10 s, the servers taking turns run by run); resident memory after start (PSS of
# all its processes); time to start; edits/s through the API while wrk reads (urlkit
# only); time from an edit to its first effect. First it checks that the three servers
# answer the same status and Location for a sample of names, and shows where they cannot
# (q-values).
# Needs: nginx, apache2, apache2-utils (httxt2dbm), wrk, curl (Debian packages, installed
# with --install), python3, taskset, a release build (cargo build --release -p urlkit-cli).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

n=1000000 seconds=10 runs=1 connections=64 dir="" install=0
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --install) install=1; shift ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    [0-9]*) n="$1"; shift ;;
    *) echo "bench-purl.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ "$n" -ge 100 ] || { echo "bench-purl.sh: N must be at least 100" >&2; exit 2; }

missing=()
for tool in nginx:nginx apache2:apache2 httxt2dbm:apache2-utils wrk:wrk curl:curl; do
  command -v "${tool%%:*}" >/dev/null 2>&1 || missing+=("${tool#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$install" = 1 ]; then
    apt-get update && apt-get install -y "${missing[@]}"
  else
    echo "bench-purl.sh: missing Debian packages: ${missing[*]} (run with --install)" >&2
    exit 2
  fi
fi
for tool in python3 taskset; do
  command -v "$tool" >/dev/null 2>&1 || { echo "bench-purl.sh: needs $tool" >&2; exit 2; }
done
bin="${URLKIT_BIN:-${CARGO_TARGET_DIR:-$root/target}/release/urlkit}"
[ -x "$bin" ] || bin="$root/target/release/urlkit"
[ -x "$bin" ] || { echo "bench-purl.sh: no $bin; build it: cargo build --release -p urlkit-cli" >&2; exit 2; }

pin_server="taskset -c 0" pin_client="taskset -c 1"
[ "$(nproc)" -ge 2 ] || { pin_server="" pin_client=""; echo "(one core: no pinning)"; }

[ -n "$dir" ] || dir="$(mktemp -d "${TMPDIR:-/tmp}/purl-bench.XXXXXX")"
mkdir -p "$dir"
chmod 755 "$dir" # Apache's children read the maps as www-data
port_u="${PURL_BENCH_PORT:-18181}" port_n=$((port_u + 1)) port_a=$((port_u + 2))
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT

ms() { date +%s%3N; }
# The status and Location of GET $1 with Accept $2.
answer() { curl -s -o /dev/null -H "Accept: ${2:-*/*}" -w '%{http_code} %{redirect_url}' "$1"; }
# Milliseconds until GET $1 answers Location $2 (polled), from $3 (ms since the epoch).
wait_for() {
  for _ in $(seq 20000); do
    [ "$(answer "$1")" = "${3:-302} $2" ] && { echo $(($(ms) - $4)); return 0; }
    sleep 0.002
  done
  echo "never"
}
# Processor time (user and system, clock ticks) of a process and its children so far.
cpu_ticks() {
  local user=0 system=0 pid u s
  for pid in "$1" $(pgrep -P "$1" || true); do
    read -r u s < <(awk '{print $14, $15}' "/proc/$pid/stat" 2>/dev/null || echo 0 0)
    user=$((user + u)) system=$((system + s))
  done
  echo "$user $system"
}
# PSS in MB of a process and its children.
pss_mb() {
  local total=0 pid
  for pid in "$1" $(pgrep -P "$1" || true); do
    total=$((total + $(awk '/^Pss:/ {print $2}' "/proc/$pid/smaps_rollup" 2>/dev/null || echo 0)))
  done
  echo $((total / 1024))
}

echo "PURL resolver benchmark: $n records in $dir"
echo "$("$bin" --version 2>/dev/null || echo urlkit) | $(nginx -v 2>&1 | sed 's/.*: //') | $(apache2 -v | sed -n 's/Server version: //p') | $(wrk -v 2>&1 | head -n1 | cut -d' ' -f1-2)"
echo "$(nproc) cores: servers on core 0, wrk on core 1; $connections connections, best of $runs run(s) of ${seconds}s"

t=$(ms)
python3 "$here/bench-purl-data.py" "$n" "$dir"
echo "generated in $(($(ms) - t)) ms"

# urlkit: a new database, the domain and a token first (so records get the domain), then
# the import.
db="sqlite:$dir/purl.db"
rm -f "$dir"/purl.db*
"$bin" purl --db "$db" --user bench user add bench --admin >/dev/null
"$bin" purl --db "$db" --user bench domain add /r/ --maintainer bench >/dev/null
token="$("$bin" purl --db "$db" --user bench token create bench --domain /r/=write 2>/dev/null | grep -o 'upt_[A-Za-z0-9_-]*' | head -n1)"
[ -n "$token" ] || { echo "bench-purl.sh: no token was printed" >&2; exit 1; }
t=$(ms)
"$bin" purl --db "$db" --user bench import "$dir/records.jsonl" --reason benchmark
import_ms=$(($(ms) - t))
echo "urlkit purl import: $import_ms ms ($((n * 1000 / (import_ms + 1))) records/s), database $(du -sm "$dir" | cut -f1) MB with the generated files"

# nginx
for name in client_body proxy fastcgi uwsgi scgi; do mkdir -p "$dir/nginx-$name"; done
cat > "$dir/nginx.conf" <<EOF
worker_processes 1;
daemon off;
pid $dir/nginx.pid;
error_log $dir/nginx-error.log;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $dir/nginx-client_body;
  proxy_temp_path $dir/nginx-proxy;
  fastcgi_temp_path $dir/nginx-fastcgi;
  uwsgi_temp_path $dir/nginx-uwsgi;
  scgi_temp_path $dir/nginx-scgi;
  keepalive_requests 1000000;
  map_hash_max_size $((n * 2));
  map_hash_bucket_size 128;
  map \$uri \$redirect { default ""; include $dir/nginx-redirects.map; }
  map \$http_accept \$turtle { default 0; "~text/turtle" 1; }
  map "\$turtle:\$uri" \$negotiated { default ""; include $dir/nginx-negotiated.map; }
  server {
    listen 127.0.0.1:$port_n;
    include $dir/nginx-partial.conf;
    location / {
      if (\$redirect) { return 302 \$redirect; }
      if (\$negotiated) { return 303 \$negotiated; }
      return 404;
    }
  }
}
EOF

# Apache httpd
for map in redirects partial html turtle; do
  httxt2dbm -f GDBM -i "$dir/apache-$map.txt" -o "$dir/apache-$map.dbm"
done
mkdir -p "$dir/apache-run"
cat > "$dir/apache.conf" <<EOF
LoadModule mpm_event_module /usr/lib/apache2/modules/mod_mpm_event.so
LoadModule authz_core_module /usr/lib/apache2/modules/mod_authz_core.so
LoadModule rewrite_module /usr/lib/apache2/modules/mod_rewrite.so
ServerName localhost
Listen 127.0.0.1:$port_a
PidFile $dir/apache.pid
ErrorLog $dir/apache-error.log
DefaultRuntimeDir $dir/apache-run
User www-data
Group www-data
ServerLimit 1
StartServers 1
ThreadLimit 64
ThreadsPerChild 64
MaxRequestWorkers 64
KeepAlive On
MaxKeepAliveRequests 0
RewriteEngine On
RewriteMap redirects "dbm=gdbm:$dir/apache-redirects.dbm"
RewriteMap partial "dbm=gdbm:$dir/apache-partial.dbm"
RewriteMap html "dbm=gdbm:$dir/apache-html.dbm"
RewriteMap turtle "dbm=gdbm:$dir/apache-turtle.dbm"
RewriteCond \${redirects:\$1} ^(.+)\$
RewriteRule ^(/r/.*)\$ %1 [R=302,L]
RewriteCond \${partial:\$1} ^(.+)\$
RewriteRule ^(/p/[^/]+/)(.*)\$ %1\$2 [R=302,L,NE]
RewriteCond %{HTTP:Accept} text/turtle
RewriteCond \${turtle:\$1} ^(.+)\$
RewriteRule ^(/n/.*)\$ %1 [R=303,L]
RewriteCond \${html:\$1} ^(.+)\$
RewriteRule ^(/n/.*)\$ %1 [R=303,L]
EOF

last=$(( (n - 1) / 100 * 100 ))
probe="/r/$last" probe_target="https://example.org/r/$last/item.html"
declare -A start_ms mem_mb server_pid mem_after
start_server() { # NAME PORT COMMAND…
  local name="$1" port="$2"
  shift 2
  local t
  t=$(ms)
  $pin_server "$@" >"$dir/$name.out" 2>&1 &
  pids+=($!)
  local pid=$!
  server_pid[$name]=$pid
  start_ms[$name]=$(wait_for "http://127.0.0.1:$port$probe" "$probe_target" 302 "$t")
  [ "${start_ms[$name]}" != never ] || { echo "$name did not start:"; tail "$dir/$name.out"; exit 1; }
  mem_mb[$name]=$(pss_mb "$pid")
}
start_server urlkit "$port_u" "$bin" purl --db "$db" serve --addr "127.0.0.1:$port_u"
start_server nginx "$port_n" nginx -c "$dir/nginx.conf" -p "$dir"
start_server apache "$port_a" apache2 -f "$dir/apache.conf" -DFOREGROUND
declare -A ports=([urlkit]=$port_u [nginx]=$port_n [apache]=$port_a)
servers=(urlkit nginx apache)

echo
echo "Fairness: the same status and Location from each server"
same=0 differ=0
check() { # PATH ACCEPT
  local u nx ap
  u="$(answer "http://127.0.0.1:$port_u$1" "${2:-}")"
  nx="$(answer "http://127.0.0.1:$port_n$1" "${2:-}")"
  ap="$(answer "http://127.0.0.1:$port_a$1" "${2:-}")"
  if [ "$u" = "$nx" ] && [ "$u" = "$ap" ]; then
    same=$((same + 1))
  else
    differ=$((differ + 1))
    echo "  differ: $1 (Accept: ${2:-*/*}): urlkit $u | nginx $nx | apache $ap"
  fi
}
for k in 0 1 2 3 $((n / 200)) $((n / 100 - 1)); do
  b=$((k * 100))
  check "/r/$((b + 5))"
  check "/p/$((b + 97))/a/b.html?x=1&y=%2F"
  check "/n/$((b + 99))" "text/turtle"
  check "/n/$((b + 99))" "text/html"
done
check "/r/none-such"
echo "  $same answers the same, $differ differ"
echo "  (known: nginx and Apache match Accept with a regex, without q-values:)"
for s in urlkit nginx apache; do
  echo "    Accept: text/turtle;q=0.1, text/html -> $s $(answer "http://127.0.0.1:${ports[$s]}/n/99" "text/turtle;q=0.1, text/html")"
done

echo
declare -A result
# Microseconds a request of $1 clock ticks over the $rps requests a second of a run: the
# server's processor time per answer, and the part of it in the server's own code (user
# time; the rest is the kernel's, mostly its sockets), what the rate hides when the one
# wrk thread on the other core is as busy as the server.
per_request() { awk "BEGIN {printf \"%.2f\", $1 * 1000000 / $(getconf CLK_TCK) / ($rps * $seconds + 1)}"; }
for mode in hot random partial negotiated; do
  # The servers take turns run by run, so that a slower spell of the machine (other work
  # on the host) falls on all of them rather than on whichever ran then.
  for run in $(seq "$runs"); do
    for s in "${servers[@]}"; do
      read -r user0 system0 < <(cpu_ticks "${server_pid[$s]}")
      line="$($pin_client wrk -t1 -c"$connections" -d"${seconds}s" --latency \
        -s "$here/bench-purl.lua" "http://127.0.0.1:${ports[$s]}" -- "$mode" "$n" | grep '^RESULT')"
      read -r user1 system1 < <(cpu_ticks "${server_pid[$s]}")
      read -r _ rps p50 p99 errors <<<"$line"
      us=$(per_request $((user1 - user0 + system1 - system0)))
      user_us=$(per_request $((user1 - user0)))
      best="${result[$s:$mode]:-}"
      if [ -z "$best" ] || [ "$rps" -gt "${best%% *}" ]; then
        result[$s:$mode]="$rps $p50 $p99 $errors $us $user_us"
      fi
      [ "$runs" -eq 1 ] || echo "    run $run, $s $mode: $rps $p50 $p99 $errors $us $user_us"
    done
  done
  for s in "${servers[@]}"; do
    echo "  $s $mode: ${result[$s:$mode]} (requests/s p50_us p99_us errors processor_us_per_request user_us_per_request)"
  done
done

for s in "${servers[@]}"; do mem_after[$s]=$(pss_mb "${server_pid[$s]}"); done

# Edits while reading (urlkit), and an edit's first effect on each server.
echo
$pin_client wrk -t1 -c"$connections" -d"$((seconds + 2))s" -s "$here/bench-purl.lua" \
  "http://127.0.0.1:$port_u" -- random "$n" >"$dir/reads-during-edits.out" &
reader=$!
sleep 1
edits="$(PURL_TOKEN="$token" $pin_client wrk -t1 -c4 -d"${seconds}s" --latency \
  -s "$here/bench-purl-edit.lua" "http://127.0.0.1:$port_u" -- "$n" | grep '^EDITS')"
wait "$reader" || true
read -r _ edits_per_s edit_errors edit_p99 <<<"$edits"
reads_during="$(awk '/^RESULT/ {print $2}' "$dir/reads-during-edits.out")"
echo "  urlkit: $edits_per_s edits/s ($edit_errors refused, p99 ${edit_p99} us) while wrk read $reads_during requests/s"

edit_name="/r/$((last + 1))" new_target="https://example.org/moved/$((last + 1))"
declare -A effect_ms
t=$(ms)
put_status="$(curl -s -o "$dir/put.out" -w '%{http_code}' -X PUT -H "Authorization: Bearer $token" \
  -H 'If-Match: "1"' -H 'Content-Type: application/json' \
  --data "{\"type\":\"redirect\",\"target\":\"$new_target\"}" \
  "http://127.0.0.1:$port_u/-/api/purls$edit_name")"
if [ "$put_status" = 200 ]; then
  effect_ms[urlkit]=$(wait_for "http://127.0.0.1:$port_u$edit_name" "$new_target" 302 "$t")
else
  effect_ms[urlkit]="refused ($put_status after $(($(ms) - t)) ms: $(head -c 200 "$dir/put.out"))"
fi
t=$(ms)
sed -i "s|^$edit_name .*|$edit_name $new_target;|" "$dir/nginx-redirects.map"
nginx -c "$dir/nginx.conf" -p "$dir" -s reload 2>/dev/null
effect_ms[nginx]=$(wait_for "http://127.0.0.1:$port_n$edit_name" "$new_target" 302 "$t")
t=$(ms)
sed -i "s|^$edit_name .*|$edit_name $new_target|" "$dir/apache-redirects.txt"
httxt2dbm -f GDBM -i "$dir/apache-redirects.txt" -o "$dir/apache-redirects.new.dbm"
mv "$dir/apache-redirects.new.dbm" "$dir/apache-redirects.dbm"
effect_ms[apache]=$(wait_for "http://127.0.0.1:$port_a$edit_name" "$new_target" 302 "$t")
echo "  edit to first effect: urlkit ${effect_ms[urlkit]} ms (PUT), nginx ${effect_ms[nginx]} ms (map file + reload), apache ${effect_ms[apache]} ms (dbm rebuilt)"

echo
echo "| $n records, $connections connections | urlkit purl serve | nginx (map) | Apache (mod_rewrite, dbm) |"
echo "|---|---|---|---|"
for mode in hot random partial negotiated; do
  row="| $mode: requests/s (p50 / p99 ms; processor µs per request, of which user)"
  for s in "${servers[@]}"; do
    read -r rps p50 p99 errors us user_us <<<"${result[$s:$mode]}"
    cell="$rps ($(awk "BEGIN {printf \"%.2f / %.2f\", $p50 / 1000, $p99 / 1000}"); $us µs, $user_us)"
    [ "$errors" = 0 ] || cell="$cell, $errors errors"
    row="$row | $cell"
  done
  echo "$row |"
done
row="| memory after start (PSS, MB per million records)"
for s in "${servers[@]}"; do row="$row | ${mem_mb[$s]} ($((mem_mb[$s] * 1000000 / n)))"; done
echo "$row |"
row="| memory after the reads (PSS, MB)"
for s in "${servers[@]}"; do row="$row | ${mem_after[$s]}"; done
echo "$row |"
row="| time to start and answer (ms)"
for s in "${servers[@]}"; do row="$row | ${start_ms[$s]}"; done
echo "$row |"
echo "| edits/s through the API while reading | $edits_per_s (reads: $reads_during/s) | — (a reload per edit) | — (a dbm rebuild per edit) |"
echo "| edit to its first effect (ms) | ${effect_ms[urlkit]} | ${effect_ms[nginx]} | ${effect_ms[apache]} |"
echo "| load (ms) | $import_ms (urlkit purl import) | — | — |"
