import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startDeliveryStack, type DeliveryStack } from './support/delivery-stack';

jest.setTimeout(120_000);

const run = promisify(execFile);
const root = path.resolve(__dirname, '..');

async function demo(cwd: string, env: Record<string, string>, viaNpm = false) {
  const [cmd, args] = viaNpm
    ? ['npm', ['--prefix', root, 'run', '-s', 'demo']]
    : [path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'tools/demo.ts')]];
  try {
    const { stdout, stderr } = await run(cmd, args, {
      cwd,
      env: { ...process.env, ...env },
      timeout: 90_000,
    });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

/** `npm run demo` on real services: a verified delivery, from a directory outside the repository, writing nothing. */
describe('npm run demo (tools/demo.ts)', () => {
  let stack: DeliveryStack;
  let dir: string;
  let cwd: string;

  beforeAll(async () => {
    stack = await startDeliveryStack();
    dir = mkdtempSync(path.join(tmpdir(), 'hookrail-demo-stack-'));
    cwd = mkdtempSync(path.join(tmpdir(), 'hookrail-demo-cwd-'));
    writeFileSync(
      path.join(dir, 'stack.json'),
      JSON.stringify({ gateway_url: stack.apiUrl, admin_api_key: stack.adminKey, services: stack.services }),
    );
  });
  afterAll(async () => {
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  });

  it('creates project → endpoint → subscription → event and prints the delivery, signature verified', async () => {
    const r = await demo(cwd, { HOOKRAIL_STACK_FILE: path.join(dir, 'stack.json') });
    expect(r.out).toMatch(/4 event +(\w+)/);
    const eventId = /4 event +(\w+)/.exec(r.out)![1];
    expect(r.out).toContain(`x-hookrail-event-id: ${eventId}`);
    expect(r.out).toContain('{"invoice":"inv_1001","amount":4200,"currency":"EUR"}');
    expect(r.out).toContain('signature verified');
    expect(r.out).toContain('Delivery status in the API: Success');
    expect(r.code).toBe(0);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('without a running stack it says how to start one (npm --prefix <repo> run demo from elsewhere)', async () => {
    const missing = await demo(cwd, { HOOKRAIL_STACK_FILE: path.join(dir, 'absent.json') }, true);
    expect(missing.code).toBe(1);
    expect(missing.out).toContain('The local stack is not running. Start it with:');
    expect(missing.out).toContain(`cd ${root} && npm start -- --detach`);

    const stale = path.join(dir, 'stale.json');
    writeFileSync(
      stale,
      JSON.stringify({
        gateway_url: 'http://127.0.0.1:9/api',
        admin_api_key: 'x',
        services: { 'api-gateway': 'http://127.0.0.1:9', dispatcher: 'http://127.0.0.1:9' },
      }),
    );
    const down = await demo(cwd, { HOOKRAIL_STACK_FILE: stale });
    expect(down.code).toBe(1);
    expect(down.out).toContain('api-gateway at http://127.0.0.1:9 is not reachable');
    expect(readdirSync(cwd)).toEqual([]);
  });
});
