import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { migrateTestDatabase, TEST_MONGODB_URL, uniquePrefix } from './stack';
import { serviceArgs } from './service-bundle';
import { sparePort } from './spare-port';
import { waitFor } from './wait-for';

const ROOT = path.resolve(__dirname, '../../..');

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote (stdout and stderr), in order. */
  logs: string[];
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/**
 * Starts service `name` (its bundle, as the image runs it) as its own process against the test
 * servers (fresh topic prefix, a spare port), resolved once its /readyz says ready: for what only a
 * process shows (signals, exit codes, what it flushes on the way out).
 */
export async function startServiceProcess(
  name: string,
  env: Record<string, string> = {},
): Promise<ServiceProcess> {
  const port = await sparePort();
  await migrateTestDatabase(env.HOOKRAIL_MONGODB_URL ?? TEST_MONGODB_URL);
  const child = spawn(process.execPath, serviceArgs(name), {
    cwd: ROOT,
    env: {
      ...process.env,
      HOOKRAIL_HTTP_PORT: String(port),
      HOOKRAIL_MONGODB_URL: TEST_MONGODB_URL,
      HOOKRAIL_KAFKA_TOPIC_PREFIX: uniquePrefix('proc'),
      HOOKRAIL_KAFKA_PARTITIONS: '3',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  child.stdout?.on('data', (d: Buffer) => logs.push(d.toString()));
  child.stderr?.on('data', (d: Buffer) => logs.push(d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${name} ready`, async () => (await fetch(`${url}/readyz`)).status === 200, {
      timeoutMs: 45_000,
      intervalMs: 250,
    });
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${(err as Error).message}\n${logs.join('').slice(-4000)}`, { cause: err });
  }
  return { child, url, logs, exited };
}
