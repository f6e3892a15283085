#!/usr/bin/env bash
# Stops the six services (SIGTERM, then SIGKILL after 12 s) and the servers this checkout started.
# `--services` stops only the six services and leaves the servers running.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
# SIGTERM to all first, then wait: each service takes a second or two to exit, so in turn they took 12 s.
stopping=()
for pidfile in .local/services/*.pid; do
  [ -f "$pidfile" ] || continue
  pid=$(cat "$pidfile")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    stopping+=("$pidfile")
  else
    rm -f "$pidfile"
  fi
done
for _ in $(seq 1 24); do
  alive=0
  for pidfile in "${stopping[@]}"; do kill -0 "$(cat "$pidfile")" 2>/dev/null && alive=1; done
  [ "$alive" = 0 ] && break
  sleep 0.5
done
for pidfile in "${stopping[@]}"; do
  pid=$(cat "$pidfile")
  kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
  echo "stopped $(basename "$pidfile" .pid)"
  rm -f "$pidfile"
done
[ "${1:-}" = "--services" ] || bash deploy/local/servers.sh stop
