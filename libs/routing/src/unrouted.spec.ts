import { catchAllSubscriptionId, endpointsWithoutSubscription } from './catch-all';
import type { RoutableSubscription } from './match-subscriptions';
import { explainUnrouted } from './unrouted';

const sub = (
  id: string,
  endpoint: string,
  types = ['*'],
  body = {},
  source_id: string | null = null,
): RoutableSubscription => ({
  _id: id,
  source_id,
  endpoint_id: endpoint,
  filter_config: { event_types: types, filter: { body_json: JSON.stringify(body), headers_json: '{}' } },
});

describe('why an event reached no endpoint', () => {
  const subs = [sub('1', 'A', ['invoice.*']), sub('2', 'B', ['*'], { amount: { $gt: 10 } })];

  it('names a missing source, an owner without endpoints and a target without subscriptions', () => {
    expect(explainUnrouted({ event_type: 'x', target: { mode: 'source' } }, subs)).toEqual({
      code: 'no_source',
      reason: 'the event has no source and no endpoint target',
    });
    expect(
      explainUnrouted({ event_type: 'x', target: { mode: 'fanout', owner_id: 'o1' } }, subs).reason,
    ).toBe('owner_id o1 has no endpoints');
    expect(explainUnrouted({ event_type: 'x', target: { mode: 'single', endpoint_id: 'C' } }, subs)).toEqual({
      code: 'no_subscription',
      reason: 'no subscription for endpoint C',
    });
    expect(explainUnrouted({ event_type: 'x', target: { mode: 'broadcast' } }, []).reason).toBe(
      'no subscription in the project',
    );
  });

  it("says when the target's subscriptions all name a source the event did not come from", () => {
    const sourced = [sub('3', 'E', ['*'], {}, 'src1')];
    expect(
      explainUnrouted({ event_type: 'x', target: { mode: 'single', endpoint_id: 'E' } }, sourced),
    ).toEqual({
      code: 'other_sources_only',
      reason:
        "the subscriptions for endpoint E all name a source: a subscription with a source receives only that source's events",
    });
    expect(
      explainUnrouted({ source_id: 'src2', event_type: 'x', target: { mode: 'broadcast' } }, sourced).reason,
    ).toBe(
      "the subscriptions in the project all name other sources: a subscription with a source receives only that source's events",
    );
  });

  it('tells an event type nobody subscribed to from a payload the filters rejected', () => {
    expect(
      explainUnrouted({ event_type: 'user.created', target: { mode: 'single', endpoint_id: 'A' } }, subs),
    ).toEqual({
      code: 'event_type_not_subscribed',
      reason: 'event type "user.created" is not among the event types of the subscription for endpoint A',
    });
    expect(explainUnrouted({ event_type: 'invoice.paid', target: { mode: 'broadcast' } }, subs)).toEqual({
      code: 'filter_rejected',
      reason: 'the filters of all 2 subscriptions in the project rejected the event',
    });
    expect(
      explainUnrouted(
        { event_type: 'a', target: { mode: 'fanout', owner_id: 'o' } },
        subs,
        new Set(['A', 'B']),
      ).code,
    ).toBe('filter_rejected');
  });
});

describe('catch-all subscriptions for endpoints aimed at directly', () => {
  const subs = [sub('1', 'A')];

  it('selects the targeted endpoints that have no subscription, never for broadcast or source', () => {
    expect(endpointsWithoutSubscription({ mode: 'single', endpoint_id: 'B' }, subs)).toEqual(['B']);
    expect(endpointsWithoutSubscription({ mode: 'single', endpoint_id: 'A' }, subs)).toEqual([]);
    expect(
      endpointsWithoutSubscription({ mode: 'fanout', owner_id: 'o' }, subs, new Set(['A', 'B', 'C'])),
    ).toEqual(['B', 'C']);
    expect(endpointsWithoutSubscription({ mode: 'broadcast' }, [])).toEqual([]);
    expect(endpointsWithoutSubscription({ mode: 'source' }, [])).toEqual([]);
  });

  it('gives one stable id per endpoint', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    expect(catchAllSubscriptionId('A', at)).toBe(catchAllSubscriptionId('A', at));
    expect(catchAllSubscriptionId('A', at)).not.toBe(catchAllSubscriptionId('B', at));
  });
});
