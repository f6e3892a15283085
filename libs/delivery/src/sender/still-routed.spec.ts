import { subscriptionChangeReason } from './still-routed';

const sub = (over: object = {}) => ({
  _id: 's1',
  source_id: null,
  endpoint_id: 'e1',
  filter_config: {
    event_types: ['invoice.*'],
    filter: { body_json: JSON.stringify({ amount: { $gte: 10 } }), headers_json: '{}' },
  },
  ...over,
});
const event = { event_type: 'invoice.paid', data: { amount: 42 }, headers: {} };

describe('subscriptionChangeReason', () => {
  it('lets a delivery through while its subscription still routes it', () => {
    expect(subscriptionChangeReason(sub(), 'e1', event)).toBeNull();
    expect(subscriptionChangeReason(sub(), 'e1', null)).toBeNull();
  });

  it('stops a delivery whose subscription was deleted or moved to another endpoint', () => {
    expect(subscriptionChangeReason(null, 'e1', null)).toBe('subscription deleted');
    expect(subscriptionChangeReason(sub({ endpoint_id: 'e2' }), 'e1', null)).toBe(
      'subscription now targets another endpoint',
    );
  });

  it('stops a first send that the changed filter or event types no longer accept', () => {
    const reason = 'subscription filter changed: the event no longer matches';
    expect(subscriptionChangeReason(sub(), 'e1', { ...event, data: { amount: 5 } })).toBe(reason);
    expect(subscriptionChangeReason(sub(), 'e1', { ...event, event_type: 'order.paid' })).toBe(reason);
    const byHeader = sub({
      filter_config: {
        event_types: ['*'],
        filter: { body_json: '{}', headers_json: JSON.stringify({ 'x-tenant': 'a' }) },
      },
    });
    expect(subscriptionChangeReason(byHeader, 'e1', { ...event, headers: { 'x-tenant': 'b' } })).toBe(reason);
    expect(subscriptionChangeReason(byHeader, 'e1', { ...event, headers: { 'x-tenant': 'a' } })).toBeNull();
  });
});
