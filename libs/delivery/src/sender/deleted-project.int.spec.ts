import type { Store } from '@hookrail/store';
import {
  makeEndpoint,
  makeProject,
  startReceiver,
  testBus,
  uniquePrefix,
  type Receiver,
} from '@hookrail/testkit';
import type { SendDelivery } from './send-delivery';
import { senderOnTestStore, storedDelivery } from './testing/sender-on-test-store';

/**
 * A deleted project's retries and held deliveries keep coming back from the scheduler until they
 * are due: each is dropped on its project, before its delivery or event is read, with nothing sent
 * or written. On the real store and a real receiver.
 */
describe('sender: deliveries of a deleted project', () => {
  let store: Store;
  let receiver: Receiver;
  let send: SendDelivery;
  let close: () => Promise<void>;

  beforeAll(async () => {
    receiver = await startReceiver();
    ({ store, send, close } = await senderOnTestStore(testBus(uniquePrefix('deleted-project'))));
  });
  afterAll(async () => {
    await receiver?.close();
    await close?.();
  });

  /** A delivery waiting for its retry, due now, and the retries message that fires it. */
  async function retryOf(projectId: Awaited<ReturnType<typeof makeProject>>) {
    const endpoint = await makeEndpoint(store, projectId, { url: `${receiver.url}/hook` });
    const d = await storedDelivery(store, projectId, endpoint._id, {
      status: 'Retry',
      next_attempt_at: new Date(),
    });
    return { message: d.message('retry', d.delivery.next_attempt_at), stored: d.stored };
  }

  it('drops a retry of a deleted project without reading its delivery', async () => {
    const projectId = await makeProject(store);
    const { message, stored } = await retryOf(projectId);
    const before = await stored();
    await store.projects.softDelete(projectId);
    const reads = jest.spyOn(store.deliveries, 'findManyForSend');

    await send(message);

    expect(reads).not.toHaveBeenCalled();
    expect(receiver.requests).toHaveLength(0);
    expect(await stored()).toEqual(before);
    reads.mockRestore();
  });

  it('sends the same retry of a live project', async () => {
    const projectId = await makeProject(store);
    const { message, stored } = await retryOf(projectId);

    await send(message);

    expect(receiver.requests).toHaveLength(1);
    expect(await stored()).toMatchObject({ status: 'Success', attempts_made: 1 });
  });
});
