import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { localMongoBinary, sparePort, waitFor } from '@hookrail/testkit';

/**
 * A user's database of a test's own whose oplog keeps 5 entries (the local stack's SecantusDB as a
 * single-node replica set on a spare port): a resume point falls out of it after enough writes.
 * SecantusDB prunes its oplog every 1,000 writes, so a test writes more than that.
 */
export class SmallOplogMongo {
  private constructor(
    private readonly server: ChildProcess,
    readonly port: number,
    private readonly dir: string,
  ) {}

  static async start(): Promise<SmallOplogMongo> {
    const bin = localMongoBinary();
    if (!bin)
      throw new Error('the local SecantusDB is not installed (npm start or deploy/local/servers.sh start)');
    const port = await sparePort();
    const dir = mkdtempSync(path.join(tmpdir(), 'hookrail-cdc-'));
    const server = spawn(
      bin,
      ['--host', '127.0.0.1', '--port', String(port), '--storage-path', dir, '--oplog-max-entries', '5'],
      { stdio: 'ignore' },
    );
    const m = new SmallOplogMongo(server, port, dir);
    await waitFor(
      'the small-oplog server answering',
      async () => {
        if (server.exitCode !== null) throw new Error(`server exited (${server.exitCode})`);
        return listening(port);
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    return m;
  }

  get url(): string {
    return `mongodb://127.0.0.1:${this.port}/?replicaSet=secantus`;
  }

  async stop(): Promise<void> {
    if (this.server.exitCode === null && this.server.signalCode === null)
      await new Promise<void>((resolve) => {
        this.server.once('exit', () => resolve());
        this.server.kill('SIGKILL');
      });
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = connect(port, '127.0.0.1');
    sock.once('connect', () => (sock.destroy(), resolve(true)));
    sock.once('error', () => resolve(false));
  });
}
