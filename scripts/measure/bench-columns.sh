#!/usr/bin/env bash
# Column decoding and host extraction: urlkit through Python (pyarrow, Polars) beside
# DuckDB url_decode, ClickHouse decodeURLComponent (chdb), urllib.parse.unquote, Polars
# map_elements(unquote) and polars-tldextract's fqdn, on generated URLs. Prints one table.
#
#   scripts/measure/bench-columns.sh [ROWS] [--runs N] [--inputs clean,dirty,percent]
#                                    default 1,000,000 rows, 3 runs, all three inputs
#
# Installs what it needs into target/py-venv (the venv of `scripts/test.sh python`) and
# builds the package in release into it.
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=target/py-venv
[ -x "$venv/bin/pip" ] || python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check \
  maturin pyarrow polars duckdb chdb polars-tldextract
VIRTUAL_ENV="$PWD/$venv" "$venv/bin/maturin" develop --release --locked --quiet \
  -m crates/urlkit-py/Cargo.toml
"$venv/bin/python" scripts/measure/bench-columns.py "$@"
