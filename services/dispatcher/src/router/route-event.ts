import type { DeliveryMessage, EventMessage, Publisher } from '@hookrail/bus';
import type { FunctionRunner } from '@hookrail/functions';
import { deliveryId, eventStatusFrom, matchSubscriptions } from '@hookrail/routing';
import type { DeliveryDoc, EventDoc, Store, SubscriptionDoc } from '@hookrail/store';
import type { Logger, Metrics } from '@hookrail/telemetry';
import { Coalescer } from '../shared/coalescer';
import type { ConfigCache } from '../shared/config-cache';
import type { RecentEvents } from '../shared/recent-events';
import { eventDocument } from './persist-event';

export interface RouterDeps {
  store: Store;
  config: ConfigCache;
  events: RecentEvents;
  functions: FunctionRunner;
  publisher: Publisher;
  logger: Logger;
  metrics: Metrics;
}

/**
 * The router stage: an accepted event → the event document and one delivery per matching
 * subscription, then the delivery messages. Every write is keyed by a deterministic id, so a
 * redelivered event message repeats the work without creating anything twice.
 */
export function createRouter(deps: RouterDeps): (m: EventMessage) => Promise<void> {
  const eventWrites = new Coalescer<EventDoc>((docs) => deps.store.events.insertManyIfAbsent(docs));
  const deliveryWrites = new Coalescer<DeliveryDoc>((docs) => deps.store.deliveries.insertManyIfAbsent(docs));
  const routed = deps.metrics.counter('hookrail_events_routed_total', 'Events routed, by outcome', [
    'outcome',
  ]);

  return async function route(m: EventMessage): Promise<void> {
    const log = deps.logger.child({ project_id: m.project_id, event_id: m.event_id });
    if (m.idempotency_key) {
      const owner = await deps.store.events.claimIdempotencyKey(m.project_id, m.idempotency_key, m.event_id);
      if (owner !== m.event_id) {
        routed.inc({ outcome: 'duplicate' });
        await eventWrites.submit(
          eventDocument(m, {
            status: 'Success',
            reason: `duplicate of event ${owner}: not delivered`,
            endpoints: [],
            duplicate: true,
          }),
        );
        return;
      }
    }

    const data = m.data !== undefined ? m.data : parseJson(m.raw);
    const [project, subscriptions, owners] = await Promise.all([
      deps.config.project(m.project_id),
      deps.config.subscriptions(m.project_id),
      m.target.mode === 'fanout'
        ? deps.config.endpointIdsOfOwner(m.project_id, m.target.owner_id)
        : undefined,
    ]);
    if (!project) {
      routed.inc({ outcome: 'no_project' });
      await eventWrites.submit(
        eventDocument(m, { status: 'Failure', reason: 'project not found', endpoints: [] }),
      );
      return;
    }
    const matched = matchSubscriptions(
      { source_id: m.source_id, event_type: m.event_type, target: m.target, data, headers: m.headers },
      subscriptions,
      owners,
    );
    const deliveries: DeliveryDoc[] = [];
    for (const sub of matched) {
      const d = await buildDelivery(deps, m, sub, data);
      if (d) deliveries.push(d);
    }
    for (const d of deliveries) d.metadata = { siblings: deliveries.length };
    await Promise.all(deliveries.map((d) => deliveryWrites.submit(d)));

    const endpoints = [...new Set(deliveries.map((d) => d.endpoint_id))];
    const status = deliveries.length === 0 ? 'Failure' : eventStatusFrom(deliveries.map((d) => d.status));
    const reason = deliveries.length === 0 ? 'no subscription matched the event' : null;
    await eventWrites.submit(eventDocument(m, { status, reason, endpoints }));
    routed.inc({ outcome: deliveries.length === 0 ? 'unmatched' : 'matched' });
    deps.events.remember(m.project_id, {
      _id: m.event_id,
      event_type: m.event_type,
      raw: m.raw,
      forward_headers_json: JSON.stringify(m.forward_headers ?? {}),
      idempotency_key: m.idempotency_key ?? null,
      acknowledged_at: new Date(m.accepted_at),
    });
    const messages: DeliveryMessage[] = deliveries
      .filter((d) => d.status === 'Scheduled')
      .map((d) => ({
        delivery_id: d._id,
        project_id: m.project_id,
        endpoint_id: d.endpoint_id,
        event_id: m.event_id,
        reason: 'initial',
      }));
    await deps.publisher.publish('deliveries', messages);
    log.debug({ deliveries: deliveries.length }, 'event routed');
  };
}

async function buildDelivery(
  deps: RouterDeps,
  m: EventMessage,
  sub: SubscriptionDoc,
  data: unknown,
): Promise<DeliveryDoc | null> {
  const endpoint = await deps.config.endpoint(m.project_id, sub.endpoint_id);
  if (!endpoint) return null;
  let status: DeliveryDoc['status'] = endpoint.status === 'inactive' ? 'Discarded' : 'Scheduled';
  let reason: string | null = endpoint.status === 'inactive' ? 'endpoint is inactive' : null;
  let payload: string | null = null;
  if (sub.function && status === 'Scheduled') {
    const r = deps.functions.run(sub.function, data, { scope: m.project_id });
    if (r.kind === 'ok') payload = JSON.stringify(r.value);
    else {
      status = 'Failure';
      reason = `subscription function failed: ${r.message}`;
    }
  }
  const now = new Date();
  return {
    _id: deliveryId(m.event_id, sub._id, Date.parse(m.accepted_at) || now.getTime()),
    project_id: m.project_id,
    event_id: m.event_id,
    endpoint_id: endpoint._id,
    subscription_id: sub._id,
    source_id: m.source_id ?? null,
    event_type: m.event_type,
    status,
    delivery_mode: sub.delivery_mode ?? 'at_least_once',
    payload,
    attempts_made: 0,
    retries_used: 0,
    next_attempt_at: null,
    status_reason: reason,
    attempts: [],
    metadata: {},
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
