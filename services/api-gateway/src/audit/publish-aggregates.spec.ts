import { timeOfId } from '@hookrail/domain';
import { MAX_EVENT_IDS, PublishAggregates, type CallRecord, type PublishCall } from './publish-aggregates';

const WINDOW = 60_000;
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0); // a window's start

function record(over: Partial<CallRecord> = {}, actor: Partial<CallRecord['actor']> = {}): CallRecord {
  return {
    project_id: 'p1',
    actor: {
      kind: 'api_key',
      via: 'api',
      key_id: 'k1',
      key_name: 'ci',
      role: 'owner',
      portal_link_id: null,
      user_id: null,
      email: null,
      ...actor,
    },
    operation: 'createEvent',
    method: 'POST',
    path: '/api/v1/projects/p1/events',
    resource: { type: 'event', id: 'e0' },
    changes: null,
    fields: ['endpoint_id', 'event_type', 'data'],
    status: 201,
    ip: '10.0.0.1',
    user_agent: 'ci/1',
    ...over,
  };
}

const call = (at: number, rec = record(), eventIds = [`e${at}`]): PublishCall => ({
  record: rec,
  at,
  eventIds,
});

describe('publish aggregates', () => {
  it('counts calls of one caller in one window as one record, dated at the window end', () => {
    const a = new PublishAggregates({ windowMs: WINDOW, maxAggregates: 100 });
    expect(a.add(call(T0 + 1_000, record({ user_agent: 'first/1' }), ['e1']))).toEqual([]);
    a.add(call(T0 + 30_000, record({ user_agent: 'second/1' }), ['e2']));
    a.add(call(T0 + 59_999, record(), ['e3']));
    expect(a.closed(T0 + 59_999)).toEqual([]); // the window has not ended
    const [only, ...more] = a.closed(T0 + WINDOW + 3_000);
    expect(more).toEqual([]);
    expect(only).toMatchObject({
      operation: 'createEvent',
      actor: { key_id: 'k1', key_name: 'ci' },
      status: 201,
      user_agent: 'first/1',
      resource: { type: 'event', id: null },
      created_at: new Date(T0 + WINDOW).toISOString(),
      aggregate: {
        count: 3,
        first_at: new Date(T0 + 1_000).toISOString(),
        last_at: new Date(T0 + 59_999).toISOString(),
        event_ids: ['e1', 'e2', 'e3'],
      },
    });
    // the id sorts and filters by the record's date
    expect(timeOfId(only.uid)).toBe(T0 + WINDOW);
    expect(a.size).toBe(0);
  });

  it('keeps apart windows, keys, people, portal links, operations, statuses and addresses', () => {
    const a = new PublishAggregates({ windowMs: WINDOW, maxAggregates: 100 });
    const variants = [
      record(),
      record({}, { key_id: 'k2' }),
      record({}, { kind: 'user', key_id: null, user_id: 'alice' }),
      record({}, { kind: 'portal_link', via: 'portal', key_id: null, portal_link_id: 'l1' }),
      record({}, { via: 'console' }),
      record({ operation: 'fanoutEvent' }),
      record({ status: 403 }),
      record({ status: 400 }),
      record({ ip: '10.0.0.2' }),
      record({ project_id: 'p2' }),
    ];
    for (const rec of variants) a.add(call(T0 + 5, rec));
    a.add(call(T0 + WINDOW + 5)); // the first caller's next window
    expect(a.size).toBe(variants.length + 1);
    const closed = a.closed(T0 + WINDOW);
    expect(closed).toHaveLength(variants.length);
    expect(closed.every((r) => r.aggregate?.count === 1)).toBe(true);
    expect(a.closed(T0 + 2 * WINDOW)).toHaveLength(1);
  });

  it('names the first events only', () => {
    const a = new PublishAggregates({ windowMs: WINDOW, maxAggregates: 100 });
    for (let i = 0; i < MAX_EVENT_IDS + 5; i++) a.add(call(T0 + i, record(), [`e${i}`]));
    a.add(call(T0 + 100, record({ status: 403 }), []));
    const [sent, refused] = a.all(T0 + WINDOW);
    expect(sent.aggregate).toMatchObject({ count: MAX_EVENT_IDS + 5 });
    expect(sent.aggregate!.event_ids).toEqual(Array.from({ length: MAX_EVENT_IDS }, (_, i) => `e${i}`));
    expect(refused.aggregate).toMatchObject({ count: 1, event_ids: [] });
  });

  it('past the cap, records the oldest aggregate early, dated when it was closed', () => {
    const a = new PublishAggregates({ windowMs: WINDOW, maxAggregates: 2 });
    a.add(call(T0 + 1, record({}, { key_id: 'k1' })));
    a.add(call(T0 + 2, record({}, { key_id: 'k2' })));
    a.add(call(T0 + 3, record({}, { key_id: 'k2' }))); // an open one: nothing closes
    expect(a.size).toBe(2);
    const early = a.add(call(T0 + 4, record({}, { key_id: 'k3' })));
    expect(early).toHaveLength(1);
    expect(early[0]).toMatchObject({
      actor: { key_id: 'k1' },
      created_at: new Date(T0 + 4).toISOString(),
      aggregate: { count: 1 },
    });
    expect(a.size).toBe(2);
    // the same caller again starts a new aggregate: counted, not lost
    a.add(call(T0 + 5, record({}, { key_id: 'k1' })));
    const rest = a.all(T0 + 10);
    expect(rest.map((r) => [r.actor.key_id, r.aggregate!.count])).toEqual([
      ['k3', 1],
      ['k1', 1],
    ]);
  });

  it('on a stop, records every open aggregate dated at the stop, and is empty after', () => {
    const a = new PublishAggregates({ windowMs: WINDOW, maxAggregates: 100 });
    a.add(call(T0 + 1));
    a.add(call(T0 + 2, record({}, { key_id: 'k2' })));
    const all = a.all(T0 + 10_000);
    expect(all).toHaveLength(2);
    expect(all.every((r) => r.created_at === new Date(T0 + 10_000).toISOString())).toBe(true);
    expect(new Set(all.map((r) => r.uid)).size).toBe(2);
    expect(a.all(T0 + 20_000)).toEqual([]);
  });
});
