#!/usr/bin/env bash
# Runs every test of the project, section by section, and ends with a table of each
# section's passed, failed and skipped tests and one summary line (also written to
# target/test-summary.txt).
#
#   scripts/test.sh [SECTION]...        default: every section, in this order
#
#   rust       every Rust test (cargo nextest; each test under a time limit, see
#              .config/nextest.toml), the ones that need Node.js or Python included
#   doc        the documentation examples (cargo test --doc)
#   wasm-node  the WebAssembly module in Node: same results as the native binary,
#              streaming, and its raw exports called with bad arguments
#   browser    the web tool's page driven in Chromium (tests-browser/)
#   deploy     three instances behind nginx on one S3 bucket (moto), checked by
#              scripts/deploy/local.sh, and the systemd unit verified; then three PURL
#              resolvers behind nginx on one PostgreSQL (scripts/deploy/purl-local.sh:
#              edits reaching all, an outage, nginx -t, the resolver's unit verified)
#   aarch64    the library's tests and the CLI contract on aarch64 under qemu-aarch64
#   miri       the WebAssembly module's exports under Miri (nightly)
#   python     the Python package (crates/urlkit-py): its wheel built once in release,
#              installed in a venv (target/py-venv) with pytest, pyarrow, Polars, DuckDB
#              and PySpark, and its tests (pytest) against the urlkit binary
#   licenses   every dependency's license on about.toml's allow-list, and
#              THIRD-PARTY-NOTICES.txt current (scripts/licenses.sh --check; installs
#              cargo-about when missing)
#
# What a section needs is installed when missing (Debian packages, Rust targets and
# components, npm packages). A section that still cannot run is reported as skipped with
# the reason; with CI=true it counts as a failure instead.
set -euo pipefail
cd "$(dirname "$0")/.."

all_sections=(rust doc wasm-node browser deploy aarch64 miri python licenses)
sections=("$@")
[ ${#sections[@]} -eq 0 ] && sections=("${all_sections[@]}")

mkdir -p target
# Where cargo puts what it builds: the same rule as cargo's own, which the WebAssembly
# build script and the Node harness follow too (a relative CARGO_TARGET_DIR is taken from
# the repository root). The tests that run the urlkit binary are told where it is.
target_dir="${CARGO_TARGET_DIR:-target}"
[[ $target_dir == /* ]] || target_dir="$PWD/$target_dir"
export URLKIT_BIN="$target_dir/debug/urlkit" URLKIT_CLI="$target_dir/debug/urlkit"
summary_rows=()
total_passed=0
total_failed=0
total_skipped=0
status=0

# Installs the Debian packages that are missing; returns 1 when it cannot. Each argument
# is a package, or `COMMAND:PACKAGE` when any COMMAND on the PATH will do (Node.js and npm
# may come from elsewhere than Debian).
ensure_debian() {
  local missing=() item
  for item in "$@"; do
    if [[ $item == *:* ]]; then
      command -v "${item%%:*}" >/dev/null 2>&1 || missing+=("${item#*:}")
    else
      dpkg-query -W -f='${Status}' "$item" 2>/dev/null | grep -q 'install ok installed' \
        || missing+=("$item")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing ${missing[*]}"
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "cannot install ${missing[*]}: not root, or no apt-get"
    return 1
  fi
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } \
    >/dev/null || return 1
}

# Adds a Rust target to the default toolchain when it is missing.
ensure_target() {
  rustup target list --installed 2>/dev/null | grep -qx "$1" || rustup target add "$1"
}

# Counts what a section's log reports, in every format its test runners print:
#   cargo nextest  "Summary [ 1.2s] 12 tests run: 11 passed, 1 failed, 3 skipped"
#   libtest        "test result: ok. 3 passed; 0 failed; 1 ignored; …"
#   node --test    "# pass 3", "# fail 0", "# skipped 1" (TAP)
#   pytest         "===== 40 passed, 1 failed, 2 skipped in 9.81s ====="
count() {
  awk '
    function grab(line, word,    m) {
      if (match(line, "[0-9]+ " word)) return substr(line, RSTART, RLENGTH) + 0
      return 0
    }
    /^ *Summary \[/ { p += grab($0, "passed"); f += grab($0, "failed") + grab($0, "timed out"); s += grab($0, "skipped") }
    /test result: / { p += grab($0, "passed"); f += grab($0, "failed"); s += grab($0, "ignored") }
    /^# pass [0-9]+/ { p += $3 }
    /^# fail [0-9]+/ { f += $3 }
    /^# skipped [0-9]+/ { s += $3 }
    /^=+ .*[0-9]+ (passed|failed|error|skipped).* in [0-9.]+s/ { p += grab($0, "passed"); f += grab($0, "failed") + grab($0, "error"); s += grab($0, "skipped") }
    END { print p + 0, f + 0, s + 0 }
  ' "$1"
}

record() {
  local name="$1" passed="$2" failed="$3" skipped="$4" note="$5"
  total_passed=$((total_passed + passed))
  total_failed=$((total_failed + failed))
  total_skipped=$((total_skipped + skipped))
  summary_rows+=("$(printf '%-10s %6s passed %4s failed %4s skipped  %s' "$name" "$passed" "$failed" "$skipped" "$note")")
}

# Runs one section's command, shows its output and records its counts. A command that
# fails without a failed test to show for it (a build error, a crash) counts as one failure.
run_section() {
  local name="$1"
  shift
  local log="target/test-$name.log"
  echo
  echo "=== $name: $*"
  local started=$SECONDS rc=0
  "$@" 2>&1 | tee "$log" || rc=${PIPESTATUS[0]}
  read -r passed failed skipped < <(count "$log")
  local note="$((SECONDS - started)) s"
  if [ "$rc" -ne 0 ]; then
    status=1
    if [ "$failed" -eq 0 ]; then
      failed=1
      note="$note; exit status $rc (see $log)"
    fi
  fi
  record "$name" "$passed" "$failed" "$skipped" "$note"
}

# A section that cannot run here: skipped by name, or a failure under CI.
skip_section() {
  local name="$1" why="$2"
  echo
  echo "=== $name: skipped: $why"
  if [ "${CI:-}" = "true" ]; then
    status=1
    record "$name" 0 1 0 "cannot run in CI: $why"
  else
    record "$name" 0 0 0 "SKIPPED: $why"
  fi
}

# The x86-64 kernels this processor should run, from what it reports: the kernel tests
# fail when one of them is not exercised.
expected_x86_kernels() {
  local flags kernels=()
  flags=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | cut -d: -f2) "
  [[ $flags == *" ssse3 "* ]] && kernels+=(ssse3)
  [[ $flags == *" avx2 "* ]] && kernels+=(avx2)
  if [[ $flags == *" avx2 "* && $flags == *" avx512f "* && $flags == *" avx512bw "* \
    && $flags == *" avx512vbmi "* && $flags == *" avx512_vbmi2 "* && $flags == *" popcnt "* ]]; then
    kernels+=(avx512)
  fi
  local IFS=,
  echo "${kernels[*]}"
}

section_rust() {
  # g++ builds the URL parser (ada, C++20), where Rust alone brings only a C linker.
  ensure_debian node:nodejs python3:python3 python3-venv g++:g++ || true
  # A real PostgreSQL for the resolver's store tests: each test starts its own server
  # (initdb and pg_ctl on a loopback port, in a temporary directory). Without it they
  # report themselves skipped, a failure under CI=true.
  ensure_debian postgresql || true
  # moto's S3 server for the tests of several instances on one bucket (about 40 s to
  # install, once, into target/moto-venv).
  if URLKIT_MOTO_SERVER="$(scripts/moto-venv.sh)"; then
    export URLKIT_MOTO_SERVER
  else
    echo "cannot install moto: the S3 tests will fail"
  fi
  if [ "$(uname -m)" = x86_64 ]; then
    URLKIT_EXPECT_KERNELS="$(expected_x86_kernels)"
    export URLKIT_EXPECT_KERNELS
    echo "x86-64 kernels expected on this processor: ${URLKIT_EXPECT_KERNELS:-none}"
  fi
  # Two tests read the project's shared folder beside the repository (the conformance
  # data's source, and the benchmark lists, which are not copied in): without it they are
  # left out by name (a failure under CI=true, where the folder is always there).
  local without_shared=()
  if [ ! -d ../shared/conformance ] || [ ! -d ../shared/bench-data ]; then
    local shared_tests=(the_repository_copy_equals_the_shared_conformance_data
      the_fast_path_agrees_with_the_full_parse_on_the_benchmark_lists)
    echo "skipped, needing ../shared beside the repository: ${shared_tests[*]}"
    [ "${CI:-}" = "true" ] && status=1
    without_shared=(--skip "${shared_tests[0]}" --skip "${shared_tests[1]}")
  fi
  if command -v cargo-nextest >/dev/null 2>&1; then
    # `--run-ignored all`: the tests marked as needing Node.js, Python or ../shared run
    # here, where those are there; a plain `cargo test` lists them as ignored, by name.
    run_section rust cargo nextest run --workspace --locked --run-ignored all \
      -- "${without_shared[@]}"
  else
    echo "cargo-nextest is missing: the tests run without their per-test time limit"
    run_section rust cargo test --workspace --locked -- --include-ignored "${without_shared[@]}"
  fi
}

section_doc() {
  run_section doc cargo test --workspace --locked --doc
}

section_wasm_node() {
  if ! ensure_debian node:nodejs || ! command -v node >/dev/null 2>&1; then
    skip_section wasm-node "needs Node.js"
    return
  fi
  # One test also runs the module in Chromium; without it that test reports itself skipped.
  ensure_debian /usr/bin/chromium:chromium || echo "wasm-node: Chromium could not be installed"
  # The tests compare the module with the native binary: both come from this build.
  cargo build --workspace --locked
  run_section wasm-node node --test --test-timeout=120000 --test-reporter=tap \
    crates/urlkit-wasm/js/test/*.test.mjs
}

section_browser() {
  # Fonts for the page's Hindi and Persian and the CJK in its examples, for screenshots
  # that show text rather than boxes.
  if ! ensure_debian node:nodejs npm:npm /usr/bin/chromium:chromium curl:curl \
    fonts-noto-ui-core fonts-droid-fallback; then
    skip_section browser "needs Chromium (/usr/bin/chromium), Node.js, npm and the fonts-noto-ui-core and fonts-droid-fallback packages"
    return
  fi
  cargo build --workspace --locked
  (cd tests-browser && npm ci --no-audit --no-fund --silent)
  run_section browser bash -c 'cd tests-browser && npm test'
}

section_deploy() {
  if ! ensure_debian python3-venv curl:curl nginx:nginx-light || ! scripts/moto-venv.sh >/dev/null; then
    skip_section deploy "needs nginx (Debian's nginx-light), curl and moto (Python venv)"
    return
  fi
  cargo build --locked -p urlkit-cli
  run_section deploy scripts/deploy/local.sh check "$URLKIT_BIN"
  if ! ensure_debian postgresql; then
    skip_section deploy-purl "needs PostgreSQL (Debian's postgresql)"
    return
  fi
  run_section deploy-purl scripts/deploy/purl-local.sh check "$URLKIT_BIN"
}

section_aarch64() {
  # g++: the URL parser (ada) is C++, compiled for aarch64 too.
  if ! ensure_debian aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu \
    aarch64-linux-gnu-g++:g++-aarch64-linux-gnu libc6-dev-arm64-cross qemu-aarch64:qemu-user \
    || ! ensure_target aarch64-unknown-linux-gnu; then
    skip_section aarch64 "needs gcc-aarch64-linux-gnu, g++-aarch64-linux-gnu, qemu-user and the Rust target aarch64-unknown-linux-gnu"
    return
  fi
  run_section aarch64 scripts/test-aarch64.sh
}

section_miri() {
  if ! rustup toolchain list | grep -q '^nightly' \
    || ! rustup component add --toolchain nightly miri rust-src >/dev/null 2>&1; then
    skip_section miri "needs the nightly toolchain with miri (rustup component add --toolchain nightly miri rust-src)"
    return
  fi
  run_section miri cargo +nightly miri test --locked -p urlkit-wasm --lib
}

# What the Python section installs into its venv: the build tool, the test runner and the
# engines the tests drive (PySpark needs Java, and pandas before 3 for its UDFs).
PYTHON_PACKAGES=(maturin pytest pytest-timeout pyarrow polars duckdb pyspark "pandas<3")

section_python() {
  if ! ensure_debian python3:python3 python3-venv java:openjdk-17-jre-headless \
    || ! command -v python3 >/dev/null 2>&1 || ! python3 -m venv --help >/dev/null 2>&1; then
    skip_section python "needs Python 3 with venv and pip, and Java for PySpark"
    return
  fi
  local venv=target/py-venv
  if ! { [ -x "$venv/bin/pip" ] || python3 -m venv "$venv"; } \
    || ! "$venv/bin/pip" install --quiet --disable-pip-version-check "${PYTHON_PACKAGES[@]}"; then
    skip_section python "cannot install ${PYTHON_PACKAGES[*]} with pip"
    return
  fi
  # The tests compare with the urlkit binary of this checkout.
  rm -rf target/wheels
  if ! cargo build --locked -p urlkit-cli \
    || ! "$venv/bin/maturin" build --release --locked -m crates/urlkit-py/Cargo.toml \
      --interpreter "$venv/bin/python" -o target/wheels \
    || ! "$venv/bin/pip" install --quiet --force-reinstall --no-deps target/wheels/pyurlkit-*.whl
  then
    status=1
    record python 0 1 0 "the urlkit binary or the wheel did not build or install"
    return
  fi
  run_section python "$venv/bin/python" -m pytest crates/urlkit-py/tests -p no:cacheprovider \
    -W ignore::FutureWarning
}

section_licenses() {
  run_section licenses scripts/licenses.sh --check
}

for section in "${sections[@]}"; do
  case "$section" in
    rust) section_rust ;;
    doc) section_doc ;;
    wasm-node) section_wasm_node ;;
    browser) section_browser ;;
    deploy) section_deploy ;;
    aarch64) section_aarch64 ;;
    miri) section_miri ;;
    python) section_python ;;
    licenses) section_licenses ;;
    *)
      echo "unknown section $section; the sections are: ${all_sections[*]}" >&2
      exit 2
      ;;
  esac
done

summary="all tests: $total_passed passed, $total_failed failed, $total_skipped skipped"
{
  echo
  printf '%s\n' "${summary_rows[@]}"
  echo "$summary"
} | tee target/test-summary.txt
exit "$status"
