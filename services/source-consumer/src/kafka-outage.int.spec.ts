import { randomBytes } from 'node:crypto';
import { createTopicsWithLeaders, deleteTopicsGone, waitFor } from '@hookrail/testkit';
import { brokerFixture, type BrokerFixture } from './testing/broker-fixture';
import { BrokerStack, pubSubFor } from './testing/broker-stack';

jest.setTimeout(120_000);

/**
 * Kafka cannot take the event (here: the stack's private `events` topic is deleted, so every
 * produce fails; the shared Kafka keeps running for everyone else). Messages must stay on the
 * broker, unacknowledged, and flow once Kafka takes events again: nothing lost.
 */
describe('kafka refuses events', () => {
  const stack = new BrokerStack();
  let broker: BrokerFixture;
  beforeAll(() => stack.setUp());
  afterAll(async () => {
    await stack.tearDown();
    await broker?.close();
  });

  it('leaves AMQP messages unacknowledged while events cannot be stored, then delivers all of them', async () => {
    const q = `hr-outage-${randomBytes(3).toString('hex')}`;
    broker = await brokerFixture('amqp', q);
    const source = await stack.createSource(pubSubFor('amqp', q, 2));
    await stack.waitState(source, 'consuming');
    // Nothing is sent before the outage: offsets the dispatcher committed on the deleted topic
    // would make it skip the first messages of the re-created one (an artefact of this test).

    const admin = stack.bus.kafka.admin();
    await admin.connect();
    const topic = stack.bus.topic('events');
    await deleteTopicsGone(admin, [topic]);
    await broker.publish(Array.from({ length: 100 }, (_, n) => ({ tag: 'during', n })));
    // Longer than the 10 s a message waits for Kafka's acknowledgement: the messages go back to
    // the queue (requeued) and come again.
    await waitFor(
      'messages requeued for redelivery',
      async () => (await stack.metric('hookrail_source_messages_total', 'outcome="retry"')) > 0,
      {
        timeoutMs: 20_000,
        intervalMs: 250,
      },
    );
    expect(stack.distinctTagged('during').size).toBe(0);

    await createTopicsWithLeaders(admin, [{ topic, numPartitions: 3 }]);
    await admin.disconnect();
    await waitFor(
      'all 100 messages delivered after the outage',
      () => stack.distinctTagged('during').size === 100,
      {
        timeoutMs: 60_000,
        intervalMs: 250,
      },
    ).catch((err: Error) => {
      throw new Error(`${err.message}: ${stack.distinctTagged('during').size} of 100`);
    });
  });
});
