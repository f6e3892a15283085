#!/usr/bin/env bash
# podman with this project's engine settings, for machines without a Docker engine:
#   bash deploy/docker/podman.sh build ... / run ... / save ...
# Writes its own containers.conf under .local/ and points CONTAINERS_CONF at it (the machine's
# global files stay untouched):
#   - runc, not crun: crun refuses cgroup v1 "hybrid" hosts ("cgroups in hybrid mode not supported");
#   - rlimits at or below the host's hard limits: where root lacks CAP_SYS_RESOURCE, podman's
#     defaults (nofile 1048576) fail with "error setting rlimit type 7: operation not permitted";
#   - cgroupfs and a file event log: no systemd runs as PID 1 here.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
command -v podman >/dev/null || {
  echo "podman is required (Debian: apt-get install podman buildah runc mmdebstrap)" >&2
  exit 1
}
nofile=$(ulimit -Hn)
nproc=$(ulimit -Hu)
[[ "$nofile" == unlimited || "$nofile" -gt 65536 ]] && nofile=65536
[[ "$nproc" == unlimited || "$nproc" -gt 8192 ]] && nproc=8192
conf="$ROOT/.local/podman/containers.conf"
mkdir -p "$(dirname "$conf")"
cat >"$conf.$$" <<CONF
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=$nproc:$nproc"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
CONF
mv "$conf.$$" "$conf"  # atomic: concurrent calls each write a file of their own
export CONTAINERS_CONF="$conf"
exec podman "$@"
