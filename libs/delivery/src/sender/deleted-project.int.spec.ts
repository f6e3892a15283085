import type { DeliveryMessage } from '@hookrail/bus';
import { toTimestamp } from '@hookrail/domain';
import type { Store } from '@hookrail/store';
import {
  makeDelivery,
  makeEndpoint,
  makeEvent,
  makeProject,
  makeSubscription,
  startReceiver,
  testBus,
  uniquePrefix,
  type Receiver,
} from '@hookrail/testkit';
import type { SendDelivery } from './send-delivery';
import { senderOnTestStore } from './testing/sender-on-test-store';

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

  async function retryOf(projectId: Awaited<ReturnType<typeof makeProject>>) {
    const endpoint = await makeEndpoint(store, projectId, { url: `${receiver.url}/hook` });
    const sub = await makeSubscription(store, projectId, { endpoint_id: endpoint._id });
    const event = await makeEvent(store, projectId, { raw: '{"n":1}' });
    const d = await makeDelivery(store, projectId, {
      event_id: event._id,
      endpoint_id: endpoint._id,
      subscription_id: sub._id,
      status: 'Retry',
      next_attempt_at: new Date(),
    });
    const message: DeliveryMessage = {
      delivery_id: d._id,
      project_id: projectId,
      endpoint_id: endpoint._id,
      event_id: event._id,
      reason: 'retry',
      due_at: toTimestamp(d.next_attempt_at!),
    };
    return { message, stored: () => store.deliveries.findById(projectId, d._id) };
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
