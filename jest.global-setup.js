// Builds the console and portal bundles the in-process gateways serve, then starts the real
// servers once per test run (idempotent: a running server is left alone).
const { execFileSync } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const path = require('node:path');

module.exports = async () => {
  // Names every database and Kafka topic prefix the run's test files make, so that
  // jest.integration-teardown.js removes exactly those (the workers inherit it).
  process.env.HOOKRAIL_TEST_RUN ??= randomBytes(3).toString('hex');
  // Under a second: the gateway's pages name the hashed files of this build.
  execFileSync(process.execPath, [path.join(__dirname, 'tools/build-ui.mjs')], { stdio: 'inherit' });
  // The services the process tests start (libs/testkit/src/service-bundle.ts), bundled as the image
  // carries them: a few seconds here, against 4 s of CPU more for each process started through tsx.
  execFileSync(process.execPath, [path.join(__dirname, 'tools/build-services.mjs'), '.local/test-dist'], {
    cwd: __dirname,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (process.env.HOOKRAIL_SKIP_SERVER_START === 'true') return;
  // `HOOKRAIL_MONGODB_URI=… npm run test:store`: the store contract suite against another server
  // needs none of the local servers.
  if (process.env.HOOKRAIL_MONGODB_URI) return;
  // The test-only tools (chromium, helm) too: `npm start` provisions only what the system runs on.
  execFileSync('bash', [path.join(__dirname, 'deploy/local/provision.sh'), '--test-tools'], {
    stdio: 'inherit',
  });
  execFileSync('bash', [path.join(__dirname, 'deploy/local/servers.sh'), 'start'], { stdio: 'inherit' });
};
