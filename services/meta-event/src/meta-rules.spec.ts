import { decideRetry } from '@hookrail/retry';
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

  it('retries with the snapshotted linear strategy and gives up after retry_limit retries', () => {
    const md = initialMetadata('{}', { type: 'linear', duration: 100, retry_count: 2 });
    expect(decideRetry(policyOf(md), 0)).toEqual({ kind: 'retry', delaySeconds: 100 });
    expect(decideRetry(policyOf(md), 1)).toEqual({ kind: 'retry', delaySeconds: 100 });
    expect(decideRetry(policyOf(md), 2)).toEqual({ kind: 'give_up' });
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
