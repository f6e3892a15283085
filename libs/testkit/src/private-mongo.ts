import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { localStackPath } from './local-stack';
import { sparePort } from './spare-port';

/** The local stack's MongoDB-protocol server binary (deploy/local/lib.sh names it), if installed. */
export function localMongoBinary(): string | null {
  return localStackPath('SECANTUS_BIN');
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = tcpConnect(port, '127.0.0.1');
    sock.once('connect', () => (sock.destroy(), resolve(true)));
    sock.once('error', () => resolve(false));
  });
}

/**
 * A MongoDB-protocol server of a test's own (the local stack's binary on a spare port, its own
 * storage directory), for tests that kill the database: the shared server stays untouched.
 */
export class PrivateMongo {
  private server?: ChildProcess;
  private log = '';

  private constructor(
    private readonly bin: string,
    readonly port: number,
    private readonly dir: string,
  ) {}

  static async start(bin: string): Promise<PrivateMongo> {
    const m = new PrivateMongo(bin, await sparePort(), mkdtempSync(path.join(tmpdir(), 'hookrail-mongo-')));
    await m.restart();
    return m;
  }

  url(database: string): string {
    return `mongodb://127.0.0.1:${this.port}/${database}?directConnection=true`;
  }

  /** Starts the server on the same port and storage directory and waits until it listens. */
  async restart(): Promise<void> {
    const args = ['--host', '127.0.0.1', '--port', String(this.port), '--storage-path', this.dir];
    // Standalone, as the local stack runs it (deploy/local/servers.sh): no oplog.
    const flags = ['--cache-size', '256M', '--log-level', 'WARNING', '--standalone'];
    this.server = spawn(this.bin, [...args, ...flags], { stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (d: Buffer) => (this.log = (this.log + d.toString()).slice(-4000));
    this.server.stdout?.on('data', keep);
    this.server.stderr?.on('data', keep);
    const deadline = Date.now() + 30_000;
    while (!(await portOpen(this.port))) {
      if (this.server.exitCode !== null)
        throw new Error(`server exited (${this.server.exitCode}): ${this.log}`);
      if (Date.now() > deadline) throw new Error(`server did not listen within 30 s: ${this.log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** SIGKILL: no chance to flush anything it has not made durable. */
  async kill(): Promise<void> {
    const s = this.server;
    if (!s || s.exitCode !== null || s.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      s.once('exit', () => resolve());
      s.kill('SIGKILL');
    });
  }

  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
