import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { serviceArgs, sparePort, TEST_MONGODB_URL, waitFor } from '@hookrail/testkit';
import { BROKER_ENV } from './broker-stack';

const root = path.resolve(__dirname, '../../../..');

/** A source-consumer as a real process (SIGKILL tests), with its logs kept for failure messages. */
export class ConsumerProcess {
  private child?: ChildProcess;
  readonly logs: string[] = [];

  constructor(
    readonly instanceId: string,
    private readonly env: Record<string, string>,
  ) {}

  async start(): Promise<void> {
    const port = await sparePort();
    this.child = spawn(process.execPath, serviceArgs('source-consumer'), {
      cwd: root,
      env: {
        ...process.env,
        ...BROKER_ENV,
        HOSTNAME: this.instanceId,
        HOOKRAIL_HTTP_PORT: String(port),
        HOOKRAIL_MONGODB_URL: TEST_MONGODB_URL,
        HOOKRAIL_KAFKA_PARTITIONS: '3',
        HOOKRAIL_LOG_LEVEL: 'warn',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (d: Buffer) => this.logs.push(d.toString());
    this.child.stdout?.on('data', keep);
    this.child.stderr?.on('data', keep);
    await waitFor(
      `${this.instanceId} ready`,
      async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200,
      { timeoutMs: 60_000, intervalMs: 250 },
    );
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    this.child?.kill(signal);
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const hard = setTimeout(() => child.kill('SIGKILL'), 12_000);
      child.once('exit', () => (clearTimeout(hard), resolve()));
      child.kill('SIGTERM');
    });
  }

  recentLogs(): string {
    return this.logs.slice(-30).join('');
  }
}
