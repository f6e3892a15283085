import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { localMongoBinary, sparePort, waitFor } from '@hookrail/testkit';

/**
 * A user's database of a test's own: the local stack's SecantusDB as a single-node replica set on
 * a spare port, which the test may crash and start again on the same data, or give a tiny oplog
 * (SecantusDB prunes it every 1,000 writes, so a resume point falls out of a 5-entry one after
 * more writes than that).
 */
export class UserMongoServer {
  private server!: ChildProcess;

  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly oplogMaxEntries: number | undefined,
  ) {}

  static async start(opts: { oplogMaxEntries?: number } = {}): Promise<UserMongoServer> {
    const dir = mkdtempSync(path.join(tmpdir(), 'hookrail-cdc-'));
    const m = new UserMongoServer(await sparePort(), dir, opts.oplogMaxEntries);
    await m.spawn();
    return m;
  }

  get url(): string {
    return `mongodb://127.0.0.1:${this.port}/?replicaSet=secantus`;
  }

  private async spawn(): Promise<void> {
    const bin = localMongoBinary();
    if (!bin)
      throw new Error('the local SecantusDB is not installed (npm start or deploy/local/servers.sh start)');
    const oplog =
      this.oplogMaxEntries === undefined ? [] : ['--oplog-max-entries', String(this.oplogMaxEntries)];
    // Every commit is synced, as a MongoDB replica set's default (majority, journaled) writes are:
    // without it SecantusDB loses the last few seconds of acknowledged writes to a SIGKILL, and
    // with them the oplog positions a change stream already read, so the changes written after the
    // restart reuse positions behind the stream's resume point and are never read (the chaos spec
    // then waited for them in one run of three).
    const server = spawn(
      bin,
      [
        '--host',
        '127.0.0.1',
        '--port',
        String(this.port),
        '--storage-path',
        this.dir,
        '--sync-on-commit',
        ...oplog,
      ],
      {
        stdio: 'ignore',
      },
    );
    this.server = server;
    await waitFor(
      'the user database answering',
      async () => {
        if (server.exitCode !== null) throw new Error(`server exited (${server.exitCode})`);
        return listening(this.port);
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
  }

  /** SIGKILL, as a crashed host would leave it; `restart` starts it again on the same data. */
  async crash(): Promise<void> {
    if (this.server.exitCode !== null || this.server.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      this.server.once('exit', () => resolve());
      this.server.kill('SIGKILL');
    });
  }

  async restart(): Promise<void> {
    await this.crash();
    await this.spawn();
  }

  async stop(): Promise<void> {
    await this.crash();
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
