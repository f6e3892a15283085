import { decideAttemptOutcome } from '@hookrail/retry';
import { initialMetadata, metaPayload, policyOf, shouldSend } from './meta-rules';

describe('meta event rules', () => {
  it('builds the payload as {event_type, data} and snapshots the project strategy', () => {
    const raw = metaPayload('endpoint.created', { uid: 'e1' });
    expect(JSON.parse(raw)).toEqual({ event_type: 'endpoint.created', data: { uid: 'e1' } });
    const md = initialMetadata(raw, { type: 'exponential', duration: 5, retry_count: 3 });
    expect(md).toEqual({
      raw,
      strategy: 'exponential',
      interval_seconds: 5,
      max_retry_seconds: 7200,
      num_trials: 0,
      retry_limit: 3,
      next_send_time: null,
    });
    expect(policyOf(md)).toEqual({
      type: 'exponential',
      duration: 5,
      retry_count: 3,
      max_retry_seconds: 7200,
    });
  });

  it('decides a send like a delivery attempt: retries with the snapshotted strategy, then fails', () => {
    const policy = policyOf(initialMetadata('{}', { type: 'linear', duration: 100, retry_count: 2 }));
    const failed = { kind: 'response' as const, status: 500, headers: {}, body: '', latencyMs: 1 };
    const after = (retriesUsed: number, result = failed) =>
      decideAttemptOutcome({ result, mode: 'at_least_once', policy, retriesUsed });
    expect(after(0)).toEqual({ status: 'Retry', delaySeconds: 100, reason: 'endpoint answered 500' });
    expect(after(1)).toMatchObject({ status: 'Retry', delaySeconds: 100 });
    expect(after(2)).toEqual({ status: 'Failure', reason: 'endpoint answered 500 (retries exhausted)' });
    expect(after(0, { ...failed, status: 204 })).toEqual({ status: 'Success' });
  });

  it('lets a stale duplicate never resend a finished meta event', () => {
    expect(shouldSend('Scheduled', false)).toBe(true);
    expect(shouldSend('Processing', false)).toBe(true);
    expect(shouldSend('Retry', false)).toBe(false);
    expect(shouldSend('Retry', true)).toBe(true);
    for (const s of ['Success', 'Failure', 'Discarded'] as const) {
      expect(shouldSend(s, false)).toBe(false);
      expect(shouldSend(s, true)).toBe(false);
    }
  });
});
