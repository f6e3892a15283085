import { newProjectId } from '@hookrail/domain';
import { appendsRetryOutcome, retryStateAfter, type DeliveryOutcome } from './delivery-outcome';
import type { DeliveryAttempt, DeliveryDoc } from './delivery.schema';
import { foldRetryOutcomes, mayHaveRetryOutcomes, withRetryState } from './fold-retry-outcomes';
import type { RetryOutcomeDoc } from './retry-outcome.schema';

const project = newProjectId();
const at = (s: number) => new Date(Date.UTC(2026, 11, 6, 0, 0, s));
const attempt = (uid: string, s: number): DeliveryAttempt => ({
  uid,
  url: 'http://127.0.0.1/hook',
  method: 'POST',
  request_headers_json: '{}',
  response_headers_json: '{}',
  http_status: 500,
  response_data: '',
  error: null,
  latency_ms: 1,
  created_at: at(s),
});
const doc = (over: Partial<DeliveryDoc> = {}): DeliveryDoc => ({
  _id: 'd1',
  project_id: project,
  event_id: 'e1',
  endpoint_id: 'ep1',
  subscription_id: 's1',
  source_id: null,
  event_type: 't',
  status: 'Retry',
  delivery_mode: 'at_least_once',
  payload: null,
  attempts_made: 1,
  retries_used: 1,
  next_attempt_at: at(2),
  status_reason: 'HTTP 500',
  attempts: [attempt('a1', 1)],
  metadata: {},
  created_at: at(0),
  updated_at: at(1),
  deleted_at: null,
  rev: 0,
  ...over,
});
const appended = (uid: string, s: number, rev = 0): RetryOutcomeDoc => ({
  _id: uid,
  project_id: project,
  delivery_id: 'd1',
  rev,
  attempt: attempt(uid, s),
  status_reason: `HTTP 500 at ${s}`,
  next_attempt_at: at(s + 1),
  created_at: at(0),
  updated_at: at(s),
  deleted_at: null,
});

describe('foldRetryOutcomes', () => {
  it('is the document itself when nothing is appended', () => {
    const d = doc();
    expect(foldRetryOutcomes(d, [])).toBe(d);
  });

  it('counts every appended attempt as an attempt and a spent retry, attempts in time order', () => {
    const folded = foldRetryOutcomes(doc(), [appended('a3', 3), appended('a2', 2)]);
    expect(folded.attempts_made).toBe(3);
    expect(folded.retries_used).toBe(3);
    expect(folded.attempts.map((a) => a.uid)).toEqual(['a1', 'a2', 'a3']);
  });

  it('takes where the delivery stands from the latest outcome appended since its last write', () => {
    const folded = foldRetryOutcomes(doc(), [appended('a3', 3), appended('a2', 2)]);
    expect(folded.next_attempt_at).toEqual(at(4));
    expect(folded.status_reason).toBe('HTTP 500 at 3');
    expect(folded.updated_at).toEqual(at(3));
  });

  it("keeps the document's standing when it was written after them (a resend, a hold)", () => {
    const resent = doc({
      status: 'Scheduled',
      next_attempt_at: null,
      status_reason: 'resent',
      rev: 1,
      updated_at: at(9),
    });
    const folded = foldRetryOutcomes(resent, [appended('a2', 2, 0), appended('a3', 3, 0)]);
    expect(folded).toMatchObject({
      status: 'Scheduled',
      next_attempt_at: null,
      status_reason: 'resent',
      updated_at: at(9),
    });
    expect(folded.attempts_made).toBe(3); // they were still made
    // back in Retry by a later attempt (rev 2): the older outcomes stay history
    const retried = doc({ rev: 2, next_attempt_at: at(20), status_reason: 'HTTP 503', updated_at: at(19) });
    expect(foldRetryOutcomes(retried, [appended('a2', 2, 0)])).toMatchObject({
      next_attempt_at: at(20),
      status_reason: 'HTTP 503',
      attempts_made: 2,
    });
  });

  it('leaves a document read without its attempts without them', () => {
    const { attempts: _left, ...bare } = doc();
    const folded = foldRetryOutcomes(bare as DeliveryDoc, [appended('a2', 2)]);
    expect(folded.attempts).toBeUndefined();
    expect(folded.attempts_made).toBe(2);
  });

  it('treats a document written before revisions (no rev) as rev 0', () => {
    const { rev: _rev, ...old } = doc();
    expect(foldRetryOutcomes(old as DeliveryDoc, [appended('a2', 2)]).next_attempt_at).toEqual(at(3));
  });

  it('looks for appended outcomes only on deliveries that spent a retry', () => {
    expect(mayHaveRetryOutcomes(doc({ retries_used: 0 }))).toBe(false);
    expect(mayHaveRetryOutcomes(doc({ retries_used: 1 }))).toBe(true);
  });
});

describe('appendsRetryOutcome', () => {
  const outcome = (over: Partial<DeliveryOutcome> = {}): DeliveryOutcome => ({
    delivery: doc(),
    status: 'Retry',
    reason: 'HTTP 500',
    nextAttemptAt: at(5),
    attempt: attempt('a2', 2),
    retrySpent: true,
    firstRecord: false,
    ...over,
  });

  it('appends a failed retry that leaves a delivery read in Retry in Retry', () => {
    expect(appendsRetryOutcome(outcome())).toBe(true);
  });

  it.each([
    ['a first record', { firstRecord: true }],
    ['a status change', { status: 'Success' as const, retrySpent: false }],
    ['a hold (no attempt)', { attempt: null, retrySpent: false }],
    ['a delivery read in another status', { delivery: doc({ status: 'Scheduled' }) }],
    [
      'an at_most_once delivery (marked Processing since)',
      { delivery: doc({ delivery_mode: 'at_most_once' }) },
    ],
  ])('writes %s into the document', (_what, over) => {
    expect(appendsRetryOutcome(outcome(over))).toBe(false);
  });
});

describe('withRetryState', () => {
  const state = {
    rev: 0,
    attempts_made: 4,
    retries_used: 4,
    next_attempt_at: at(9),
    status_reason: 'HTTP 502',
  };

  it('shows the delivery where its appender knows it stands, in place of its appended outcomes', () => {
    expect(withRetryState(doc(), state)).toMatchObject({
      status: 'Retry',
      attempts_made: 4,
      retries_used: 4,
      next_attempt_at: at(9),
      status_reason: 'HTTP 502',
      rev: 0,
    });
  });

  it('does not hold once the document was written since or left Retry', () => {
    expect(withRetryState(doc({ rev: 1 }), state)).toBeNull();
    expect(withRetryState(doc({ status: 'Scheduled' }), state)).toBeNull();
  });
});

describe('retryStateAfter', () => {
  const failed = (over: Partial<DeliveryOutcome> = {}): DeliveryOutcome => ({
    delivery: doc({ rev: 3, attempts_made: 4, retries_used: 4 }),
    status: 'Retry',
    reason: 'HTTP 500',
    nextAttemptAt: at(30),
    attempt: attempt('a5', 20),
    retrySpent: true,
    firstRecord: false,
    ...over,
  });

  it('counts one attempt on from the state read, under the rev read when appended', () => {
    expect(retryStateAfter(failed())).toEqual({
      rev: 3,
      attempts_made: 5,
      retries_used: 5,
      next_attempt_at: at(30),
      status_reason: 'HTTP 500',
    });
  });

  it('expects the rev one on after an upsert into the document (from another status)', () => {
    expect(
      retryStateAfter(
        failed({ delivery: doc({ status: 'Scheduled', rev: 3, attempts_made: 4, retries_used: 4 }) }),
      ),
    ).toMatchObject({ rev: 4, attempts_made: 5, retries_used: 5 });
  });

  it('starts from nothing at rev 0 for a first record', () => {
    expect(
      retryStateAfter(
        failed({
          firstRecord: true,
          delivery: doc({ status: 'Scheduled', attempts_made: 0, retries_used: 0 }),
        }),
      ),
    ).toMatchObject({ rev: 0, attempts_made: 1, retries_used: 1 });
  });

  it('has no state for an outcome that leaves the delivery in another status', () => {
    expect(retryStateAfter(failed({ status: 'Success', retrySpent: false }))).toBeNull();
    expect(retryStateAfter(failed({ status: 'Scheduled', attempt: null, retrySpent: false }))).toBeNull();
  });
});
