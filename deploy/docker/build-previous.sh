#!/usr/bin/env bash
# Builds the previous release's image, localhost/hookrail:previous, from its tree in git, with its
# own build script (the upgrade tests install it first and upgrade from it: the image phase with
# the services stopped, the Kubernetes test as a rolling upgrade). Its tree, chart included, is
# left in .local/previous-release. Idempotent: podman's layer cache makes a rebuild quick.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

# 444402d: the last release without versioned migrations (its set-up Job made the collections and
# indexes itself), so the upgrade from it runs every migration.
PREVIOUS_RELEASE=444402d
TREE="$ROOT/.local/previous-release"

# A clean clone has the history; a shallow one fetches the commit.
git -C "$ROOT" cat-file -e "$PREVIOUS_RELEASE^{commit}" 2>/dev/null ||
  git -C "$ROOT" fetch --quiet --depth=1 origin "$PREVIOUS_RELEASE"
rm -rf "$TREE"
mkdir -p "$TREE"
git -C "$ROOT" archive "$PREVIOUS_RELEASE" | tar -x -C "$TREE"
echo "$PREVIOUS_RELEASE" >"$TREE/.release"
bash "$TREE/deploy/docker/build.sh" --tag hookrail:previous --build-arg "HOOKRAIL_REVISION=$PREVIOUS_RELEASE"
