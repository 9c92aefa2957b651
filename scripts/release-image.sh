#!/usr/bin/env bash
# The container image of the web tool, FROM scratch: nothing but the static binary, the CA
# certificates (for S3 over TLS), /etc/passwd and /etc/group naming a non-root user, and
# the licenses and third-party notices in /usr/share/doc/urlkit/. No base image is pulled
# from anywhere.
#
#   scripts/release-image.sh BINARY OUT.tar NAME:TAG
#
# Writes an OCI archive (`podman load -i OUT.tar`, `skopeo copy oci-archive:OUT.tar …`).
# The image runs `urlkit serve` as uid 65532 on URLKIT_ADDR (default 0.0.0.0:8080, set
# in the image), with its result store in /tmp; `podman stop` (SIGTERM) ends it cleanly.
# Needs buildah (Debian's package; installed when missing) and the CA bundle of
# Debian's ca-certificates package.
set -euo pipefail
[ $# -eq 3 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
binary="$1" out="$2" name="$3"
root="$(cd "$(dirname "$0")/.." && pwd)"

if ! command -v buildah >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq buildah >/dev/null
fi
certs=/etc/ssl/certs/ca-certificates.crt
if [ ! -f "$certs" ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ca-certificates >/dev/null
fi
# Storage that works without privileges or kernel overlay support, and no namespaces for
# the (empty) RUN steps: this builds inside a container too.
export STORAGE_DRIVER="${STORAGE_DRIVER:-vfs}" BUILDAH_ISOLATION="${BUILDAH_ISOLATION:-chroot}"

rootfs="$(mktemp -d)"
container=""
cleanup() {
  [ -n "$container" ] && buildah rm "$container" >/dev/null 2>&1 || true
  rm -rf "$rootfs"
}
trap cleanup EXIT

mkdir -p "$rootfs/etc/ssl/certs" "$rootfs/tmp"
chmod 1777 "$rootfs/tmp"
cp "$binary" "$rootfs/urlkit"
cp "$certs" "$rootfs/etc/ssl/certs/ca-certificates.crt"
mkdir -p "$rootfs/usr/share/doc/urlkit"
cp "$root/LICENSE-MIT" "$root/LICENSE-APACHE" "$root/THIRD-PARTY-NOTICES.txt" \
  "$rootfs/usr/share/doc/urlkit/"
printf 'root:x:0:0:root:/:/sbin/nologin\nurlkit:x:65532:65532:urlkit:/tmp:/sbin/nologin\n' \
  > "$rootfs/etc/passwd"
printf 'root:x:0:\nurlkit:x:65532:\n' > "$rootfs/etc/group"

container="$(buildah from scratch)"
buildah copy "$container" "$rootfs" / >/dev/null
version_line="$("$binary" --version)"
buildah config \
  --user 65532:65532 \
  --workingdir /tmp \
  --env URLKIT_ADDR=0.0.0.0:8080 \
  --env SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt \
  --port 8080 \
  --entrypoint '["/urlkit"]' \
  --cmd '["serve", "--store", "/tmp/urlkit-results"]' \
  --stop-signal SIGTERM \
  --label "org.opencontainers.image.title=urlkit" \
  --label "org.opencontainers.image.version=${version_line#urlkit }" \
  --label "org.opencontainers.image.licenses=MIT OR Apache-2.0" \
  "$container"
rm -f "$out"
buildah commit --quiet --format oci "$container" "$name" >/dev/null
buildah push --quiet "$name" "oci-archive:$out:$name"
echo "wrote $out ($name)"
