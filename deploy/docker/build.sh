#!/usr/bin/env bash
# Builds the Hookrail image with podman on a machine without a Docker engine or a reachable
# container registry (Debian/Ubuntu, root):
#   bash deploy/docker/build.sh [--tag hookrail:dev] [--build-arg K=V ...]   (npm run image)
# The base image deploy/docker/Dockerfile starts from (NODE_IMAGE) is made here instead of pulled:
# Debian bookworm from Debian's packages (mmdebstrap, cached as a tarball) plus the pinned Node and
# npm (deploy/local/node.sh). Idempotent: existing base images are reused, and podman's layer cache
# makes an unchanged rebuild take seconds. Prints the image's size and the build's time.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
source deploy/local/lib.sh
source deploy/local/node.sh
podman() { bash "$ROOT/deploy/docker/podman.sh" "$@"; }

tag=hookrail:dev
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --tag) tag="$2"; shift 2 ;;
    --build-arg) extra+=(--build-arg "$2"); shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
t0=$(date +%s)

apt_install_missing podman buildah runc mmdebstrap uidmap

# Node's official binary links libatomic, which minbase lacks.
DEBIAN_PACKAGES=libatomic1
DEBIAN_IMAGE="localhost/hookrail-debian:bookworm-${DEBIAN_PACKAGES//,/-}"
NODE_IMAGE="localhost/hookrail-node:$NODE_VERSION-npm-$NPM_VERSION"
if ! podman image exists "$DEBIAN_IMAGE"; then
  tarball="$CACHE/images/debian-bookworm-minbase-${DEBIAN_PACKAGES//,/-}.tar"
  if [ ! -f "$tarball" ]; then
    echo "==> mmdebstrap bookworm (minbase) from Debian's packages"
    mkdir -p "$(dirname "$tarball")"
    mmdebstrap --quiet --variant=minbase --format=tar --include="$DEBIAN_PACKAGES" bookworm "$tarball.tmp"
    mv "$tarball.tmp" "$tarball"
  fi
  podman import --quiet "$tarball" "$DEBIAN_IMAGE" >/dev/null
fi
if ! podman image exists "$NODE_IMAGE"; then
  echo "==> base image $NODE_IMAGE"
  ctx="$(mktemp -d)"
  trap 'rm -rf "$ctx"' EXIT
  cp -a "$NODE_HOME" "$ctx/node"
  # The official binary carries its debug symbols: 150 MB, 116 MB without.
  strip "$ctx/node/bin/node"
  printf 'FROM %s\nCOPY node /usr/local\n' "$DEBIAN_IMAGE" >"$ctx/Containerfile"
  podman build --quiet -f "$ctx/Containerfile" -t "$NODE_IMAGE" "$ctx" >/dev/null
fi

echo "==> podman build $tag"
secret=()
# Behind a TLS-intercepting proxy npm needs the proxy's CA: a build secret, never a layer.
ca=/etc/ssl/certs/ca-certificates.crt
[ -s "$ca" ] && secret=(--secret "id=ca,src=$ca")
revision="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
podman build --network=host "${secret[@]}" --build-arg "NODE_IMAGE=$NODE_IMAGE" \
  --build-arg "HOOKRAIL_REVISION=$revision" "${extra[@]}" \
  --ignorefile deploy/docker/Dockerfile.dockerignore -f deploy/docker/Dockerfile -t "$tag" .
size=$(podman image inspect --format '{{.Size}}' "$tag")
echo "==> $tag: $((size / 1000000)) MB uncompressed, built in $(( $(date +%s) - t0 )) s"
