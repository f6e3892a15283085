// After the integration tests: drops the databases and deletes the Kafka topics this run's test
// files made (both named after HOOKRAIL_TEST_RUN), so a developer's servers do not collect a
// database and ~30 partitions per test file per run. Anything else on the servers (`npm start`'s
// data, another run's) is left alone. Never fails the run: a server that is gone is reported.
const { Kafka, logLevel } = require('kafkajs');
const { mongo } = require('mongoose');

const BASE = process.env.HOOKRAIL_TEST_MONGODB_BASE ?? 'mongodb://127.0.0.1:27017';
const BROKERS = (process.env.HOOKRAIL_TEST_KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');

module.exports = async () => {
  const run = process.env.HOOKRAIL_TEST_RUN;
  if (!run || process.env.HOOKRAIL_MONGODB_URI) return;
  const [databases, topics] = await Promise.all([
    dropDatabases(`hookrail-test-${run}-`).catch((err) => `not dropped (${err.message})`),
    deleteTopics(new RegExp(`^[^.]+-${run}-[0-9a-f]{4}\\.`)).catch((err) => `not deleted (${err.message})`),
  ]);
  console.log(`\nintegration run ${run}: databases ${databases}, Kafka topics ${topics}`);
};

async function dropDatabases(prefix) {
  const client = await mongo.MongoClient.connect(`${BASE}/?retryWrites=false`, {
    serverSelectionTimeoutMS: 5_000,
  });
  try {
    const { databases } = await client.db().admin().listDatabases({ nameOnly: true });
    const ours = databases.map((d) => d.name).filter((name) => name.startsWith(prefix));
    for (const name of ours) await client.db(name).dropDatabase();
    return `dropped: ${ours.length}`;
  } finally {
    await client.close();
  }
}

async function deleteTopics(pattern) {
  const kafka = new Kafka({
    clientId: 'tests-teardown',
    brokers: BROKERS,
    logLevel: logLevel.NOTHING,
    retry: { retries: 1 },
  });
  const admin = kafka.admin();
  await admin.connect();
  try {
    const ours = (await admin.listTopics()).filter((t) => pattern.test(t));
    // A few hundred per request keeps each one well inside the broker's request timeout.
    for (let i = 0; i < ours.length; i += 200) {
      await admin.deleteTopics({ topics: ours.slice(i, i + 200), timeout: 30_000 });
    }
    return `deleted: ${ours.length}`;
  } finally {
    await admin.disconnect();
  }
}
