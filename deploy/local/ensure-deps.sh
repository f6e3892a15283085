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
  # The registry mirror here serves only this platform's optional binaries, so the lock file lacks
  # the other platforms' entries and npm 11's `ci` refuses it as out of sync; `install` with the
  # same lock installs the same versions.
  if ! npm ci --no-audit --no-fund --loglevel=error 2>/tmp/hookrail-npm-ci.log; then
    grep -q EUSAGE /tmp/hookrail-npm-ci.log || { cat /tmp/hookrail-npm-ci.log >&2; exit 1; }
    echo "    npm ci refused the lock file (missing foreign-platform optional packages); using npm install"
    npm install --no-audit --no-fund --loglevel=error
  fi
  # npm install may rewrite the lock file: stamp what is there now, or every start reinstalls.
  sha256sum package-lock.json | cut -d' ' -f1 > "$stamp"
fi
