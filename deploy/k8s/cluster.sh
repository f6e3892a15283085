#!/usr/bin/env bash
# A single-node Kubernetes v1.32 inside a network namespace this script creates (see README.md).
#   bash deploy/k8s/cluster.sh up                 start (idempotent) and wait for node + CoreDNS
#   bash deploy/k8s/cluster.sh down               stop and remove everything (safe when nothing is up)
#   bash deploy/k8s/cluster.sh status             up or down, and the kubeconfig path (exit 1: down)
#   bash deploy/k8s/cluster.sh load-image REF     podman image -> the cluster's containerd
#   bash deploy/k8s/cluster.sh exec CMD...        run CMD in the cluster's network namespace
#   bash deploy/k8s/cluster.sh kubectl ARGS...    kubectl with the cluster's kubeconfig
# Needs root (network namespace, mounts, cgroups).
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

SELF="$K8S_LIB_DIR/cluster.sh"
PKI="$K8S_STATE/pki"
CONF="$K8S_STATE/conf"
LOGS="$K8S_STATE/logs"
SUPERVISOR_PID="$K8S_STATE/supervisor.pid"
SYSCTLS_SAVED="$K8S_STATE/host-sysctls"   # host values before `up`, restored by `down`
CREATED_DIRS="$K8S_STATE/created-dirs"     # host directories `up` had to create (mount points)
NETNS_MOUNT_CREATED="$K8S_STATE/netns-mount-created" # `ip netns add` made /run/netns a mount
CONTAINERD_ROOT="$K8S_STATE/containerd"
KUBELET_ROOT="$K8S_STATE/kubelet"
CGROUP_ROOT=hookrail-k8s                   # the kubelet's cgroup root: /sys/fs/cgroup/*/hookrail-k8s
NETNS_PATH="/run/netns/$K8S_NETNS"
VETH_PREFIX=30
# Host paths the components write to under fixed names whatever their settings (shim sockets,
# pod log links, libcni's cache, the kubelet's device-plugin socket): inside the cluster's mount
# namespace each gets a private tmpfs, gone with the cluster.
PRIVATE_DIRS=(/run /var/log /var/lib/cni /var/lib/kubelet)
# Global (not per network namespace) kernel settings the kubelet sets (protectKernelDefaults
# off). Forwarding and bridge-nf-call-iptables are per netns: set inside it, never on the host
# (so not restored either: podman on the host sets them for its own containers).
HOST_SYSCTLS=(vm.overcommit_memory vm.panic_on_oom kernel.panic kernel.panic_on_oops
  kernel.keys.root_maxkeys kernel.keys.root_maxbytes)

KILLED="" # pids `down` signalled

log() { echo "k8s: $*"; }
die() { echo "k8s: ERROR: $*" >&2; exit 1; }

# kubectl, always with this cluster's kubeconfig (without one it would try localhost:8080, which
# is another service's port here).
kc() { "$KUBECTL_BIN" --kubeconfig "$KUBECONFIG_PATH" --cache-dir "$K8S_STATE/kubectl-cache" "$@"; }
# Runs a command in the network namespace only (host mounts), like `ip netns exec` without /sys.
in_netns() { nsenter --net="$NETNS_PATH" -- "$@"; }
# Runs a command in the cluster's network and mount namespaces (sees containerd's socket).
in_cluster() { nsenter --target "$(cat "$SUPERVISOR_PID")" --mount --net -- "$@"; }
ctr_k8s() { in_cluster ctr --address "$CONTAINERD_SOCK" --namespace k8s.io "$@"; }
containerd_up() { in_cluster ctr --address "$CONTAINERD_SOCK" --connect-timeout 2s --timeout 5s version; }

supervisor_alive() {
  [[ -e "$SUPERVISOR_PID" ]] && pid_alive "$(cat "$SUPERVISOR_PID")" "cluster.sh _supervise"
}
is_up() { [[ -e "$NETNS_PATH" ]] && supervisor_alive; }

# The netns name and addresses are machine-wide: one cluster per machine. Refuses to touch a
# cluster that another checkout's cluster.sh runs.
check_owner() {
  [[ -e "$NETNS_PATH" ]] || return 0
  local p other=""
  for p in $(ip netns pids "$K8S_NETNS" 2>/dev/null); do
    other="$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | sed -n 's/^bash \(.*cluster\.sh\) _supervise.*$/\1/p')"
    [[ -n "$other" ]] && break
  done
  [[ -z "$other" || "$other" == "$SELF" ]] ||
    die "the cluster in netns $K8S_NETNS was started by $other: run its down first"
}

# Open-file limit for containerd and so for every pod (containerd sets none of its own): the
# host's hard limit, which root cannot raise here (no CAP_SYS_RESOURCE).
nofile_limit() {
  local n
  n="$(ulimit -Hn)"
  [[ "$n" == unlimited || "$n" -gt 1048576 ]] && n=1048576
  echo "$n"
}

# ---------------------------------------------------------------------------------------------
# Network: netns + veth (host end / node end); pods and Services live behind the node end
# ---------------------------------------------------------------------------------------------
setup_network() {
  # The first `ip netns add` on a machine creates /run/netns and bind-mounts it onto itself.
  [[ -d /run/netns ]] || echo /run/netns >>"$CREATED_DIRS"
  mountpoint -q /run/netns 2>/dev/null || touch "$NETNS_MOUNT_CREATED"
  ip netns add "$K8S_NETNS"
  ip link add "$K8S_VETH_HOST" type veth peer name "$K8S_VETH_NODE" netns "$K8S_NETNS"
  ip addr add "$K8S_HOST_IP/$VETH_PREFIX" dev "$K8S_VETH_HOST"
  ip link set "$K8S_VETH_HOST" up
  in_netns ip link set lo up
  in_netns ip addr add "$K8S_NODE_IP/$VETH_PREFIX" dev "$K8S_VETH_NODE"
  in_netns ip link set "$K8S_VETH_NODE" up
  # The host reaches pod and Service addresses through the veth only. The netns gets no default
  # route: nothing in the cluster can reach beyond it.
  ip route add "$K8S_POD_CIDR" via "$K8S_NODE_IP" dev "$K8S_VETH_HOST"
  ip route add "$K8S_SERVICE_CIDR" via "$K8S_NODE_IP" dev "$K8S_VETH_HOST"
  # Per network namespace (kernel >= 5.3 for br_netfilter): Services need routed, bridge-filtered
  # pod traffic. The host's own values are untouched.
  in_netns sysctl -qw net.ipv4.ip_forward=1
  [[ -e /proc/sys/net/bridge ]] || modprobe br_netfilter 2>/dev/null || true
  in_netns sysctl -qw net.bridge.bridge-nf-call-iptables=1 net.bridge.bridge-nf-call-ip6tables=1 ||
    log "WARNING: no br_netfilter: a pod reaching a Service served by a pod on the same bridge may fail"
}

remove_network() {
  if [[ -e "$NETNS_PATH" ]]; then ip netns del "$K8S_NETNS"; fi
  if [[ -e "$NETNS_MOUNT_CREATED" && -z "$(ip netns list)" ]]; then
    umount /run/netns 2>/dev/null || true
  fi
  rm -f "$NETNS_MOUNT_CREATED"
  # The veth disappears with the netns (asynchronously once its last process is gone).
  local i
  for i in $(seq 50); do
    ip link show "$K8S_VETH_HOST" >/dev/null 2>&1 || return 0
    ((i < 20)) || ip link del "$K8S_VETH_HOST" 2>/dev/null || true
    sleep 0.1
  done
}

# ---------------------------------------------------------------------------------------------
# PKI (openssl, ECDSA P-256) and kubeconfigs
# ---------------------------------------------------------------------------------------------
new_key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }

# cert <name> <subject> <extendedKeyUsage> [subjectAltName]: <name>.crt/.key signed by the CA.
cert() {
  local name="$1" subj="$2" eku="$3" san="${4:-}" ext
  new_key "$PKI/$name.key"
  ext="basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature
extendedKeyUsage=$eku${san:+
subjectAltName=$san}"
  openssl req -new -key "$PKI/$name.key" -subj "$subj" |
    openssl x509 -req -CA "$PKI/ca.crt" -CAkey "$PKI/ca.key" -set_serial "0x$(openssl rand -hex 16)" \
      -days 3650 -extfile <(echo "$ext") -out "$PKI/$name.crt" 2>/dev/null
}

# kubeconfig <file> <cert name>: a self-contained kubeconfig for the API server on the node IP.
kubeconfig() {
  local file="$1" user="$2"
  cat >"$file" <<EOF
apiVersion: v1
kind: Config
clusters:
  - name: hookrail-k8s
    cluster:
      server: https://$K8S_NODE_IP:$K8S_API_PORT
      certificate-authority-data: $(base64 -w0 "$PKI/ca.crt")
users:
  - name: $user
    user:
      client-certificate-data: $(base64 -w0 "$PKI/$user.crt")
      client-key-data: $(base64 -w0 "$PKI/$user.key")
contexts:
  - name: hookrail-k8s
    context: { cluster: hookrail-k8s, user: $user }
current-context: hookrail-k8s
EOF
  chmod 600 "$file"
}

generate_pki() {
  mkdir -p "$PKI" "$CONF"
  chmod 700 "$PKI"
  new_key "$PKI/ca.key"
  openssl req -x509 -new -key "$PKI/ca.key" -subj /CN=hookrail-k8s-ca -days 3650 \
    -out "$PKI/ca.crt" 2>/dev/null
  cert apiserver /CN=kube-apiserver serverAuth \
    "IP:$K8S_NODE_IP,IP:$K8S_API_SERVICE_IP,IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local"
  cert admin "/O=system:masters/CN=kubernetes-admin" clientAuth
  cert apiserver-kubelet-client "/O=system:masters/CN=kube-apiserver-kubelet-client" clientAuth
  cert kubelet "/O=system:nodes/CN=system:node:$K8S_NODE_NAME" clientAuth
  cert kubelet-serving "/CN=$K8S_NODE_NAME" serverAuth "IP:$K8S_NODE_IP,DNS:$K8S_NODE_NAME"
  cert controller-manager /CN=system:kube-controller-manager clientAuth
  cert scheduler /CN=system:kube-scheduler clientAuth
  cert kube-proxy /CN=system:kube-proxy clientAuth
  new_key "$PKI/sa.key"
  openssl pkey -in "$PKI/sa.key" -pubout -out "$PKI/sa.pub"
  kubeconfig "$KUBECONFIG_PATH" admin
  local c
  for c in kubelet controller-manager scheduler kube-proxy; do kubeconfig "$CONF/$c.kubeconfig" "$c"; done
}

# ---------------------------------------------------------------------------------------------
# Component configuration
# ---------------------------------------------------------------------------------------------
write_configs() {
  mkdir -p "$CONF/cni"
  # No upstream DNS exists: names outside the cluster fail at once (nothing listens there).
  printf '# hookrail-k8s: offline, no upstream resolver\nnameserver 127.0.0.1\n' >"$CONF/resolv.conf"

  cat >"$CONF/containerd.toml" <<EOF
version = 2
root = "$CONTAINERD_ROOT"
state = "$K8S_RUN/containerd"
disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs",
  "io.containerd.snapshotter.v1.devmapper", "io.containerd.snapshotter.v1.zfs"]
[grpc]
  address = "$CONTAINERD_SOCK"
[plugins."io.containerd.internal.v1.opt"]
  path = "$CONTAINERD_ROOT/opt"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$PAUSE_IMAGE"
  # root lacks CAP_SYS_RESOURCE here: without this every sandbox fails ("can't get final
  # child's PID from pipe: EOF") when runc lowers oom_score_adj.
  restrict_oom_score_adj = true
  # Pod network namespaces under the state dir, not /run/netns (the host's \`ip netns list\`).
  netns_mounts_under_state_dir = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        BinaryName = "$(command -v runc)"
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$CONF/cni"
EOF

  # ipMasq false: pod traffic is never NATed towards anything outside the netns.
  cat >"$CONF/cni/10-hookrail-k8s.conflist" <<EOF
{
  "cniVersion": "0.4.0",
  "name": "hookrail-k8s",
  "plugins": [
    {
      "type": "bridge",
      "bridge": "$K8S_CNI_BRIDGE",
      "isGateway": true,
      "ipMasq": false,
      "hairpinMode": true,
      "ipam": {
        "type": "host-local",
        "dataDir": "$K8S_RUN/cni-ipam",
        "ranges": [[{ "subnet": "$K8S_NODE_POD_CIDR" }]],
        "routes": [{ "dst": "0.0.0.0/0" }]
      }
    },
    { "type": "portmap", "capabilities": { "portMappings": true } }
  ]
}
EOF

  local max_files=16384 hard
  hard="$(nofile_limit)"
  ((hard >= max_files)) || max_files="$hard"
  cat >"$CONF/kubelet.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
containerRuntimeEndpoint: unix://$CONTAINERD_SOCK
cgroupDriver: cgroupfs
cgroupRoot: /$CGROUP_ROOT
# The kubelet raises its own RLIMIT_NOFILE to this (default 1000000, above the hard limit here).
maxOpenFiles: $max_files
failSwapOn: false
resolvConf: $CONF/resolv.conf
clusterDNS: [$K8S_DNS_IP]
clusterDomain: cluster.local
address: $K8S_NODE_IP
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
authentication:
  anonymous: { enabled: false }
  webhook: { enabled: false }
  x509: { clientCAFile: $PKI/ca.crt }
authorization: { mode: AlwaysAllow }
# Without these the kubelet writes a self-signed pair to /var/lib/kubelet/pki, whatever its root.
tlsCertFile: $PKI/kubelet-serving.crt
tlsPrivateKeyFile: $PKI/kubelet-serving.key
serializeImagePulls: false
evictionHard: { memory.available: 100Mi, nodefs.available: 2%, imagefs.available: 2%, nodefs.inodesFree: 2% }
EOF

  # conntrack 0s/0: leave the kernel's conntrack settings alone (some are global, not per netns).
  cat >"$CONF/kube-proxy.yaml" <<EOF
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: { kubeconfig: $CONF/kube-proxy.kubeconfig }
hostnameOverride: $K8S_NODE_NAME
bindAddress: $K8S_NODE_IP
mode: iptables
clusterCIDR: $K8S_POD_CIDR
healthzBindAddress: 127.0.0.1:10256
metricsBindAddress: 127.0.0.1:10249
nodePortAddresses: [$K8S_NODE_IP/32]
iptables: { localhostNodePorts: false }
conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: 0s, tcpCloseWaitTimeout: 0s, udpTimeout: 0s, udpStreamTimeout: 0s }
EOF
}

# ---------------------------------------------------------------------------------------------
# Host state that `down` restores: sysctls, created mount points, the kubelet's cgroup root
# ---------------------------------------------------------------------------------------------
save_host_sysctls() {
  [[ -e "$SYSCTLS_SAVED" ]] && return 0 # keep the values from before the first `up`
  local k v
  for k in "${HOST_SYSCTLS[@]}"; do
    v="$(sysctl -n "$k" 2>/dev/null)" && echo "$k=$v"
  done >"$SYSCTLS_SAVED.tmp"
  mv "$SYSCTLS_SAVED.tmp" "$SYSCTLS_SAVED"
}

restore_host_sysctls() {
  [[ -e "$SYSCTLS_SAVED" ]] || return 0
  local k v
  while IFS='=' read -r k v; do
    if [[ "$(sysctl -n "$k" 2>/dev/null)" != "$v" ]]; then
      log "restoring host sysctl $k=$v"
      sysctl -qw "$k=$v" || log "WARNING: could not restore $k"
    fi
  done <"$SYSCTLS_SAVED"
  rm -f "$SYSCTLS_SAVED"
}

create_mount_points() {
  local d
  for d in "${PRIVATE_DIRS[@]}"; do
    [[ -d "$d" ]] && continue
    mkdir -p "$d"
    echo "$d" >>"$CREATED_DIRS"
  done
}

remove_mount_points() {
  [[ -e "$CREATED_DIRS" ]] || return 0
  local d
  while read -r d; do rmdir "$d" 2>/dev/null || log "WARNING: $d not empty, left in place"; done <"$CREATED_DIRS"
  rm -f "$CREATED_DIRS"
}

# The kubelet insists that its cgroup root exists in every hierarchy.
create_cgroup_root() {
  local h
  for h in /sys/fs/cgroup/*/; do
    [[ -e "$h/cgroup.procs" ]] || continue
    mkdir -p "$h$CGROUP_ROOT"
    if [[ -e "$h/cpuset.cpus" ]]; then # a new cpuset is empty until given CPUs and memory nodes
      cat "$h/cpuset.cpus" >"$h$CGROUP_ROOT/cpuset.cpus"
      cat "$h/cpuset.mems" >"$h$CGROUP_ROOT/cpuset.mems"
    fi
  done
}

cgroup_dirs() { find /sys/fs/cgroup/*/"$CGROUP_ROOT" -depth -type d 2>/dev/null || true; }

# Kills what is left in the cluster's cgroups (pod processes: they run in namespaces of their
# own, not in the cluster's), then removes the cgroups.
remove_cgroups() {
  local i d pids
  for i in $(seq 50); do
    pids="$(cgroup_dirs | while read -r d; do cat "$d/cgroup.procs" 2>/dev/null; done | sort -u)"
    [[ -z "$pids" ]] && break
    KILLED+=" $pids"
    # shellcheck disable=SC2086 # a list of pids
    kill -KILL $pids 2>/dev/null || true
    sleep 0.2
  done
  [[ -z "$pids" ]] || log "WARNING: processes left in the cluster's cgroups: $pids"
  cgroup_dirs | while read -r d; do rmdir "$d" 2>/dev/null || true; done
  [[ -z "$(cgroup_dirs)" ]] || log "WARNING: cgroups left behind: $(cgroup_dirs | tr '\n' ' ')"
}

# ---------------------------------------------------------------------------------------------
# Processes: one supervisor in the netns and its own mount namespace starts every component, so
# that containerd, the kubelet and the shims see each other's mounts (secrets, emptyDirs, rootfs).
# ---------------------------------------------------------------------------------------------
start_supervisor() {
  mkdir -p "$LOGS"
  rm -f "$LOGS"/*.log
  # setsid: the cluster outlives this shell (and a CI step's process group). nsenter, not
  # `ip netns exec`: that one remounts /sys and so hides /sys/fs/cgroup from the kubelet.
  setsid nsenter --net="$NETNS_PATH" -- unshare --mount --propagation slave -- \
    bash "$SELF" _supervise </dev/null >>"$LOGS/supervisor.log" 2>&1 &
  echo $! >"$SUPERVISOR_PID"
}

# run_daemon <name> <command...>: keeps <command> running (like a service manager would).
run_daemon() {
  local name="$1"
  shift
  (
    while :; do
      echo "--- $(date -Is) starting: $*" >>"$LOGS/$name.log"
      "$@" >>"$LOGS/$name.log" 2>&1 || true
      echo "--- $(date -Is) $name exited; restarting in 2s" >>"$LOGS/$name.log"
      sleep 2
    done
  ) &
}

wait_quietly() { # <seconds> <command...>
  local deadline=$((SECONDS + $1))
  shift
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || return 1
    sleep 0.5
  done
}

# Private tmpfs over the fixed-name host paths, and our resolv.conf for everything inside.
private_mounts() {
  local resolv d
  resolv="$(readlink -f /etc/resolv.conf)"
  for d in "${PRIVATE_DIRS[@]}"; do mount -t tmpfs -o mode=0755 hookrail-k8s "$d"; done
  if [[ "$resolv" == /run/* ]]; then # a symlink into /run (now our tmpfs)
    mkdir -p "$(dirname "$resolv")"
    touch "$resolv"
  fi
  mount --bind "$CONF/resolv.conf" "$resolv"
  mkdir -p "$K8S_RUN/containerd" "$K8S_RUN/etcd" "$K8S_RUN/cni-ipam"
}

# Inside the netns and the new mount namespace (started by start_supervisor).
supervise() {
  echo "supervisor $$ in $(readlink /proc/$$/ns/net) $(readlink /proc/$$/ns/mnt)"
  private_mounts
  ulimit -n "$(nofile_limit)"
  local kube_ca="$PKI/ca.crt" node_mask="${K8S_NODE_POD_CIDR#*/}"
  # etcd's data is throwaway: it lives on the tmpfs (fast, and gone with the cluster).
  run_daemon etcd etcd --name hookrail-k8s --data-dir "$K8S_RUN/etcd" --logger zap \
    --listen-client-urls http://127.0.0.1:2379 --advertise-client-urls http://127.0.0.1:2379 \
    --listen-peer-urls http://127.0.0.1:2380 --initial-advertise-peer-urls http://127.0.0.1:2380 \
    --initial-cluster hookrail-k8s=http://127.0.0.1:2380
  run_daemon containerd containerd --config "$CONF/containerd.toml"
  wait_quietly 60 curl -fsS --max-time 5 http://127.0.0.1:2379/health || echo "etcd not healthy after 60s"
  run_daemon kube-apiserver "$K8S_BIN/kube-apiserver" \
    --advertise-address="$K8S_NODE_IP" --bind-address=0.0.0.0 --secure-port="$K8S_API_PORT" \
    --etcd-servers=http://127.0.0.1:2379 \
    --service-cluster-ip-range="$K8S_SERVICE_CIDR" \
    --tls-cert-file="$PKI/apiserver.crt" --tls-private-key-file="$PKI/apiserver.key" \
    --client-ca-file="$kube_ca" \
    --kubelet-client-certificate="$PKI/apiserver-kubelet-client.crt" \
    --kubelet-client-key="$PKI/apiserver-kubelet-client.key" \
    --kubelet-preferred-address-types=InternalIP --kubelet-certificate-authority="$kube_ca" \
    --service-account-issuer=https://kubernetes.default.svc.cluster.local \
    --service-account-key-file="$PKI/sa.pub" --service-account-signing-key-file="$PKI/sa.key" \
    --authorization-mode=Node,RBAC --enable-admission-plugins=NodeRestriction \
    --allow-privileged=true --profiling=false
  run_daemon kube-proxy "$K8S_BIN/kube-proxy" --config="$CONF/kube-proxy.yaml"
  # The kubelet exits when the runtime is not there yet.
  wait_quietly 60 ctr --address "$CONTAINERD_SOCK" --connect-timeout 2s --timeout 5s version || echo "containerd not up after 60s"
  run_daemon kubelet "$K8S_BIN/kubelet" --config="$CONF/kubelet.yaml" \
    --kubeconfig="$CONF/kubelet.kubeconfig" --root-dir="$KUBELET_ROOT" \
    --node-ip="$K8S_NODE_IP" --hostname-override="$K8S_NODE_NAME"
  # The controller manager exits when RBAC's bootstrap policy is not in place yet.
  wait_quietly 120 curl -fsSk --max-time 5 "https://127.0.0.1:$K8S_API_PORT/readyz" || echo "API server not ready after 120s"
  run_daemon kube-controller-manager "$K8S_BIN/kube-controller-manager" \
    --kubeconfig="$CONF/controller-manager.kubeconfig" \
    --authentication-kubeconfig="$CONF/controller-manager.kubeconfig" \
    --authorization-kubeconfig="$CONF/controller-manager.kubeconfig" \
    --bind-address=127.0.0.1 --leader-elect=false --use-service-account-credentials=true \
    --service-account-private-key-file="$PKI/sa.key" --root-ca-file="$kube_ca" \
    --cluster-signing-cert-file="$kube_ca" --cluster-signing-key-file="$PKI/ca.key" \
    --allocate-node-cidrs=true --cluster-cidr="$K8S_POD_CIDR" --node-cidr-mask-size="$node_mask" \
    --service-cluster-ip-range="$K8S_SERVICE_CIDR" --profiling=false
  run_daemon kube-scheduler "$K8S_BIN/kube-scheduler" \
    --kubeconfig="$CONF/scheduler.kubeconfig" \
    --authentication-kubeconfig="$CONF/scheduler.kubeconfig" \
    --authorization-kubeconfig="$CONF/scheduler.kubeconfig" \
    --bind-address=127.0.0.1 --leader-elect=false --profiling=false
  echo "all components started"
  wait
}

# TERM, then KILL, every process in the netns (the components, containerd's shims, and whatever
# else was started there, e.g. test servers), then what is left in the kubelet's cgroups.
stop_processes() {
  local pids="" i
  if [[ -e "$NETNS_PATH" ]]; then
    for i in $(seq 40); do
      pids="$(ip netns pids "$K8S_NETNS" 2>/dev/null | tr '\n' ' ')"
      [[ -z "${pids// /}" ]] && break
      KILLED+=" $pids"
      # shellcheck disable=SC2086 # a list of pids
      if ((i == 1)); then kill -TERM $pids 2>/dev/null || true; fi
      # shellcheck disable=SC2086
      if ((i == 12)); then kill -KILL $pids 2>/dev/null || true; fi
      sleep 0.25
    done
    [[ -z "${pids// /}" ]] || log "WARNING: processes left in the netns: $pids"
  fi
  # A supervisor whose netns is gone (should not happen, but `down` cleans up anything).
  if supervisor_alive; then kill -KILL "$(cat "$SUPERVISOR_PID")" 2>/dev/null || true; fi
  remove_cgroups
  wait_reaped
}

# Killed processes linger as zombies until init reaps them; wait for that (a few ms here).
wait_reaped() {
  local i p left
  for i in $(seq 50); do
    left=""
    for p in $KILLED; do [[ -e "/proc/$p" ]] && left+=" $p"; done
    [[ -z "$left" ]] && return 0
    sleep 0.1
  done
  log "WARNING: killed processes not reaped yet:$left"
}

# Removes what `up` wrote to this checkout's state dir (logs/ stays, for a post-mortem; files
# others keep there are left alone).
remove_state() {
  [[ -d "$K8S_STATE" ]] || return 0
  local mounts
  mounts="$(awk -v p="$K8S_STATE" 'index($5, p) == 1 {print $5}' /proc/self/mountinfo)"
  [[ -z "$mounts" ]] || die "mounts still active under $K8S_STATE: $mounts"
  rm -rf "$PKI" "$CONF" "$CONTAINERD_ROOT" "$KUBELET_ROOT" "$KUBECONFIG_PATH" \
    "$K8S_STATE/kubectl-cache" "$SUPERVISOR_PID"
}

# ---------------------------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------------------------
need_root() { [[ "$(id -u)" == 0 ]] || die "needs root (network namespace, mounts, cgroups)"; }

show_logs() {
  local f
  for f in "$LOGS"/*.log; do
    [[ -e "$f" ]] || continue
    echo "----- $f (last 15 lines)" >&2
    tail -n 15 "$f" >&2
  done
}

wait_for() { # <seconds> <what> <command...>
  local deadline=$((SECONDS + $1)) what="$2"
  shift 2
  until "$@" >/dev/null 2>&1; do
    if ((SECONDS >= deadline)) || ! supervisor_alive; then
      show_logs
      die "timed out waiting for $what (logs: $LOGS; clean up with: bash $SELF down)"
    fi
    sleep 1
  done
}

node_ready() {
  [[ "$(kc --request-timeout=5s get node "$K8S_NODE_NAME" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}')" == True ]]
}

# Imports the cached image tarballs that the cluster's containerd does not have yet.
import_images() {
  local name ref
  for name in "${LOCAL_IMAGES[@]}"; do
    ref="$(image_ref "$name")"
    [[ -n "$(ctr_k8s images ls -q "name==$ref")" ]] && continue
    ctr_k8s images import - <"$(image_tar "$name")" >/dev/null
  done
}

cmd_up() {
  need_root
  check_owner
  local t0=$SECONDS
  bash "$K8S_LIB_DIR/binaries.sh"
  export PATH="$K8S_BIN:$PATH"
  if is_up; then
    log "already up (supervisor $(cat "$SUPERVISOR_PID")); checking readiness"
  else
    if [[ -e "$NETNS_PATH" || -e "$SUPERVISOR_PID" || -n "$(cgroup_dirs)" ]] ||
      ip link show "$K8S_VETH_HOST" >/dev/null 2>&1; then
      log "cleaning up what a previous run left"
      cmd_down
    fi
    log "starting in netns $K8S_NETNS (node $K8S_NODE_IP)"
    mkdir -p "$K8S_STATE"
    save_host_sysctls
    generate_pki
    write_configs
    create_mount_points
    create_cgroup_root
    setup_network
    start_supervisor
  fi
  wait_for 60 containerd containerd_up
  import_images
  wait_for 120 "the API server" kc --request-timeout=5s get --raw /readyz
  sed -e "s|__COREDNS_IMAGE__|$COREDNS_IMAGE|" -e "s|__DNS_IP__|$K8S_DNS_IP|" \
    "$K8S_LIB_DIR/coredns/coredns.yaml" | kc apply -f - >/dev/null
  wait_for 120 "node $K8S_NODE_NAME to be Ready" node_ready
  wait_for 60 "the default service account" kc --request-timeout=5s get serviceaccount default
  wait_for 120 "CoreDNS" kc -n kube-system wait --for=condition=Available deployment/coredns --timeout=5s
  log "up in $((SECONDS - t0))s: KUBECONFIG=$KUBECONFIG_PATH (API https://$K8S_NODE_IP:$K8S_API_PORT)"
}

cmd_down() {
  need_root
  check_owner
  local t0=$SECONDS
  stop_processes
  remove_network
  restore_host_sysctls
  remove_mount_points
  remove_state
  log "down in $((SECONDS - t0))s"
}

cmd_status() {
  if is_up; then
    echo "up: KUBECONFIG=$KUBECONFIG_PATH  API https://$K8S_NODE_IP:$K8S_API_PORT  node $K8S_NODE_NAME ($K8S_NODE_IP, netns $K8S_NETNS)"
    kc get nodes 2>&1 || true
  else
    echo "down (kubeconfig would be $KUBECONFIG_PATH)"
    [[ ! -e "$NETNS_PATH" ]] || echo "  but netns $K8S_NETNS exists: run down to clean up"
    return 1
  fi
}

cmd_load_image() {
  need_root
  [[ $# == 1 ]] || die "usage: cluster.sh load-image <podman image ref>"
  is_up || die "the cluster is not up"
  bash "$REPO_ROOT/deploy/docker/podman.sh" save --format docker-archive "$1" |
    ctr_k8s images import -
}

# What `down` must leave exactly as `up` found it.
host_snapshot() {
  echo "## netns"; ip netns list
  echo "## links"; ip -o link | awk -F': ' '{print $2}'
  echo "## addresses"; ip -o addr | awk '{print $2, $4}'
  echo "## routes"; ip route
  echo "## mounts" # (podman's own storage mounts under /var/lib/containers are not ours)
  awk '{print $5, $9}' /proc/self/mountinfo | grep -E 'k8s|kube|containerd|cni|netns|overlay' |
    grep -v '^/var/lib/containers/' || true
  echo "## cgroups"; ls -d /sys/fs/cgroup/*/kubepods* /sys/fs/cgroup/*/hookrail-k8s 2>/dev/null || true
  echo "## iptables"; iptables-save | grep -v '^#' || true
  echo "## ip6tables"; ip6tables-save | grep -v '^#' || true
  echo "## iptables-legacy"; iptables-legacy-save 2>/dev/null | grep -v '^#' || true
  echo "## sysctls"
  sysctl vm.overcommit_memory vm.panic_on_oom kernel.panic kernel.panic_on_oops \
    kernel.keys.root_maxkeys kernel.keys.root_maxbytes net.ipv4.ip_forward \
    net.bridge.bridge-nf-call-iptables net.netfilter.nf_conntrack_max 2>/dev/null || true
  echo "## processes"
  # shellcheck disable=SC2009 # whole command lines, for the report
  ps -eo args | grep -E 'kube-|kubelet|etcd|containerd|coredns|/pause' | grep -v grep || true
  echo "## dirs"; ls -d /var/lib/cni /var/lib/kubelet /var/log/pods /var/log/containers /run/containerd /run/hookrail-k8s /opt/cni /etc/cni/net.d/* 2>/dev/null || true
}

main() {
  local cmd="${1:-}"
  shift || true
  case "$cmd" in
    up) cmd_up ;;
    down) cmd_down ;;
    status) cmd_status ;;
    load-image) cmd_load_image "$@" ;;
    exec) need_root; exec nsenter --net="$NETNS_PATH" -- "$@" ;;
    kubectl) kc "$@" ;;
    snapshot) host_snapshot ;;
    _supervise) supervise ;;
    *) die "usage: cluster.sh up|down|status|load-image <ref>|exec <cmd...>|kubectl <args...>|snapshot" ;;
  esac
}

main "$@"
