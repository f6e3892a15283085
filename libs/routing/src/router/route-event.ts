import { DEFAULT_MAX_ATTEMPTS, type DeliveryMessage, type EventMessage, type Publisher } from '@hookrail/bus';
import { isDependencyOutage, isRetriable, type ProjectId } from '@hookrail/domain';
import { Coalescer, RECORD_WRITES } from '@hookrail/toolbox';
import type { FunctionPool } from '@hookrail/functions';
import {
  eventStatusFrom,
  type ConfigCache,
  type DeliveryDoc,
  type EventDoc,
  type IdempotencyClaim,
  type Store,
  type SubscriptionDoc,
} from '@hookrail/store';
import type { Logger, Metrics } from '@hookrail/telemetry';
import { catchAllSubscriptionId, endpointsWithoutSubscription } from '../catch-all';
import { matchSubscriptions } from '../match-subscriptions';
import { ENDPOINT_NOT_FOUND, explainUnrouted, type Unrouted } from '../unrouted';
import { orderingKeyOf } from '../ordering-key';
import { firstSendMessage, plannedDelivery } from './delivery-plan';
import { OrderedHandOff, type Turn } from './ordered-hand-off';
import { eventDocument } from './event-document';
import type { EndpointEventCounts } from './endpoint-event-counts';

export interface RouterDeps {
  store: Store;
  config: ConfigCache;
  /** A catch-all subscription was made: every replica's cache must see it. */
  configChanged?: (projectId: ProjectId) => Promise<void>;
  functions: FunctionPool;
  publisher: Publisher;
  /** Each endpoint's `events` statistic; the wiring flushes it at stop. */
  eventCounts: Pick<EndpointEventCounts, 'add'>;
  /**
   * Publishes ordered deliveries: one produce request at a time, in order (Bus
   * connectInOrderPublisher). Default: `publisher`.
   */
  inOrderPublisher?: Publisher;
  /**
   * Hands the first sends on; resolves once each is sent and recorded or on the deliveries topic.
   * Default: publish them all (the dispatcher sends those of endpoints it owns itself). A send that
   * must wait long for its endpoint calls `leaveWindow`: the event's message stops counting among
   * those the router handles at once (its offset waits for the send all the same).
   */
  deliver?: Deliver;
  logger: Logger;
  metrics: Metrics;
}

type Deliver = (messages: DeliveryMessage[], leaveWindow?: () => void) => Promise<void>;

/** Where a routed event's message is: its partition and offset, and its way out of the window. */
type At = { partition: number; offset: string; leaveWindow?: () => void };

/** The router's batched writes, publishers and counters, made once per router. */
interface RouterParts {
  claims: Coalescer<IdempotencyClaim, string>;
  eventWrites: Coalescer<EventDoc>;
  deliveryWrites: Coalescer<DeliveryDoc>;
  deliver: Deliver;
  inOrder: Publisher;
  ordered: OrderedHandOff;
  routed: ReturnType<Metrics['counter']>;
  unrouted: ReturnType<Metrics['counter']>;
}

/**
 * The router stage: an accepted event → its event document and one delivery per matching
 * subscription. A delivery to be sent goes out as a message carrying everything its first send
 * needs; its document is written by the sender together with the first attempt. The event
 * document is written beside the publish, not before it, and the offset is committed once both
 * are done. Every write and message is keyed by a deterministic id, so a redelivered event
 * message repeats the work without creating anything twice.
 */
export function createRouter(deps: RouterDeps): (m: EventMessage, at?: At) => Promise<void> {
  const parts = routerParts(deps);
  return async function route(m: EventMessage, at?: At): Promise<void> {
    // Taken before anything is awaited, so an ordered project's events keep their partition order.
    const turn = m.ordered && at ? parts.ordered.take(at.partition, at.offset) : null;
    try {
      await routeInTurn(deps, parts, m, { turn, leaveWindow: at?.leaveWindow });
      turn?.pass();
    } catch (err) {
      // The consumer tries a retriable failure again (the turn waits for it) until it gives up.
      const givenUp =
        !isRetriable(err) || (!isDependencyOutage(err) && (turn?.failed() ?? 0) >= DEFAULT_MAX_ATTEMPTS);
      if (givenUp) turn?.pass();
      throw err;
    }
  };
}

function routerParts(deps: RouterDeps): RouterParts {
  // One claim write at a time: keys are claimed in the order their events were routed, which for
  // one key is the order of acceptance (the events topic keys such events by it).
  const claims = new Coalescer<IdempotencyClaim, string>((c) => deps.store.events.claimIdempotencyKeys(c), {
    maxInFlight: 1,
  });
  const eventWrites = new Coalescer<EventDoc>(
    (docs) => deps.store.events.insertManyIfAbsent(docs),
    RECORD_WRITES,
  );
  const deliveryWrites = new Coalescer<DeliveryDoc>(
    (docs) => deps.store.deliveries.insertManyIfAbsent(docs),
    RECORD_WRITES,
  );
  const deliver = deps.deliver ?? ((messages) => deps.publisher.publish('deliveries', messages));
  // Ordered deliveries are always published (never sent by this process at once): the sender
  // that owns their endpoint sees them in one order, the order of the deliveries partition.
  const inOrder = deps.inOrderPublisher ?? deps.publisher;
  const ordered = new OrderedHandOff((messages) => inOrder.publish('deliveries', messages));
  const routed = deps.metrics.counter('hookrail_events_routed_total', 'Events routed, by outcome', [
    'outcome',
  ]);
  const unrouted = deps.metrics.counter(
    'hookrail_events_unrouted_total',
    'Events that reached no endpoint, by reason',
    ['reason'],
  );
  return { claims, eventWrites, deliveryWrites, deliver, inOrder, ordered, routed, unrouted };
}

async function routeInTurn(
  deps: RouterDeps,
  parts: RouterParts,
  m: EventMessage,
  { turn, leaveWindow }: { turn: Turn | null; leaveWindow?: () => void },
): Promise<void> {
  if (await recordedAsDuplicate(parts, m)) return;

  const data = m.data !== undefined ? m.data : parseJson(m.raw);
  // The configuration as of the newest barrier before this event on its partition (every change
  // whose API call returned before the event was accepted); its token goes with the deliveries so
  // the sender can tell a change made between routing and sending.
  const configVersion = deps.config.tokenOf(m.project_id);
  const [project, configured, owners] = await Promise.all([
    deps.config.project(m.project_id),
    deps.config.subscriptions(m.project_id),
    m.target.mode === 'fanout' ? deps.config.endpointIdsOfOwner(m.project_id, m.target.owner_id) : undefined,
  ]);
  if (!project) {
    // A deleted project: nothing of it is recorded or delivered any more (its data is purged).
    parts.routed.inc({ outcome: 'no_project' });
    deps.logger.debug(
      { project_id: m.project_id, event_id: m.event_id },
      'event of a deleted project dropped',
    );
    return;
  }
  const subscriptions = [
    ...configured,
    ...(await catchAllSubscriptions(deps, m, endpointsWithoutSubscription(m.target, configured, owners))),
  ];
  const matched = matchSubscriptions(
    { source_id: m.source_id, event_type: m.event_type, target: m.target, data, headers: m.headers },
    subscriptions,
    owners,
  );
  const deliveries = await buildDeliveries(deps, m, matched, data);
  const why =
    deliveries.length > 0
      ? null
      : matched.length > 0
        ? ENDPOINT_NOT_FOUND
        : explainUnrouted(m, subscriptions, owners);
  await recordAndSend(deps, parts, { m, turn, deliveries, why, configVersion, leaveWindow });
}

/**
 * Claims the event's idempotency key; when another event holds it, records this one as its
 * duplicate (not delivered) and answers true.
 */
async function recordedAsDuplicate(parts: RouterParts, m: EventMessage): Promise<boolean> {
  if (!m.idempotency_key) return false;
  const owner = await parts.claims.submit({
    projectId: m.project_id,
    key: m.idempotency_key,
    eventId: m.event_id,
  });
  if (owner === m.event_id) return false;
  parts.routed.inc({ outcome: 'duplicate' });
  await parts.eventWrites.submit(
    eventDocument(m, {
      status: 'Success',
      reason: `duplicate of event ${owner}: not delivered`,
      endpoints: [],
      duplicate: true,
    }),
  );
  return true;
}

async function buildDeliveries(
  deps: RouterDeps,
  m: EventMessage,
  matched: SubscriptionDoc[],
  data: unknown,
): Promise<DeliveryDoc[]> {
  // Subscription functions run in the worker pool: all of the event's at once, order kept.
  const deliveries = (await Promise.all(matched.map((sub) => buildDelivery(deps, m, sub, data)))).filter(
    (d): d is DeliveryDoc => d !== null,
  );
  for (const d of deliveries) d.metadata = { ...d.metadata, siblings: deliveries.length };
  return deliveries;
}

/** The event document and the decided deliveries written, the endpoints counted, the first sends handed on. */
async function recordAndSend(
  deps: RouterDeps,
  parts: RouterParts,
  r: {
    m: EventMessage;
    turn: Turn | null;
    deliveries: DeliveryDoc[];
    why: Unrouted | null;
    configVersion: string;
    leaveWindow?: () => void;
  },
): Promise<void> {
  const { m, turn, deliveries, why } = r;
  const toSend = deliveries.filter((d) => d.status === 'Scheduled');
  // Deliveries decided here (discarded, failed function) are recorded at once; the others by the sender.
  const decided = deliveries.filter((d) => d.status !== 'Scheduled');
  const endpoints = [...new Set(deliveries.map((d) => d.endpoint_id))];
  const eventDoc = eventDocument(m, {
    status: eventStatusFrom(deliveries.map((d) => d.status)),
    reason: why?.reason ?? null,
    endpoints,
    deliveries: deliveries.length,
  });
  if (why) {
    parts.unrouted.inc({ reason: why.code });
    deps.logger.info(
      { project_id: m.project_id, event_id: m.event_id, event_type: m.event_type, reason: why.reason },
      'event reached no endpoint',
    );
  }
  const messages = toSend.map((d) => firstSendMessage(m, d, r.configVersion));
  const keyed = messages.filter((d) => d.first_send?.ordering_key !== undefined);
  await Promise.all([
    parts.eventWrites.submit(eventDoc),
    ...decided.map((d) => parts.deliveryWrites.submit(d)),
    parts.deliver(
      messages.filter((d) => d.first_send?.ordering_key === undefined),
      r.leaveWindow,
    ),
    turn ? turn.handOff(keyed) : parts.inOrder.publish('deliveries', keyed),
  ]);
  // Counted once the event is recorded: a write that fails is tried again with the message.
  for (const id of endpoints) deps.eventCounts.add(m.project_id, id);
  parts.routed.inc({ outcome: deliveries.length === 0 ? 'unmatched' : 'matched' });
  deps.logger.debug(
    { project_id: m.project_id, event_id: m.event_id, deliveries: deliveries.length },
    'event routed',
  );
}

/**
 * The catch-all subscriptions of endpoints the event aims at that have none (rule and id in
 * catch-all.ts), made live on first use. The project's cached subscriptions are dropped so the
 * next event sees them.
 */
async function catchAllSubscriptions(
  deps: RouterDeps,
  m: EventMessage,
  endpointIds: string[],
): Promise<SubscriptionDoc[]> {
  const made: SubscriptionDoc[] = [];
  for (const id of endpointIds) {
    const endpoint = await deps.config.endpoint(m.project_id, id);
    if (!endpoint) continue;
    made.push(
      await deps.store.subscriptions.ensureLive(m.project_id, {
        _id: catchAllSubscriptionId(id, endpoint.created_at),
        name: `${endpoint.name} (all events)`,
        type: 'api',
        source_id: null,
        endpoint_id: id,
        app_id: null,
        delivery_mode: 'at_least_once',
        function: null,
        alert_config: null,
        rate_limit_config: null,
        filter_config: { event_types: ['*'], filter: { body_json: '{}', headers_json: '{}' } },
        retry_config: null,
      }),
    );
    deps.logger.info(
      { project_id: m.project_id, endpoint_id: id, event_id: m.event_id },
      'catch-all subscription made for an endpoint without subscriptions',
    );
  }
  if (made.length > 0) {
    if (deps.configChanged) await deps.configChanged(m.project_id);
    else deps.config.invalidate(m.project_id);
  }
  return made;
}

async function buildDelivery(
  deps: RouterDeps,
  m: EventMessage,
  sub: SubscriptionDoc,
  data: unknown,
): Promise<DeliveryDoc | null> {
  const endpoint = await deps.config.endpoint(m.project_id, sub.endpoint_id);
  if (!endpoint) return null;
  const transformed =
    sub.function && endpoint.status !== 'inactive'
      ? await deps.functions.run(sub.function, data, { scope: m.project_id })
      : null;
  const planned = plannedDelivery(m, sub, endpoint, transformed, new Date());
  const orderingKey = orderingKeyOf(sub, { data, headers: m.headers });
  if (orderingKey !== null) planned.metadata.ordering_key = orderingKey;
  return planned;
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
