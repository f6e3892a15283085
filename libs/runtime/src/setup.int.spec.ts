import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Kafka, logLevel } from 'kafkajs';
import { mongo as driver } from 'mongoose';
import { TEST_KAFKA_BROKERS, TEST_MONGODB_URL, uniquePrefix } from '@hookrail/testkit';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../../..');

// The chart's pre-install Job runs this entry point; here it runs twice against the real servers.
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

  const setup = () =>
    run(process.execPath, ['--import', 'tsx', path.join(root, 'services/api-gateway/src/setup.ts')], {
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
