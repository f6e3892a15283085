import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** A pod of the release as the API server reports it. */
export interface PodMemory {
  service: string;
  pod: string;
  limitMiB: number;
  restarts: number;
  /** Why the container last ended, when it did (e.g. `OOMKilled`). */
  lastTerminated: string | null;
  /** The most memory the pod's cgroup held since it started, as the kernel counts it. */
  peakMiB: number;
}

interface PodList {
  items: {
    metadata: { name: string; uid: string; labels: Record<string, string> };
    spec: { containers: { resources?: { limits?: { memory?: string } } }[] };
    status: {
      containerStatuses?: { restartCount: number; lastState?: { terminated?: { reason?: string } } }[];
    };
  }[];
}

const UNITS: Record<string, number> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  K: 1e3,
  M: 1e6,
  G: 1e9,
  '': 1,
};

/** A Kubernetes quantity of bytes (`768Mi`, `1G`, `536870912`) in MiB. */
export function quantityMiB(quantity: string): number {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|K|M|G)?$/.exec(quantity);
  if (!m) throw new Error(`not a memory quantity: ${quantity}`);
  return (Number(m[1]) * UNITS[m[2] ?? '']) / 2 ** 20;
}

/**
 * The pod's cgroup on this host (the kubelet runs here, in a network namespace, with its cgroup
 * root `cgroupRoot`): `…/kubepods/<qos>/pod<uid>` under the memory hierarchy (cgroup v1) or the
 * unified one (v2). Its peak: `memory.max_usage_in_bytes` (v1) or `memory.peak` (v2).
 */
function podPeakMiB(uid: string, cgroupRoot: string): number {
  const hierarchies = ['/sys/fs/cgroup/memory', '/sys/fs/cgroup'].map((h) =>
    path.join(h, cgroupRoot, 'kubepods'),
  );
  for (const kubepods of hierarchies.filter((h) => existsSync(h))) {
    const dir = [kubepods, ...readdirSync(kubepods).map((q) => path.join(kubepods, q))]
      .map((parent) => path.join(parent, `pod${uid}`))
      .find((d) => existsSync(d));
    if (!dir) continue;
    for (const file of ['memory.max_usage_in_bytes', 'memory.peak'])
      if (existsSync(path.join(dir, file)))
        return Number(readFileSync(path.join(dir, file), 'utf8').trim()) / 2 ** 20;
  }
  throw new Error(`no memory cgroup for pod ${uid} under ${cgroupRoot}`);
}

/** Every pod of `podsJson` (`kubectl get pods -o json`) with its limit, restarts and peak memory. */
export function podMemory(podsJson: string, cgroupRoot: string): PodMemory[] {
  return (JSON.parse(podsJson) as PodList).items.map((item) => {
    const status = item.status.containerStatuses?.[0];
    const limit = item.spec.containers[0].resources?.limits?.memory;
    if (!limit) throw new Error(`${item.metadata.name} has no memory limit`);
    return {
      service: item.metadata.labels['app.kubernetes.io/component'],
      pod: item.metadata.name,
      limitMiB: quantityMiB(limit),
      restarts: status?.restartCount ?? 0,
      lastTerminated: status?.lastState?.terminated?.reason ?? null,
      peakMiB: Math.round(podPeakMiB(item.metadata.uid, cgroupRoot)),
    };
  });
}
