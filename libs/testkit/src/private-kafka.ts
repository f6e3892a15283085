import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { localStackPath } from './local-stack';
import { sparePort } from './spare-port';

/** The local stack's Kafka jars (deploy/local/lib.sh names the directory), if installed. */
export function localKafkaLibs(): string | null {
  return localStackPath('KAFKA_LIBS');
}

/** Users of the SASL listener: one per mechanism a source can choose. */
export const SASL_USERS = {
  plain: { username: 'plain-user', password: 'plain-secret' },
  'scram-sha-256': { username: 'scram256-user', password: 'scram256-secret' },
  'scram-sha-512': { username: 'scram512-user', password: 'scram512-secret' },
} as const;
const ADMIN = { username: 'admin', password: 'admin-secret' };

/**
 * A single-node Kafka of a test's own: the local stack's jars, spare ports, a temporary directory.
 * With `sasl`, its only client listener requires SASL (PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512; the
 * SCRAM users are created when the storage is formatted). `kill` and `restart` keep the data, for
 * tests of a broker going away mid-stream; `remove` deletes everything.
 */
export class PrivateKafka {
  private server?: ChildProcess;

  private constructor(
    private readonly libs: string,
    readonly port: number,
    private readonly dir: string,
  ) {}

  get brokers(): string[] {
    return [`127.0.0.1:${this.port}`];
  }

  static async start(libs: string, opts: { sasl?: boolean } = {}): Promise<PrivateKafka> {
    const [port, controller] = [await sparePort(), await sparePort()];
    const k = new PrivateKafka(libs, port, mkdtempSync(path.join(tmpdir(), 'hookrail-kafka-')));
    const data = path.join(k.dir, 'data');
    mkdirSync(data);
    const listener = opts.sasl ? 'SASL_PLAINTEXT' : 'PLAINTEXT';
    const plainUsers = [ADMIN, SASL_USERS.plain].map((u) => `user_${u.username}="${u.password}"`).join(' ');
    const sasl = [
      'sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512',
      'sasl.mechanism.inter.broker.protocol=PLAIN',
      `listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="${ADMIN.username}" password="${ADMIN.password}" ${plainUsers};`,
      'listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;',
      'listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;',
    ];
    writeFileSync(
      k.file('server.properties'),
      [
        'process.roles=broker,controller',
        'node.id=1',
        `controller.quorum.voters=1@127.0.0.1:${controller}`,
        `listeners=${listener}://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controller}`,
        `advertised.listeners=${listener}://127.0.0.1:${port}`,
        'controller.listener.names=CONTROLLER',
        `inter.broker.listener.name=${listener}`,
        `listener.security.protocol.map=CONTROLLER:PLAINTEXT,${listener}:${listener}`,
        ...(opts.sasl ? sasl : []),
        `log.dirs=${data}`,
        'num.partitions=3',
        'auto.create.topics.enable=false',
        'group.initial.rebalance.delay.ms=0',
        'offsets.topic.replication.factor=1',
        'offsets.topic.num.partitions=3',
        'transaction.state.log.replication.factor=1',
        'transaction.state.log.min.isr=1',
        // A killed broker's registration stays until its session times out (9 s by default), and
        // the restarted broker retries with growing backoff meanwhile: 15 s to come back. A 4 s
        // session of 500 ms heartbeats (8 missed before fencing) brings it back in about 8 s.
        'broker.heartbeat.interval.ms=500',
        'broker.session.timeout.ms=4000',
      ].join('\n'),
    );
    writeFileSync(
      k.file('log4j.properties'),
      'log4j.rootLogger=INFO, file\nlog4j.appender.file=org.apache.log4j.FileAppender\n' +
        `log4j.appender.file.File=${k.file('server.log')}\n` +
        'log4j.appender.file.layout=org.apache.log4j.PatternLayout\nlog4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n\n',
    );
    const scram = opts.sasl
      ? (['scram-sha-256', 'scram-sha-512'] as const).flatMap((m) => [
          '--add-scram',
          `${m.toUpperCase()}=[name=${SASL_USERS[m].username},password=${SASL_USERS[m].password}]`,
        ])
      : [];
    // One starting with '-' reads as an option to the storage tool (a start failed so, 1 in 64).
    let clusterId: string;
    do clusterId = randomBytes(16).toString('base64url');
    while (clusterId.startsWith('-'));
    await k.formatStorage(['format', '-t', clusterId, '-c', k.file('server.properties'), ...scram]);
    await k.restart();
    return k;
  }

  /** Starts the broker on its ports and data and waits until it serves. */
  async restart(timeoutMs = 90_000): Promise<void> {
    const log = this.file('server.log');
    const from = existsSync(log) ? readFileSync(log).length : 0;
    this.server = spawn(
      JAVA,
      ['-Xms128m', '-Xmx512m', ...this.jvm(), 'kafka.Kafka', this.file('server.properties')],
      {
        stdio: 'ignore',
      },
    );
    const deadline = Date.now() + timeoutMs;
    while (!(
      existsSync(log) && readFileSync(log).subarray(from).toString().includes('Kafka Server started')
    )) {
      if (this.server.exitCode !== null || Date.now() > deadline) {
        const tail = existsSync(log) ? readFileSync(log, 'utf8').slice(-3000) : '(no log)';
        await this.kill();
        throw new Error(`private Kafka did not start:\n${tail}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /**
   * Formats the data directory. A busy machine has made the JVM fail here once in CI with no
   * visible reason, so it is tried three times and the tool's own output is kept for the error.
   */
  private async formatStorage(args: string[]): Promise<void> {
    let output = '';
    for (let attempt = 1; attempt <= 3; attempt++) {
      const result = spawnSync(JAVA, ['-Xmx256m', ...this.jvm(), 'kafka.tools.StorageTool', ...args], {
        encoding: 'utf8',
        timeout: 120_000,
      });
      if (result.status === 0) return;
      output += `attempt ${attempt}: status ${result.status} ${result.error?.message ?? ''}\n${result.stdout}${result.stderr}\n`;
      await new Promise((r) => setTimeout(r, 2000));
    }
    throw new Error(`private Kafka storage format failed:\n${output.slice(-4000)}`);
  }

  /** SIGKILL: the broker is gone at once, as in a crash; its data stays for `restart`. */
  async kill(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGKILL');
      await exited;
    }
  }

  async remove(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private file(name: string): string {
    return path.join(this.dir, name);
  }

  private jvm(): string[] {
    return [`-Dlog4j.configuration=file:${this.file('log4j.properties')}`, '-cp', `${this.libs}/*`];
  }
}

const JAVA = process.env.JAVA ?? 'java';
