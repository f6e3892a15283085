#!/usr/bin/env bash
# Local servers for Hookrail development and tests, all on 127.0.0.1, no Docker:
#
#   kafka        Apache Kafka 3.9.1, KRaft single node   127.0.0.1:9092 (controller 9093)
#   mongodb      SecantusDB 0.7 (MongoDB wire protocol)  127.0.0.1:27017
#   mongodb-cdc  SecantusDB 0.7, single-node replica set 127.0.0.1:27018 (the *user's* database
#                that db_change_stream sources watch; Hookrail's own store stays on 27017)
#   postgres     PostgreSQL 15 from Debian, a cluster of   127.0.0.1:5433 (wal_level=logical: the
#                its own (initdb)                          user's database of postgres change streams;
#                                                          the Debian cluster on 5432 is left alone)
#   rabbitmq     RabbitMQ from Debian (AMQP)             127.0.0.1:5672
#   elasticmq    ElasticMQ 1.7.1 (SQS)                   127.0.0.1:9324
#   pubsub-fake  Google Pub/Sub fake (pstest, gRPC)      127.0.0.1:8085
#
# Usage: deploy/local/servers.sh start|stop|status
#   start   provision (cheap when warm), start what is not already listening, wait until each
#           answers, write .local/servers.json. A port that already accepts connections is
#           left alone ("already running").
#   stop    stop what this checkout started (pid files; rabbitmqctl stop) and wait for exit.
#   status  one line per server: up/down, address, log file.
#
# Per-checkout state (data, logs, pid files) lives in <repo>/.local/servers/<name>/.
# Env: HOOKRAIL_CACHE (download/build cache, default ~/.cache/hookrail), JAVA (default java).
# A second set (the Kubernetes test's, deploy/k8s/test.sh): HOOKRAIL_SERVERS="kafka mongodb" picks
# servers, HOOKRAIL_SERVERS_HOST binds them to another address, HOOKRAIL_SERVERS_NETNS starts them
# inside that network namespace, HOOKRAIL_SERVERS_STATE keeps their state in another folder.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

read -r -a SERVERS <<<"${HOOKRAIL_SERVERS:-kafka mongodb mongodb-cdc postgres rabbitmq elasticmq pubsub-fake}"
NETNS_EXEC=()
[[ -z "${HOOKRAIL_SERVERS_NETNS:-}" ]] || NETNS_EXEC=(ip netns exec "$HOOKRAIL_SERVERS_NETNS")
JAVA="${JAVA:-java}"

port_of() {
  case "$1" in
    kafka) echo 9092 ;;
    mongodb) echo 27017 ;;
    mongodb-cdc) echo 27018 ;;
    postgres) echo 5433 ;;
    rabbitmq) echo 5672 ;;
    elasticmq) echo 9324 ;;
    pubsub-fake) echo 8085 ;;
  esac
}

timeout_of() {
  case "$1" in
    kafka) echo 90 ;;
    *) echo 60 ;;
  esac
}

# Substring of the process command line, to avoid acting on a recycled pid.
pattern_of() {
  case "$1" in
    kafka) echo "kafka.Kafka" ;;
    mongodb | mongodb-cdc) echo "secantusd-py" ;;
    postgres) echo "$PG_BIN/postgres" ;;
    rabbitmq) echo "beam" ;;
    elasticmq) echo "org.elasticmq.server.Main" ;;
    pubsub-fake) echo "/bin/pubsub-fake-" ;;
  esac
}

log_of() {
  case "$1" in
    kafka) echo "$STATE_DIR/kafka/logs/server.log" ;;
    rabbitmq) echo "/var/log/rabbitmq/$(rabbit_nodename).log" ;;
    *) echo "$STATE_DIR/$1/server.log" ;;
  esac
}

pidfile_of() { echo "$STATE_DIR/$1/pid"; }

say() { printf '%-12s %s\n' "$1" "$2"; }

# Pid recorded by this checkout, if that process is still alive.
owned_pid() {
  local f pid
  f="$(pidfile_of "$1")"
  [[ -f "$f" ]] || return 1
  pid="$(cat "$f")"
  pid_alive "$pid" "$(pattern_of "$1")" || return 1
  echo "$pid"
}

# Shell snippet closing every inherited fd above 2. Without it a server can inherit a pipe from
# the caller (a CI step, `$(servers.sh start)`, a test runner capturing output) and keep it open
# forever, so the caller never sees EOF.
# shellcheck disable=SC2016 # expanded by the inner shell
CLOSE_FDS='for fd in /proc/$$/fd/*; do n=${fd##*/}; if [ "$n" -gt 2 ]; then eval "exec $n>&-"; fi; done'

# Starts "$@" detached (own session, stdio to $log, survives the calling shell) and records its
# pid in $pidfile. The inner shell writes its own pid and then execs the server, so the recorded
# pid is the server's even if setsid has to fork.
spawn() {
  local name="$1" log="$2"
  shift 2
  local pidfile
  pidfile="$(pidfile_of "$name")"
  rm -f "$pidfile"
  printf '\n===== %s: starting %s =====\n' "$(date '+%F %T')" "$name" >>"$log"
  # shellcheck disable=SC2016 # expanded by the inner shell
  setsid "${NETNS_EXEC[@]}" bash -c "$CLOSE_FDS"'; echo $$ >"$0"; exec "$@"' "$pidfile" "$@" >>"$log" 2>&1 </dev/null &
  local i
  for i in $(seq 1 50); do
    [[ -s "$pidfile" ]] && return 0
    sleep 0.1
  done
  return 1
}

# Failure report for one server (printed by the parent after all starts finished).
fail() {
  local name="$1" msg="$2" log="${3:-}"
  [[ -n "$log" ]] || log="$(log_of "$name")"
  {
    echo "ERROR: $name failed to start: $msg"
    echo "       log: $log"
    if [[ "$name" == kafka && -s "$STATE_DIR/kafka/stdout.log" ]]; then
      echo "       (JVM stdout/stderr: $STATE_DIR/kafka/stdout.log)"
    fi
    if [[ "$name" == rabbitmq ]]; then
      echo "       (start output: $STATE_DIR/rabbitmq/start.log)"
    fi
    echo "----- last 30 lines of $log -----"
    tail -n 30 "$log" 2>/dev/null || echo "(log file missing)"
    if [[ "$name" == kafka && -s "$STATE_DIR/kafka/stdout.log" ]]; then
      echo "----- last 15 lines of $STATE_DIR/kafka/stdout.log -----"
      tail -n 15 "$STATE_DIR/kafka/stdout.log"
    fi
    echo "-----"
  } >"$STATE_DIR/$name/start-failure.txt"
  say "$name" "FAILED: $msg"
  return 1
}

# Kills a process we started (TERM, then KILL after $2 seconds) and waits until it is gone.
kill_and_wait() {
  local pid="$1" grace="$2" pattern="$3" i
  pid_alive "$pid" "$pattern" || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < grace * 10; i++)); do
    pid_alive "$pid" "$pattern" || return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  for ((i = 0; i < 50; i++)); do
    pid_alive "$pid" "$pattern" || return 0
    sleep 0.1
  done
  return 1
}

# Waits until the server answers. $3 (optional): extra readiness check (a function name).
wait_ready() {
  local name="$1" pid="$2" check="${3:-}" port deadline t0
  port="$(port_of "$name")"
  t0=$SECONDS
  deadline=$((SECONDS + $(timeout_of "$name")))
  while ((SECONDS < deadline)); do
    if [[ -n "$pid" ]] && ! pid_alive "$pid"; then
      fail "$name" "process $pid exited during start-up"
      return 1
    fi
    if port_open "$port" && { [[ -z "$check" ]] || "$check"; }; then
      say "$name" "up on $SERVERS_HOST:$port after $((SECONDS - t0))s"
      return 0
    fi
    sleep 0.5
  done
  fail "$name" "not ready on $SERVERS_HOST:$port after $(timeout_of "$name")s"
  if [[ -n "$pid" ]]; then
    kill_and_wait "$pid" 10 "$(pattern_of "$name")" || true
    rm -f "$(pidfile_of "$name")"
  fi
  return 1
}

# ---------------------------------------------------------------------------------------------
# Per-server start functions (each runs in its own background job)
# ---------------------------------------------------------------------------------------------

KAFKA_SPAWNED_AT=""
kafka_started() {
  log_line_since "$STATE_DIR/kafka/logs/server.log" 'Kafka Server started' "$KAFKA_SPAWNED_AT"
}

new_cluster_id() {
  # 16 random bytes, base64url without padding (what `kafka-storage random-uuid` prints);
  # avoid a leading '-', which command-line parsers take for an option.
  local id
  while :; do
    id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')"
    [[ "$id" != -* ]] && break
  done
  echo "$id"
}

start_kafka() {
  local dir="$STATE_DIR/kafka"
  local props="$dir/server.properties" data="$dir/data"
  mkdir -p "$dir/logs" "$data"
  cat >"$props" <<EOF
# Generated by deploy/local/servers.sh on every start; edit the script, not this file.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@$SERVERS_HOST:9093
listeners=PLAINTEXT://$SERVERS_HOST:9092,CONTROLLER://$SERVERS_HOST:9093
advertised.listeners=PLAINTEXT://$SERVERS_HOST:9092
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$data
num.partitions=6
default.replication.factor=1
auto.create.topics.enable=false
group.initial.rebalance.delay.ms=0
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
EOF
  local jvm_log=(-Dlog4j.configuration="file:$LOCAL_DIR/kafka/log4j.properties" -Dkafka.logs.dir="$dir/logs")
  # Format the storage once per data dir (the cluster id ends up in $data/meta.properties).
  if [[ ! -f "$data/meta.properties" ]]; then
    local cid
    cid="$(new_cluster_id)"
    say kafka "formatting $data (cluster id $cid)"
    if ! "$JAVA" -Xmx256m "${jvm_log[@]}" -cp "$KAFKA_LIBS/*" kafka.tools.StorageTool format \
        -t "$cid" -c "$props" --ignore-formatted >"$dir/format.log" 2>&1; then
      fail kafka "storage format failed" "$dir/format.log"
      return 1
    fi
  fi
  KAFKA_SPAWNED_AT="$(TZ=UTC date '+%Y-%m-%d %H:%M:%S,%3N')"
  # UTC, as KAFKA_SPAWNED_AT: kafka_started compares the log's stamps with it.
  spawn kafka "$dir/stdout.log" "$JAVA" -Xms1g -Xmx1g -XX:+UseG1GC -Djava.awt.headless=true \
    -Duser.timezone=UTC \
    -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent \
    -Xlog:gc:file="$dir/logs/gc.log":time,uptime:filecount=2,filesize=10m \
    "${jvm_log[@]}" -cp "$KAFKA_LIBS/*" kafka.Kafka "$props" || { fail kafka "could not spawn"; return 1; }
  wait_ready kafka "$(cat "$(pidfile_of kafka)")" kafka_started
}

start_mongodb() {
  local dir="$STATE_DIR/mongodb"
  mkdir -p "$dir/data"
  # Standalone: the code uses neither change streams nor transactions, so the server keeps no
  # oplog (one BSON encode and one table write less per document; docs/database.md). Writes are
  # made durable by the store's journaled write concern, which this server honours per write.
  spawn mongodb "$dir/server.log" "$SECANTUS_BIN" --host "$SERVERS_HOST" --port 27017 \
    --storage-path "$dir/data" --cache-size "${HOOKRAIL_MONGODB_CACHE:-1G}" --log-level WARNING --standalone ||
    { fail mongodb "could not spawn"; return 1; }
  wait_ready mongodb "$(cat "$(pidfile_of mongodb)")"
}

# A second SecantusDB for db_change_stream sources to watch (docs/sources.md): without
# --standalone it advertises a single-node replica set ("secantus") and keeps an oplog, which
# change streams need. The oplog keeps a day (or 1M entries) so a stopped consumer resumes; a
# heartbeat every 10 s keeps an idle stream's resume token inside that window.
start_mongodb-cdc() {
  local dir="$STATE_DIR/mongodb-cdc"
  mkdir -p "$dir/data"
  spawn mongodb-cdc "$dir/server.log" "$SECANTUS_BIN" --host "$SERVERS_HOST" --port 27018 \
    --storage-path "$dir/data" --cache-size 256M --log-level WARNING \
    --oplog-retention-seconds 86400 --oplog-max-entries 1000000 --noop-heartbeat-seconds 10 ||
    { fail mongodb-cdc "could not spawn"; return 1; }
  wait_ready mongodb-cdc "$(cat "$(pidfile_of mongodb-cdc)")"
}

# PostgreSQL for postgres db_change_stream sources (docs/sources.md): a cluster of our own under
# $STATE_DIR/postgres, never the Debian one. Postgres refuses to run as root, so as root it runs
# as the `postgres` user (setpriv execs, so the recorded pid is the server's). TCP only; logical
# decoding needs wal_level=logical, and each source holds a slot and a WAL sender.
start_postgres() {
  local dir="$STATE_DIR/postgres" data="$STATE_DIR/postgres/data" as=() pw
  mkdir -p "$data"
  if [[ "$(id -u)" == 0 ]]; then
    as=(setpriv --reuid=postgres --regid=postgres --init-groups)
    chown postgres:postgres "$data"
    # The postgres user cannot reach a checkout under a private folder (a clone in /root): its
    # data directory then lives in the postgres user's home, one per state folder.
    if ! "${as[@]}" test -w "$data"; then
      data="/var/lib/postgresql/hookrail-$(echo "$STATE_DIR" | sha256sum | cut -c1-12)"
      mkdir -p "$data" && chown postgres:postgres "$data" && chmod 700 "$data"
    fi
  fi
  if [[ ! -f "$data/PG_VERSION" ]]; then
    say postgres "initdb $data (superuser postgres)"
    pw="$(mktemp)"
    echo "$PG_SUPERUSER_PASSWORD" >"$pw"
    chmod 644 "$pw"
    if ! "${as[@]}" "$PG_BIN/initdb" -D "$data" -U postgres --pwfile="$pw" \
        --auth-local=scram-sha-256 --auth-host=scram-sha-256 -E UTF8 --no-locale >"$dir/initdb.log" 2>&1; then
      rm -f "$pw"
      fail postgres "initdb failed" "$dir/initdb.log"
      return 1
    fi
    rm -f "$pw"
  fi
  # On another address than loopback (the Kubernetes test's node address) clients come from the
  # networks that address is on (the cluster's pods): initdb only lets loopback in.
  if [[ "$SERVERS_HOST" != 127.0.0.1 ]] && ! "${as[@]}" grep -q '^host all all samenet' "$data/pg_hba.conf"; then
    printf 'host all all samenet scram-sha-256\nhost replication all samenet scram-sha-256\n' |
      "${as[@]}" tee -a "$data/pg_hba.conf" >/dev/null
  fi
  spawn postgres "$dir/server.log" "${as[@]}" "$PG_BIN/postgres" -D "$data" -c port=5433 \
    -c listen_addresses="$SERVERS_HOST" -c unix_socket_directories= -c wal_level=logical \
    -c max_replication_slots=64 -c max_wal_senders=64 -c max_connections=200 \
    -c shared_buffers=64MB -c logging_collector=off ||
    { fail postgres "could not spawn"; return 1; }
  wait_ready postgres "$(cat "$(pidfile_of postgres)")" postgres_ready && postgres_roles
}

postgres_ready() {
  "$PG_BIN/pg_isready" -q -h "$SERVERS_HOST" -p 5433 -d postgres
}

# The role the local examples use: may log in, replicate and create databases (not a superuser,
# like the role a team grants Hookrail). Created once; the statement is idempotent.
postgres_roles() {
  PGPASSWORD="$PG_SUPERUSER_PASSWORD" "$PG_BIN/psql" -q -h "$SERVERS_HOST" -p 5433 -U postgres -d postgres \
    -v ON_ERROR_STOP=1 >>"$STATE_DIR/postgres/server.log" 2>&1 <<'SQL' || { fail postgres "creating the role hookrail failed"; return 1; }
SELECT 'CREATE ROLE hookrail LOGIN REPLICATION CREATEDB PASSWORD ''hookrail'''
WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'hookrail') \gexec
SQL
}

start_elasticmq() {
  local dir="$STATE_DIR/elasticmq"
  mkdir -p "$dir"
  spawn elasticmq "$dir/server.log" "$JAVA" -Xmx256m -Djava.awt.headless=true \
    -Drest-sqs.bind-hostname=127.0.0.1 -Drest-sqs.bind-port=9324 \
    -Dnode-address.host=127.0.0.1 -Dnode-address.port=9324 \
    -Daws.region=us-east-1 \
    -cp "$ELASTICMQ_LIBS/*" org.elasticmq.server.Main || { fail elasticmq "could not spawn"; return 1; }
  wait_ready elasticmq "$(cat "$(pidfile_of elasticmq)")"
}

start_pubsub-fake() {
  local dir="$STATE_DIR/pubsub-fake" bin
  bin="$(go_bin_path pubsub-fake pubsub-fake)"
  mkdir -p "$dir"
  spawn pubsub-fake "$dir/server.log" "$bin" -port 8085 || { fail pubsub-fake "could not spawn"; return 1; }
  wait_ready pubsub-fake "$(cat "$(pidfile_of pubsub-fake)")"
}

start_rabbitmq() {
  local dir="$STATE_DIR/rabbitmq" node
  mkdir -p "$dir"
  node="$(rabbit_nodename)"
  local pidfile_sys="/var/lib/rabbitmq/mnesia/$node.pid"
  # The Debian wrapper switches to the rabbitmq user; -detached returns at once. setsid and the
  # redirections keep the Erlang VM off our terminal and pipes.
  printf '\n===== %s: rabbitmq-server -detached =====\n' "$(date '+%F %T')" >>"$dir/start.log"
  if ! (cd / && setsid bash -c "$CLOSE_FDS; exec rabbitmq-server -detached" >>"$dir/start.log" 2>&1 </dev/null); then
    fail rabbitmq "rabbitmq-server -detached failed (see $dir/start.log)"
    return 1
  fi
  local port=5672 t0=$SECONDS deadline=$((SECONDS + 60))
  while ((SECONDS < deadline)); do
    if port_open "$port"; then
      # Record the node's pid so that stop only stops a node this checkout started.
      if [[ -r "$pidfile_sys" ]]; then
        cat "$pidfile_sys" >"$(pidfile_of rabbitmq)"
      fi
      say rabbitmq "up on $SERVERS_HOST:$port after $((SECONDS - t0))s"
      return 0
    fi
    sleep 0.5
  done
  fail rabbitmq "not listening on $SERVERS_HOST:$port after 60s (hostname issue? try NODENAME=rabbit@localhost in /etc/rabbitmq/rabbitmq-env.conf)"
}

start_one() {
  local name="$1" port
  port="$(port_of "$name")"
  rm -f "$STATE_DIR/$name/start-failure.txt"
  if port_open "$port"; then
    if owned_pid "$name" >/dev/null; then
      say "$name" "already running on $SERVERS_HOST:$port"
    else
      say "$name" "already running on $SERVERS_HOST:$port (not started by this checkout)"
    fi
    return 0
  fi
  say "$name" "starting (log: $(log_of "$name"))"
  "start_$name"
}

# retryWrites=false: SecantusDB prunes its retryable-write records by scanning them all on every
# write (a fifth of its CPU under load); every write of the store is safe to repeat
# (docs/database.md, "Retryable writes").
write_servers_json() {
  local tmp="$SERVERS_JSON.tmp.$$"
  local h="$SERVERS_HOST"
  cat >"$tmp" <<EOF
{"kafka":{"brokers":["$h:9092"]},"mongodb":{"url":"mongodb://$h:27017/hookrail?retryWrites=false"},"mongodbCdc":{"url":"mongodb://$h:27018/?replicaSet=secantus"},"postgres":{"url":"postgres://postgres:$PG_SUPERUSER_PASSWORD@$h:5433/postgres"},"amqp":{"url":"amqp://guest:guest@$h:5672"},"sqs":{"endpoint":"http://$h:9324","region":"us-east-1"},"pubsub":{"emulatorHost":"$h:8085"}}
EOF
  mv -f "$tmp" "$SERVERS_JSON"
}

cmd_start() {
  local t0=$SECONDS
  bash "$LOCAL_DIR/provision.sh"
  mkdir -p "$STATE_DIR"
  local name pids=() failed=()
  for name in "${SERVERS[@]}"; do
    mkdir -p "$STATE_DIR/$name"
    start_one "$name" &
    pids+=($!)
  done
  local i
  for i in "${!SERVERS[@]}"; do
    wait "${pids[$i]}" || failed+=("${SERVERS[$i]}")
  done
  if ((${#failed[@]})); then
    echo
    for name in "${failed[@]}"; do
      cat "$STATE_DIR/$name/start-failure.txt" >&2 2>/dev/null || echo "ERROR: $name failed to start" >&2
      echo >&2
    done
    echo "servers.sh: failed to start: ${failed[*]}" >&2
    exit 1
  fi
  write_servers_json
  echo "servers.sh: all servers up in $((SECONDS - t0))s; settings in $SERVERS_JSON"
}

stop_one() {
  local name="$1" pid
  if ! pid="$(owned_pid "$name")"; then
    rm -f "$(pidfile_of "$name")"
    if port_open "$(port_of "$name")"; then
      say "$name" "not started by this checkout; left running"
    else
      say "$name" "not running"
    fi
    return 0
  fi
  if [[ "$name" == rabbitmq ]]; then
    (cd / && timeout 60 rabbitmqctl stop >>"$STATE_DIR/rabbitmq/start.log" 2>&1) || true
    local i
    for ((i = 0; i < 300; i++)); do
      pid_alive "$pid" "$(pattern_of rabbitmq)" || break
      sleep 0.1
    done
  fi
  # SIGTERM asks Postgres for a "smart" shutdown, which waits for every client (a replication
  # connection never ends by itself); SIGINT is its fast shutdown.
  [[ "$name" != postgres ]] || kill -INT "$pid" 2>/dev/null || true
  if kill_and_wait "$pid" 60 "$(pattern_of "$name")"; then
    rm -f "$(pidfile_of "$name")"
    say "$name" "stopped"
  else
    say "$name" "FAILED to stop pid $pid"
    return 1
  fi
}

cmd_stop() {
  local name pids=() rc=0
  for name in "${SERVERS[@]}"; do
    stop_one "$name" &
    pids+=($!)
  done
  local p
  for p in "${pids[@]}"; do
    wait "$p" || rc=1
  done
  return $rc
}

cmd_status() {
  local name port state owner pid
  for name in "${SERVERS[@]}"; do
    port="$(port_of "$name")"
    if port_open "$port"; then state=up; else state=down; fi
    if pid="$(owned_pid "$name")"; then owner="pid $pid"; else owner="-"; fi
    printf '%-12s %-5s %s:%-6s %-10s %s\n' "$name" "$state" "$SERVERS_HOST" "$port" "$owner" "$(log_of "$name")"
  done
}

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  *)
    echo "usage: $0 start|stop|status" >&2
    exit 2
    ;;
esac
