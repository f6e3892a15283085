import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Kafka, logLevel } from 'kafkajs';
import { mongo as driver } from 'mongoose';
import { serviceArgs, TEST_KAFKA_BROKERS, TEST_MONGODB_URL, uniquePrefix } from '@hookrail/testkit';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../../..');

// The chart's pre-install Job runs this entry point's bundle (dist/setup.js); here the same bundle,
// built by the integration set-up, runs against the real servers.
describe('set-up command (services/api-gateway/src/setup.ts)', () => {
  const prefix = uniquePrefix('setup');
  const dbUrl = TEST_MONGODB_URL.replace(/\/[^/?]*(\?|$)/, `/${prefix}$1`);
  const kafka = new Kafka({ brokers: TEST_KAFKA_BROKERS, logLevel: logLevel.NOTHING });
  const mongo = new driver.MongoClient(dbUrl);

  afterAll(async () => {
    await mongo
      .db()
      .dropDatabase()
      .catch(() => undefined);
    await mongo.close();
  });

  const setup = (...args: string[]) =>
    run(process.execPath, [...serviceArgs('setup'), ...args], {
      cwd: root,
      env: {
        ...process.env,
        HOOKRAIL_MONGODB_URL: dbUrl,
        HOOKRAIL_KAFKA_BROKERS: TEST_KAFKA_BROKERS.join(','),
        HOOKRAIL_KAFKA_TOPIC_PREFIX: prefix,
        HOOKRAIL_KAFKA_PARTITIONS: '2',
      },
      timeout: 60_000,
    });

  /** The exit code and output of a run expected to fail. */
  const failing = (...args: string[]) =>
    setup(...args).then(
      () => ({ code: 0, stdout: '', stderr: '' }),
      (err: { code: number; stdout: string; stderr: string }) => err,
    );

  it('refuses unknown arguments with its usage and exit code 2', async () => {
    const { code, stderr } = await failing('migrate', 'down');
    expect(code).toBe(2);
    expect(stderr).toContain('node dist/setup.js migrate status');
  });

  it('reports pending migrations with exit code 3 before the set-up, and none after it', async () => {
    const before = await failing('migrate', 'status');
    expect(before.code).toBe(3);
    expect(before.stdout).toMatch(/^0001-baseline-indexes +pending +- +every collection/m);
    const count = (before.stdout.match(/^\d{4}-[a-z-]+ +pending/gm) ?? []).length;
    expect(before.stdout).toContain(`0 applied, ${count} pending`);

    const up = await setup('migrate', 'up');
    expect(up.stdout).toMatch(/^applied 0001-baseline-indexes \(\d+ ms\)/m);
    const after = await setup('migrate', 'status');
    expect(after.stdout).toMatch(/^0001-baseline-indexes +applied +\d{4}-\d\d-\d\dT/m);
    expect(after.stdout).toContain(`${count} applied, 0 pending`);
    expect((await setup('migrate', 'up')).stdout).not.toContain('applied 0001');

    // The chart's post-upgrade Job: migration 3's tidy-up once, then nothing.
    expect((await setup('migrate', 'after-rollout')).stdout).toContain('after the rollout: 0003-list-keys');
    expect((await setup('migrate', 'after-rollout')).stdout).toContain('nothing to do after the rollout');
  }, 120_000);

  it('creates every topic and the indexes, and a second run changes nothing and succeeds', async () => {
    const first = await setup();
    expect(first.stdout).toContain('set-up complete');

    const admin = kafka.admin();
    await admin.connect();
    try {
      const topics = (await admin.listTopics()).filter((t) => t.startsWith(`${prefix}.`)).sort();
      expect(topics).toEqual(
        expect.arrayContaining([`${prefix}.events`, `${prefix}.deliveries`, `${prefix}.retries`]),
      );
      const meta = await admin.fetchTopicMetadata({ topics: [`${prefix}.deliveries`] });
      expect(meta.topics[0].partitions).toHaveLength(2);

      await mongo.connect();
      const collections = (await mongo.db().listCollections().toArray()).map((c) => c.name);
      expect(collections).toEqual(expect.arrayContaining(['event_deliveries', 'events', 'endpoints']));
      const indexes = await mongo.db().collection('event_deliveries').indexes();
      expect(indexes.length).toBeGreaterThan(1);

      const second = await setup();
      expect(second.stdout).toContain('set-up complete');
      expect(second.stdout).toMatch(/"applied":\[\]/);
      const after = (await admin.listTopics()).filter((t) => t.startsWith(`${prefix}.`)).sort();
      expect(after).toEqual(topics);
      expect(await mongo.db().collection('event_deliveries').indexes()).toEqual(indexes);
    } finally {
      await admin.deleteTopics({
        topics: (await admin.listTopics()).filter((t) => t.startsWith(`${prefix}.`)),
      });
      await admin.disconnect();
    }
  }, 120_000);
});
