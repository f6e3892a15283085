import { answerClass, decideAttemptOutcome } from './attempt-outcome';

const policy = { type: 'linear' as const, duration: 30, retry_count: 2 };
const response = (status: number, headers: Record<string, string> = {}) =>
  ({ kind: 'response', status, headers, body: '', latencyMs: 1 }) as const;
const error = (maybeReached: boolean) =>
  ({
    kind: 'error',
    code: maybeReached ? 'ETIMEDOUT' : 'ECONNREFUSED',
    message: 'x',
    maybeReached,
    latencyMs: 1,
  }) as const;
const decide = (
  result: Parameters<typeof decideAttemptOutcome>[0]['result'],
  mode: 'at_least_once' | 'at_most_once',
  retriesUsed = 0,
) => decideAttemptOutcome({ result, mode, policy, retriesUsed });

describe('attempt outcome', () => {
  it('succeeds on any 2xx', () => {
    expect(decide(response(204), 'at_least_once')).toEqual({ status: 'Success' });
  });

  it('retries non-2xx and transport errors under at_least_once until the retry count is spent', () => {
    expect(decide(response(500), 'at_least_once')).toMatchObject({ status: 'Retry', delaySeconds: 30 });
    expect(decide(error(true), 'at_least_once', 1)).toMatchObject({ status: 'Retry' });
    expect(decide(response(500), 'at_least_once', 2)).toMatchObject({ status: 'Failure' });
  });

  it('at_most_once never resends a request that may have reached the endpoint, but retries one that never left', () => {
    expect(decide(response(500), 'at_most_once')).toMatchObject({ status: 'Failure' });
    expect(decide(error(true), 'at_most_once')).toMatchObject({ status: 'Failure' });
    expect(decide(error(false), 'at_most_once')).toMatchObject({ status: 'Retry' });
    expect(decide({ kind: 'not_sent', message: 'oauth2 down' }, 'at_most_once')).toMatchObject({
      status: 'Retry',
    });
  });

  it('honours a longer Retry-After on 429 and 503 only', () => {
    expect(decide(response(429, { 'retry-after': '120' }), 'at_least_once')).toMatchObject({
      delaySeconds: 120,
    });
    expect(decide(response(503, { 'retry-after': '5' }), 'at_least_once')).toMatchObject({
      delaySeconds: 30,
    });
    expect(decide(response(500, { 'retry-after': '120' }), 'at_least_once')).toMatchObject({
      delaySeconds: 30,
    });
  });
});

describe('answerClass', () => {
  it('labels an attempt by its status class or by how it failed', () => {
    expect([200, 302, 404, 503].map((s) => answerClass(response(s)))).toEqual(['2xx', '3xx', '4xx', '5xx']);
    expect(answerClass(error(true))).toBe('timeout'); // ETIMEDOUT
    expect(answerClass(error(false))).toBe('connection_error'); // ECONNREFUSED
  });
});
