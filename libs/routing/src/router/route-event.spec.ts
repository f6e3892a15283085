import type { DeliveryMessage, EventMessage, Publisher } from '@hookrail/bus';
import type { ProjectId } from '@hookrail/domain';
import type { FunctionPool } from '@hookrail/functions';
import type {
  ConfigCache,
  DeliveryDoc,
  EndpointDoc,
  EventDoc,
  IdempotencyClaim,
  Store,
  SubscriptionDoc,
} from '@hookrail/store';
import { createLogger, Metrics } from '@hookrail/telemetry';
import { createRouter } from './route-event';

const P = 'p1' as ProjectId;
const subscription = (id: string, endpointId: string): SubscriptionDoc =>
  ({
    _id: id,
    source_id: 'src1',
    endpoint_id: endpointId,
    delivery_mode: 'at_least_once',
    function: null,
    filter_config: { event_types: ['*'], filter: { body_json: '{}', headers_json: '{}' } },
  }) as SubscriptionDoc;
const event = (over: Partial<EventMessage> = {}): EventMessage => ({
  event_id: '01J00000000000000000000EVT',
  project_id: P,
  event_type: 'invoice.paid',
  source_id: 'src1',
  target: { mode: 'source' },
  data: { amount: 42 },
  raw: '{"amount":42}',
  headers: {},
  accepted_at: '2026-01-01T00:00:00.000Z',
  ...over,
});

/** The router over in-memory configuration and recording fakes of the store and the publisher. */
function router(opts: {
  endpoints: Partial<EndpointDoc>[];
  subscriptions: SubscriptionDoc[];
  claimOwner?: string;
  claim?: (claims: IdempotencyClaim[]) => Promise<string[]>;
}) {
  const written = {
    events: [] as EventDoc[],
    deliveries: [] as DeliveryDoc[],
    published: [] as DeliveryMessage[],
    counted: [] as string[],
  };
  const store = {
    events: {
      claimIdempotencyKeys: opts.claim ?? (async (claims: unknown[]) => claims.map(() => opts.claimOwner)),
      insertManyIfAbsent: async (docs: EventDoc[]) => void written.events.push(...docs),
    },
    deliveries: { insertManyIfAbsent: async (docs: DeliveryDoc[]) => void written.deliveries.push(...docs) },
  } as unknown as Store;
  const config = {
    sync: async () => undefined,
    tokenOf: () => 'v1',
    project: async (id: ProjectId) => (id === P ? { _id: P } : null),
    subscriptions: async () => opts.subscriptions,
    endpoint: async (_p: ProjectId, id: string) => opts.endpoints.find((e) => e._id === id) ?? null,
    endpointIdsOfOwner: async () => new Set<string>(),
  } as unknown as ConfigCache;
  const publisher: Publisher = {
    publish: async (_topic, messages) => void written.published.push(...(messages as DeliveryMessage[])),
  };
  const route = createRouter({
    store,
    config,
    functions: {} as FunctionPool,
    publisher,
    eventCounts: { add: (_p: ProjectId, id: string) => void written.counted.push(id) },
    logger: createLogger({ service: 'test', level: 'silent' }),
    metrics: new Metrics('test', { defaultMetrics: false }),
  });
  return { route, written };
}

describe('createRouter', () => {
  it('makes one first send per matching subscription and records the event in flight', async () => {
    const { route, written } = router({
      endpoints: [
        { _id: 'ep1', status: 'active' },
        { _id: 'ep2', status: 'active' },
      ],
      subscriptions: [subscription('s1', 'ep1'), subscription('s2', 'ep2')],
    });
    await route(event());
    expect(written.published.map((m) => [m.endpoint_id, m.reason, m.first_send?.siblings])).toEqual([
      ['ep1', 'initial', 2],
      ['ep2', 'initial', 2],
    ]);
    expect(written.deliveries).toEqual([]);
    expect(written.events).toHaveLength(1);
    expect(written.events[0]).toMatchObject({
      status: 'Processing',
      endpoints: ['ep1', 'ep2'],
      delivery_count: 2,
    });
    expect(written.counted).toEqual(['ep1', 'ep2']); // each endpoint's `events` statistic
  });

  it('records a delivery to an inactive endpoint as Discarded at once, and sends nothing', async () => {
    const { route, written } = router({
      endpoints: [{ _id: 'ep1', status: 'inactive' }],
      subscriptions: [subscription('s1', 'ep1')],
    });
    await route(event());
    expect(written.published).toEqual([]);
    expect(written.deliveries.map((d) => d.status)).toEqual(['Discarded']);
    expect(written.events[0].status).toBe('Failure');
  });

  it('says why an event reached no endpoint', async () => {
    const { route, written } = router({ endpoints: [], subscriptions: [] });
    await route(event());
    expect(written.published).toEqual([]);
    expect(written.events[0]).toMatchObject({ status: 'Failure', endpoints: [], delivery_count: 0 });
    expect(written.events[0].status_reason).toEqual(expect.any(String));
  });

  it('records a duplicate of an idempotency key without delivering it', async () => {
    const { route, written } = router({
      endpoints: [{ _id: 'ep1', status: 'active' }],
      subscriptions: [subscription('s1', 'ep1')],
      claimOwner: '01J00000000000000000000FST',
    });
    await route(event({ idempotency_key: 'k1' }));
    expect(written.published).toEqual([]);
    expect(written.events[0]).toMatchObject({
      is_duplicate_event: true,
      status: 'Success',
      status_reason: 'duplicate of event 01J00000000000000000000FST: not delivered',
    });
    expect(written.counted).toEqual([]);
  });

  it('claims a key for the first event routed with it: claim writes never overlap', async () => {
    // A database may finish a later write first: here the first write takes 20 ms, the next none.
    const owners = new Map<string, string>();
    const durations = [20, 0];
    let overlapping = 0;
    let mostOverlapping = 0;
    const claim = async (claims: IdempotencyClaim[]) => {
      mostOverlapping = Math.max(mostOverlapping, ++overlapping);
      await new Promise((r) => setTimeout(r, durations.shift() ?? 0));
      overlapping--;
      return claims.map((c) => owners.get(c.key) ?? (owners.set(c.key, c.eventId), c.eventId));
    };
    const { route, written } = router({
      endpoints: [{ _id: 'ep1', status: 'active' }],
      subscriptions: [subscription('s1', 'ep1')],
      claim,
    });
    const first = route(event({ event_id: 'evt-first', idempotency_key: 'k1' }));
    await new Promise((r) => setImmediate(r)); // the first claim's write has started
    const repeat = route(event({ event_id: 'evt-repeat', idempotency_key: 'k1' }));
    await Promise.all([first, repeat]);
    expect(mostOverlapping).toBe(1);
    const stored = (id: string) => written.events.find((e) => e._id === id);
    expect(stored('evt-first')).toMatchObject({ is_duplicate_event: false });
    expect(stored('evt-repeat')).toMatchObject({ is_duplicate_event: true });
    expect(written.published.map((d) => d.event_id)).toEqual(['evt-first']);
  });

  it('drops an event of a deleted project', async () => {
    const { route, written } = router({ endpoints: [], subscriptions: [] });
    await route(event({ project_id: 'gone' as ProjectId }));
    expect(written).toEqual({ events: [], deliveries: [], published: [], counted: [] });
  });
});
