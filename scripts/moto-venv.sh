#!/usr/bin/env bash
# Prints the path of moto's S3 server (`moto_server`), installing it first when missing:
# moto from PyPI in a Python virtual environment, target/moto-venv. The tests of several
# instances on one bucket (crates/urlkit-cli/tests/s3.rs) and scripts/deploy/local.sh use it.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/moto-venv
if [ ! -x "$venv/bin/moto_server" ]; then
  {
    rm -rf "$venv"
    python3 -m venv "$venv"
    # S3 alone and the server's web framework: a third of `moto[server]`.
    "$venv/bin/pip" install --quiet --disable-pip-version-check \
      "moto[s3]==5.2.5" "flask==3.1.3" "flask-cors==6.0.5"
  } >&2
fi
echo "$PWD/$venv/bin/moto_server"
