// Runs before each integration test file: a database of its own. The MongoDB-protocol test
// server (FerretDB on SQLite) scans whole collections for most queries, so small per-file
// databases keep tests fast and independent of what other files wrote.
const { randomBytes } = require('node:crypto');
const base = process.env.HOOKRAIL_TEST_MONGODB_BASE ?? 'mongodb://127.0.0.1:27017';
process.env.HOOKRAIL_TEST_MONGODB_URL = `${base}/hookrail-test-${Math.floor(Date.now() / 1000)}-${randomBytes(3).toString('hex')}`;
