import { randomBytes } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { mongo } from 'mongoose';
import { createTopicsWithLeaders, TEST_KAFKA_BROKERS, waitFor } from '@hookrail/testkit';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const teardown: () => Promise<void> = require('../../jest.integration-teardown.js');

const BASE = process.env.HOOKRAIL_TEST_MONGODB_BASE ?? 'mongodb://127.0.0.1:27017';

// The integration run's teardown removes the databases and topics named after its run, and
// nothing else: a developer's `npm start` data and another run's stay.
describe('integration teardown', () => {
  const run = randomBytes(3).toString('hex');
  const other = randomBytes(3).toString('hex');
  const kafka = new Kafka({ clientId: 'tests', brokers: TEST_KAFKA_BROKERS, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  let client: mongo.MongoClient;
  const saved = process.env.HOOKRAIL_TEST_RUN;

  beforeAll(async () => {
    client = await mongo.MongoClient.connect(`${BASE}/?retryWrites=false`);
    await admin.connect();
  });
  afterAll(async () => {
    process.env.HOOKRAIL_TEST_RUN = saved;
    const left = (await admin.listTopics()).filter((t) => t.includes(other) || t.startsWith(`gw${run}.`));
    if (left.length) await admin.deleteTopics({ topics: left });
    await client.db(`hookrail-test-${other}-1-aaaaaa`).dropDatabase();
    await admin.disconnect();
    await client.close();
  });

  it("drops the run's databases and deletes its topics only", async () => {
    const dbs = [
      `hookrail-test-${run}-1-aaaaaa`,
      `hookrail-test-${run}-2-bbbbbb`,
      `hookrail-test-${other}-1-aaaaaa`,
    ];
    for (const name of dbs) await client.db(name).collection('c').insertOne({ n: 1 });
    const topics = [
      `gw-${run}-0a1b.events`,
      `gw-${run}-0a1b.deliveries`,
      `gw-${other}-0a1b.events`,
      `gw${run}.events`,
    ];
    await createTopicsWithLeaders(
      admin,
      topics.map((topic) => ({ topic, numPartitions: 1 })),
    );

    process.env.HOOKRAIL_TEST_RUN = run;
    await teardown();

    const names = (await client.db().admin().listDatabases({ nameOnly: true })).databases.map((d) => d.name);
    expect(dbs.filter((d) => names.includes(d))).toEqual([`hookrail-test-${other}-1-aaaaaa`]);
    // Kafka deletes a topic after it accepted the request: the metadata catches up shortly after.
    const ours = topics.slice(0, 2);
    await waitFor('the run’s topics deleted', async () => {
      const left = await admin.listTopics();
      return !ours.some((t) => left.includes(t));
    });
    const left = await admin.listTopics();
    expect(topics.filter((t) => left.includes(t))).toEqual([`gw-${other}-0a1b.events`, `gw${run}.events`]);
  });
});
