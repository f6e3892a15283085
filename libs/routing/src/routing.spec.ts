import { isId } from '@hookrail/domain';
import { deliveryId } from './delivery-id';
import { matchSubscriptions, type RoutableSubscription } from './match-subscriptions';

const sub = (
  id: string,
  over: Partial<RoutableSubscription> & { types?: string[]; body?: object; headers?: object } = {},
): RoutableSubscription => ({
  _id: id,
  source_id: over.source_id === undefined ? 'src1' : over.source_id,
  endpoint_id: over.endpoint_id ?? `ep-${id}`,
  filter_config: {
    event_types: over.types ?? ['*'],
    filter: { body_json: JSON.stringify(over.body ?? {}), headers_json: JSON.stringify(over.headers ?? {}) },
  },
});

const event = (over: object = {}) => ({
  source_id: 'src1',
  event_type: 'invoice.paid',
  target: { mode: 'source' as const },
  data: { amount: 120, customer: { tier: 'gold', tags: ['a', 'b'] } },
  headers: { 'x-region': 'eu' },
  ...over,
});

describe('routing rules', () => {
  it('delivery ids are valid ULIDs, stable per (event, subscription), distinct across subscriptions', () => {
    const a = deliveryId('E1', 'S1', 1_700_000_000_000);
    expect(isId(a)).toBe(true);
    expect(deliveryId('E1', 'S1', 1_700_000_000_000)).toBe(a);
    expect(deliveryId('E1', 'S2', 1_700_000_000_000)).not.toBe(a);
    expect(deliveryId('E1', 'S1', 1_700_000_000_001) > a).toBe(true);
  });

  it('delivery ids never change between releases (a redelivered event must upsert the same delivery)', () => {
    expect(deliveryId('01HZZZZZZZZZZZZZZZZZZZZZZZ', '01J0000000000000000000000A', 1763900000123)).toBe(
      '01KARA41VV8GVRJ0QVEH349AB5',
    );
  });

  it('source mode selects the subscriptions of the event source only', () => {
    const subs = [sub('1'), sub('2', { source_id: 'other' })];
    expect(matchSubscriptions(event(), subs).map((s) => s._id)).toEqual(['1']);
  });

  it('single, fanout and broadcast select by endpoint, owner endpoints and all', () => {
    const subs = [
      sub('1', { endpoint_id: 'A', source_id: null }),
      sub('2', { endpoint_id: 'B', source_id: null }),
      sub('3', { endpoint_id: 'C', source_id: null }),
    ];
    const ids = (target: object, owners?: Set<string>) =>
      matchSubscriptions(event({ source_id: null, target }), subs, owners).map((s) => s._id);
    expect(ids({ mode: 'single', endpoint_id: 'B' })).toEqual(['2']);
    expect(ids({ mode: 'fanout', owner_id: 'o' }, new Set(['A', 'C']))).toEqual(['1', '3']);
    expect(ids({ mode: 'broadcast' })).toEqual(['1', '2', '3']);
  });

  describe("a subscription that names a source receives only that source's events", () => {
    // Endpoint A: a subscription of source src1 beside a general one; B: src1's only; C: general only;
    // D: another source's only.
    const subs = [
      sub('A-src1', { endpoint_id: 'A', source_id: 'src1' }),
      sub('A-any', { endpoint_id: 'A', source_id: null }),
      sub('B-src1', { endpoint_id: 'B', source_id: 'src1' }),
      sub('C-any', { endpoint_id: 'C', source_id: null }),
      sub('D-src2', { endpoint_id: 'D', source_id: 'src2' }),
    ];
    const owners = new Set(['A', 'B', 'C', 'D']);
    const targets = {
      single: (endpoint_id: string) => ({ mode: 'single', endpoint_id }),
      fanout: () => ({ mode: 'fanout', owner_id: 'o' }),
      broadcast: () => ({ mode: 'broadcast' }),
    };
    const ids = (source_id: string | null, target: object) =>
      matchSubscriptions(event({ source_id, target }), subs, owners).map((s) => s._id);

    it.each([
      // [origin, target, expected]: the events API (no source), then a broker source of an outgoing project
      [null, targets.single('A'), ['A-any']],
      [null, targets.single('B'), []],
      [null, targets.single('C'), ['C-any']],
      [null, targets.single('D'), []],
      [null, targets.fanout(), ['A-any', 'C-any']],
      [null, targets.broadcast(), ['A-any', 'C-any']],
      ['src1', targets.single('A'), ['A-src1']],
      ['src1', targets.single('B'), ['B-src1']],
      ['src1', targets.single('C'), ['C-any']],
      ['src1', targets.single('D'), []],
      ['src1', targets.fanout(), ['A-src1', 'B-src1', 'C-any']],
      ['src1', targets.broadcast(), ['A-src1', 'B-src1', 'C-any']],
      ['src2', targets.broadcast(), ['A-any', 'C-any', 'D-src2']],
      ['src1', { mode: 'source' }, ['A-src1', 'B-src1']],
      ['src2', { mode: 'source' }, ['D-src2']],
    ])('from %s aimed at %j: %j', (source, target, expected) => {
      expect(ids(source, target)).toEqual(expected);
    });

    it('an endpoint never gets one event through two kinds of subscription', () => {
      for (const source of [null, 'src1', 'src2'])
        for (const target of [targets.single('A'), targets.fanout(), targets.broadcast()]) {
          const endpoints = matchSubscriptions(event({ source_id: source, target }), subs, owners).map(
            (s) => s.endpoint_id,
          );
          expect(new Set(endpoints).size).toBe(endpoints.length);
        }
    });
  });

  it('matches event types exactly, by *, and by trailing wildcard', () => {
    const subs = [
      sub('exact', { types: ['invoice.paid'] }),
      sub('star'),
      sub('wild', { types: ['invoice.*'] }),
      sub('no', { types: ['user.created'] }),
    ];
    expect(matchSubscriptions(event(), subs).map((s) => s._id)).toEqual(['exact', 'star', 'wild']);
  });

  it('applies body and header filters, including nested paths and array membership', () => {
    const subs = [
      sub('gt', { body: { amount: { $gt: 100 } } }),
      sub('lt', { body: { amount: { $lt: 100 } } }),
      sub('nested', { body: { 'customer.tier': 'gold' } }),
      sub('member', { body: { customer: { tags: 'b' } } }),
      sub('hdr', { headers: { 'x-region': { $in: ['eu', 'us'] } } }),
      sub('hdr-no', { headers: { 'x-region': 'us' } }),
      sub('missing', { body: { nope: { $eq: 1 } } }),
      sub('missing-neq', { body: { nope: { $neq: 1 } } }),
    ];
    expect(matchSubscriptions(event(), subs).map((s) => s._id)).toEqual([
      'gt',
      'nested',
      'member',
      'hdr',
      'missing-neq',
    ]);
  });

  it('never yields one subscription twice', () => {
    const s = sub('1');
    expect(matchSubscriptions(event({ target: { mode: 'broadcast' } }), [s, s])).toHaveLength(1);
  });
});
