import { randomBytes } from 'node:crypto';
import type { MetaMessage } from '@hookrail/bus';
import { sqsQueue, waitFor } from '@hookrail/testkit';
import { BrokerStack, pubSubFor } from './testing/broker-stack';
import { PrivateElasticMq } from './testing/private-elasticmq';
import { streamThroughOutage } from './testing/outage';

jest.setTimeout(150_000);

/**
 * The broker goes away mid-stream and comes back (SQS: a private ElasticMQ with its messages on
 * disk, restarted on the same port; the shared servers stay untouched). The source shows as
 * unreachable meanwhile, resumes by itself, and no message is lost.
 */
describe('broker restart', () => {
  let sqs: PrivateElasticMq;
  let stack: BrokerStack;

  beforeAll(async () => {
    sqs = await PrivateElasticMq.start();
    stack = new BrokerStack({ env: { HOOKRAIL_SQS_ENDPOINT: sqs.endpoint } });
    await stack.setUp();
  });
  afterAll(async () => {
    await stack?.tearDown();
    await sqs?.remove();
  });

  it('loses none of 1,000 SQS messages when the broker restarts mid-stream, and shows it unreachable meanwhile', async () => {
    const q = `hr-restart-${randomBytes(3).toString('hex')}`;
    const queue = await sqsQueue(q, { endpoint: sqs.endpoint });
    const meta: MetaMessage[] = [];
    await stack.bus.consume('test-meta', { topic: 'meta', handle: async (m) => void meta.push(m) });
    const source = await stack.createSource(pubSubFor('sqs', q, 4));
    await streamThroughOutage(stack, source, queue, 'restart', {
      down: async () => sqs.stop(),
      up: async () => {
        await sqs.restart();
        // ElasticMQ listens before it has reloaded its queues from disk.
        await waitFor('queue reloaded after the restart', () => queue.exists(), { timeoutMs: 30_000 });
      },
    });
    // the project is told once that its broker went away and once that it came back
    await waitFor('source.recovered meta event', () => meta.some((m) => m.event_type === 'source.recovered'));
    const ofSource = meta.filter((m) => (m.data as { source_id?: string }).source_id === source._id);
    expect(ofSource.map((m) => m.event_type)).toEqual(['source.unreachable', 'source.recovered']);
    await queue.close();
  });
});
