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

  it('the image entrypoint passes exactly these flags', () => {
    const entrypoint = /^ENTRYPOINT (\[.*\])$/m.exec(read('deploy/docker/Dockerfile'))?.[1];
    expect(entrypoint && JSON.parse(entrypoint)).toEqual(['/usr/local/bin/node', ...NODE_FLAGS]);
  });

  it('the local stack and the benches read them from tools/node-flags.json', () => {
    expect(read('deploy/local/up.sh')).toMatch(
      /require\('\.\/tools\/node-flags\.json'\)[\s\S]*node "\$\{NODE_FLAGS\[@\]\}" "dist\/\$s\.js"/,
    );
    expect(read('bench/support/processes.ts')).toMatch(
      /\.\.\.NODE_FLAGS,\s*path\.join\(root, `dist\/\$\{name\}\.js`\)/,
    );
  });
});
