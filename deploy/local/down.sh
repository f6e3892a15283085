#!/usr/bin/env bash
# Stops the six services (SIGTERM, then SIGKILL after 12 s) and the servers this checkout started.
# `--services` stops only the six services and leaves the servers running.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
for pidfile in .local/services/*.pid; do
  [ -f "$pidfile" ] || continue
  pid=$(cat "$pidfile")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    for _ in $(seq 1 24); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
    echo "stopped $(basename "$pidfile" .pid)"
  fi
  rm -f "$pidfile"
done
[ "${1:-}" = "--services" ] || bash deploy/local/servers.sh stop
