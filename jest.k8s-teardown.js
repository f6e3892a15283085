// After the `k8s` project: the cluster and everything in its netns removed (the last test does it
// too and checks the host; this covers a run that stopped before it). Safe when nothing is up.
const { execFileSync } = require('node:child_process');
const path = require('node:path');

module.exports = async () => {
  execFileSync('bash', [path.join(__dirname, 'deploy/k8s/test-env.sh'), 'down'], { stdio: 'inherit' });
};
