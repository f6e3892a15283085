import type { Store } from '@hookrail/store';
import {
  makeEndpoint,
  makeProject,
  startReceiver,
  testBus,
  uniquePrefix,
  type Receiver,
} from '@hookrail/testkit';
import { RetryStates } from './retry-states';
import type { SendDelivery } from './send-delivery';
import { senderOnTestStore, storedDelivery } from './testing/sender-on-test-store';

/**
 * A delivery this process retries is sent again without reading it, from what its own recorded
 * outcomes say (RetryStates), while the document keeps the same record; a resend written by
 * another process makes it read the document again. On the real store and a real receiver.
 */
describe('sender: retries of its own deliveries, unread', () => {
  const answers: number[] = [];
  let store: Store;
  let receiver: Receiver;
  let send: SendDelivery;
  let close: () => Promise<void>;

  beforeAll(async () => {
    receiver = await startReceiver({ respond: () => ({ status: answers.shift() ?? 200 }) });
    ({ store, send, close } = await senderOnTestStore(testBus(uniquePrefix('retried-unread')), {
      retryStates: new RetryStates(),
    }));
  });
  afterAll(async () => {
    await receiver?.close();
    await close?.();
  });

  it('retries from what it recorded, reads again after a resend, and skips once done', async () => {
    const projectId = await makeProject(store, { strategy: { type: 'linear', duration: 1, retry_count: 5 } });
    const endpoint = await makeEndpoint(store, projectId, { url: `${receiver.url}/hook` });
    const { delivery, message, stored } = await storedDelivery(store, projectId, endpoint._id, {
      status: 'Scheduled',
    });
    const reads = jest.spyOn(store.deliveries, 'findManyForSend');

    answers.push(500, 500, 500);
    await send(message('initial')); // read: a message of the router's, not a retry
    expect(reads).toHaveBeenCalledTimes(1);
    for (const n of [2, 3]) {
      await send(message('retry', (await stored())!.next_attempt_at));
      expect(reads).toHaveBeenCalledTimes(1); // its own retries: not read
      expect(await stored()).toMatchObject({ status: 'Retry', attempts_made: n, retries_used: n });
    }
    expect(receiver.requests).toHaveLength(3);
    const afterRetries = await stored();
    expect(afterRetries!.attempts.map((a) => a.http_status)).toEqual([500, 500, 500]);

    // A resend by another process (the gateway writes, then publishes): read again, sent, Success.
    await store.deliveries.markForResend(projectId, [delivery._id], 'manual resend');
    await send(message('resend'));
    expect(reads).toHaveBeenCalledTimes(2);
    expect(await stored()).toMatchObject({ status: 'Success', attempts_made: 4 });

    // The retry still scheduled from before finds the delivery done: read, nothing sent.
    await send(message('retry', afterRetries!.next_attempt_at));
    expect(reads).toHaveBeenCalledTimes(3);
    expect(receiver.requests).toHaveLength(4);
  });
});
