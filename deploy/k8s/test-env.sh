#!/usr/bin/env bash
# What the Kubernetes test (deploy/k8s/chart.k8s.spec.ts) installs the chart into:
#   up    the cluster (cluster.sh up), Kafka and the MongoDB-protocol server (and the databases
#         change stream sources watch: a second one as a replica set, Postgres) started inside the
#         cluster's netns on the node's address (deploy/local/servers.sh; pods and the host both
#         reach them there), and the Hookrail image built (deploy/docker/build.sh) and loaded into
#         the node's containerd. Prints how long each step took.
#         The previous release is built (deploy/docker/build-previous.sh: its chart is left in
#         .local/previous-release) and loaded too: the test installs it first and upgrades from it.
#   down  cluster.sh down: stops everything in the netns (those servers too) and removes it; the
#         servers' data goes too, so every run starts from empty topics and an empty database.
set -euo pipefail
K8S_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$K8S_DIR/common.sh"

servers() {
  HOOKRAIL_SERVERS="kafka mongodb mongodb-cdc postgres" HOOKRAIL_SERVERS_HOST="$K8S_NODE_IP" HOOKRAIL_SERVERS_NETNS="$K8S_NETNS" \
    HOOKRAIL_SERVERS_STATE="$K8S_STATE/servers" bash "$REPO_ROOT/deploy/local/servers.sh" "$@"
}

step() {
  local what="$1" t0=$SECONDS
  shift
  "$@"
  echo "test-env: $what in $((SECONDS - t0)) s"
}

case "${1:-}" in
  up)
    step "cluster up" bash "$K8S_DIR/cluster.sh" up
    step "Kafka and the databases on $K8S_NODE_IP" servers start
    step "image built" bash "$REPO_ROOT/deploy/docker/build.sh" --tag hookrail:dev
    step "image loaded into the node" bash "$K8S_DIR/cluster.sh" load-image localhost/hookrail:dev
    step "previous release built" bash "$REPO_ROOT/deploy/docker/build-previous.sh"
    step "previous release loaded into the node" bash "$K8S_DIR/cluster.sh" load-image localhost/hookrail:previous
    ;;
  down)
    bash "$K8S_DIR/cluster.sh" down
    rm -rf "$K8S_STATE/servers" "$K8S_STATE/servers.json"
    ;;
  *)
    echo "usage: $0 up|down" >&2
    exit 2
    ;;
esac
