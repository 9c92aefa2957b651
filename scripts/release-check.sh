#!/usr/bin/env bash
# Proves the artifacts scripts/release.sh wrote, as a user of each would meet them:
#   * each static binary alone in an empty root (a directory holding nothing else): the
#     x86-64 one through chroot, the aarch64 one through qemu-aarch64 with that directory
#     as its only library path, so a dynamic binary could not find even its loader. Each
#     decodes, parses and serves (health check, an API call, SIGTERM ends it with status 0);
#   * the x86-64 wheel in a fresh virtual environment: the package's tests (the engines'
#     too, but the Spark ones: their cluster test runs in `scripts/test.sh python`);
#   * the aarch64 wheel: its module is an aarch64 ELF that needs nothing past glibc 2.17
#     (auditwheel checked the policy); importing it needs an aarch64 CPython, which this
#     x86-64 machine does not have;
#   * the image: its configuration (non-root user, entrypoint, port) and its root file
#     system run as the image would (chroot as uid 65532, URLKIT_ADDR from the
#     environment), and with podman when podman can run containers here;
#   * SHA256SUMS.
#
#   scripts/release-check.sh [DIST]        default target/dist
#
# Needs: root (chroot), curl, qemu-user, python3 with venv, readelf; podman is optional.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
dist="$(cd "${1:-target/dist}" && pwd)"
version="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)"
work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
failures=0
pass() { printf 'ok    %s\n' "$*"; }
fail() { printf 'FAIL  %s\n' "$*"; failures=$((failures + 1)); }
expect() { # expect WHAT WANTED GOT
  if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: wanted $(printf %q "$2"), got $(printf %q "$3")"; fi
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# serve_check WHAT PORT COMMAND...: starts COMMAND (a server on 127.0.0.1:PORT), asks it for
# its health and a decoding, stops it with SIGTERM and checks it ended with status 0.
serve_check() {
  local what="$1" port="$2"
  shift 2
  "$@" > "$work/serve.log" 2>&1 &
  local pid=$!
  pids+=("$pid")
  local up=0
  for _ in $(seq 1 100); do
    if curl -fsS --max-time 2 "http://127.0.0.1:$port/healthz" > "$work/health" 2>/dev/null; then
      up=1
      break
    fi
    sleep 0.2
  done
  if [ "$up" = 1 ]; then
    expect "$what: /healthz" '{"status":"ok"}' "$(cat "$work/health")"
    local decoded
    decoded="$(curl -fsS --max-time 10 -H 'content-type: application/json' \
      -d '{"input":"%E5%BC%95%E3%81%8D"}' "http://127.0.0.1:$port/api/decode" \
      | python3 -c 'import json,sys; print(json.load(sys.stdin)["output"])')" || true
    expect "$what: POST /api/decode" "引き" "$decoded"
  else
    fail "$what: did not answer on 127.0.0.1:$port: $(tail -5 "$work/serve.log")"
  fi
  kill -TERM "$pid" 2>/dev/null || true
  local status=0
  wait "$pid" || status=$?
  expect "$what: SIGTERM ends it with status 0" 0 "$status"
}

echo "== static binaries, each alone in an empty root"
for arch in x86_64 aarch64; do
  name="urlkit-$version-$arch-linux"
  tar -xzf "$dist/$name.tar.gz" -C "$work"
  empty="$work/root-$arch"
  mkdir -p "$empty"
  cp "$work/$name/urlkit" "$empty/urlkit"
  expect "$arch: the root holds only the binary" "urlkit" "$(ls -A "$empty")"
  if [ "$arch" = x86_64 ]; then
    run=(chroot "$empty" /urlkit)
  else
    run=(qemu-aarch64 -L "$empty" "$empty/urlkit")
  fi
  expect "$arch: decode" "引き" "$("${run[@]}" decode '%E5%BC%95%E3%81%8D')"
  expect "$arch: parse --get" "例子.卷筒纸" \
    "$("${run[@]}" parse --get '{host:unicode}' 'http://例子.卷筒纸/?a=1')"
  expect "$arch: --version names the build" "urlkit $version" \
    "$("${run[@]}" --version | cut -d' ' -f1-2)"
  port="$(free_port)"
  # The result store lives in the empty root (its only directory besides the binary).
  serve_check "$arch: serve" "$port" env URLKIT_ADDR="127.0.0.1:$port" \
    "${run[@]}" serve --store /results
  for file in man/urlkit.1 man/urlkit-decode.1 completions/urlkit.bash completions/_urlkit \
    THIRD-PARTY-NOTICES.txt LICENSE-MIT LICENSE-APACHE; do
    [ -s "$work/$name/$file" ] && pass "$arch: archive has $file" || fail "$arch: archive lacks $file"
  done
done

echo "== the x86-64 wheel in a fresh virtual environment"
python3 -m venv "$work/venv"
wheel="$(ls "$dist"/pyurlkit-*manylinux*x86_64.whl)"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check "$wheel" \
  pytest pytest-timeout pyarrow polars duckdb "pandas<3"
if URLKIT_CLI="$work/urlkit-$version-x86_64-linux/urlkit" "$work/venv/bin/python" -m pytest \
  -q -p no:cacheprovider -W ignore::FutureWarning "$root/crates/urlkit-py/tests" \
  --ignore="$root/crates/urlkit-py/tests/test_spark.py" \
  --ignore="$root/crates/urlkit-py/tests/test_spark_cluster.py" > "$work/pytest.log" 2>&1; then
  pass "x86-64 wheel: $(tail -1 "$work/pytest.log")"
else
  fail "x86-64 wheel: the package's tests: $(tail -20 "$work/pytest.log")"
fi

echo "== the aarch64 wheel"
wheel="$(ls "$dist"/pyurlkit-*manylinux*aarch64.whl)"
mkdir -p "$work/aarch64-wheel"
python3 -m zipfile -e "$wheel" "$work/aarch64-wheel"
module="$(find "$work/aarch64-wheel" -name '_native*.so' | head -1)"
expect "aarch64 wheel: the module is an aarch64 ELF" "AArch64" \
  "$(readelf -h "$module" | sed -n 's/^ *Machine: *//p')"
newest_glibc="$(readelf -VW "$module" | grep -o 'GLIBC_[0-9.]*' | sort -t. -k2,2n | tail -1)"
if [ "$(printf '%s\nGLIBC_2.17\n' "$newest_glibc" | sort -V | tail -1)" = GLIBC_2.17 ]; then
  pass "aarch64 wheel: needs nothing past GLIBC_2.17 ($newest_glibc)"
else
  fail "aarch64 wheel: needs $newest_glibc"
fi

echo "== the image"
image="$dist/urlkit-$version-oci.tar"
if [ -f "$image" ]; then
  mkdir -p "$work/oci" "$work/image-root"
  tar -xf "$image" -C "$work/oci"
  config="$(python3 - "$work/oci" <<'EOF'
import json, sys, pathlib
oci = pathlib.Path(sys.argv[1])
def blob(digest):
    return oci / "blobs" / digest.replace(":", "/", 1)
index = json.loads((oci / "index.json").read_text())
manifest = json.loads(blob(index["manifests"][0]["digest"]).read_text())
config = json.loads(blob(manifest["config"]["digest"]).read_text())["config"]
print(config.get("User"), json.dumps(config.get("Entrypoint")), json.dumps(config.get("Cmd")),
      " ".join(sorted(config.get("ExposedPorts", {}))))
for layer in manifest["layers"]:
    print("LAYER", blob(layer["digest"]))
EOF
)"
  expect "image: user, entrypoint, command, port" \
    '65532:65532 ["/urlkit"] ["serve", "--store", "/tmp/urlkit-results"] 8080' \
    "$(head -1 <<< "$config")"
  while read -r _ layer; do
    tar -xf "$layer" -C "$work/image-root"
  done < <(grep '^LAYER' <<< "$config")
  expect "image: its files" "etc tmp urlkit usr" "$(ls "$work/image-root" | xargs)"
  port="$(free_port)"
  # The image's environment and command, nothing of this machine's.
  serve_check "image root as uid 65532" "$port" env -i URLKIT_ADDR="127.0.0.1:$port" \
    SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt "$(command -v chroot)" \
    --userspec=65532:65532 "$work/image-root" /urlkit serve --store /tmp/urlkit-results
  if command -v podman >/dev/null 2>&1; then
    loaded="$(podman load -q -i "$image" 2>"$work/podman.err" | sed -n 's/^Loaded image: //p' | tail -1)"
    port="$(free_port)"
    # `podman run` passes SIGTERM on to the container and ends with its status.
    if [ -n "$loaded" ] && podman run --rm --network host -e URLKIT_ADDR=127.0.0.1:1 "$loaded" \
      --version > "$work/podman.out" 2>> "$work/podman.err"; then
      serve_check "image under podman" "$port" podman run --rm --network host \
        -e URLKIT_ADDR="127.0.0.1:$port" "$loaded"
    else
      echo "skipped: podman cannot run containers on this machine: $(tail -2 "$work/podman.err")"
    fi
  else
    echo "skipped: the image under podman (podman is not installed)"
  fi
else
  echo "skipped: no image in $dist"
fi

echo "== sums"
if (cd "$dist" && sha256sum --quiet -c SHA256SUMS); then pass "SHA256SUMS"; else fail "SHA256SUMS"; fi

echo
if [ "$failures" -gt 0 ]; then
  echo "release-check: $failures failure(s)"
  exit 1
fi
echo "release-check: every artifact works"
