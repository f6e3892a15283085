import type { DeliveryMessage, FirstSend } from '@hookrail/bus';
import { isDependencyOutage, type ProjectId } from '@hookrail/domain';
import type { DeliveryDoc, EventDoc } from '@hookrail/store';
import { EVENT_WRITE_GRACE_MS, fromFirstSend, loadForSend, routedUnderOlderConfig } from './load-delivery';
import type { SendReads } from './send-reads';

const firstSend: FirstSend = {
  subscription_id: 'sub1',
  source_id: 'src1',
  event_type: 'invoice.paid',
  delivery_mode: 'at_least_once',
  payload: null,
  raw: '{"amount":42}',
  forward_headers: { 'x-trace': 'a' },
  idempotency_key: 'k1',
  siblings: 3,
  created_at: '2026-01-01T00:00:00.000Z',
  config_version: 'v1',
  headers: { 'x-kind': 'paid' },
};
const message = (f: FirstSend = firstSend): DeliveryMessage => ({
  delivery_id: 'dlv1',
  project_id: 'p1' as ProjectId,
  endpoint_id: 'ep1',
  event_id: 'evt1',
  reason: 'initial',
  first_send: f,
});

describe('fromFirstSend', () => {
  it('builds the delivery and its event from the message alone, with nothing recorded yet', () => {
    const loaded = fromFirstSend(message(), firstSend);
    expect(loaded).toMatchObject({
      kind: 'send',
      delivery: {
        _id: 'dlv1',
        project_id: 'p1',
        event_id: 'evt1',
        endpoint_id: 'ep1',
        subscription_id: 'sub1',
        source_id: 'src1',
        status: 'Scheduled',
        attempts_made: 0,
        retries_used: 0,
        attempts: [],
        metadata: { siblings: 3 },
        created_at: new Date('2026-01-01T00:00:00.000Z'),
      },
      event: {
        _id: 'evt1',
        event_type: 'invoice.paid',
        raw: '{"amount":42}',
        forward_headers: { 'x-trace': 'a' },
        idempotency_key: 'k1',
      },
    });
  });
});

describe('routedUnderOlderConfig', () => {
  it('is null when the router used the configuration this sender knows, or sent no token', () => {
    expect(routedUnderOlderConfig(message(), 'v1')).toBeNull();
    expect(routedUnderOlderConfig(message({ ...firstSend, config_version: undefined }), 'v2')).toBeNull();
    expect(routedUnderOlderConfig({ ...message(), first_send: undefined }, 'v2')).toBeNull();
  });

  it('gives the event for a second filter check when the configuration changed since routing', () => {
    expect(routedUnderOlderConfig(message(), 'v2')).toEqual({
      event_type: 'invoice.paid',
      data: { amount: 42 },
      headers: { 'x-kind': 'paid' },
    });
    expect(routedUnderOlderConfig(message({ ...firstSend, raw: 'not json' }), 'v2')).toMatchObject({
      data: 'not json',
    });
  });
});

describe('loadForSend', () => {
  const created = Date.parse(firstSend.created_at);
  const retry: DeliveryMessage = { ...message(), reason: 'retry', first_send: undefined };
  const stored = (): DeliveryDoc => {
    const loaded = fromFirstSend(message(), firstSend);
    if (loaded.kind !== 'send') throw new Error('a first send is always sent');
    return { ...loaded.delivery, status: 'Retry', attempts_made: 1, retries_used: 1 };
  };
  // The two reads it makes; a database is not what this checks.
  const storeWith = (delivery: DeliveryDoc | null, event: Partial<EventDoc> | null): SendReads => ({
    delivery: async () => delivery,
    event: async () => event as EventDoc | null,
  });

  it('retries, as an outage, a delivery whose event the router has not stored yet', async () => {
    const err = await loadForSend(storeWith(stored(), null), retry, created + 5_000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe(
      "event evt1 of delivery dlv1 is not stored yet (its router's write is pending)",
    );
    expect(isDependencyOutage(err)).toBe(true);
  });

  it('sends without the event (discarded by the sender) once the event had time to be stored', async () => {
    const loaded = await loadForSend(storeWith(stored(), null), retry, created + EVENT_WRITE_GRACE_MS);
    expect(loaded).toMatchObject({ kind: 'send', event: null });
  });

  it('sends with the stored event, and skips a delivery that has its outcome or is gone', async () => {
    const event = { _id: 'evt1', event_type: 'invoice.paid', raw: '{}', forward_headers_json: '{"a":"b"}' };
    expect(await loadForSend(storeWith(stored(), event), retry, created)).toMatchObject({
      kind: 'send',
      event: { _id: 'evt1', forward_headers: { a: 'b' } },
    });
    expect(await loadForSend(storeWith({ ...stored(), status: 'Success' }, null), retry)).toEqual({
      kind: 'skip',
    });
    expect(await loadForSend(storeWith(null, null), retry)).toMatchObject({ kind: 'skip' });
  });

  it('hands on the stored retry, without an attempt, for a fired retry whose delivery was rescheduled since', async () => {
    const event = { _id: 'evt1', event_type: 'invoice.paid', raw: '{}', forward_headers_json: '{}' };
    const due = '2026-01-01T00:01:00.000Z';
    const later = '2026-01-01T00:02:00.000Z';
    const next = (at: string, over: Partial<DeliveryDoc> = {}): DeliveryDoc => ({
      ...stored(),
      next_attempt_at: new Date(at),
      ...over,
    });
    const fired = { ...retry, due_at: due };
    expect(await loadForSend(storeWith(next(later), event), fired, created)).toMatchObject({
      kind: 'retry_recorded',
    });
    expect(
      await loadForSend(storeWith(next(later, { status: 'Scheduled' }), event), fired, created),
    ).toMatchObject({ kind: 'retry_recorded' });
    // Due now (or released earlier than stored), a resend, or a message from before the field: sent.
    expect(await loadForSend(storeWith(next(due), event), fired, created)).toMatchObject({ kind: 'send' });
    expect(
      await loadForSend(storeWith(next('2026-01-01T00:00:30.000Z'), event), fired, created),
    ).toMatchObject({
      kind: 'send',
    });
    expect(await loadForSend(storeWith(next(later), event), retry, created)).toMatchObject({ kind: 'send' });
  });
});
