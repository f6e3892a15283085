import type { DeliveryMessage, Publisher } from '@hookrail/bus';
import { type SecretBox } from '@hookrail/domain';
import { boundedLru } from '@hookrail/toolbox';
import type { HttpClient, OAuth2TokenCache } from '@hookrail/outbound';
import type { AttemptResult } from '@hookrail/retry';
import type { ConfigCache, DeliveryDoc, Store } from '@hookrail/store';
import type { Logger, Metrics } from '@hookrail/telemetry';
import { OutcomeRecorder, type DeliveryStatsSink } from '../outcome/outcome-recorder';
import { createAttempt, type Attempt } from './attempt';
import type { EventForDelivery } from './build-request';
import type { DestinationDeps } from './destinations/destination';
import { consultGates, type Gate, type GateContext } from './gates';
import type { EndpointLanes, LaneSlot } from './endpoint-lanes';
import { subscriptionChangeReason } from './still-routed';
import {
  FINAL_STATUSES,
  fromFirstSend,
  loadForSend,
  routedUnderOlderConfig,
  type LoadedDelivery,
} from './load-delivery';
import type { CliRelayDeps } from './relay-to-listener';
import { coalescedSendReads, type SendReads } from './send-reads';
import type { RetryStates } from './retry-states';
import type { DeliveryOrdering } from '../ordering/delivery-ordering';
import type { Place } from '../ordering/key-locks';

export interface SenderDeps {
  store: Store;
  config: ConfigCache;
  http: HttpClient;
  tokens: OAuth2TokenCache;
  box: SecretBox;
  publisher: Publisher;
  /** Counts every recorded outcome for the charts (one buffer per process, flushed on stop). */
  stats: DeliveryStatsSink;
  logger: Logger;
  metrics: Metrics;
  gates: readonly Gate[];
  /** Told about every attempt once its outcome is recorded (endpoint health: breaker, 410, alerts). */
  afterAttempt?: (ctx: GateContext, result: AttemptResult) => Promise<void>;
  /** Broker endpoints (docs/destinations.md); without it such a delivery is not sent. */
  destinations?: DestinationDeps;
  /** `cli` endpoints (`hookrail listen`, docs/cli.md); without it such a delivery is not sent. */
  cliRelay?: CliRelayDeps;
  /** Ordered delivery (docs/ordered-delivery.md); without it every delivery is sent as it comes. */
  ordering?: DeliveryOrdering;
  /** One info line per attempt (HOOKRAIL_LOG_ATTEMPTS); at debug level otherwise. */
  logAttempts?: boolean;
  /**
   * Per-endpoint concurrency (docs/isolation.md): a delivery over its endpoint's cap is parked
   * through the retry scheduler instead of holding a slot; without it, no cap.
   */
  lanes?: EndpointLanes;
  /**
   * Where this process's retried deliveries stand (retry-states.ts); the owner must `forget` it at
   * every rebalance. Without it every send again reads the delivery's appended outcomes.
   */
  retryStates?: RetryStates;
  now?: () => number;
}

/** at_most_once: a request may have reached the endpoint, so it is never sent again. */
const INTERRUPTED = {
  status: 'Failure',
  reason: 'interrupted while sending (at_most_once: not sent again)',
} as const;

/**
 * Sends one delivery message. `attemptEnded` is called once its attempt's request has its answer
 * (or failed), before the outcome is recorded; not at all when no attempt is made.
 */
export type SendDelivery = (
  m: DeliveryMessage,
  attemptEnded?: () => void,
  leaveWindow?: () => void,
) => Promise<void>;

/** What every step of a send shares. */
interface Sender {
  deps: SenderDeps;
  now: () => number;
  recorder: OutcomeRecorder;
  reads: SendReads;
  attempt: Attempt;
  /** Sends of this process not ended yet, by delivery id. */
  inFlight: Map<string, Promise<void>>;
  /** First sends this process recorded (see createSender). */
  firstSent: { has(id: string): boolean; set(id: string, value: true): unknown };
  /** Deliveries parked because their endpoint was at its cap, by lane. */
  parked: { inc(labels: { lane: string }): void };
}

/**
 * The sender stage: one delivery message → at most one attempt (an HTTP request, a publish to a
 * broker endpoint's broker, a relay to `hookrail listen`: the destination of the endpoint's kind),
 * recorded before the offset is committed. It never waits for a retry: a failed attempt goes to
 * the retries topic.
 */
export function createSender(deps: SenderDeps): SendDelivery {
  const now = deps.now ?? Date.now;
  const ordering = deps.ordering;
  const recorder = new OutcomeRecorder({
    ...deps,
    onRecorded: ordering && ((delivery, status) => ordering.recorded(delivery, status)),
  });
  // Deliveries are keyed by endpoint, so copies of one delivery message reach this process: the
  // second waits for the first and then finds its outcome instead of sending again. A first send
  // reads nothing, so the first sends this process recorded are remembered: a redelivered copy
  // (a rebalance, a router that crashed after publishing) is dropped. Only a crash of this
  // process forgets them, and then the copy is sent again with the same delivery id. A held
  // delivery comes back as a first send `released`, which is not a copy.
  const sender: Sender = {
    deps,
    now,
    recorder,
    reads: coalescedSendReads(deps.store, deps.retryStates),
    attempt: createAttempt({ ...deps, now }, recorder),
    inFlight: new Map(),
    firstSent: boundedLru<string, true>(200_000),
    parked: deps.metrics.counter(
      'hookrail_deliveries_parked_total',
      'Deliveries parked (not attempted, no retry spent) because their endpoint was at its concurrency cap, by lane',
      ['lane'],
    ),
  };
  const sendOnce: SendDelivery = (m, attemptEnded, leaveWindow) =>
    sendOnceHere(sender, m, attemptEnded, leaveWindow);
  ordering?.sendWith((m) => sendOnce(m));
  return sendOnce;
}

/** One send of a delivery at a time in this process, each first send once. */
async function sendOnceHere(
  s: Sender,
  m: DeliveryMessage,
  attemptEnded?: () => void,
  leaveWindow?: () => void,
): Promise<void> {
  const { ordering, logger } = s.deps;
  const running = s.inFlight.get(m.delivery_id);
  if (running) await running.catch(() => undefined);
  if (m.first_send && m.reason !== 'released' && s.firstSent.has(m.delivery_id)) return;
  // Taken before anything is awaited: an ordered first send's place follows the partition's order.
  const place = ordering?.place(m);
  const p = send(s, m, place, { attemptEnded, leaveWindow }).finally(() => {
    place?.release();
    s.inFlight.delete(m.delivery_id);
    // a head's attempt ended: what waited in memory behind it goes or is held (never awaited here)
    ordering
      ?.sent(m.delivery_id)
      .catch((err: unknown) => logger.warn({ err, delivery_id: m.delivery_id }, 'ordering: after a send'));
  });
  s.inFlight.set(m.delivery_id, p);
  await p;
  if (m.first_send) s.firstSent.set(m.delivery_id, true);
}

/** The steps of one send; each one that ends the delivery here (recorded, held, dropped) stops it. */
async function send(
  s: Sender,
  m: DeliveryMessage,
  place: Place | undefined,
  { attemptEnded, leaveWindow }: { attemptEnded?: () => void; leaveWindow?: () => void },
): Promise<void> {
  // Only a retry is this process's own doing: a resend or a release was written by another.
  if (m.reason !== 'retry') s.deps.retryStates?.forget({ projectId: m.project_id, id: m.delivery_id });
  // Before the delivery is read: a deleted project's retries and held deliveries keep coming back
  // until they are due, and its project is one cached read where each delivery is one of its own.
  if (!m.first_send && !(await s.deps.config.project(m.project_id))) return void ofDeletedProject(s, m);
  const loaded = m.first_send ? fromFirstSend(m, m.first_send) : await loadForSend(s.reads, m);
  const toSend = await sendable(s, m, loaded);
  if (!toSend || !(await admitted(s, m, toSend.delivery, place))) return;
  const gate = await configured(s, m, toSend.delivery);
  if (!gate) return;
  const taken = await laneSlot(s, gate, leaveWindow);
  if (!taken) return;
  const { slot } = taken;
  try {
    // A wait for the slot may have been long: a project or endpoint deleted meanwhile ends it here.
    const current = taken.waited ? await configured(s, m, toSend.delivery) : gate;
    if (!current || !(await passesGates(s, current))) return;
    const event = await mayAttempt(s, toSend.delivery, toSend.event);
    const ended = () => {
      slot.ended();
      attemptEnded?.();
    };
    if (event) await s.attempt(current, event, ended);
  } finally {
    slot.release();
  }
}

const NO_LANES = {
  slot: { lane: 'fast', ended: () => undefined, release: () => undefined } as LaneSlot,
  waited: false,
};

/**
 * A slot among its endpoint's attempts (taken before the gates, so a parked delivery spends no
 * rate-limit token or breaker probe), and whether the delivery waited for it; null when the
 * delivery is parked like a gate's hold, no attempt made and no retry spent (docs/isolation.md).
 */
async function laneSlot(
  s: Sender,
  gate: GateContext,
  leaveWindow?: () => void,
): Promise<{ slot: LaneSlot; waited: boolean } | null> {
  const { lanes } = s.deps;
  if (!lanes) return NO_LANES;
  const pending = lanes.acquire(gate.delivery.endpoint_id, leaveWindow);
  const taken = await pending;
  if ('release' in taken) {
    // An attempt to an endpoint not known to answer fast may take its whole time-out: the lanes
    // bound such attempts, so it need not hold its message's place in the window meanwhile.
    if (taken.lane !== 'fast') leaveWindow?.();
    return { slot: taken, waited: pending instanceof Promise };
  }
  s.parked.inc({ lane: taken.lane });
  const hold = { kind: 'hold', reason: 'rate_limited', detail: taken.detail } as const;
  await s.recorder.hold(gate.delivery, { ...hold, untilMs: s.now() + taken.delayMs });
  return null;
}

const fields = (m: DeliveryMessage) => ({
  project_id: m.project_id,
  delivery_id: m.delivery_id,
  endpoint_id: m.endpoint_id,
  event_id: m.event_id,
});

/** The loaded delivery and its event, unless the message only skips, re-hands a retry or ends it. */
async function sendable(
  s: Sender,
  m: DeliveryMessage,
  loaded: LoadedDelivery,
): Promise<{ delivery: DeliveryDoc; event: EventForDelivery | null } | null> {
  if (loaded.kind === 'skip') {
    if (loaded.reason) s.deps.logger.warn(fields(m), loaded.reason);
    return null;
  }
  const { delivery } = loaded;
  if (m.first_send) s.recorder.firstSend(delivery);
  if (loaded.kind === 'retry_recorded') await s.recorder.republishRetry(delivery);
  else if (loaded.kind === 'interrupted') await s.recorder.finish(delivery, INTERRUPTED, null);
  else return loaded;
  return null;
}

/** Ordered delivery: whether the delivery goes now, or is held behind its key (or done already). */
async function admitted(
  s: Sender,
  m: DeliveryMessage,
  delivery: DeliveryDoc,
  place?: Place,
): Promise<boolean> {
  if (!s.deps.ordering) return true;
  const admission = await s.deps.ordering.admit(m, delivery, place);
  if (admission.kind === 'held')
    s.deps.logger.debug({ ...fields(m), head: admission.head }, 'ordered delivery held behind its key');
  return admission.kind === 'send';
}

/**
 * What the gates are asked about: the delivery with its endpoint, project and subscription as
 * configured now; null when that ends the delivery (a deleted project, endpoint, or a subscription
 * that no longer routes it).
 */
async function configured(s: Sender, m: DeliveryMessage, delivery: DeliveryDoc): Promise<GateContext | null> {
  const { config } = s.deps;
  // The configuration as of the newest barrier this process was told of: at least every change
  // whose API call returned before this message was published.
  const [endpoint, project, subscription] = await Promise.all([
    config.endpoint(m.project_id, delivery.endpoint_id),
    config.project(m.project_id),
    config.subscription(m.project_id, delivery.subscription_id),
  ]);
  if (!project) return ofDeletedProject(s, m);
  if (!endpoint) return discarded(s, delivery, 'endpoint deleted');
  const changed = subscriptionChangeReason(
    subscription,
    delivery.endpoint_id,
    routedUnderOlderConfig(m, config.tokenOf(m.project_id)),
  );
  if (changed) return discarded(s, delivery, changed);
  return { message: m, delivery, endpoint, subscription, project, now: s.now() };
}

/** A deleted project's deliveries are dropped, not recorded (its data is being purged). */
function ofDeletedProject(s: Sender, m: DeliveryMessage): null {
  s.deps.logger.debug(fields(m), 'delivery of a deleted project dropped');
  return null;
}

/** The first gate that does not say send holds or discards the delivery. */
async function passesGates(s: Sender, ctx: GateContext): Promise<boolean> {
  const gate = await consultGates(s.deps.gates, ctx);
  if (gate.kind === 'discard') await discarded(s, ctx.delivery, gate.reason);
  else if (gate.kind === 'hold') await s.recorder.hold(ctx.delivery, gate);
  return gate.kind === 'send';
}

/**
 * The event, when an attempt may go: it is still stored, and an at_most_once delivery is marked as
 * on its way first (a marker found already means a request may have left: never again).
 */
async function mayAttempt(
  s: Sender,
  delivery: DeliveryDoc,
  event: EventForDelivery | null,
): Promise<EventForDelivery | null> {
  if (!event) return discarded(s, delivery, 'event deleted');
  if (delivery.delivery_mode !== 'at_most_once') return event;
  const before = await s.recorder.markProcessing(delivery);
  if (before === 'Processing') {
    await s.recorder.finish(delivery, INTERRUPTED, null);
    return null;
  }
  if (before && FINAL_STATUSES.has(before)) return null; // already done: a redelivered first send
  return event;
}

/** Records the delivery as Discarded without an attempt; null: nothing more to do. */
async function discarded(s: Sender, delivery: DeliveryDoc, reason: string): Promise<null> {
  await s.recorder.finish(delivery, { status: 'Discarded', reason }, null);
  return null;
}
