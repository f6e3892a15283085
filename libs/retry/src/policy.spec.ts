import { decideRetry, parseRetryAfter } from './policy';

describe('decideRetry', () => {
  const linear = { type: 'linear' as const, duration: 30, retry_count: 3 };
  const expo = { type: 'exponential' as const, duration: 10, retry_count: 10, max_retry_seconds: 100 };
  const noJitter = () => 0;

  it('waits the same duration every time for linear', () => {
    expect(decideRetry(linear, 0)).toEqual({ kind: 'retry', delaySeconds: 30 });
    expect(decideRetry(linear, 2)).toEqual({ kind: 'retry', delaySeconds: 30 });
  });

  it('gives up once retry_count retries were spent', () => {
    expect(decideRetry(linear, 3)).toEqual({ kind: 'give_up' });
    expect(decideRetry({ ...linear, retry_count: 0 }, 0)).toEqual({ kind: 'give_up' });
  });

  it('doubles exponential waits up to max_retry_seconds', () => {
    const waits = [0, 1, 2, 3, 4].map((n) => decideRetry(expo, n, { random: noJitter }));
    expect(waits.map((w) => (w.kind === 'retry' ? w.delaySeconds : -1))).toEqual([10, 20, 40, 80, 100]);
  });

  it('adds at most 10 % jitter to exponential waits, never past the cap', () => {
    const w = decideRetry(expo, 1, { random: () => 0.999 });
    expect(w.kind === 'retry' && w.delaySeconds).toBeCloseTo(21.998, 2);
    const capped = decideRetry(expo, 6, { random: () => 0.999 });
    expect(capped).toEqual({ kind: 'retry', delaySeconds: 100 });
  });

  it('honours a longer Retry-After, ignores a shorter one', () => {
    expect(decideRetry(linear, 0, { retryAfterSeconds: 120 })).toEqual({ kind: 'retry', delaySeconds: 120 });
    expect(decideRetry(linear, 0, { retryAfterSeconds: 5 })).toEqual({ kind: 'retry', delaySeconds: 30 });
  });
});

describe('parseRetryAfter', () => {
  it('reads delta seconds and HTTP dates', () => {
    expect(parseRetryAfter('120')).toBe(120);
    const now = Date.UTC(2026, 0, 1, 0, 0, 0);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});
