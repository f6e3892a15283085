#!/usr/bin/env bash
# Installs node_modules with `npm ci` (the pinned Node and npm, deploy/local/node.sh) when missing
# or installed from another lock file or Node (idempotent). Never `npm install`: the lock file is
# the contract, and an install that rewrites it fails CI (.ci/run).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
source deploy/local/node.sh
stamp=node_modules/.hookrail-lock.sha
want="$(sha256sum package-lock.json | cut -d' ' -f1) node-$NODE_VERSION"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "==> npm ci (Node $NODE_VERSION, npm $NPM_VERSION)"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi
# The pre-push hook mirrors CI's static checks (.githooks/pre-push): installed in a developer's
# checkout only, and never over hooks of their own.
if [ -z "${CI:-}" ] && git rev-parse --is-inside-work-tree >/dev/null 2>&1 \
  && [ -z "$(git config core.hooksPath || true)" ]; then
  git config core.hooksPath .githooks
fi
