#!/usr/bin/env bash
# The PURL resolver on PostgreSQL: three instances behind nginx (scripts/deploy/
# purl-local.sh, as the systemd unit and nginx config of scripts/deploy/ run them) beside
# one instance on SQLite, on the same generated records; and the time from an edit through
# one instance to its effect on the other two.
#   scripts/measure/bench-purl-pg.sh [N] [--seconds S] [--connections C] [--edits E]
#                                    [--dir DIR]
# N records (default 1,000,000; bench-purl-data.py: 97 % redirects, 2 % partial prefixes,
# 1 % negotiated), imported with `urlkit purl import` into a SQLite file and into the
# PostgreSQL database. The servers (urlkit, nginx, PostgreSQL) are pinned to core 0, wrk
# (one thread, C connections, default 64, S seconds, default 10) to core 1, requesting
# names at random (bench-purl.lua `random`). Prints requests/s, p50 and p99 (ms) for: one
# instance on SQLite; the three on PostgreSQL through nginx; one of the three directly.
# Then E edits (default 100) through instance 1, each timed until instances 2 and 3 answer
# it (bench-purl-pg-edits.py): p50 and max. Needs nginx, PostgreSQL, wrk, curl (Debian
# packages), python3, taskset, a release build (cargo build --release -p urlkit-cli).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

n=1000000 seconds=10 connections=64 edits=100 dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --edits) edits="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    [0-9]*) n="$1"; shift ;;
    *) echo "bench-purl-pg.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ "$n" -ge 100 ] || { echo "bench-purl-pg.sh: N must be at least 100" >&2; exit 2; }
for tool in wrk curl python3 taskset; do
  command -v "$tool" >/dev/null 2>&1 || { echo "bench-purl-pg.sh: needs $tool" >&2; exit 2; }
done
bin="${URLKIT_BIN:-${CARGO_TARGET_DIR:-$root/target}/release/urlkit}"
[ -x "$bin" ] || { echo "bench-purl-pg.sh: no $bin; build it: cargo build --release -p urlkit-cli" >&2; exit 2; }
pin_server="taskset -c 0" pin_client="taskset -c 1"
[ "$(nproc)" -ge 2 ] || { pin_server="" pin_client=""; echo "(one core: no pinning)"; }

[ -n "$dir" ] || dir="$(mktemp -d "${TMPDIR:-/tmp}/purl-pg-bench.XXXXXX")"
mkdir -p "$dir"
chmod 755 "$dir" # PostgreSQL's import reads nothing here, but `nobody` may need to list it
base="${PORT_BASE:-18290}"
port_s=$((base + 9))
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT

ms() { date +%s%3N; }
answer() { curl -s -o /dev/null -w '%{http_code} %{redirect_url}' "$1"; }
# Waits up to $3 seconds until GET $1 answers "302 $2".
wait_for() {
  for _ in $(seq $(($3 * 20))); do
    [ "$(answer "$1")" = "302 $2" ] && return 0
    sleep 0.05
  done
  return 1
}
run_wrk() { # LABEL URL
  local result
  result="$($pin_client wrk -t1 -c"$connections" -d"${seconds}s" -s "$here/bench-purl.lua" "$2" -- random "$n" | grep '^RESULT')"
  read -r _ rate p50 p99 errors <<<"$result"
  printf '%-44s %8s requests/s  p50 %6.2f ms  p99 %6.2f ms  %s errors\n' "$1" "$rate" \
    "$(awk "BEGIN {print $p50 / 1000}")" "$(awk "BEGIN {print $p99 / 1000}")" "$errors"
}

echo "PURL resolver on PostgreSQL: $n records in $dir"
echo "$("$bin" --version 2>/dev/null || echo urlkit) | $(nginx -v 2>&1 | sed 's/.*: //') | PostgreSQL $(ls /usr/lib/postgresql | sort -V | tail -n1) | $(wrk -v 2>&1 | head -n1 | cut -d' ' -f1-2)"
echo "$(nproc) cores: servers on core 0, wrk on core 1; $connections connections, ${seconds}s a run, names at random"
python3 "$here/bench-purl-data.py" "$n" "$dir" >/dev/null
last=$(( (n - 1) / 100 * 100 ))
probe="/r/$last" probe_target="https://example.org/r/$last/item.html"

# One instance on SQLite.
db="sqlite:$dir/purl.db"
rm -f "$dir"/purl.db*
"$bin" purl --db "$db" --user bench user add bench --admin >/dev/null
t=$(ms)
"$bin" purl --db "$db" --user bench import "$dir/records.jsonl" --reason benchmark >/dev/null
echo "import into SQLite: $(($(ms) - t)) ms"
$pin_server "$bin" purl --db "$db" serve --addr "127.0.0.1:$port_s" 2>"$dir/sqlite.log" &
sqlite_pid=$!
pids+=("$sqlite_pid")
wait_for "http://127.0.0.1:$port_s$probe" "$probe_target" 300 || { echo "the SQLite instance did not start"; exit 1; }
run_wrk "one instance on SQLite" "http://127.0.0.1:$port_s"
kill "$sqlite_pid"
wait "$sqlite_pid" 2>/dev/null || true

# Three instances on PostgreSQL behind nginx.
t=$(ms)
PORT_BASE="$base" PURL_IMPORT="$dir/records.jsonl" PURL_TASKSET="$pin_server" \
  "$root/scripts/deploy/purl-local.sh" run "$bin" >"$dir/deploy.log" 2>&1 &
pids+=($!)
wait_for "http://127.0.0.1:$base$probe" "$probe_target" 1800 || { echo "the PostgreSQL setup did not start:"; tail "$dir/deploy.log"; exit 1; }
echo "PostgreSQL: created, imported, three instances loaded, nginx up: $(($(ms) - t)) ms"
run_wrk "three instances on PostgreSQL, through nginx" "http://127.0.0.1:$base"
run_wrk "one of the three, directly" "http://127.0.0.1:$((base + 1))"
token="$(grep -o 'upt_[A-Za-z0-9_-]*' "$dir/deploy.log" | head -n1)"
python3 "$here/bench-purl-pg-edits.py" "$token" "127.0.0.1:$((base + 1))" \
  "127.0.0.1:$((base + 2))" "127.0.0.1:$((base + 3))" --edits "$edits"
