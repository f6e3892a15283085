import { readFileSync } from 'node:fs';
import path from 'node:path';
import NODE_FLAGS from './node-flags.json';

const root = path.resolve(__dirname, '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

// The services run with the same node flags everywhere: a bench on the local stack measures what
// the image runs.
describe('node flags of the services', () => {
  it('turns off the memory reducer (its idle-time collections stole the cores of busy services)', () => {
    expect(NODE_FLAGS).toContain('--no-memory-reducer');
  });

  it('gives the young generation 32 MB semi-spaces (with ~1,000 messages in flight the dispatcher collected for twice as long with the default)', () => {
    expect(NODE_FLAGS).toContain('--max-semi-space-size=32');
  });

  it('does not load source maps (they cost each service ~130 MB of heap; NODE_OPTIONS turns them on to debug)', () => {
    expect(NODE_FLAGS).not.toContain('--enable-source-maps');
  });

  it('the image entrypoint passes exactly these flags', () => {
    const entrypoint = /^ENTRYPOINT (\[.*\])$/m.exec(read('deploy/docker/Dockerfile'))?.[1];
    expect(entrypoint && JSON.parse(entrypoint)).toEqual(['/usr/local/bin/node', ...NODE_FLAGS]);
  });

  it('the local stack and the benches read them from tools/node-flags.json', () => {
    expect(read('deploy/local/up.sh')).toMatch(
      /require\('\.\/tools\/node-flags\.json'\)[\s\S]*node "\$\{NODE_FLAGS\[@\]\}" "dist\/\$s\.js"/,
    );
    // The benches read the file of the tree whose services they run (this one unless told otherwise).
    const bench = read('bench/support/processes.ts');
    expect(bench).toMatch(/nodeFlagsFile = path\.join\(servicesRoot, 'tools\/node-flags\.json'\)/);
    expect(bench).toMatch(/\.\.\.NODE_FLAGS,\s*script,/);
    expect(bench).toMatch(/return nodeArgs\(\s*path\.join\(servicesRoot,/);
    expect(bench).toMatch(
      /const servicesRoot = path\.resolve\(process\.env\.BENCH_SERVICES_FROM \?\? root\)/,
    );
  });
});

describe('the one Node version', () => {
  const engines = (JSON.parse(read('package.json')) as { engines: { node: string; npm: string } }).engines;

  it('is pinned exactly (package.json engines)', () => {
    expect(engines.node).toMatch(/^\d+\.\d+\.\d+$/);
    expect(engines.npm).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("is the image's default base (the Dockerfile) and what the services are bundled for", () => {
    expect(read('deploy/docker/Dockerfile')).toContain(
      `ARG NODE_IMAGE=docker.io/library/node:${engines.node}-bookworm-slim`,
    );
    expect(read('tools/build-services.mjs')).toMatch(/target: `node\$\{nodeMajor\}`/);
  });

  it('is the version the README asks for', () => {
    expect(read('README.md')).toContain(`Node is pinned to **${engines.node}** with npm ${engines.npm}`);
  });
});
