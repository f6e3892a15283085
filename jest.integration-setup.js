// Runs before each integration test file: a database of its own, so test files are independent
// of what other files wrote (list queries, counts). It is named after the run
// (HOOKRAIL_TEST_RUN, from jest.global-setup.js), whose teardown drops it.
const { randomBytes } = require('node:crypto');
const base = process.env.HOOKRAIL_TEST_MONGODB_BASE ?? 'mongodb://127.0.0.1:27017';
// retryWrites=false as on the local stack (docs/database.md, "Retryable writes").
process.env.HOOKRAIL_TEST_MONGODB_URL = `${base}/hookrail-test-${process.env.HOOKRAIL_TEST_RUN ?? 'x'}-${Math.floor(Date.now() / 1000)}-${randomBytes(3).toString('hex')}?retryWrites=false`;
