import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from '@hookrail/testkit';
import { BrokerStack } from './testing/broker-stack';
import { ConsumerProcess } from './testing/consumer-process';
import { userPostgres, type UserPostgres } from './testing/user-postgres';

/** Changes in the run: 10 batches of 10 transactions. The figure is 10,000 (HOOKRAIL_CDC_CHAOS_CHANGES=10000). */
const TOTAL = Number(process.env.HOOKRAIL_CDC_CHAOS_CHANGES ?? 1000);
const BATCH = TOTAL / 10;
const PER_TXN = BATCH / 10;

jest.setTimeout(240_000 + TOTAL * 60);

const root = path.resolve(__dirname, '../../..');

/**
 * The user's Postgres (deploy/local/servers.sh `postgres`) SIGKILLed and started again: it
 * recovers from its WAL, and its slot may confirm an older position than the consumer had
 * acknowledged (a slot's position is made durable at checkpoints), so it sends some transactions
 * again.
 */
async function crashPostgres(): Promise<void> {
  const pid = Number(readFileSync(path.join(root, '.local/servers/postgres/pid'), 'utf8'));
  process.kill(pid, 'SIGKILL');
  await waitFor('postgres gone', () => {
    try {
      process.kill(pid, 0);
      return undefined;
    } catch {
      return true;
    }
  });
  await promisify(execFile)('bash', ['deploy/local/servers.sh', 'start'], {
    cwd: root,
    env: { ...process.env, HOOKRAIL_SERVERS: 'postgres' },
  });
}

/**
 * source-consumer as real processes, SIGKILLed twice while a postgres db_change_stream source
 * streams, and the database itself killed once: the position is stored (and confirmed to the server) only
 * after Kafka acknowledged every change before it, so what is read again after a crash is never
 * skipped (nothing lost), and a change sent again carries the same id, derived from its commit
 * LSN and place in its transaction, so the router records it as a duplicate (nothing sent twice).
 */
describe('postgres db_change_stream source with source-consumer and Postgres killed', () => {
  const stack = new BrokerStack({ inProcessConsumer: false, retryScheduler: true });
  const processes: ConsumerProcess[] = [];
  let user: UserPostgres;
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
    user = await userPostgres('CREATE TABLE orders (n int PRIMARY KEY)');
  });
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await stack.tearDown();
    await user.drop();
  });

  const deliveredNs = () =>
    stack.receiver.requests
      .map((r) => JSON.parse(r.body) as { database?: string; row?: { n?: number } })
      .filter((b) => b.database === user.name)
      .map((b) => Number(b.row?.n));
  const waitDelivered = (what: string, atLeast: number) =>
    waitFor(what, () => new Set(deliveredNs()).size >= atLeast, {
      timeoutMs: 60_000 + TOTAL * 10,
      // Each look parses every delivery so far.
      intervalMs: TOTAL > 1000 ? 200 : 20,
    });
  /** Batch b: ten transactions of PER_TXN rows. */
  const insertBatch = async (b: number) => {
    for (let t = 0; t < 10; t++) {
      const from = b * BATCH + t * PER_TXN;
      await user.sql('INSERT INTO orders SELECT generate_series($1::int, $2::int)', [
        from,
        from + PER_TXN - 1,
      ]);
    }
  };

  it(`loses none of ${TOTAL} changes and sends none twice across two consumer SIGKILLs and a database crash`, async () => {
    const first = await consumer('pg-crash-a');
    const source = await stack.createSource(
      {},
      {
        type: 'db_change_stream',
        pub_sub: null,
        db_change_stream: user.sourceSettings(),
      },
    );
    await stack.waitState(source, 'consuming', 30_000);
    let second: Promise<ConsumerProcess> | undefined;
    let third: Promise<ConsumerProcess> | undefined;
    for (let b = 0; b < 10; b++) {
      await insertBatch(b);
      if (b === 3) {
        // Killed part-way through the batch: what it accepted since its last stored position
        // is read again by the next replica.
        await waitDelivered('part of the fourth batch delivered', 3 * BATCH + 5);
        first.kill('SIGKILL');
        second = consumer('pg-crash-b');
      }
      if (b === 6) {
        await waitDelivered('part of the seventh batch delivered', 6 * BATCH + 5);
        await crashPostgres();
      }
      if (b === 8) {
        await waitDelivered('part of the ninth batch delivered', 8 * BATCH + 5);
        (await second!).kill('SIGKILL');
        third = consumer('pg-crash-c');
      }
      await new Promise((r) => setTimeout(r, 300));
    }
    await third;
    await waitFor(`all ${TOTAL} changes delivered`, () => new Set(deliveredNs()).size === TOTAL, {
      timeoutMs: 120_000 + TOTAL * 30,
      intervalMs: 250,
    }).catch((err: Error) => {
      throw new Error(`${err.message}: ${new Set(deliveredNs()).size} of ${TOTAL}\n${logs()}`);
    });
    // A second copy of a re-read change would be routed right behind its first one.
    await new Promise((r) => setTimeout(r, 3000));
    expect(deliveredNs()).toHaveLength(TOTAL);
    const events = await stack.store.events.list(source.project_id, { sourceId: source._id }, 2 * TOTAL);
    expect(events.filter((e) => !e.is_duplicate_event)).toHaveLength(TOTAL);
  });
});
