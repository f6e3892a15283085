import { randomBytes } from 'node:crypto';
import { waitFor } from '@hookrail/testkit';
import { brokerFixture, type BrokerFixture } from './testing/broker-fixture';
import { BrokerStack, pubSubFor } from './testing/broker-stack';
import { ConsumerProcess } from './testing/consumer-process';
import { publishStream } from './testing/stream';

jest.setTimeout(120_000);

/**
 * source-consumer as real processes, killed with SIGKILL: a message is acked only after Kafka
 * acknowledged its event, so whatever the killed process held unacked is delivered again by the
 * broker to the replica that takes the source over.
 */
describe('source-consumer killed', () => {
  const stack = new BrokerStack({ inProcessConsumer: false, retryScheduler: true });
  const processes: ConsumerProcess[] = [];
  const fixtures: BrokerFixture[] = [];
  const consumer = async (id: string) => {
    const p = new ConsumerProcess(`${id}-${randomBytes(2).toString('hex')}`, {
      HOOKRAIL_KAFKA_TOPIC_PREFIX: stack.prefix,
    });
    processes.push(p);
    await p.start();
    return p;
  };
  const logs = () => processes.map((p) => `--- ${p.instanceId}\n${p.recentLogs()}`).join('\n');

  beforeAll(() => stack.setUp());
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await stack.tearDown();
    await Promise.all(fixtures.map((f) => f.close()));
  });

  it('loses none of 1,000 AMQP messages when the source-consumer is SIGKILLed mid-stream', async () => {
    const q = `hr-crash-${randomBytes(3).toString('hex')}`;
    const broker = await brokerFixture('amqp', q);
    fixtures.push(broker);
    const first = await consumer('sc-crash-a');
    const source = await stack.createSource(pubSubFor('amqp', q, 4));
    await stack.waitState(source, 'consuming');
    const tag = 'crash';
    let second: Promise<ConsumerProcess> | undefined;
    await publishStream(broker, tag, {
      total: 1000,
      batches: 10,
      intervalMs: 300,
      between: (b) => {
        if (b === 3) {
          first.kill('SIGKILL');
          second = consumer('sc-crash-b');
        }
      },
    });
    await second;
    await waitFor('all 1,000 messages delivered', () => stack.distinctTagged(tag).size === 1000, {
      timeoutMs: 60_000,
      intervalMs: 250,
    }).catch((err: Error) => {
      throw new Error(`${err.message}: ${stack.distinctTagged(tag).size} of 1000\n${logs()}`);
    });
    await Promise.all(processes.splice(0).map((p) => p.stop()));
  });

  it('moves a source to the surviving replica within 30 s when its replica dies', async () => {
    const q = `hr-move-${randomBytes(3).toString('hex')}`;
    const broker = await brokerFixture('sqs', q);
    fixtures.push(broker);
    const [a, b] = await Promise.all([consumer('sc-move-a'), consumer('sc-move-b')]);
    const source = await stack.createSource(pubSubFor('sqs', q));
    const owner = await waitFor(
      'the source running on one replica',
      async () => {
        const h = await stack.store.sourceHealth.find(source.project_id, source._id);
        return h?.state === 'consuming' ? h.instance_id : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    const [dead, survivor] = owner === a.instanceId ? [a, b] : [b, a];
    expect([a.instanceId, b.instanceId]).toContain(owner);
    const killedAt = Date.now();
    dead.kill('SIGKILL');
    await waitFor(
      'the source consuming on the survivor',
      async () => {
        const h = await stack.store.sourceHealth.find(source.project_id, source._id);
        return h?.state === 'consuming' && h.instance_id === survivor.instanceId;
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${logs()}`);
    });
    expect(Date.now() - killedAt).toBeLessThan(30_000);
    await broker.publish([{ tag: 'moved', n: 1 }]);
    await stack.waitTagged('moved', 1);
  });
});
