#!/usr/bin/env bash
# Three `urlkit serve` instances behind nginx on this machine, their results in one S3
# bucket (moto's S3 server on 127.0.0.1 stands in for S3), as a deployment runs them.
#
#   scripts/deploy/local.sh run [BINARY]              start everything; Ctrl-C stops it
#   scripts/deploy/local.sh check [BINARY]            start, check, stop (prints pass/fail
#                                                     counts; scripts/test.sh runs it)
#   scripts/deploy/local.sh measure [BINARY] [SECONDS] [CONNECTIONS]
#                                                     wrk on POST /api/decode through nginx,
#                                                     then straight to one instance
#
# BINARY defaults to target/release/urlkit. nginx (Debian's package) and moto (a Python
# virtual environment, scripts/moto-venv.sh) are installed when missing. nginx listens on
# 127.0.0.1:PORT_BASE (default 18080), the instances on the next three ports, moto on the
# fourth. The instances trust X-Forwarded-For from 127.0.0.1 (nginx) alone.
set -euo pipefail
cd "$(dirname "$0")/../.."

mode="${1:-run}"
binary="${2:-target/release/urlkit}"
[[ $binary == /* ]] || binary="$PWD/$binary"
base="${PORT_BASE:-18080}"
proxy="127.0.0.1:$base"
moto_port=$((base + 4))

if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null
fi
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
moto_server="$(scripts/moto-venv.sh)"
[ -x "$binary" ] || cargo build --release --locked -p urlkit-cli

work="$(mktemp -d)"
pids=()
cleanup() {
  # nginx runs in the foreground (`daemon off`): its master is one of these.
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

wait_port() {
  for _ in $(seq 150); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "nothing listens on 127.0.0.1:$1" >&2
  return 1
}

"$moto_server" -H 127.0.0.1 -p "$moto_port" >"$work/moto.log" 2>&1 &
pids+=($!)
wait_port "$moto_port"
curl -sf -X PUT "http://127.0.0.1:$moto_port/urlkit" >/dev/null

# The rate limit is part of the deployment (low enough in `check` for curl to reach it);
# the measurement is of the service itself.
limit=(--rate-limit 20/s)
[ "$mode" = check ] && limit=(--rate-limit 5/s)
[ "$mode" = measure ] && limit=()
instances=()
for n in 1 2 3; do
  port=$((base + n))
  AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local AWS_REGION=us-east-1 \
    AWS_ENDPOINT_URL="http://127.0.0.1:$moto_port" \
    "$binary" serve --addr "127.0.0.1:$port" --store s3://urlkit/results \
    --trusted-proxy 127.0.0.1 "${limit[@]}" --log-format json \
    2>"$work/instance-$n.log" &
  pids+=($!)
  instances+=("server 127.0.0.1:$port max_fails=1 fail_timeout=5s;")
done
for n in 1 2 3; do wait_port $((base + n)); done

mkdir -p "$work/nginx"
sed -e "s|__LISTEN__|$proxy|" -e "s|__PREFIX__|$work/nginx|" \
  -e "s|__INSTANCES__|${instances[*]}|" scripts/deploy/nginx.conf >"$work/nginx/nginx.conf"
"$nginx_bin" -p "$work/nginx" -c "$work/nginx/nginx.conf" -g 'daemon off;' \
  2>"$work/nginx/stderr.log" &
pids+=($!)
wait_port "$base"
echo "nginx on http://$proxy → instances on 127.0.0.1:$((base + 1))-$((base + 3)), results in s3://urlkit/results (moto on 127.0.0.1:$moto_port)"

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
  # The systemd unit, as systemd reads it (instance 18081, with this build's binary).
  unit_dir="$work/unit"
  mkdir -p "$unit_dir"
  echo "URLKIT_STORE=s3://urlkit/results" >"$unit_dir/env"
  sed -e "s|/usr/local/bin/urlkit|$binary|" -e "s|/etc/urlkit/env|$unit_dir/env|" \
    scripts/deploy/urlkit@.service >"$unit_dir/urlkit@.service"
  if command -v systemd-analyze >/dev/null 2>&1; then
    verified="$(cd "$unit_dir" && systemd-analyze verify --man=no "$unit_dir/urlkit@$((base + 1)).service" 2>&1 || echo failed)"
    check "systemd-analyze verify urlkit@.service" "" "$verified"
  else
    echo "systemd-analyze is missing: the unit is not verified"
  fi
  # Upload through the proxy, download through it once (on whichever instance), then 404.
  created="$(curl -s -F op=encode -F 'file=@-;filename=a' "http://$proxy/api/files" <<<'a b')"
  download="$(grep -o '"/api/files/[^"]*"' <<<"$created" | tr -d '"')"
  check "upload through nginx" 1 "$(grep -c '"id"' <<<"$created")"
  check "first download through nginx" "a%20b%0A" "$(curl -s "http://$proxy$download")"
  check "second download through nginx" 404 "$(curl -s -o /dev/null -w '%{http_code}' "http://$proxy$download")"
  # Each instance serves results made on another.
  for n in 1 2 3; do
    created="$(curl -s -F op=decode -F 'file=@-;filename=a' "http://$proxy/api/files" <<<'%41')"
    download="$(grep -o '"/api/files/[^"]*"' <<<"$created" | tr -d '"')"
    check "result fetched from instance $n" "A" "$(curl -s "http://127.0.0.1:$((base + n))$download" | tr -d '\n')"
  done
  # The rate limit counts the address nginx saw, whatever X-Forwarded-For a client sends.
  # Each instance counts for itself (5 a second, bursts of 10): 60 requests are 20 an
  # instance.
  codes=""
  for _ in $(seq 60); do
    codes+="$(curl -s -o /dev/null -w '%{http_code} ' --interface 127.0.0.2 \
      -H "X-Forwarded-For: 198.51.100.$RANDOM" "http://$proxy/api/openapi.json")"
  done
  check "a client forging X-Forwarded-For is still limited" yes "$(grep -q 429 <<<"$codes" && echo yes || echo no)"
  check "another client is not" 200 "$(curl -s -o /dev/null -w '%{http_code}' --interface 127.0.0.3 "http://$proxy/api/openapi.json")"
  check "/metrics is not served through the proxy" 404 "$(curl -s -o /dev/null -w '%{http_code}' "http://$proxy/metrics")"
  check "/metrics on an instance" 1 "$(curl -s "http://127.0.0.1:$((base + 1))/metrics" | grep -c '^urlkit_results_stored_total')"
  # An instance stopped with SIGTERM: the others answer everything.
  kill -TERM "${pids[1]}"
  wait "${pids[1]}" 2>/dev/null || true
  served=0
  for _ in $(seq 12); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' --interface 127.0.0.4 -X POST -H 'content-type: application/json' \
      -d '{"input":"%41"}' "http://$proxy/api/decode")" = 200 ] && served=$((served + 1))
  done
  check "requests after one instance stopped" 12 "$served"
  check "the stopped instance logged its shutdown as JSON" 1 \
    "$(grep -c '"message":"shutting down"' "$work/instance-1.log")"
  echo "# pass $passed"
  echo "# fail $failed"
  [ "$failed" = 0 ]
  ;;

measure)
  seconds="${3:-15}"
  connections="${4:-64}"
  command -v wrk >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
  for target in "http://$proxy" "http://127.0.0.1:$((base + 1))"; do
    echo "wrk -t2 -c$connections -d${seconds}s -s scripts/measure/load-decode.lua $target/api/decode"
    wrk -t2 -c"$connections" -d"${seconds}s" --latency -s scripts/measure/load-decode.lua \
      "$target/api/decode" | grep -E 'Requests/sec|Latency  |99%|Non-2xx|errors'
  done
  ;;

*)
  echo "usage: $0 run|check|measure [BINARY] [SECONDS] [CONNECTIONS]" >&2
  exit 2
  ;;
esac
