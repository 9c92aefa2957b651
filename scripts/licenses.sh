#!/usr/bin/env bash
# Third-party notices: THIRD-PARTY-NOTICES.txt names every crate the urlkit binary (with
# the web tool), the WebAssembly module and the Python package are built from, with its
# license's text. cargo-about writes it from Cargo.lock and the crates' sources in cargo's
# registry cache (about.toml: the platforms and the licenses allowed; about.hbs: the
# layout). The web tool serves the committed file at /licenses.
#
#   scripts/licenses.sh           write THIRD-PARTY-NOTICES.txt again (after a dependency
#                                 changes; commit the result)
#   scripts/licenses.sh --check   fail when a crate's license is outside about.toml's
#                                 allow-list (naming the crate and its license), or when
#                                 the committed file is not what the dependency tree gives
#
# cargo-about is installed when missing or of another version (its version is pinned: a
# different one may lay the file out differently). Nothing is fetched from the network but
# the crates cargo fetches for Cargo.lock, if they are not in the cache yet.
#
# The file ends with a fingerprint of what it was made from (Cargo.lock, every Cargo.toml,
# about.toml, about.hbs, this script, cargo-about's version) and of its own text. --check
# compares those first: when neither changed, the file is current and its licenses were
# on the allow-list when it was made, and the check ends there without cargo-about (which
# takes minutes to install and to run). Otherwise it makes the file again and compares.
set -euo pipefail
cd "$(dirname "$0")/.."

ABOUT_VERSION=0.9.3
notices=THIRD-PARTY-NOTICES.txt

check=false
case "${1:-}" in
  --check) check=true ;;
  "") ;;
  *)
    echo "usage: scripts/licenses.sh [--check]" >&2
    exit 2
    ;;
esac

# What the file is made from, as one SHA-256.
inputs_fingerprint() {
  {
    echo "cargo-about $ABOUT_VERSION"
    find . -name Cargo.toml -not -path './target/*' -not -path './fuzz/*' \
      -not -path '*/node_modules/*' -not -path "./${CARGO_TARGET_DIR:-target}/*" | LC_ALL=C sort |
      while read -r manifest; do echo "$manifest"; cat "$manifest"; done
    cat Cargo.lock about.toml about.hbs scripts/licenses.sh
  } | sha256sum | cut -c1-64
}
# The file's text without its last line (the fingerprint), as one SHA-256.
text_fingerprint() {
  sed '$d' "$1" | sha256sum | cut -c1-64
}

inputs="$(inputs_fingerprint)"
if $check && [ -f "$notices" ]; then
  recorded="$(tail -n 1 "$notices")"
  if [ "$recorded" = "Made from inputs $inputs; text $(text_fingerprint "$notices")" ]; then
    echo "$notices is current: made from these very inputs ($(grep -cE '^\* [^ ]+ [0-9][^ :]*: ' "$notices") crates, every license on the allow-list then)"
    exit 0
  fi
fi

if [ "$(cargo about --version 2>/dev/null)" != "cargo-about $ABOUT_VERSION" ]; then
  echo "installing cargo-about $ABOUT_VERSION"
  # The binary is behind the `cli` feature since 0.9.
  cargo install cargo-about --version "$ABOUT_VERSION" --locked --features cli
fi

# The crates' sources, for their license files: in the cache after any build; fetched
# otherwise, so that the generation itself runs offline.
cargo fetch --locked --quiet

target_dir="${CARGO_TARGET_DIR:-target}"
mkdir -p "$target_dir"
out="$target_dir/THIRD-PARTY-NOTICES.txt"
log="$target_dir/licenses.log"
# --workspace: every crate of the workspace and its dependencies (the build's and the
# tests' own left out by about.toml); --fail: a crate whose license cannot be read fails.
if ! cargo about generate --frozen --workspace --fail about.hbs -o "$out" 2>"$log"; then
  grep -vE '^\s*$' "$log" >&2 || true
  echo "cargo about failed: a dependency's license is outside about.toml's allow-list" \
    "or could not be read (above: the crate and its license)" >&2
  exit 1
fi
# Some crates' license files end their lines with CR LF: one kind of line end throughout.
sed -i 's/\r$//' "$out"
[ -z "$(tail -c 1 "$out")" ] || echo >>"$out"
echo "Made from inputs $inputs; text $(sha256sum <"$out" | cut -c1-64)" >>"$out"

if ! $check; then
  cp "$out" "$notices"
  echo "wrote $notices ($(grep -cE '^\* [^ ]+ [0-9][^ :]*: ' "$notices") crates)"
  exit 0
fi
if ! diff -u "$notices" "$out" >"$log.diff"; then
  head -40 "$log.diff" >&2
  echo "$notices is not what the dependency tree gives: run scripts/licenses.sh and commit it" >&2
  exit 1
fi
echo "$notices is current: $(grep -cE '^\* [^ ]+ [0-9][^ :]*: ' "$notices") crates, every license on the allow-list"
