#!/usr/bin/env bash
# Builds Hookdeck Outpost from a source snapshot and prepares the servers it needs, for the
# side-by-side bench (bench/outpost-side-by-side.bench.ts). Outpost is a peer measured beside
# Hookrail, never a dependency: nothing of it enters the repository; everything goes to
# $OUTPOST_HOME (default: <repo>/.local/outpost, git-ignored).
#
#   bash bench/outpost/setup.sh build <snapshot>  # <snapshot>: a bare git directory of hookdeck/outpost
#                                                 # (measured: commit f67ae01); writes $OUTPOST_HOME/bin/
#   bash bench/outpost/setup.sh servers           # Postgres (Debian cluster 15/main, 127.0.0.1:5432, role
#                                                 # "outpost" with CREATEDB); checks RabbitMQ (the local
#                                                 # stack's) and redis-server (installed; the bench starts it)
#
# Then: OUTPOST_BIN_DIR=$OUTPOST_HOME/bin npm run bench:peers. Each round the bench starts its own
# Redis and outpost-server, creates a database and migrates it (outpost migrate apply), and stops
# and drops them all after.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUTPOST_HOME="${OUTPOST_HOME:-$ROOT/.local/outpost}"

build() {
  local snapshot="${1:?usage: setup.sh build <snapshot git dir>}"
  local src="$OUTPOST_HOME/src"
  rm -rf "$src" && mkdir -p "$src" "$OUTPOST_HOME/bin"
  # One committed example binary is missing from the snapshots: exclude it ("invalid object" on
  # stderr is expected, the rest is complete).
  git --git-dir="$snapshot" archive HEAD -- . ':(exclude)examples/sdk-go/outpost-go-client-example' |
    tar -x -C "$src" || true
  test -f "$src/go.mod" || { echo "no Outpost source extracted from $snapshot" >&2; exit 1; }
  # The API listens on all interfaces; keep it on loopback (the copy only).
  sed -i 's/Addr: *fmt.Sprintf(":%d", b.cfg.APIPort)/Addr:    fmt.Sprintf("127.0.0.1:%d", b.cfg.APIPort)/' \
    "$src/internal/services/builder.go"
  grep -q '"127.0.0.1:%d", b.cfg.APIPort' "$src/internal/services/builder.go" ||
    { echo "could not bind the API to 127.0.0.1 (builder.go changed?)" >&2; exit 1; }
  git --git-dir="$snapshot" rev-parse --short HEAD >"$OUTPOST_HOME/bin/COMMIT"
  # Modules come from the Go module proxy; about 2-3 min cold on 2 cores.
  (cd "$src" && go build -o "$OUTPOST_HOME/bin/" ./cmd/outpost-server ./cmd/outpost)
  echo "built $(cat "$OUTPOST_HOME/bin/COMMIT") into $OUTPOST_HOME/bin"
}

servers() {
  command -v redis-server >/dev/null || { echo "no redis-server: apt-get install -y redis-server" >&2; exit 1; }
  if ! pg_lsclusters -h 15 main | grep -q online; then
    pg_ctlcluster -o "-c listen_addresses=127.0.0.1" 15 main start
  fi
  # CREATEDB: the bench gives each round a database of its own and drops it after.
  su postgres -c "psql -qtAc \"select 1 from pg_roles where rolname='outpost'\"" | grep -q 1 ||
    su postgres -c "psql -qc \"create role outpost login createdb password 'outpost'\""
  # RabbitMQ: the local stack's broker (deploy/local/servers.sh start).
  local status
  status="$(bash "$ROOT/deploy/local/servers.sh" status)"
  grep -q '^rabbitmq *up' <<<"$status" ||
    { echo "RabbitMQ is not up: bash deploy/local/servers.sh start" >&2; exit 1; }
  echo "ready: postgres 127.0.0.1:5432 (role outpost), rabbitmq 127.0.0.1:5672; the bench starts its own redis"
}

case "${1:-}" in
  build) build "${2:-}" ;;
  servers) servers ;;
  *) sed -n '2,12p' "$0"; exit 2 ;;
esac
