import { newId, newProjectId } from '@hookrail/domain';
import type { DeliveryOutcome } from '@hookrail/store';
import { attempt, deliveryDoc } from '@hookrail/testkit';
import { RetryStates } from './retry-states';

describe('RetryStates', () => {
  const projectId = newProjectId();
  const d = deliveryDoc(projectId, {
    event_id: newId(),
    endpoint_id: newId(),
    status: 'Retry',
    attempts_made: 2,
    retries_used: 2,
    rev: 1,
  });
  const ref = { projectId, id: d._id };
  const outcome = (over: Partial<DeliveryOutcome> = {}): DeliveryOutcome => ({
    delivery: d,
    status: 'Retry',
    reason: 'HTTP 500',
    nextAttemptAt: new Date(Date.now() + 1000),
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

  it('forgets a delivery whose outcome ends its retries, and everything on forget (a rebalance)', () => {
    const states = new RetryStates();
    states.recorded(outcome());
    states.recorded(outcome({ status: 'Success', retrySpent: false }));
    expect(states.known(ref)).toBeUndefined();
    states.recorded(outcome());
    states.forget();
    expect(states.known(ref)).toBeUndefined();
  });
});
