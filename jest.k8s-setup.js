// Before the `k8s` project: a snapshot of the host's network, mounts, cgroups, iptables and sysctls
// (the last test compares the host after `down` with it), then the single-node cluster, Kafka and
// the MongoDB-protocol server on the node's address, and the image loaded into the node
// (deploy/k8s/test-env.sh up; idempotent).
const { execFileSync } = require('node:child_process');
const { mkdirSync, writeFileSync } = require('node:fs');
const path = require('node:path');

module.exports = async () => {
  const cluster = path.join(__dirname, 'deploy/k8s/cluster.sh');
  execFileSync('bash', [cluster, 'down'], { stdio: 'inherit' }); // what a killed run left
  mkdirSync(path.join(__dirname, '.local'), { recursive: true });
  writeFileSync(
    path.join(__dirname, '.local/k8s-host-before.txt'),
    execFileSync('bash', [cluster, 'snapshot'], { encoding: 'utf8' }),
  );
  const testEnv = path.join(__dirname, 'deploy/k8s/test-env.sh');
  try {
    execFileSync('bash', [testEnv, 'up'], { stdio: 'inherit' });
  } catch (err) {
    // jest runs no global teardown after a failed set-up: leave nothing behind here.
    execFileSync('bash', [testEnv, 'down'], { stdio: 'inherit' });
    throw err;
  }
};
