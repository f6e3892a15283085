import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { localStackPath, sparePort } from '@hookrail/testkit';

function elasticmqLibs(): string {
  const libs = localStackPath('ELASTICMQ_LIBS');
  if (!libs) throw new Error('the local ElasticMQ jars are missing: run `bash deploy/local/provision.sh`');
  return libs;
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const sock = tcpConnect(port, '127.0.0.1');
    sock.once('connect', () => (sock.destroy(), resolve(true)));
    sock.once('error', () => resolve(false));
  });

/**
 * An SQS server of a test's own (the local stack's ElasticMQ on a spare port), with queues and
 * messages kept on disk (H2), so a test can restart the broker mid-stream without touching the
 * shared server and without the broker itself losing messages.
 */
export class PrivateElasticMq {
  private server?: ChildProcess;
  private log = '';

  private constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  static async start(): Promise<PrivateElasticMq> {
    const m = new PrivateElasticMq(await sparePort(), mkdtempSync(path.join(tmpdir(), 'hookrail-sqs-')));
    await m.restart();
    return m;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async restart(): Promise<void> {
    const p = String(this.port);
    this.server = spawn(
      'java',
      [
        '-Xmx256m',
        '-Djava.awt.headless=true',
        '-Drest-sqs.bind-hostname=127.0.0.1',
        `-Drest-sqs.bind-port=${p}`,
        '-Dnode-address.host=127.0.0.1',
        `-Dnode-address.port=${p}`,
        '-Daws.region=us-east-1',
        '-Dmessages-storage.enabled=true',
        `-Dmessages-storage.uri=jdbc:h2:${this.dir}/messages`,
        '-Dqueues-storage.enabled=true',
        `-Dqueues-storage.path=${this.dir}/queues.conf`,
        '-cp',
        `${elasticmqLibs()}/*`,
        'org.elasticmq.server.Main',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const keep = (d: Buffer) => (this.log = (this.log + d.toString()).slice(-4000));
    this.server.stdout?.on('data', keep);
    this.server.stderr?.on('data', keep);
    const deadline = Date.now() + 60_000;
    while (!(await portOpen(this.port))) {
      if (this.server.exitCode !== null)
        throw new Error(`elasticmq exited (${this.server.exitCode}): ${this.log}`);
      if (Date.now() > deadline) throw new Error(`elasticmq did not listen within 60 s: ${this.log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** A clean shutdown (SIGTERM): the broker stores what it holds and is gone until restart. */
  async stop(): Promise<void> {
    const s = this.server;
    if (!s || s.exitCode !== null || s.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      s.once('exit', () => resolve());
      s.kill('SIGTERM');
    });
  }

  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
