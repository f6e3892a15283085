import type { EventMessage } from '@hookrail/bus';
import { newProjectId } from '@hookrail/domain';
import { acceptMessage, type AcceptMessageDeps } from './accept-message.usecase';
import { acceptRequest, type AcceptRequestDeps } from './accept-request.usecase';
import { eventMessage, type AcceptedEvent } from './event-message';
import type { EventCheck } from './event-validation';
import { recordingSink } from './testing/recording-sink';

const PRJ1 = newProjectId();
const stamp = { newId: () => 'EVT1', now: () => new Date('2026-01-02T03:04:05.678Z') };
const passed: Extract<EventCheck, { kind: 'accepted' }> = { kind: 'accepted', violations: [] };
const violations = [{ field: 'data.n', message: 'must be string' }];

describe('eventMessage', () => {
  it("stamps the id and acceptance time and leaves out what the entry point does not know (the events API's event)", () => {
    const event: AcceptedEvent = {
      projectId: PRJ1,
      eventType: 'invoice.paid',
      target: { mode: 'single', endpoint_id: 'EP1' },
      raw: '{"n":1}',
      headers: { 'x-c': 'c' },
      forwardHeaders: { 'x-c': 'c' },
      verdict: passed,
    };
    const message = eventMessage(event, stamp);
    expect(message).toEqual({
      event_id: 'EVT1',
      project_id: PRJ1,
      event_type: 'invoice.paid',
      target: { mode: 'single', endpoint_id: 'EP1' },
      raw: '{"n":1}',
      headers: { 'x-c': 'c' },
      forward_headers: { 'x-c': 'c' },
      accepted_at: '2026-01-02T03:04:05.678Z',
    });
    // Absent, not undefined: the router parses `raw` when `data` is missing; `ordered` is publishing's.
    for (const key of [
      'data',
      'source_id',
      'url_query_params',
      'idempotency_key',
      'validation_errors',
      'ordered',
    ])
      expect(key in message).toBe(false);
  });

  it("carries a source's id, payload, query and key, and the catalog's warnings", () => {
    const message = eventMessage(
      {
        projectId: PRJ1,
        sourceId: 'SRC1',
        eventType: '*',
        target: { mode: 'source' },
        data: { n: 1 },
        raw: '{"n":1}',
        headers: { 'content-type': 'application/json', 'x-f': 'f' },
        forwardHeaders: { 'x-f': 'f' },
        query: 'q=1',
        idempotencyKey: 'k1',
        verdict: { kind: 'accepted', violations },
      },
      stamp,
    );
    expect(message).toEqual({
      event_id: 'EVT1',
      project_id: PRJ1,
      source_id: 'SRC1',
      event_type: '*',
      target: { mode: 'source' },
      data: { n: 1 },
      raw: '{"n":1}',
      headers: { 'content-type': 'application/json', 'x-f': 'f' },
      forward_headers: { 'x-f': 'f' },
      url_query_params: 'q=1',
      idempotency_key: 'k1',
      accepted_at: '2026-01-02T03:04:05.678Z',
      validation_errors: violations,
    });
  });

  it('takes a new id and time for every event', () => {
    let n = 0;
    const counting = { newId: () => `EVT${++n}`, now: () => new Date(1000 * n) };
    const event: AcceptedEvent = {
      projectId: PRJ1,
      eventType: 't',
      target: { mode: 'broadcast' },
      raw: '1',
      headers: {},
      forwardHeaders: {},
      verdict: passed,
    };
    const [a, b] = [eventMessage(event, counting), eventMessage(event, counting)];
    expect([a.event_id, b.event_id]).toEqual(['EVT1', 'EVT2']);
    expect([a.accepted_at, b.accepted_at]).toEqual(['1970-01-01T00:00:01.000Z', '1970-01-01T00:00:02.000Z']);
  });
});

/**
 * The same facts through each source entry point: every one publishes exactly the message
 * eventMessage builds from what it knows, with `ordered` for a project that orders deliveries and
 * the catalog's warnings. An entry point building its message another way fails here. (The events
 * API's entry point is checked the same way in the gateway's publish-event.usecase.spec.ts.)
 */
describe('every source entry point publishes the message eventMessage builds', () => {
  const warned = async (): Promise<EventCheck> => ({ kind: 'accepted', violations });
  const orderedSink = (published: EventMessage[]) =>
    recordingSink(published, { ordersDeliveries: (p) => p === PRJ1 });
  const common = { runFunction: () => ({ kind: 'error' as const, message: 'not expected' }), ...stamp };

  it('an HTTP source', async () => {
    const published: EventMessage[] = [];
    const deps: AcceptRequestDeps = {
      ...common,
      sink: orderedSink(published),
      openSecret: (s) => s,
      checkEvent: warned,
    };
    const headers = { 'content-type': 'application/json', 'x-f': 'f', 'x-other': 'o' };
    const out = await acceptRequest(
      {
        _id: 'SRC1',
        project_id: PRJ1,
        is_disabled: false,
        forward_headers: ['X-F'],
        idempotency_keys: ['request.body.id'],
      },
      { headers, rawBody: Buffer.from('{"id":"a1"}'), query: 'q=1' },
      deps,
    );
    if (out.kind !== 'accepted') throw new Error(`not accepted: ${out.kind}`);
    const expected = eventMessage(
      {
        projectId: PRJ1,
        sourceId: 'SRC1',
        eventType: '*',
        target: { mode: 'source' },
        data: { id: 'a1' },
        raw: '{"id":"a1"}',
        headers,
        forwardHeaders: { 'x-f': 'f' },
        query: 'q=1',
        idempotencyKey: out.idempotencyKey,
        verdict: { kind: 'accepted', violations },
      },
      stamp,
    );
    expect(out.idempotencyKey).toMatch(/^[0-9a-f]{64}$/);
    expect(published).toEqual([{ ...expected, ordered: true }]);
  });

  const brokerDeps = (published: EventMessage[]): AcceptMessageDeps => ({
    ...common,
    sink: orderedSink(published),
    endpointExists: async (_p, id) => id === 'EP1',
    checkEvent: warned,
  });
  const brokerSource = {
    _id: 'SRC1',
    project_id: PRJ1,
    forward_headers: ['x-f'],
    idempotency_keys: ['request.body.id'],
  };

  it('a broker source of an incoming project', async () => {
    const published: EventMessage[] = [];
    const out = await acceptMessage(
      brokerSource,
      { type: 'incoming', maxPayloadBytes: 1000 },
      { headers: { 'x-f': 'f', 'x-other': 'o' }, body: Buffer.from('{"id":"a1"}') },
      brokerDeps(published),
    );
    expect(out).toEqual({ kind: 'accepted', eventId: 'EVT1' });
    const [message] = published;
    const expected = eventMessage(
      {
        projectId: PRJ1,
        sourceId: 'SRC1',
        eventType: '*',
        target: { mode: 'source' },
        data: { id: 'a1' },
        raw: '{"id":"a1"}',
        headers: { 'content-type': 'application/json', 'x-f': 'f', 'x-other': 'o' },
        forwardHeaders: { 'x-f': 'f' },
        idempotencyKey: message.idempotency_key,
        verdict: { kind: 'accepted', violations },
      },
      stamp,
    );
    expect(message.idempotency_key).toMatch(/^[0-9a-f]{64}$/);
    expect(published).toEqual([{ ...expected, ordered: true }]);
  });

  it('a broker source of an outgoing project, addressed like the events API', async () => {
    const published: EventMessage[] = [];
    const body = {
      endpoint_id: 'EP1',
      event_type: 'invoice.paid',
      data: { n: 1 },
      custom_headers: { 'X-C': 'c' },
      idempotency_key: 'k1',
    };
    const out = await acceptMessage(
      brokerSource,
      { type: 'outgoing', maxPayloadBytes: 1000 },
      { headers: { 'x-f': 'f' }, body: Buffer.from(JSON.stringify(body)) },
      brokerDeps(published),
    );
    expect(out).toEqual({ kind: 'accepted', eventId: 'EVT1' });
    const expected = eventMessage(
      {
        projectId: PRJ1,
        sourceId: 'SRC1',
        eventType: 'invoice.paid',
        target: { mode: 'single', endpoint_id: 'EP1' },
        data: { n: 1 },
        raw: '{"n":1}',
        headers: { 'content-type': 'application/json', 'x-f': 'f' },
        forwardHeaders: { 'x-f': 'f', 'x-c': 'c' },
        idempotencyKey: 'k1',
        verdict: { kind: 'accepted', violations },
      },
      stamp,
    );
    expect(published).toEqual([{ ...expected, ordered: true }]);
  });

  it('none of them sets ordered for a project without ordered subscriptions', async () => {
    const published: EventMessage[] = [];
    const sink = recordingSink(published);
    const check = async (): Promise<EventCheck> => passed;
    await acceptRequest(
      { _id: 'SRC1', project_id: PRJ1, is_disabled: false },
      { headers: { 'content-type': 'application/json' }, rawBody: Buffer.from('{}'), query: '' },
      { ...common, sink, openSecret: (s) => s, checkEvent: check },
    );
    await acceptMessage(
      brokerSource,
      { type: 'incoming', maxPayloadBytes: 1000 },
      { headers: {}, body: Buffer.from('{}') },
      { ...common, sink, endpointExists: async () => true, checkEvent: check },
    );
    expect(published).toHaveLength(2);
    for (const m of published) {
      expect('ordered' in m).toBe(false);
      expect('validation_errors' in m).toBe(false);
    }
  });
});
