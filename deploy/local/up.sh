#!/usr/bin/env bash
# The README's first command: installs what is missing, starts the real servers and all six
# services, prints how to reach them and writes the same to .local/stack.json.
# Stays in the foreground: Ctrl-C stops everything. `--detach` returns after start-up (stop with `npm stop`).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
source deploy/local/node.sh
started_at=$(date +%s)
mkdir -p .local/services
# npm packages and the servers' downloads/builds are independent: on a fresh machine they overlap
# (the Go build of the Pub/Sub fake is the longest step); warm, both take well under a second.
bash deploy/local/provision.sh &
provision_pid=$!
bash deploy/local/ensure-deps.sh || { kill "$provision_pid" 2>/dev/null; exit 1; }
wait "$provision_pid"
bash deploy/local/servers.sh start
servers_at=$(date +%s)

SERVICES=(api-gateway ingest source-consumer dispatcher retry-scheduler meta-event)
declare -A PORTS=([api-gateway]=8080 [ingest]=8081 [source-consumer]=8091 [dispatcher]=8092 [retry-scheduler]=8093 [meta-event]=8094)

echo "==> building services"
node tools/build-services.mjs
built_at=$(date +%s)

if [ -z "${HOOKRAIL_ADMIN_KEY:-}" ]; then
  [ -f .local/admin-key ] || node -e "console.log('hr_admin.' + require('crypto').randomBytes(24).toString('base64url'))" > .local/admin-key
  HOOKRAIL_ADMIN_KEY=$(cat .local/admin-key)
fi
export HOOKRAIL_ADMIN_KEY
export HOOKRAIL_ALLOW_PRIVATE_TARGETS=${HOOKRAIL_ALLOW_PRIVATE_TARGETS:-true}
export HOOKRAIL_ALLOW_PRIVATE_BROKERS=${HOOKRAIL_ALLOW_PRIVATE_BROKERS:-true}
export HOOKRAIL_SQS_ENDPOINT=${HOOKRAIL_SQS_ENDPOINT:-http://127.0.0.1:9324}
# retryWrites=false on the local server (docs/database.md, "Retryable writes").
export HOOKRAIL_MONGODB_URL=${HOOKRAIL_MONGODB_URL:-mongodb://127.0.0.1:27017/hookrail?retryWrites=false}
export PUBSUB_EMULATOR_HOST=${PUBSUB_EMULATOR_HOST:-127.0.0.1:8085}

# Single sign-on for the console: the local OpenID provider (apps/dev-idp) with alice (owner) and
# bob (viewer), unless another provider is configured (HOOKRAIL_OIDC_ISSUER set by the caller).
if [ -z "${HOOKRAIL_OIDC_ISSUER:-}" ]; then
  DEV_IDP_PORT=${HOOKRAIL_DEV_IDP_PORT:-8095}
  export HOOKRAIL_OIDC_ISSUER="http://127.0.0.1:$DEV_IDP_PORT"
  export HOOKRAIL_OIDC_CLIENT_ID=hookrail-console
  export HOOKRAIL_OIDC_CLIENT_SECRET=hookrail-dev-secret
  export HOOKRAIL_OIDC_ROLE_MAPPING='{"instance": {"hookrail-owners": "owner", "hookrail-viewers": "viewer"}}'
  pidfile=.local/services/dev-idp.pid
  if [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
    echo "    dev-idp already running (pid $(cat "$pidfile"))"
  else
    HOOKRAIL_DEV_IDP_PORT=$DEV_IDP_PORT setsid nohup node --import tsx apps/dev-idp/src/main.ts \
      >.local/services/dev-idp.log 2>&1 < /dev/null &
    echo $! > "$pidfile"
    echo "    dev-idp started (pid $!, $HOOKRAIL_OIDC_ISSUER, log .local/services/dev-idp.log)"
  fi
fi

# The same node flags as the image (tools/node-flags.json; docs/decisions.md, "Platform").
read -r -a NODE_FLAGS <<< "$(node -p "require('./tools/node-flags.json').join(' ')")"

# What the Helm chart's Job runs before an upgrade's pods start: the topics, then the database's
# pending migrations (docs/database.md, "Migrations"), so the services start on a migrated database.
echo "==> set-up: topics and database migrations"
if ! node "${NODE_FLAGS[@]}" dist/setup.js >.local/services/setup.log 2>&1; then
  echo "error: the set-up failed; last lines of .local/services/setup.log:" >&2
  tail -n 30 .local/services/setup.log >&2 || true
  exit 1
fi
for s in "${SERVICES[@]}"; do
  pidfile=.local/services/$s.pid
  if [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
    echo "    $s already running (pid $(cat "$pidfile"))"
    continue
  fi
  HOOKRAIL_HTTP_PORT=${PORTS[$s]} setsid nohup node "${NODE_FLAGS[@]}" "dist/$s.js" \
    >".local/services/$s.log" 2>&1 < /dev/null &
  echo $! > "$pidfile"
  echo "    $s started (pid $!, log .local/services/$s.log)"
done

echo "==> waiting for the services to be ready"
for s in "${SERVICES[@]}"; do
  ok=""
  for _ in $(seq 1 120); do
    if curl -fsS "http://127.0.0.1:${PORTS[$s]}/readyz" >/dev/null 2>&1; then ok=1; break; fi
    if ! kill -0 "$(cat .local/services/$s.pid)" 2>/dev/null; then break; fi
    sleep 0.5
  done
  if [ -z "$ok" ]; then
    echo "error: $s did not become ready; last lines of .local/services/$s.log:" >&2
    tail -n 30 ".local/services/$s.log" >&2 || true
    exit 1
  fi
done

cat > .local/stack.json <<JSON
{
  "gateway_url": "http://127.0.0.1:8080/api",
  "ingest_url": "http://127.0.0.1:8081/ingest",
  "admin_api_key": "$HOOKRAIL_ADMIN_KEY",
  "openapi_url": "http://127.0.0.1:8080/api/openapi.json",
  "services": {$(for s in "${SERVICES[@]}"; do printf '"%s": "http://127.0.0.1:%s", ' "$s" "${PORTS[$s]}"; done | sed 's/, $//')},
  "servers": $(cat .local/servers.json)
}
JSON

echo
ready_at=$(date +%s)
echo "Hookrail is up in $(( ready_at - started_at )) s (dependencies, provisioning and servers $(( servers_at - started_at )) s," \
  "build $(( built_at - servers_at )) s, services ready $(( ready_at - built_at )) s)."
echo "  Gateway API:   http://127.0.0.1:8080/api   (OpenAPI: http://127.0.0.1:8080/api/openapi.json)"
echo "  Ingest:        http://127.0.0.1:8081/ingest/{maskID}"
echo "  Admin API key: $HOOKRAIL_ADMIN_KEY"
echo "  Console:       http://127.0.0.1:8080/console   (single sign-on: $HOOKRAIL_OIDC_ISSUER; alice/alice owner, bob/bob viewer)"
echo "  Details:       .local/stack.json   Logs: .local/services/*.log"

if [ "${1:-}" = "--detach" ]; then
  echo "Stop with: npm stop"
  exit 0
fi
echo "Press Ctrl-C to stop everything (or run 'npm stop' elsewhere)."
trap 'echo; bash deploy/local/down.sh; exit 0' INT TERM
while true; do sleep 3600 & wait $!; done
