import type { EventMessage } from '@hookrail/bus';
import { UnavailableError, newProjectId } from '@hookrail/domain';
import { acceptMessage, type AcceptMessageDeps, type MessageSource } from './accept-message.usecase';
import { recordingSink } from './testing/recording-sink';

const PRJ1 = newProjectId();

// Pure rule tests: Kafka, the sandbox and the endpoint lookup are plain functions here; the real
// ones run in services/source-consumer integration tests.
function deps(over: Partial<AcceptMessageDeps> = {}) {
  const published: EventMessage[] = [];
  const d: AcceptMessageDeps = {
    sink: recordingSink(published),
    runFunction: () => ({ kind: 'error', message: 'not expected' }),
    endpointExists: async (_p, id) => id === 'EP1',
    checkEvent: async () => ({ kind: 'accepted', violations: [] }),
    newId: () => 'EVT1',
    now: () => new Date('2026-01-02T03:04:05.678Z'),
    ...over,
  };
  return { d, published };
}

const source: MessageSource = {
  _id: 'SRC1',
  project_id: PRJ1,
  forward_headers: ['x-trace'],
  idempotency_keys: ['request.body.id'],
};
const incoming = { type: 'incoming' as const, maxPayloadBytes: 1000 };
const outgoing = { type: 'outgoing' as const, maxPayloadBytes: 1000 };
const msg = (body: unknown, headers: Record<string, string> = {}) => ({
  headers: { 'x-trace': 't1', ...headers },
  body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
});

describe('acceptMessage', () => {
  it('turns an incoming project message into a source event with headers and a key', async () => {
    const { d, published } = deps();
    expect(await acceptMessage(source, incoming, msg({ id: 'a' }), d)).toEqual({
      kind: 'accepted',
      eventId: 'EVT1',
    });
    expect(published[0]).toMatchObject({
      source_id: 'SRC1',
      target: { mode: 'source' },
      event_type: '*',
      data: { id: 'a' },
      raw: '{"id":"a"}',
      headers: { 'content-type': 'application/json', 'x-trace': 't1' },
      forward_headers: { 'x-trace': 't1' },
      idempotency_key: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('addresses an outgoing project message like the events API', async () => {
    const { d, published } = deps();
    const body = {
      endpoint_id: 'EP1',
      event_type: 'invoice.paid',
      data: { n: 1 },
      custom_headers: { 'X-C': 'c' },
      idempotency_key: 'k1',
    };
    expect(await acceptMessage(source, outgoing, msg(body), d)).toMatchObject({ kind: 'accepted' });
    expect(published[0]).toMatchObject({
      target: { mode: 'single', endpoint_id: 'EP1' },
      event_type: 'invoice.paid',
      data: { n: 1 },
      raw: '{"n":1}',
      forward_headers: { 'x-trace': 't1', 'x-c': 'c' },
      idempotency_key: 'k1',
    });
  });

  it('runs body_function on the message before reading it', async () => {
    const { d, published } = deps({
      runFunction: (_t, input) => ({
        kind: 'ok',
        value: { event_type: 'x', data: input, endpoint_id: 'EP1' },
      }),
    });
    await acceptMessage({ ...source, body_function: 'B' }, outgoing, msg({ raw: true }), d);
    expect(published[0]).toMatchObject({ event_type: 'x', data: { raw: true } });
  });

  it('rejects what can never succeed and publishes nothing', async () => {
    const { d, published } = deps({ runFunction: () => ({ kind: 'error', message: 'Error: boom' }) });
    const reason = async (...args: Parameters<typeof acceptMessage>) => {
      const r = await acceptMessage(...args);
      return r.kind === 'rejected' ? r.reason : r.kind;
    };
    expect(await reason(source, incoming, msg('not json'), d)).toMatch(/not valid JSON/);
    expect(await reason(source, outgoing, msg({ endpoint_id: 'NOPE', event_type: 't', data: 1 }), d)).toBe(
      'endpoint_id NOPE: no such endpoint in this project',
    );
    expect(await reason(source, outgoing, msg({ data: 1 }), d)).toMatch(/endpoint_id is required|event_type/);
    expect(await reason({ ...source, body_function: 'B' }, incoming, msg({ a: 1 }), d)).toBe(
      'body_function: Error: boom',
    );
    expect(await reason(source, { ...incoming, maxPayloadBytes: 5 }, msg({ a: 1234 }), d)).toMatch(
      /exceeds the project limit/,
    );
    expect(published).toHaveLength(0);
  });

  it('rejects an event the catalog refuses with every failing path, and records a warning', async () => {
    const violations = [
      { field: 'data.n', message: 'must be string' },
      { field: 'data.id', message: 'is required' },
    ];
    const seen: [string, unknown, number][] = [];
    const refusing = deps({
      checkEvent: async (type, data, bytes) => {
        seen.push([type, data, bytes]);
        return {
          kind: 'refused',
          message: 'data does not match: data.n must be string; data.id is required',
          violations,
        };
      },
    });
    const body = { endpoint_id: 'EP1', event_type: 'invoice.paid', data: { n: 1 } };
    expect(await acceptMessage(source, outgoing, msg(body), refusing.d)).toEqual({
      kind: 'rejected',
      reason: 'data does not match: data.n must be string; data.id is required',
    });
    expect(seen).toEqual([['invoice.paid', { n: 1 }, 7]]);
    expect(refusing.published).toHaveLength(0);
    const warning = deps({ checkEvent: async () => ({ kind: 'accepted', violations }) });
    expect(await acceptMessage(source, incoming, msg({ id: 'a' }), warning.d)).toMatchObject({
      kind: 'accepted',
    });
    expect(warning.published[0]).toMatchObject({ event_type: '*', validation_errors: violations });
  });

  it('leaves the message for redelivery when Kafka does not acknowledge', async () => {
    const { d } = deps({
      sink: recordingSink([], {
        publisher: { publish: () => Promise.reject(new UnavailableError('kafka down')) },
      }),
    });
    expect(await acceptMessage(source, incoming, msg({ id: 1 }), d)).toEqual({
      kind: 'unavailable',
      message: 'kafka down',
    });
  });
});
