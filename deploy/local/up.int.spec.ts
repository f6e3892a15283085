import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');

interface Stack {
  gateway_url: string;
  ingest_url: string;
  admin_api_key: string;
  services: Record<string, string>;
}

/** The README's first command, end to end: every service built, started and ready on the real servers. */
describe('npm start (deploy/local/up.sh)', () => {
  afterAll(async () => {
    await run('bash', [path.join(root, 'deploy/local/down.sh'), '--services'], { cwd: root });
  });

  it('brings up all six services, ready, and writes .local/stack.json', async () => {
    const { stdout } = await run('bash', [path.join(root, 'deploy/local/up.sh'), '--detach'], {
      cwd: root,
      timeout: 170_000,
      env: { ...process.env, HOOKRAIL_ADMIN_KEY: '' },
    });
    expect(stdout).toMatch(/Gateway API: +http:\/\/127\.0\.0\.1:8080\/api/);
    expect(stdout).toMatch(/Admin API key: +hr_admin\./);

    const stack = JSON.parse(readFileSync(path.join(root, '.local/stack.json'), 'utf8')) as Stack;
    expect(Object.keys(stack.services).sort()).toEqual(
      ['api-gateway', 'dispatcher', 'ingest', 'meta-event', 'retry-scheduler', 'source-consumer'].sort(),
    );
    expect(stack.admin_api_key).toMatch(/^hr_admin\./);
    for (const [name, url] of Object.entries(stack.services)) {
      const res = await fetch(`${url}/readyz`);
      expect({ name, status: res.status }).toEqual({ name, status: 200 });
    }
  }, 180_000);
});
