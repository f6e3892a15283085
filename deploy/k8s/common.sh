# shellcheck shell=bash disable=SC2034 # variables are used by the scripts that source this
# Shared settings for binaries.sh and cluster.sh (sourced, not executed).
#
# Layout:
#   $K8S_CACHE ($CACHE/k8s-v1.32.13)   shared by all checkouts on the machine
#     bin/        kube-*, kubelet, coredns, pause (and kubectl where it is built: below)
#     images/     <name>-<source hash>.tar  (podman save of the pause and CoreDNS images)
#   $K8S_STATE ($REPO_ROOT/.local/k8s)  this checkout's cluster: pki, kubeconfig, etcd, kubelet,
#                                       containerd root, logs
#   $K8S_RUN (/run/hookrail-k8s)        sockets and runtime state (machine-wide: one cluster per
#                                       machine, since the netns name and addresses are fixed)

K8S_LIB_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source-path=SCRIPTDIR source=../local/lib.sh
source "$K8S_LIB_DIR/../local/lib.sh"

K8S_VERSION=v1.32.13
COREDNS_VERSION=v1.12.0 # the version kube-bins/go.mod requires
K8S_CACHE="$CACHE/k8s-$K8S_VERSION"
K8S_BIN="$K8S_CACHE/bin"
K8S_IMAGES="$K8S_CACHE/images"
# Built from the Go module proxy by binaries.sh. kubectl is taken from AWS_KUBECTL_LAYER (lib.sh)
# on linux-amd64 instead, which spares the cold build about 8 % of its CPU: v1.33, within
# the one minor version of skew kubectl supports against this API server. Elsewhere it is built.
KUBE_BINARIES=(kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy)
if [[ "$(uname -m)" == x86_64 ]]; then
  KUBECTL_BIN="$CACHE/bin/kubectl-$LAYER_KUBECTL_VERSION"
else
  KUBE_BINARIES+=(kubectl)
  KUBECTL_BIN="$K8S_BIN/kubectl"
fi

K8S_STATE="$REPO_ROOT/.local/k8s"
K8S_RUN=/run/hookrail-k8s
KUBECONFIG_PATH="$K8S_STATE/kubeconfig"

# Network: everything lives in a network namespace this script creates. All overridable.
K8S_NETNS="${HOOKRAIL_K8S_NETNS:-hookrail-k8s}"
K8S_VETH_HOST="${HOOKRAIL_K8S_VETH_HOST:-hrk8s-host}" # host end (in the host namespace)
K8S_VETH_NODE="${HOOKRAIL_K8S_VETH_NODE:-hrk8s-node}" # node end (inside the netns)
K8S_HOST_IP="${HOOKRAIL_K8S_HOST_IP:-10.250.0.1}"     # host end of the veth, /30
K8S_NODE_IP="${HOOKRAIL_K8S_NODE_IP:-10.250.0.2}"     # node end: kubelet node IP, API server
K8S_POD_CIDR="${HOOKRAIL_K8S_POD_CIDR:-10.251.0.0/16}"
K8S_NODE_POD_CIDR="${HOOKRAIL_K8S_NODE_POD_CIDR:-10.251.0.0/24}" # this node's slice of it (CNI bridge)
K8S_SERVICE_CIDR="${HOOKRAIL_K8S_SERVICE_CIDR:-10.252.0.0/16}"
K8S_API_SERVICE_IP="${HOOKRAIL_K8S_API_SERVICE_IP:-10.252.0.1}" # first address of the Service CIDR
K8S_DNS_IP="${HOOKRAIL_K8S_DNS_IP:-10.252.0.10}"
K8S_NODE_NAME="${HOOKRAIL_K8S_NODE_NAME:-hookrail-node}"
K8S_CNI_BRIDGE="${HOOKRAIL_K8S_CNI_BRIDGE:-hrk8s-cni0}"
K8S_API_PORT=6443

# Local images (built by binaries.sh from deploy/k8s/<name>/Containerfile, FROM scratch;
# imported into the cluster's containerd by cluster.sh). No registry is reachable.
PAUSE_IMAGE=localhost/hookrail-k8s/pause:1
COREDNS_IMAGE="localhost/hookrail-k8s/coredns:$COREDNS_VERSION"
LOCAL_IMAGES=(pause coredns) # built by binaries.sh, imported by cluster.sh up

CONTAINERD_SOCK="$K8S_RUN/containerd/containerd.sock"

image_ref() {
  case "$1" in
    pause) echo "$PAUSE_IMAGE" ;;
    coredns) echo "$COREDNS_IMAGE" ;;
    *) return 1 ;;
  esac
}

# Sources of the cluster binaries' one `go build` (binaries.sh): CoreDNS's plugin list and the
# module versions. A change rebuilds the binaries and the CoreDNS image.
cluster_binary_sources() {
  echo "$K8S_LIB_DIR/kube-bins/go.mod" "$K8S_LIB_DIR/kube-bins/go.sum" "$K8S_LIB_DIR/kube-bins/coredns/main.go"
}

# Sources of deploy/k8s/<name>'s Go main (pause), for content hashes.
go_main_sources() {
  echo "$K8S_LIB_DIR/$1/go.mod" "$K8S_LIB_DIR/$1/main.go"
}

# Cached static binary of deploy/k8s/<name>'s Go main, named after a hash of its sources.
go_main_bin() {
  # shellcheck disable=SC2046 # paths without spaces
  echo "$K8S_BIN/$1-$(files_hash $(go_main_sources "$1"))"
}

# Cached image tarball for <name>; its file name carries a hash of the image's inputs.
image_tar() {
  local name="$1" inputs=("$K8S_LIB_DIR/$1/Containerfile")
  # shellcheck disable=SC2207 # paths without spaces
  if [[ "$name" == coredns ]]; then inputs+=($(cluster_binary_sources)); else inputs+=($(go_main_sources "$name")); fi
  echo "$K8S_IMAGES/$name-$(image_ref "$name" | sed 's/.*://')-$(files_hash "${inputs[@]}").tar"
}
