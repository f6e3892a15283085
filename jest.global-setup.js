// Starts the real servers once per test run (idempotent: a running server is left alone).
// Per-file test databases are never dropped while the server runs: FerretDB on SQLite can crash
// (SIGBUS) when a database file still mapped by its pool is removed. `servers.sh stop` and
// removing .local/servers/ferretdb resets them.
const { execFileSync } = require('node:child_process');
const path = require('node:path');

module.exports = async () => {
  if (process.env.HOOKRAIL_SKIP_SERVER_START === 'true') return;
  // `HOOKRAIL_MONGODB_URI=… npm run test:store`: the store contract suite against another server
  // needs none of the local servers.
  if (process.env.HOOKRAIL_MONGODB_URI) return;
  execFileSync('bash', [path.join(__dirname, 'deploy/local/servers.sh'), 'start'], { stdio: 'inherit' });
};
