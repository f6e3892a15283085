import type { EventMessage } from '@hookrail/bus';
import type { ProjectId } from '@hookrail/domain';
import type { SubscriptionDoc } from '@hookrail/store';
import { deliveryId } from '../delivery-id';
import { firstSendMessage, plannedDelivery } from './delivery-plan';
import { eventDocument } from './event-document';

const event: EventMessage = {
  event_id: '01J00000000000000000000EVT',
  project_id: 'p1' as ProjectId,
  event_type: 'invoice.paid',
  source_id: 'src1',
  target: { mode: 'source' },
  data: { amount: 42 },
  raw: '{"amount":42}',
  headers: { 'content-type': 'application/json' },
  forward_headers: { 'x-trace': 'a' },
  idempotency_key: 'k1',
  accepted_at: '2026-01-01T00:00:00.000Z',
};
const sub = { _id: 'sub1', delivery_mode: 'at_most_once' } as SubscriptionDoc;
const active = { _id: 'ep1', status: 'active' as const };
const now = new Date('2026-01-01T00:00:01.000Z');

describe('plannedDelivery', () => {
  it('schedules a delivery under an id derived from the event and the subscription', () => {
    const d = plannedDelivery(event, sub, active, null, now);
    expect(d).toMatchObject({
      _id: deliveryId(event.event_id, 'sub1', Date.parse(event.accepted_at)),
      endpoint_id: 'ep1',
      subscription_id: 'sub1',
      source_id: 'src1',
      status: 'Scheduled',
      delivery_mode: 'at_most_once',
      payload: null,
      status_reason: null,
      created_at: now,
    });
    expect(plannedDelivery(event, sub, active, null, new Date())._id).toBe(d._id);
  });

  it('sends what the subscription function returned, and fails the delivery when it failed', () => {
    const ok = plannedDelivery(event, sub, active, { kind: 'ok', value: { cents: 4200 } }, now);
    expect(ok).toMatchObject({ status: 'Scheduled', payload: '{"cents":4200}' });
    const failed = plannedDelivery(event, sub, active, { kind: 'error', message: 'boom' }, now);
    expect(failed).toMatchObject({ status: 'Failure', status_reason: 'subscription function failed: boom' });
  });

  it('discards a delivery to an inactive endpoint', () => {
    const d = plannedDelivery(event, sub, { _id: 'ep1', status: 'inactive' }, null, now);
    expect(d).toMatchObject({ status: 'Discarded', status_reason: 'endpoint is inactive', payload: null });
  });
});

describe('firstSendMessage', () => {
  it('carries everything the first send needs', () => {
    const d = plannedDelivery(event, sub, active, null, now);
    d.metadata = { siblings: 3 };
    expect(firstSendMessage(event, d, 'v7')).toEqual({
      delivery_id: d._id,
      project_id: 'p1',
      endpoint_id: 'ep1',
      event_id: event.event_id,
      reason: 'initial',
      first_send: {
        subscription_id: 'sub1',
        source_id: 'src1',
        event_type: 'invoice.paid',
        delivery_mode: 'at_most_once',
        payload: null,
        raw: event.raw,
        forward_headers: { 'x-trace': 'a' },
        idempotency_key: 'k1',
        siblings: 3,
        created_at: now.toISOString(),
        config_version: 'v7',
        headers: event.headers,
      },
    });
  });
});

describe('eventDocument', () => {
  it('records the accepted event with the routing result', () => {
    const doc = eventDocument(event, {
      status: 'Processing',
      reason: null,
      endpoints: ['ep1'],
      deliveries: 2,
    });
    expect(doc).toMatchObject({
      _id: event.event_id,
      project_id: 'p1',
      source_id: 'src1',
      status: 'Processing',
      endpoints: ['ep1'],
      delivery_count: 2,
      is_duplicate_event: false,
      headers_json: '{"content-type":"application/json"}',
      forward_headers_json: '{"x-trace":"a"}',
      acknowledged_at: new Date(event.accepted_at),
    });
  });
});
