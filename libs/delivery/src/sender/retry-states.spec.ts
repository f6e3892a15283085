import { newId, newProjectId } from '@hookrail/domain';
import type { DeliveryDoc, DeliveryOutcome } from '@hookrail/store';
import { attempt, deliveryDoc } from '@hookrail/testkit';
import { RetryStates } from './retry-states';

describe('RetryStates', () => {
  const projectId = newProjectId();
  const read = (over: Partial<DeliveryDoc> = {}) =>
    deliveryDoc(projectId, {
      event_id: newId(),
      endpoint_id: newId(),
      status: 'Retry',
      attempts_made: 2,
      retries_used: 2,
      rev: 1,
      ...over,
    });
  const d = read();
  const ref = { projectId, id: d._id };
  const next = new Date(Date.now() + 1000);
  const outcome = (over: Partial<DeliveryOutcome> = {}): DeliveryOutcome => ({
    delivery: d,
    status: 'Retry',
    reason: 'HTTP 500',
    nextAttemptAt: next,
    attempt: attempt('a3'),
    retrySpent: true,
    firstRecord: false,
    ...over,
  });

  it('remembers where a failed retry left the delivery, by project and delivery', () => {
    const states = new RetryStates();
    states.recorded(outcome());
    expect(states.known(ref)).toMatchObject({
      rev: 1,
      attempts_made: 3,
      retries_used: 3,
      status_reason: 'HTTP 500',
    });
    expect(states.known({ projectId: newProjectId(), id: d._id })).toBeUndefined();
  });

  it('knows the delivery whole after an outcome on a delivery it read: as sent, without its attempts', () => {
    const states = new RetryStates();
    states.recorded(outcome());
    const known = states.delivery(ref);
    expect(known).toMatchObject({
      _id: d._id,
      event_id: d.event_id,
      endpoint_id: d.endpoint_id,
      subscription_id: d.subscription_id,
      status: 'Retry',
      rev: 1,
      attempts_made: 3,
      retries_used: 3,
      next_attempt_at: next,
      status_reason: 'HTTP 500',
    });
    expect(known).not.toHaveProperty('attempts');
    // a status change written into the document (a held delivery failing) counts its write
    states.recorded(outcome({ delivery: { ...d, status: 'Scheduled' } }));
    expect(states.delivery(ref)).toMatchObject({ status: 'Retry', rev: 2 });
  });

  it('after a first record, or for at_most_once, keeps only the state to check against the document', () => {
    const states = new RetryStates();
    states.recorded(
      outcome({ firstRecord: true, delivery: read({ _id: d._id, status: 'Scheduled', rev: undefined }) }),
    );
    expect(states.known(ref)).toMatchObject({ rev: 0, attempts_made: 1, retries_used: 1 });
    expect(states.delivery(ref)).toBeUndefined();
    const once = read({ delivery_mode: 'at_most_once' });
    states.recorded(outcome({ delivery: once }));
    expect(states.known({ projectId, id: once._id })).toBeDefined();
    expect(states.delivery({ projectId, id: once._id })).toBeUndefined();
  });

  it('reads again a delivery older than half the shortest retention', () => {
    const states = new RetryStates();
    const old = read({ created_at: new Date(Date.now() - 31 * 60_000) });
    states.recorded(outcome({ delivery: old }));
    expect(states.delivery({ projectId, id: old._id })).toBeUndefined();
    expect(states.delivery(ref, d.created_at.getTime() + 29 * 60_000)).toBeUndefined(); // not recorded
    states.recorded(outcome());
    expect(states.delivery(ref, d.created_at.getTime() + 29 * 60_000)).toBeDefined();
    expect(states.delivery(ref, d.created_at.getTime() + 31 * 60_000)).toBeUndefined();
  });

  it('forgets a delivery whose outcome ends its retries, one delivery, and everything (a rebalance)', () => {
    const states = new RetryStates();
    states.recorded(outcome());
    states.recorded(outcome({ status: 'Success', retrySpent: false }));
    expect(states.known(ref)).toBeUndefined();
    expect(states.delivery(ref)).toBeUndefined();
    const other = read();
    states.recorded(outcome());
    states.recorded(outcome({ delivery: other }));
    states.forget(ref);
    expect([states.delivery(ref), states.delivery({ projectId, id: other._id })?._id]).toEqual([
      undefined,
      other._id,
    ]);
    states.forget();
    expect(states.known({ projectId, id: other._id })).toBeUndefined();
  });

  it('drops what it knew of a delivery whose payload is too large to keep', () => {
    const states = new RetryStates();
    states.recorded(outcome());
    states.recorded(outcome({ delivery: { ...d, payload: 'x'.repeat(5 * 1024 * 1024) } }));
    expect(states.known(ref)).toBeUndefined();
    expect(states.delivery(ref)).toBeUndefined();
  });
});
