import { randomBytes } from 'node:crypto';
import { waitFor } from '@hookrail/testkit';
import { BrokerStack } from './testing/broker-stack';
import { ConsumerProcess } from './testing/consumer-process';
import { USER_MONGODB_URL, userDatabase } from './testing/user-database';

jest.setTimeout(180_000);

/**
 * source-consumer as real processes, SIGKILLed while a db_change_stream source streams: the
 * resume token is stored only after Kafka acknowledged the events up to it, so the replica that
 * takes over re-reads what the dead one had not stored (nothing lost), and a re-read change carries
 * the same idempotency key, so the router records it as a duplicate (nothing sent twice).
 */
describe('db_change_stream source with source-consumer killed', () => {
  const stack = new BrokerStack({ inProcessConsumer: false, retryScheduler: true });
  const processes: ConsumerProcess[] = [];
  let user: Awaited<ReturnType<typeof userDatabase>>;
  const consumer = async (id: string) => {
    const p = new ConsumerProcess(`${id}-${randomBytes(2).toString('hex')}`, {
      HOOKRAIL_KAFKA_TOPIC_PREFIX: stack.prefix,
    });
    processes.push(p);
    await p.start();
    return p;
  };
  const logs = () => processes.map((p) => `--- ${p.instanceId}\n${p.recentLogs()}`).join('\n');

  beforeAll(async () => {
    await stack.setUp();
    user = await userDatabase(['orders']);
  });
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await stack.tearDown();
    await user.drop();
  });

  /** Deliveries of this test's database, by document number. */
  const deliveredNs = () =>
    stack.receiver.requests
      .map((r) => JSON.parse(r.body) as { database?: string; document_key?: { _id?: number } })
      .filter((b) => b.database === user.name)
      .map((b) => Number(b.document_key?._id));

  it('loses none of 1,000 changes and sends none twice when the source-consumer is SIGKILLed mid-stream', async () => {
    const first = await consumer('cdc-crash-a');
    const source = await stack.createSource(
      {},
      {
        type: 'db_change_stream',
        pub_sub: null,
        db_change_stream: {
          type: 'mongodb',
          connection_string: USER_MONGODB_URL,
          database: user.name,
          collections: ['orders'],
        },
      },
    );
    await stack.waitState(source, 'consuming', 30_000);
    const orders = user.db.collection<{ _id: number }>('orders');
    let second: Promise<ConsumerProcess> | undefined;
    for (let b = 0; b < 10; b++) {
      await orders.insertMany(Array.from({ length: 100 }, (_, i) => ({ _id: b * 100 + i })));
      if (b === 3) {
        // Killed while it is part-way through the batch: what it accepted since its last stored
        // resume point is read again by the next replica.
        await waitFor('part of the fourth batch delivered', () => new Set(deliveredNs()).size > 305, {
          timeoutMs: 30_000,
          intervalMs: 20,
        });
        first.kill('SIGKILL');
        second = consumer('cdc-crash-b');
      }
      await new Promise((r) => setTimeout(r, 300));
    }
    await second;
    await waitFor('all 1,000 changes delivered', () => new Set(deliveredNs()).size === 1000, {
      timeoutMs: 90_000,
      intervalMs: 250,
    }).catch((err: Error) => {
      throw new Error(`${err.message}: ${new Set(deliveredNs()).size} of 1000\n${logs()}`);
    });
    // A second copy of a re-read change would be routed right behind its first one.
    await new Promise((r) => setTimeout(r, 3000));
    expect(deliveredNs()).toHaveLength(1000);
  });
});
