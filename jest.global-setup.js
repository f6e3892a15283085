// Starts the real servers once per test run (idempotent: a running server is left alone) and
// drops the per-file databases of earlier runs (older than an hour, so a concurrent run keeps its own).
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const { MongoClient } = require('mongodb');

module.exports = async () => {
  if (process.env.HOOKRAIL_SKIP_SERVER_START !== 'true') {
    execFileSync('bash', [path.join(__dirname, 'deploy/local/servers.sh'), 'start'], { stdio: 'inherit' });
  }
  const client = new MongoClient(process.env.HOOKRAIL_TEST_MONGODB_BASE ?? 'mongodb://127.0.0.1:27017');
  try {
    await client.connect();
    const { databases } = await client.db('admin').admin().listDatabases();
    const cutoff = Math.floor(Date.now() / 1000) - 3600;
    const stale = databases.filter((d) => {
      const m = /^hookrail-test(?:-(\d+)-[0-9a-f]+)?$/.exec(d.name);
      return m && m[1] !== undefined && Number(m[1]) < cutoff;
    });
    for (const db of stale) {
      await client.db(db.name).dropDatabase();
    }
  } finally {
    await client.close();
  }
};
