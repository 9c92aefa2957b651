#!/usr/bin/env bash
# Three `urlkit purl serve` resolvers behind nginx on one PostgreSQL database on this
# machine, as scripts/deploy/urlkit-purl@.service and purl-nginx.conf run them.
#
#   scripts/deploy/purl-local.sh run [BINARY]     start everything; Ctrl-C stops it
#   scripts/deploy/purl-local.sh check [BINARY]   start, check, stop (prints pass/fail
#                                                 counts; scripts/test.sh runs it)
#
# BINARY defaults to target/release/urlkit. nginx (Debian's nginx-light) and PostgreSQL
# (Debian's postgresql) are installed when missing. PostgreSQL gets a data directory of
# its own in a temporary directory (as root, it runs as `nobody`), removed at the end.
# nginx listens on 127.0.0.1:PORT_BASE (default 18090), the resolvers on the next three
# ports, PostgreSQL on the fourth; the database is
# postgres://postgres@127.0.0.1:PORT_BASE+4/purl. An administrator `root`, a user `alice`
# (password `correct horse`) maintaining /net/, and a token of alice's (printed) are made.
# With PURL_IMPORT=FILE, the records of FILE (JSON Lines, as `urlkit purl import` reads)
# are imported before the resolvers start; PURL_TASKSET (`taskset -c 0`) pins the servers.
set -euo pipefail
cd "$(dirname "$0")/../.."

mode="${1:-run}"
binary="${2:-target/release/urlkit}"
[[ $binary == /* ]] || binary="$PWD/$binary"
base="${PORT_BASE:-18090}"
proxy="127.0.0.1:$base"
pg_port=$((base + 4))
read -r -a pin <<<"${PURL_TASKSET:-}"

if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null
fi
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
if ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
pg_bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)"
[ -x "$binary" ] || cargo build --release --locked -p urlkit-cli

work="$(mktemp -d /tmp/urlkit-purl-deploy.XXXXXX)"
chmod 755 "$work"
mkdir "$work/pg"
# PostgreSQL refuses to run as root.
as_pg=()
if [ "$(id -u)" = 0 ]; then
  chown nobody "$work/pg"
  as_pg=(runuser -u nobody --)
fi
pg() { (cd "$work/pg" && "${as_pg[@]}" "$pg_bin/$1" "${@:2}"); }
start_pg() {
  pg pg_ctl start -w -t 60 -D "$work/pg/data" -l "$work/pg/server.log" \
    -o "-h 127.0.0.1 -p $pg_port -k $work/pg" >/dev/null
}
stop_pg() { pg pg_ctl stop -m fast -w -D "$work/pg/data" >/dev/null; }

pids=()
cleanup() {
  # nginx runs in the foreground (`daemon off`): its master is one of these.
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  [ -f "$work/pg/data/postmaster.pid" ] && stop_pg 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 143' TERM INT

wait_port() {
  for _ in $(seq 300); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "nothing listens on 127.0.0.1:$1" >&2
  return 1
}
status() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
# Waits (up to $1 seconds) until `status URL…` is $2.
wait_status() {
  local seconds="$1" want="$2"
  shift 2
  for _ in $(seq $((seconds * 20))); do
    [ "$(status "$@")" = "$want" ] && return 0
    sleep 0.05
  done
  return 1
}

pg initdb -D "$work/pg/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >/dev/null
start_pg
pg createdb -h 127.0.0.1 -p "$pg_port" -U postgres purl
db="postgres://postgres@127.0.0.1:$pg_port/purl"
purl() { "$binary" purl --db "$db" --user root "$@"; }
purl user add root --admin >/dev/null
purl user add alice --password-stdin <<<'correct horse' >/dev/null
purl domain add /net/ --maintainer alice >/dev/null
token="$(purl token create alice --domain /net/=write --label deploy 2>/dev/null | grep -o 'upt_[A-Za-z0-9_-]*' | head -n1)"
if [ -n "${PURL_IMPORT:-}" ]; then
  purl import "$PURL_IMPORT" --reason import >/dev/null
fi

instances=()
for n in 1 2 3; do
  port=$((base + n))
  "${pin[@]}" "$binary" purl serve --db "$db" --addr "127.0.0.1:$port" \
    --trusted-proxy 127.0.0.1 --log-format json 2>"$work/instance-$n.log" &
  pids+=($!)
  instances+=("server 127.0.0.1:$port max_fails=1 fail_timeout=5s;")
done
for n in 1 2 3; do
  wait_port $((base + n))
  # Ready: the database answers and the instance hears the others' changes.
  wait_status 120 200 "http://127.0.0.1:$((base + n))/-/readyz" \
    || { echo "instance $n is not ready:"; tail "$work/instance-$n.log"; exit 1; }
done

mkdir -p "$work/nginx"
sed -e "s|__LISTEN__|$proxy|" -e "s|__PREFIX__|$work/nginx|" \
  -e "s|__INSTANCES__|${instances[*]}|" scripts/deploy/purl-nginx.conf >"$work/nginx/nginx.conf"
nginx_test="$("$nginx_bin" -t -p "$work/nginx" -c "$work/nginx/nginx.conf" 2>&1)" \
  || { echo "$nginx_test"; exit 1; }
"${pin[@]}" "$nginx_bin" -p "$work/nginx" -c "$work/nginx/nginx.conf" -g 'daemon off;' \
  2>"$work/nginx/stderr.log" &
pids+=($!)
wait_port "$base"
echo "nginx on http://$proxy → resolvers on 127.0.0.1:$((base + 1))-$((base + 3)), database $db"
echo "alice's token (write on /net/): $token"

case "$mode" in
run)
  echo "Ctrl-C stops everything"
  wait "${pids[0]}"
  ;;

check)
  passed=0
  failed=0
  check() { # NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then
      passed=$((passed + 1))
      echo "ok: $1"
    else
      failed=$((failed + 1))
      echo "FAILED: $1: expected $2, got $3"
    fi
  }
  check "nginx -t accepts purl-nginx.conf" 0 "$(grep -c emerg <<<"$nginx_test" || true)"
  # The systemd unit, as systemd reads it (instance PORT_BASE+1, with this build's binary).
  unit_dir="$work/unit"
  mkdir -p "$unit_dir"
  echo "URLKIT_PURL_DB=$db" >"$unit_dir/purl.env"
  sed -e "s|/usr/local/bin/urlkit|$binary|" -e "s|/etc/urlkit/purl.env|$unit_dir/purl.env|" \
    scripts/deploy/urlkit-purl@.service >"$unit_dir/urlkit-purl@.service"
  if command -v systemd-analyze >/dev/null 2>&1; then
    verified="$(cd "$unit_dir" && systemd-analyze verify --man=no "$unit_dir/urlkit-purl@$((base + 1)).service" 2>&1 || echo failed)"
    check "systemd-analyze verify urlkit-purl@.service" "" "$verified"
  else
    echo "systemd-analyze is missing: the unit is not verified"
  fi
  put() { # URL TARGET PRECONDITION-HEADER → status
    curl -s -o /dev/null -w '%{http_code}' -X PUT "$1" -H "Authorization: Bearer $token" \
      -H "$3" -d "{\"type\":\"redirect\",\"target\":\"$2\"}"
  }
  location() { curl -s -o /dev/null -w '%{http_code} %{redirect_url}' "$1"; }
  # Created through nginx: every instance answers it within a second.
  check "a record created through nginx" 201 "$(put "http://$proxy/-/api/purls/net/a" https://e.org/1 'If-None-Match: *')"
  for n in 1 2 3; do
    reached=no
    wait_status 1 302 "http://127.0.0.1:$((base + n))/net/a" && reached=yes
    check "instance $n answers it within a second" yes "$reached"
  done
  # Changed on instance 2 directly: nginx answers the change, from whichever instance.
  check "changed through instance 2" 200 "$(put "http://127.0.0.1:$((base + 2))/-/api/purls/net/a" https://e.org/2 'If-Match: "1"')"
  sleep 1
  answers=""
  for _ in $(seq 9); do answers+="$(location "http://$proxy/net/a")|"; done
  check "nginx answers the change nine times in nine" "$(printf '302 https://e.org/2|%.0s' $(seq 9))" "$answers"
  # Two instances changing one version at once: one 200, one 412.
  put "http://127.0.0.1:$((base + 1))/-/api/purls/net/a" https://e.org/3a 'If-Match: "2"' >"$work/w1" &
  w1=$!
  put "http://127.0.0.1:$((base + 3))/-/api/purls/net/a" https://e.org/3b 'If-Match: "2"' >"$work/w3" &
  w3=$!
  wait "$w1" "$w3" || true
  check "two writes of one version at once: one 200, one 412" "200 412" \
    "$(printf '%s\n%s\n' "$(cat "$work/w1")" "$(cat "$work/w3")" | sort | xargs)"
  check "the history holds three versions" 3 "$(curl -s "http://$proxy/-/api/history/net/a" | grep -o '"version":[0-9]*' | sort -u | wc -l)"
  # The page keeps a client on one instance: a login through nginx holds.
  form="$(curl -s -c "$work/cookies" "http://$proxy/-/login")"
  csrf="$(grep -o 'name="csrf" value="[^"]*"' <<<"$form" | head -n1 | sed 's/.*value="//; s/"$//')"
  check "login through nginx" 303 "$(status -b "$work/cookies" -c "$work/cookies" -X POST \
    --data-urlencode "csrf=$csrf" --data-urlencode user=alice --data-urlencode 'password=correct horse' \
    "http://$proxy/-/login")"
  pages=""
  for _ in $(seq 6); do pages+="$(status -b "$work/cookies" "http://$proxy/-/new") "; done
  check "the session holds through nginx" "200 200 200 200 200 200 " "$pages"
  check "/-/metrics is not served through the proxy" 404 "$(status "http://$proxy/-/metrics")"
  check "/-/metrics on an instance" 1 "$(curl -s "http://127.0.0.1:$((base + 1))/-/metrics" | grep -c '^urlkit_purl_records ')"
  # PostgreSQL stopped: redirects go on, writes get 503 with Retry-After, readiness fails.
  stop_pg
  check "a redirect while the database is down" "302 https://e.org/3" "$(location "http://$proxy/net/a" | sed 's/3[ab]$/3/')"
  check "a write while the database is down" 503 "$(put "http://$proxy/-/api/purls/net/a" https://e.org/4 'If-Match: "3"')"
  check "it says when to retry" 1 "$(curl -s -D - -o /dev/null -X PUT "http://$proxy/-/api/purls/net/a" \
    -H "Authorization: Bearer $token" -H 'If-Match: "3"' -d '{"type":"redirect","target":"https://e.org/4"}' | grep -ci '^retry-after')"
  check "readiness while the database is down" 503 "$(status "http://127.0.0.1:$((base + 1))/-/readyz")"
  start_pg
  back=no
  wait_status 30 200 -X PUT "http://127.0.0.1:$((base + 1))/-/api/purls/net/a" -H "Authorization: Bearer $token" \
    -H 'If-Match: "3"' -d '{"type":"redirect","target":"https://e.org/4"}' && back=yes
  check "writes go through again when the database is back" yes "$back"
  for n in 2 3; do
    seen=no
    for _ in $(seq 200); do
      [ "$(location "http://127.0.0.1:$((base + n))/net/a")" = "302 https://e.org/4" ] && { seen=yes; break; }
      sleep 0.05
    done
    check "instance $n sees it" yes "$seen"
    ready=no
    wait_status 30 200 "http://127.0.0.1:$((base + n))/-/readyz" && ready=yes
    check "instance $n is ready again" yes "$ready"
  done
  # An instance stopped with SIGTERM: the others answer everything.
  kill -TERM "${pids[1]}"
  wait "${pids[1]}" 2>/dev/null || true
  served=0
  for _ in $(seq 12); do
    [ "$(location "http://$proxy/net/a")" = "302 https://e.org/4" ] && served=$((served + 1))
  done
  check "redirects after one instance stopped" 12 "$served"
  echo "# pass $passed"
  echo "# fail $failed"
  [ "$failed" = 0 ]
  ;;

*)
  echo "usage: $0 run|check [BINARY]" >&2
  exit 2
  ;;
esac
