#!/usr/bin/env bash
# Installs node_modules with `npm ci` when missing or older than package-lock.json (idempotent).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
command -v node >/dev/null || { echo "node (20.19+) is required" >&2; exit 1; }
stamp=node_modules/.hookrail-lock.sha
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "==> npm ci"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi
