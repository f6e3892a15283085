import { orderingKeyOf } from './ordering-key';

describe('orderingKeyOf', () => {
  const event = {
    data: { data: { order_id: 42, items: [{ sku: 'a' }] }, flag: true },
    headers: { 'x-order-id': 'o-7' },
  };
  const byKey = (key: { body_path: string } | { header: string }) => ({
    ordering: { mode: 'key' as const, key, unblock_on: [] },
  });

  it('is null without ordering, `endpoint` for endpoint ordering', () => {
    expect(orderingKeyOf({ ordering: null }, event)).toBeNull();
    expect(orderingKeyOf({}, event)).toBeNull();
    expect(orderingKeyOf({ ordering: { mode: 'endpoint', key: null, unblock_on: [] } }, event)).toBe(
      'endpoint',
    );
  });

  it('reads a body path (numbers and booleans as text, array items by index) or a header', () => {
    expect(orderingKeyOf(byKey({ body_path: 'data.order_id' }), event)).toBe('key:42');
    expect(orderingKeyOf(byKey({ body_path: 'data.items.0.sku' }), event)).toBe('key:a');
    expect(orderingKeyOf(byKey({ body_path: 'flag' }), event)).toBe('key:true');
    expect(orderingKeyOf(byKey({ header: 'x-order-id' }), event)).toBe('key:o-7');
  });

  it('orders a missing key, or an object, under the empty key', () => {
    expect(orderingKeyOf(byKey({ body_path: 'data.customer' }), event)).toBe('key:');
    expect(orderingKeyOf(byKey({ body_path: 'data' }), event)).toBe('key:');
    expect(orderingKeyOf(byKey({ header: 'x-missing' }), event)).toBe('key:');
  });
});
