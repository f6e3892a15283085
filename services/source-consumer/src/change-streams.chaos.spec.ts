import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { waitFor } from '@hookrail/testkit';
import { BrokerStack } from './testing/broker-stack';
import { ConsumerProcess } from './testing/consumer-process';
import { UserMongoServer } from './testing/user-mongo-server';

/** Changes in the run: 10 batches. The figure is 10,000 (HOOKRAIL_CDC_CHAOS_CHANGES=10000). */
const TOTAL = Number(process.env.HOOKRAIL_CDC_CHAOS_CHANGES ?? 1000);
const BATCH = TOTAL / 10;

jest.setTimeout(180_000 + TOTAL * 60);

/**
 * source-consumer as real processes, SIGKILLed twice while a MongoDB db_change_stream source
 * streams, and the user's database server itself SIGKILLed and started again once: the resume
 * token is stored only after Kafka acknowledged the events up to it, so the replica that takes
 * over re-reads what the dead one had not stored (nothing lost), and a re-read change carries the
 * same idempotency key, so the router records it as a duplicate (nothing sent twice).
 */
describe('db_change_stream source with source-consumer and the database killed', () => {
  const stack = new BrokerStack({ inProcessConsumer: false, retryScheduler: true });
  const processes: ConsumerProcess[] = [];
  let server: UserMongoServer;
  let client: MongoClient;
  const database = `cdc-${randomBytes(4).toString('hex')}`;
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
    server = await UserMongoServer.start();
    client = await MongoClient.connect(server.url, { serverSelectionTimeoutMS: 30_000 });
    await client.db(database).createCollection('orders');
  });
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await stack.tearDown();
    await client?.close();
    await server?.stop();
  });

  /** Deliveries of this test's database, by document number. */
  const deliveredNs = () =>
    stack.receiver.requests
      .map((r) => JSON.parse(r.body) as { database?: string; document_key?: { _id?: number } })
      .filter((b) => b.database === database)
      .map((b) => Number(b.document_key?._id));

  /** Waits until part of batch `b` arrived, so that a crash lands while it is being streamed. */
  const partOf = (b: number) =>
    waitFor(`part of batch ${b} delivered`, () => new Set(deliveredNs()).size > b * BATCH + BATCH / 20, {
      timeoutMs: 60_000,
      intervalMs: 20,
    }).catch((err: Error) => {
      throw new Error(`${err.message}: ${new Set(deliveredNs()).size} of ${TOTAL}\n${logs()}`);
    });

  /** One batch of inserts, retried while the database is down (an insert that landed is not re-sent). */
  async function insertBatch(b: number): Promise<void> {
    const docs = Array.from({ length: BATCH }, (_, i) => ({ _id: b * BATCH + i }));
    await waitFor(
      `batch ${b} written`,
      () =>
        client
          .db(database)
          .collection<{ _id: number }>('orders')
          .insertMany(docs, { ordered: false })
          .then(
            () => true,
            (err: { code?: number; writeErrors?: { code: number }[] }) =>
              // a retry after an insert that reached the server: its documents are there (duplicate key)
              (err.writeErrors ?? []).length > 0 && (err.writeErrors ?? []).every((e) => e.code === 11000),
          ),
      { timeoutMs: 60_000, intervalMs: 200 },
    );
  }

  it(`loses none of ${TOTAL} changes and sends none twice: source-consumer SIGKILLed twice, the database once`, async () => {
    let running = await consumer('cdc-crash-a');
    const source = await stack.createSource(
      {},
      {
        type: 'db_change_stream',
        pub_sub: null,
        db_change_stream: {
          type: 'mongodb',
          connection_string: server.url,
          database,
          collections: ['orders'],
        },
      },
    );
    await stack.waitState(source, 'consuming', 30_000);
    for (let b = 0; b < 10; b++) {
      await insertBatch(b);
      if (b === 3 || b === 7) {
        // Killed part-way through a batch: what it accepted since its last stored resume point is
        // read again by the next replica.
        await partOf(b);
        running.kill('SIGKILL');
        running = await consumer(`cdc-crash-${b}`);
      }
      if (b === 5) {
        await partOf(b);
        await server.restart();
      }
    }
    await waitFor(`all ${TOTAL} changes delivered`, () => new Set(deliveredNs()).size === TOTAL, {
      timeoutMs: 120_000 + TOTAL * 30,
      intervalMs: 250,
    }).catch((err: Error) => {
      throw new Error(`${err.message}: ${new Set(deliveredNs()).size} of ${TOTAL}\n${logs()}`);
    });
    // A second copy of a re-read change would be routed right behind its first one.
    await new Promise((r) => setTimeout(r, 3000));
    expect(deliveredNs()).toHaveLength(TOTAL);
  });
});
