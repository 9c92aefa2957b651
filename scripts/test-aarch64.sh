#!/usr/bin/env bash
# The aarch64 build, run under emulation on an x86-64 machine: the library's tests (its
# NEON kernels against the portable reference, the codec's property tests with fewer cases)
# cross-compiled and run under qemu-aarch64, then the command-line contract tests driving
# an aarch64 `urlkit` binary through qemu-aarch64.
#
# Needs: the Rust target aarch64-unknown-linux-gnu, Debian's gcc-aarch64-linux-gnu,
# g++-aarch64-linux-gnu (the URL parser, ada, is C++), libc6-dev-arm64-cross and qemu-user
# (scripts/test.sh installs them), and cargo-nextest.
# Every test runs under the time limits of the `emulated` profile of .config/nextest.toml.
set -euo pipefail
cd "$(dirname "$0")/.."

target=aarch64-unknown-linux-gnu
sysroot=/usr/aarch64-linux-gnu
runner="qemu-aarch64 -L $sysroot"
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="$runner"
export CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc
export CXX_aarch64_unknown_linux_gnu=aarch64-linux-gnu-g++
# Emulation is ten to thirty times slower: property tests try fewer cases.
export PROPTEST_CASES="${PROPTEST_CASES:-48}"
# The kernel tests fail unless the NEON kernels really ran.
export URLKIT_EXPECT_KERNELS=neon

nextest=(cargo nextest run --locked --profile emulated)

# The library, built for aarch64 and run under qemu-aarch64. The cross-checks against
# Node.js and Python stay on the native run: they test the same logic, not the ISA.
"${nextest[@]}" --target "$target" -p urlkit -E 'not binary(cross_check)'

# The command-line contract, against the aarch64 binary. The servers (`urlkit serve` and
# `urlkit purl`, features `serve` and `purl`) are left out: their HTTP, TLS, S3 and SQLite
# code holds no kernel of ours, and cross-compiling it would triple this section's time.
cargo build --locked --target "$target" -p urlkit-cli --no-default-features
target_dir="${CARGO_TARGET_DIR:-target}"
[[ $target_dir == /* ]] || target_dir="$PWD/$target_dir"
binary="$target_dir/$target/debug/urlkit"
if ! head -c 20 "$binary" | od -An -tx1 | tr -d ' \n' | grep -q '^7f454c46020101.\{22\}b700'; then
  echo "$binary is not an aarch64 ELF executable" >&2
  exit 1
fi
URLKIT_TEST_BINARY="$binary" URLKIT_TEST_RUNNER="$runner" \
  "${nextest[@]}" -p urlkit-cli --test cli --test inspect_cli --test edit_cli
