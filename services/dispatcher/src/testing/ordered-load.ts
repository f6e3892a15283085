import type { Bus } from '@hookrail/bus';
import type { ProjectId } from '@hookrail/domain';
import type { Store } from '@hookrail/store';
import {
  eventMessage,
  makeEndpoint,
  makeProject,
  makeSource,
  makeSubscription,
  startReceiver,
  type Receiver,
} from '@hookrail/testkit';

/** One request the receiver answered. */
export interface Arrival {
  key: string;
  n: number;
  deliveryId: string;
  ok: boolean;
  at: number;
}

/** What an ordered run's body carries: its key and its place in acceptance order. */
interface OrderedBody {
  order: { key: string; n: number };
}

/**
 * A receiver that answers 500 to the first attempt of every `failEvery`-th event (by acceptance
 * number) and records every request per key, for the ordered-delivery tests.
 */
export async function startOrderedReceiver(failEvery: number, down?: () => boolean) {
  const arrivals: Arrival[] = [];
  const attempted = new Set<number>();
  const receiver: Receiver = await startReceiver({
    countOnly: true,
    respond: (req) => {
      const { key, n } = (JSON.parse(req.body) as OrderedBody).order;
      const first = !attempted.has(n);
      attempted.add(n);
      const ok = !(down?.() ?? false) && !(first && n % failEvery === 0);
      arrivals.push({ key, n, deliveryId: req.headers['x-hookrail-delivery-id'], ok, at: Date.now() });
      return ok ? { status: 200, body: 'ok' } : { status: 500, body: 'failing on purpose' };
    },
  });
  return { receiver, arrivals };
}

/** A project whose one endpoint is subscribed to its source with the given ordering. */
export async function orderedProject(
  store: Store,
  url: string,
  ordering: NonNullable<Parameters<typeof makeSubscription>[2]['ordering']>,
  retry = { type: 'linear' as const, duration: 1, retry_count: 60 },
) {
  // Failures cluster under key ordering: each key moves on until its next failing event, so the
  // attempts made while the failed heads wait for their retries are mostly failures. The default
  // breaker (10 failures in a row) would then hold every key for its 30 s probe interval, which is
  // not what these tests look at (docs/ordered-delivery.md says so for operators).
  const projectId = await makeProject(store, {
    strategy: retry,
    circuit_breaker: { consecutive_failures: 1000 },
  });
  const source = await makeSource(store, projectId, { name: 'ordered source' });
  const endpoint = await makeEndpoint(store, projectId, { url, secrets: [] });
  await makeSubscription(store, projectId, {
    source_id: source._id,
    endpoint_id: endpoint._id,
    retry_config: retry,
    ordering,
  });
  return { projectId, sourceId: source._id, endpointId: endpoint._id };
}

/**
 * The key-ordered runs' set-up: a receiver failing the first attempt of every third event (closed
 * by the caller) and a project whose subscription orders by `order.key`.
 */
export async function keyOrderedTarget(store: Store) {
  const { receiver, arrivals } = await startOrderedReceiver(3);
  const target = await orderedProject(store, `${receiver.url}/hook`, {
    mode: 'key',
    key: { body_path: 'order.key' },
    unblock_on: ['failure', 'discarded'],
  });
  return { receiver, arrivals, target };
}

/**
 * Publishes `count` events over `keys` keys into the events topic as an intake does for a project
 * that orders (`ordered: true`), in batches, each batch acknowledged before the next is sent.
 */
export async function publishOrdered(
  bus: Bus,
  target: { projectId: ProjectId; sourceId: string },
  count: number,
  keys: number,
  opts: { batch?: number; from?: number } = {},
): Promise<void> {
  const publisher = await bus.connectPublisher();
  const batch = opts.batch ?? 50;
  const from = opts.from ?? 0;
  for (let start = from; start < from + count; start += batch) {
    const messages = Array.from({ length: Math.min(batch, from + count - start) }, (_, i) => {
      const n = start + i;
      const data = { order: { key: `k${n % keys}`, n } };
      return eventMessage(target.projectId, {
        source_id: target.sourceId,
        data,
        raw: JSON.stringify(data),
        ordered: true,
      });
    });
    await publisher.publish('events', messages);
  }
}

/** Per key, the acceptance numbers of the successful arrivals, in the order they arrived. */
export function successesByKey(arrivals: readonly Arrival[]): Map<string, number[]> {
  const byKey = new Map<string, number[]>();
  for (const a of arrivals) {
    if (!a.ok) continue;
    const list = byKey.get(a.key) ?? [];
    list.push(a.n);
    byKey.set(a.key, list);
  }
  return byKey;
}

/**
 * Keys whose successful arrivals went backwards (a later event's success before an earlier one's,
 * or a duplicate of an earlier event after a later one): each with its sequence.
 */
export function outOfOrder(arrivals: readonly Arrival[]): { key: string; sequence: number[] }[] {
  return [...successesByKey(arrivals)]
    .filter(([, ns]) => ns.some((n, i) => i > 0 && n < ns[i - 1]))
    .map(([key, sequence]) => ({ key, sequence }));
}

/** Acceptance numbers below `count` with no successful arrival. */
export function missing(arrivals: readonly Arrival[], count: number): number[] {
  const done = new Set(arrivals.filter((a) => a.ok).map((a) => a.n));
  return Array.from({ length: count }, (_, n) => n).filter((n) => !done.has(n));
}

/**
 * Pairs showing keys do not wait on each other: an event that was accepted after a failed one of
 * another key but succeeded before that failed one finally did.
 */
export function overtakes(arrivals: readonly Arrival[]): number {
  const successAt = new Map<number, { key: string; at: number }>();
  for (const a of arrivals) if (a.ok && !successAt.has(a.n)) successAt.set(a.n, { key: a.key, at: a.at });
  const failed = [...new Set(arrivals.filter((a) => !a.ok).map((a) => a.n))];
  let count = 0;
  for (const f of failed) {
    const done = successAt.get(f);
    if (!done) continue;
    for (const [n, s] of successAt) if (n > f && s.key !== done.key && s.at < done.at) count++;
  }
  return count;
}
