#!/usr/bin/env bash
# Column decoding on a Spark standalone cluster on loopback: urlkit's Arrow functions beside
# Spark's own try_url_decode (see bench-spark.py).
#
#   scripts/measure/bench-spark.sh [ROWS] [--runs N]     default 1,000,000 rows, 3 runs
#
# Installs what it needs into target/py-venv (the venv of `scripts/test.sh python`; Java 17
# for Spark) and builds the package in release into it.
set -euo pipefail
cd "$(dirname "$0")/../.."

command -v java >/dev/null || { echo "bench-spark.sh: needs Java 17 (openjdk-17-jre-headless)" >&2; exit 2; }
venv=target/py-venv
[ -x "$venv/bin/pip" ] || python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check maturin pyarrow pyspark "pandas<3"
VIRTUAL_ENV="$PWD/$venv" "$venv/bin/maturin" develop --release --locked --quiet \
  -m crates/urlkit-py/Cargo.toml
"$venv/bin/python" scripts/measure/bench-spark.py "$@"
