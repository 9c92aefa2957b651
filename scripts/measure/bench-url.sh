#!/usr/bin/env bash
# URLs per second, end to end, on the benchmark URL lists: `urlkit parse --get '{host}'`
# and `urlkit edit` with a few edits (--set, --qtrim, --append, --sort-query), stdin to
# stdout on one core, beside trurl 0.16.1 built from its source doing the same and Node's
# `new URL` (scripts/measure/bench-url-node.js), measured in one run.
#
#   scripts/measure/bench-url.sh [TRURL_SOURCE]
#
# TRURL_SOURCE is a checkout of github.com/curl/trurl (a work tree or a bare repository;
# its tag trurl-0.16.1 is built), or the TRURL_SOURCE variable; without one, a `trurl` on
# the PATH is measured, or trurl is left out. trurl is built in a temporary directory
# against Debian's libcurl4-openssl-dev (installed with apt-get when missing) and kept
# nowhere. Set REPEAT (default 20) to change how many times the lists are repeated
# (about 98,000 URLs each time) and RUNS (default 3) the runs per tool; the best run counts.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
data="${BENCH_DATA:-$root/../shared/bench-data}"
repeat="${REPEAT:-20}"
runs="${RUNS:-3}"
trurl_source="${1:-${TRURL_SOURCE:-}}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

one_core=()
command -v taskset >/dev/null && one_core=(taskset -c 0)

for _ in $(seq "$repeat"); do
  cat "$data/node_files.txt" "$data/isaacs_files.txt" "$data/kasztp.txt"
  echo
done >"$work/urls.txt"
count=$(wc -l <"$work/urls.txt")
echo "input: the URL lists of $data repeated $repeat times: $count lines, $(stat -c %s "$work/urls.txt") bytes" >&2

cargo build --locked --release -q -p urlkit-cli >&2
urlkit="${CARGO_TARGET_DIR:-$root/target}/release/urlkit"

trurl=""
if [ -n "$trurl_source" ]; then
  if ! command -v curl-config >/dev/null; then
    [ "$(id -u)" = 0 ] && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libcurl4-openssl-dev >/dev/null
  fi
  mkdir "$work/trurl"
  if [ "$(git -C "$trurl_source" rev-parse --is-bare-repository 2>/dev/null)" = true ] \
    || git -C "$trurl_source" rev-parse -q --verify trurl-0.16.1 >/dev/null 2>&1; then
    git -C "$trurl_source" archive trurl-0.16.1 | tar -x -C "$work/trurl"
  else
    cp -r "$trurl_source"/. "$work/trurl"
  fi
  # Optimised, without the debug flags its Makefile adds unless NDEBUG is set.
  CFLAGS=-O2 make -s -C "$work/trurl" NDEBUG=1 >&2
  trurl="$work/trurl/trurl"
elif command -v trurl >/dev/null; then
  trurl="$(command -v trurl)"
fi

# best SECONDS of RUNS runs of a command reading urls.txt, output discarded; the CPU time
# (user + system) of that run too.
best() {
  local fastest="" line
  for _ in $(seq "$runs"); do
    /usr/bin/time -o "$work/time.txt" -f "%e %U %S" "$@" <"${input:-$work/urls.txt}" >/dev/null 2>/dev/null || true
    line=$(tail -n1 "$work/time.txt")
    if [ -z "$fastest" ] || awk -v a="${line%% *}" -v b="${fastest%% *}" 'BEGIN { exit !(a < b) }'; then
      fastest="$line"
    fi
  done
  echo "$fastest"
}

row() { # row NAME "SECONDS USER SYSTEM" [LINES]
  awk -v name="$1" -v n="${3:-$count}" -v t="$2" 'BEGIN {
    split(t, f, " ");
    printf "%-40s %8.3f s  %7.2f M URLs/s  (CPU %.3f s: %.2f M URLs/s)\n", name, f[1], n / f[1] / 1e6, f[2] + f[3], n / (f[2] + f[3]) / 1e6
  }'
}

echo
echo "one core (${one_core[*]:-no taskset}), best of $runs, stdin to stdout:"
urlkit_host=$(best "${one_core[@]}" "$urlkit" parse --get '{host}')
row "urlkit parse --get '{host}'" "$urlkit_host"
# A template that needs the whole URL, so every line goes through ada.
row "urlkit parse --get '{host}{:path}'" "$(best "${one_core[@]}" "$urlkit" parse --get '{host}{:path}')"
if [ -n "$trurl" ]; then
  trurl_version=$("$trurl" --version | head -n1 | awk '{print $3}')
  row "trurl $trurl_version --url-file - -g '{host}'" \
    "$(best "${one_core[@]}" "$trurl" --url-file - --get '{host}')"
else
  echo "trurl: not measured (give its source as the first argument, or put trurl on the PATH)"
fi
# The same edits in both, with trurl's option names: a set, a trim, an append and the sort,
# on the web URLs (kasztp.txt), which both take: libcurl refuses most of the file: URLs of
# the other lists (a host other than localhost), and trurl 0.16.1 crashes in --qtrim on an
# empty query piece before another (`?&a`, `a&&b`), so those lines are left out.
edits=(--set port=8080 --qtrim 'utm_*' --append query=lang=en --sort-query)
for _ in $(seq "$repeat"); do grep -v -E '[?&]&' "$data/kasztp.txt"; done >"$work/web.txt"
web=$(wc -l <"$work/web.txt")
echo
echo "edits: ${edits[*]}, on kasztp.txt without empty query pieces, $repeat times: $web lines"
input="$work/web.txt"
row "urlkit edit" "$(best "${one_core[@]}" "$urlkit" edit "${edits[@]}")" "$web"
if [ -n "$trurl" ]; then
  row "trurl $trurl_version --url-file -" \
    "$(best "${one_core[@]}" "$trurl" --url-file - "${edits[@]}")" "$web"
fi
unset input
echo
echo "Node $(node --version) new URL(line).host, in memory (the file read first, no output):"
"${one_core[@]}" node scripts/measure/bench-url-node.js "$work/urls.txt"
