// Before the `image` project: the real servers (as for integration tests), then the image built
// from this checkout (deploy/docker/build.sh; podman's layer cache makes an unchanged rebuild
// quick). HOOKRAIL_IMAGE names a prebuilt image to test instead.
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const startServers = require('./jest.global-setup');

module.exports = async () => {
  await startServers();
  if (process.env.HOOKRAIL_IMAGE) return;
  execFileSync('bash', [path.join(__dirname, 'deploy/docker/build.sh'), '--tag', 'hookrail:dev'], {
    stdio: 'inherit',
  });
};
