import { createHmac } from 'node:crypto';
import type { EventMessage } from '@hookrail/bus';
import { UnavailableError, newProjectId } from '@hookrail/domain';
import type { FunctionResult } from '@hookrail/functions';
import { acceptRequest, type AcceptRequestDeps, type IngestSource } from './accept-request.usecase';
import { recordingSink } from './testing/recording-sink';

const PRJ1 = newProjectId();

// Pure rule tests: the sandbox and Kafka are replaced by plain functions here; the real ones are
// exercised in services/ingest integration tests.
function deps(over: Partial<AcceptRequestDeps> = {}) {
  const published: EventMessage[] = [];
  const d: AcceptRequestDeps = {
    sink: recordingSink(published),
    runFunction: (): FunctionResult => ({ kind: 'error', message: 'not expected' }),
    openSecret: (s) => s,
    checkEvent: async () => ({ kind: 'accepted', violations: [] }),
    newId: () => 'EVT1',
    now: () => new Date('2026-01-02T03:04:05.678Z'),
    ...over,
  };
  return { d, published };
}

const source: IngestSource = {
  _id: 'SRC1',
  project_id: PRJ1,
  is_disabled: false,
  forward_headers: ['X-Forward-Me'],
  idempotency_keys: ['request.body.id'],
};
const body = Buffer.from('{"id":"a1","n":1}');
const request = (headers: Record<string, string> = {}) => ({
  headers: { 'content-type': 'application/json', 'x-forward-me': 'yes', 'x-other': 'no', ...headers },
  rawBody: body,
  query: 'q=1',
});

describe('acceptRequest', () => {
  it('publishes the event with headers, forward headers, query, payload and key', async () => {
    const { d, published } = deps();
    const out = await acceptRequest(source, request(), d);
    expect(out).toMatchObject({ kind: 'accepted', eventId: 'EVT1', idempotencyKey: expect.any(String) });
    expect(published).toEqual([
      {
        event_id: 'EVT1',
        project_id: PRJ1,
        source_id: 'SRC1',
        event_type: '*',
        target: { mode: 'source' },
        data: { id: 'a1', n: 1 },
        raw: '{"id":"a1","n":1}',
        headers: request().headers,
        forward_headers: { 'x-forward-me': 'yes' },
        url_query_params: 'q=1',
        idempotency_key: out.kind === 'accepted' ? out.idempotencyKey : '',
        accepted_at: '2026-01-02T03:04:05.678Z',
      },
    ]);
  });

  it('refuses a disabled source and publishes nothing', async () => {
    const { d, published } = deps();
    expect(await acceptRequest({ ...source, is_disabled: true }, request(), d)).toEqual({ kind: 'disabled' });
    expect(published).toHaveLength(0);
  });

  it('refuses a failed verification before looking at the body', async () => {
    const { d, published } = deps();
    const hmacSource = { ...source, verifier: { type: 'hmac', hmac: { header: 'X-Sig', secret: 'k' } } };
    const bad = { ...request({ 'x-sig': 'nope' }), rawBody: Buffer.from('not json') };
    expect(await acceptRequest(hmacSource, bad, d)).toMatchObject({ kind: 'verification_failed' });
    const sig = createHmac('sha256', 'k').update(body).digest('hex');
    expect(await acceptRequest(hmacSource, request({ 'x-sig': sig }), d)).toMatchObject({ kind: 'accepted' });
    expect(published).toHaveLength(1);
  });

  it('reports bad bodies', async () => {
    const { d, published } = deps();
    const out = await acceptRequest(source, { ...request(), rawBody: Buffer.from('{') }, d);
    expect(out).toMatchObject({ kind: 'invalid_body' });
    expect(published).toHaveLength(0);
  });

  it('runs header_function then body_function and stores their results', async () => {
    const calls: string[] = [];
    const { d, published } = deps({
      runFunction: (text, input) => {
        calls.push(text);
        if (text === 'H') return { kind: 'ok', value: { ...(input as object), 'X-Added': 'v' } };
        return { kind: 'ok', value: { wrapped: input } };
      },
    });
    await acceptRequest({ ...source, header_function: 'H', body_function: 'B' }, request(), d);
    expect(calls).toEqual(['H', 'B']);
    expect(published[0].headers['x-added']).toBe('v');
    expect(published[0].data).toEqual({ wrapped: { id: 'a1', n: 1 } });
    expect(published[0].raw).toBe('{"wrapped":{"id":"a1","n":1}}');
  });

  it('keys idempotency on the request as sent, not the transformed body', async () => {
    const { d, published } = deps({ runFunction: () => ({ kind: 'ok', value: { id: 'changed' } }) });
    const plain = await acceptRequest(source, request(), deps().d);
    await acceptRequest({ ...source, body_function: 'B' }, request(), d);
    expect(published[0].idempotency_key).toBe(plain.kind === 'accepted' ? plain.idempotencyKey : undefined);
  });

  it('reports a failing function and publishes nothing', async () => {
    const { d, published } = deps({ runFunction: () => ({ kind: 'error', message: 'Error: boom' }) });
    expect(await acceptRequest({ ...source, body_function: 'B' }, request(), d)).toEqual({
      kind: 'function_failed',
      message: 'body_function: Error: boom',
    });
    const notHeaders = deps({ runFunction: () => ({ kind: 'ok', value: [1] }) });
    expect(await acceptRequest({ ...source, header_function: 'H' }, request(), notHeaders.d)).toMatchObject({
      kind: 'function_failed',
    });
    expect(published).toHaveLength(0);
  });

  it('takes the event type from a provider header', async () => {
    const { d, published } = deps();
    const gh = { ...source, provider: 'github', verifier: { type: 'hmac', hmac: { secret: 'k' } } };
    const sig = `sha256=${createHmac('sha256', 'k').update(body).digest('hex')}`;
    await acceptRequest(gh, request({ 'x-hub-signature-256': sig, 'x-github-event': 'push' }), d);
    expect(published[0].event_type).toBe('push');
  });

  it('checks the event as it will be published: refused names each path, a warning is recorded', async () => {
    const violations = [{ field: 'data.n', message: 'must be string' }];
    const seen: [string, unknown, number][] = [];
    const refusing = deps({
      checkEvent: async (type, data, bytes) => {
        seen.push([type, data, bytes]);
        return { kind: 'refused', message: 'data does not match: data.n must be string', violations };
      },
    });
    expect(await acceptRequest(source, request(), refusing.d)).toEqual({
      kind: 'invalid_event',
      message: 'data does not match: data.n must be string',
      errors: violations,
    });
    expect(seen).toEqual([['*', { id: 'a1', n: 1 }, 17]]);
    expect(refusing.published).toHaveLength(0);
    const warning = deps({ checkEvent: async () => ({ kind: 'accepted', violations }) });
    expect(await acceptRequest(source, request(), warning.d)).toMatchObject({ kind: 'accepted' });
    expect(warning.published[0].validation_errors).toEqual(violations);
  });

  it('answers unavailable when Kafka does not acknowledge', async () => {
    const { d } = deps({
      sink: recordingSink([], {
        publisher: {
          publish: () => Promise.reject(new UnavailableError('kafka did not acknowledge the message')),
        },
      }),
    });
    expect(await acceptRequest(source, request(), d)).toMatchObject({ kind: 'unavailable' });
  });
});
