#!/usr/bin/env bash
# The PURL resolver's link checker: targets checked per minute against loopback hosts whose
# targets are quick, slow, failing, moved or silent (crates/urlkit-purl/examples/
# checker_throughput.rs), for a few per-host limits and delays. Nothing leaves the machine.
#
#   scripts/measure/bench-checker.sh [HOSTS] [TARGETS_PER_HOST] [TIMEOUT_MS]
#
# Defaults: 20 hosts, 40 targets each, a 1000 ms timeout.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo run --quiet --release --locked -p urlkit-purl --example checker_throughput -- \
    "${1:-20}" "${2:-40}" "${3:-1000}"
