// Before the `image` project: the real servers (as for integration tests), then the image built
// from this checkout (deploy/docker/build.sh; podman's layer cache makes an unchanged rebuild
// quick) and the previous release's, which the upgrade test starts from
// (deploy/docker/build-previous.sh). HOOKRAIL_IMAGE names a prebuilt image to test instead of this
// checkout's.
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const startServers = require('./jest.global-setup');

const build = (script, ...args) =>
  execFileSync('bash', [path.join(__dirname, 'deploy/docker', script), ...args], { stdio: 'inherit' });

module.exports = async () => {
  await startServers();
  build('build-previous.sh');
  if (process.env.HOOKRAIL_IMAGE) return;
  build('build.sh', '--tag', 'hookrail:dev');
};
