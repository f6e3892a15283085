#!/usr/bin/env bash
# The README's test command: installs what is missing (test tools included), starts the real
# servers, runs every test.
# Extra arguments go to jest (e.g. `npm test -- --selectProjects unit`).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
mkdir -p .local
bash deploy/local/ensure-deps.sh
# The servers' needs plus what only the tests use (chromium, helm); `npm start` skips the latter.
bash deploy/local/provision.sh --test-tools
bash deploy/local/servers.sh start
export HOOKRAIL_SKIP_SERVER_START=true
results=.local/jest-results.json
rm -f "$results"
rc=0
npx jest --ci --forceExit --maxWorkers=2 --json --outputFile="$results" "$@" || rc=$?
node deploy/local/summarize-jest.js "$results"
exit $rc
