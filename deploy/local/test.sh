#!/usr/bin/env bash
# The README's test command: installs what is missing (test tools included), starts the real
# servers, then runs every test in phases that each get the machine to themselves:
#   1. unit + integration (the real servers): the everyday loop
#   2. chaos: processes killed, servers cut off or restarted, fuzzing (the same servers)
#   3. image: the six services from the image built by deploy/docker/build.sh
#   4. k8s: the chart on a single-node Kubernetes built from the registries (deploy/k8s), in a
#      network namespace of its own, removed afterwards
# Extra arguments run one jest invocation with them instead (e.g. `npm test -- --selectProjects unit`).
# Each phase writes .local/jest-results-<phase>.json; the last line sums them: "N passed, N failed"
# (also in .local/test-summary.txt).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
source deploy/local/node.sh
mkdir -p .local
# shellcheck source-path=SCRIPTDIR source=lib.sh
source deploy/local/lib.sh
# The k8s phase's cluster binaries compile from the start, beside the downloads of provisioning
# and the main phase (.ci/run starts them earlier still; this start then waits for that build).
[ $# -gt 0 ] || start_cluster_prebuild .local/k8s-prebuild.log
bash deploy/local/ensure-deps.sh
# The servers' needs plus what only the tests use (chromium, helm); `npm start` skips the latter.
bash deploy/local/provision.sh --test-tools
bash deploy/local/servers.sh start
export HOOKRAIL_SKIP_SERVER_START=true
rm -f .local/jest-results*.json .local/test-summary.txt
rc=0
results=()
phase() {
  local name="$1"
  shift
  echo "==> tests: $name"
  results+=(".local/jest-results-$name.json")
  npx jest --ci --forceExit --maxWorkers=2 --json --outputFile=".local/jest-results-$name.json" "$@" || rc=1
}
if [ $# -gt 0 ]; then
  phase selected "$@"
else
  phase main --selectProjects unit integration
  phase chaos --selectProjects chaos
  phase image --selectProjects image
  # The k8s phase starts once the build is over: its first step records the host's processes,
  # which `down` must leave as it found them. A failed build is retried (and reported) there.
  wait "$PREBUILD_PID" || true
  sed 's/^/prebuild: /' .local/k8s-prebuild.log
  phase k8s --selectProjects k8s
fi
node deploy/local/summarize-jest.js "${results[@]}" | tee .local/test-summary.txt
exit $rc
