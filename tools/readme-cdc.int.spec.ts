import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RunningService } from '@hookrail/runtime';
import { sparePort, startTestService, testConfig, uniquePrefix, waitFor } from '@hookrail/testkit';
import { definition as gateway } from '../services/api-gateway/src/service';
import { definition as dispatcher } from '../services/dispatcher/src/service';
import { definition as sourceConsumer } from '../services/source-consumer/src/service';
import { userDatabase } from '../services/source-consumer/src/testing/user-database';

jest.setTimeout(120_000);

const root = path.resolve(__dirname, '..');
const CDC_URL = 'mongodb://127.0.0.1:27018/?replicaSet=secantus';

/** A bash block of README.md's section headed `heading`. */
function blockOf(readme: string, heading: string): string {
  const section = readme.slice(readme.indexOf(heading));
  return /```bash\n([\s\S]*?)\n```\n/.exec(section)![1];
}

/**
 * README.md's "A collection as webhooks", run as written after the API quick start in the same
 * shell, on real services (a gateway, a dispatcher and a source-consumer) and the local replica-set
 * SecantusDB that npm start runs on 27018: the inserted document comes back as the event's, and the
 * quick start's receiver prints the webhook. Only the addresses, the admin key and the database
 * name (one per run: the server is shared) are swapped.
 */
describe("README.md's change stream example", () => {
  const services: RunningService[] = [];
  let user: Awaited<ReturnType<typeof userDatabase>>;
  beforeAll(async () => {
    user = await userDatabase(['orders']);
    // npm start allows the local (loopback) database; the tests' services do not by default.
    const env = { HOOKRAIL_KAFKA_TOPIC_PREFIX: uniquePrefix('docs'), HOOKRAIL_ALLOW_PRIVATE_BROKERS: 'true' };
    services.push(await startTestService(gateway(testConfig('api-gateway', env))));
    services.push(await startTestService(dispatcher(testConfig('dispatcher', env))));
    services.push(await startTestService(sourceConsumer(testConfig('source-consumer', env))));
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop()));
    await user?.drop();
  });

  it('turns a document inserted into the collection into the event and the webhook', async () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const example = blockOf(readme, '### A collection as webhooks');
    expect(example).toContain(CDC_URL);
    const port = String(await sparePort());
    const script = `${blockOf(readme, '## API quick start')}\n${example}`
      .replace(/^API=http:\/\/127\.0\.0\.1:8080\/api$/m, `API=${services[0].url}/api`)
      .replace(/^ADMIN=.*$/m, 'ADMIN=hr_admin.test-admin-key-0123456789')
      .replaceAll(':3000/', `:${port}/`)
      .replace('serve 3000', `serve ${port}`)
      .replace('"database": "shop"', `"database": "${user.name}"`)
      .replace("db('shop')", `db('${user.name}')`);
    expect(script).toContain(user.name);
    let out = '';
    const sh = spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd: root, detached: true });
    sh.stdout.on('data', (c: Buffer) => (out += c.toString()));
    sh.stderr.on('data', (c: Buffer) => (out += c.toString()));
    try {
      const code = await new Promise<number | null>((resolve) => sh.once('exit', resolve));
      expect({ code, out }).toEqual({ code: 0, out: expect.stringContaining('"total":42') });
      const last = out.trim().split('\n').pop()!;
      expect(JSON.parse(last)).toEqual({ _id: { $oid: expect.any(String) }, total: 42 });
      // the quick start's receiver (still running in the script's background) verified the webhook
      await waitFor('the receiver printing the webhook', () =>
        out.includes('orders.insert {"operation":"insert"') ? true : undefined,
      );
    } finally {
      await waitFor('the receiver to stop', () => {
        try {
          process.kill(-sh.pid!, 'SIGTERM');
          return false;
        } catch {
          return true;
        }
      });
    }
  });
});
