import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sparePort } from './private-mongo';

const REPO = path.resolve(__dirname, '../../..');

/** The local stack's Kafka jars (deploy/local/lib.sh names the directory), if installed. */
export function localKafkaLibs(): string | null {
  try {
    const dir = execFileSync(
      'bash',
      ['-c', 'source "$0" && printf %s "$KAFKA_LIBS"', `${REPO}/deploy/local/lib.sh`],
      {
        encoding: 'utf8',
      },
    );
    return dir && existsSync(dir) ? dir : null;
  } catch {
    return null;
  }
}

/** Users of the SASL listener: one per mechanism a source can choose. */
export const SASL_USERS = {
  plain: { username: 'plain-user', password: 'plain-secret' },
  'scram-sha-256': { username: 'scram256-user', password: 'scram256-secret' },
  'scram-sha-512': { username: 'scram512-user', password: 'scram512-secret' },
} as const;
const ADMIN = { username: 'admin', password: 'admin-secret' };

/**
 * A single-node Kafka of a test's own whose only client listener requires SASL (PLAIN,
 * SCRAM-SHA-256 and SCRAM-SHA-512; the SCRAM users are created when the storage is formatted).
 * The local stack's jars, spare ports, a temporary directory; stopped and removed by `stop`.
 */
export class PrivateSaslKafka {
  private server?: ChildProcess;

  private constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  get brokers(): string[] {
    return [`127.0.0.1:${this.port}`];
  }

  static async start(libs: string, timeoutMs = 90_000): Promise<PrivateSaslKafka> {
    const [port, controller] = [await sparePort(), await sparePort()];
    const k = new PrivateSaslKafka(port, mkdtempSync(path.join(tmpdir(), 'hookrail-kafka-')));
    const java = process.env.JAVA ?? 'java';
    const props = path.join(k.dir, 'server.properties');
    const data = path.join(k.dir, 'data');
    mkdirSync(data);
    const plainUsers = [ADMIN, SASL_USERS.plain].map((u) => `user_${u.username}="${u.password}"`).join(' ');
    writeFileSync(
      props,
      [
        'process.roles=broker,controller',
        'node.id=1',
        `controller.quorum.voters=1@127.0.0.1:${controller}`,
        `listeners=SASL_PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controller}`,
        `advertised.listeners=SASL_PLAINTEXT://127.0.0.1:${port}`,
        'controller.listener.names=CONTROLLER',
        'inter.broker.listener.name=SASL_PLAINTEXT',
        'listener.security.protocol.map=CONTROLLER:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT',
        'sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512',
        'sasl.mechanism.inter.broker.protocol=PLAIN',
        `listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="${ADMIN.username}" password="${ADMIN.password}" ${plainUsers};`,
        'listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;',
        'listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;',
        `log.dirs=${data}`,
        'num.partitions=3',
        'auto.create.topics.enable=false',
        'group.initial.rebalance.delay.ms=0',
        'offsets.topic.replication.factor=1',
        'offsets.topic.num.partitions=3',
        'transaction.state.log.replication.factor=1',
        'transaction.state.log.min.isr=1',
      ].join('\n'),
    );
    const log4j = path.join(k.dir, 'log4j.properties');
    writeFileSync(
      log4j,
      'log4j.rootLogger=INFO, file\nlog4j.appender.file=org.apache.log4j.FileAppender\n' +
        `log4j.appender.file.File=${path.join(k.dir, 'server.log')}\n` +
        'log4j.appender.file.layout=org.apache.log4j.PatternLayout\nlog4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n\n',
    );
    const jvm = [`-Dlog4j.configuration=file:${log4j}`, '-cp', `${libs}/*`];
    const clusterId = randomBytes(16).toString('base64url');
    const scram = (['scram-sha-256', 'scram-sha-512'] as const).flatMap((m) => [
      '--add-scram',
      `${m.toUpperCase()}=[name=${SASL_USERS[m].username},password=${SASL_USERS[m].password}]`,
    ]);
    execFileSync(
      java,
      ['-Xmx256m', ...jvm, 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', props, ...scram],
      {
        stdio: 'pipe',
      },
    );
    k.server = spawn(java, ['-Xms128m', '-Xmx512m', ...jvm, 'kafka.Kafka', props], { stdio: 'ignore' });
    const deadline = Date.now() + timeoutMs;
    const logFile = path.join(k.dir, 'server.log');
    while (!(existsSync(logFile) && readFileSync(logFile, 'utf8').includes('Kafka Server started'))) {
      if (k.server.exitCode !== null || Date.now() > deadline) {
        const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-3000) : '(no log)';
        await k.stop();
        throw new Error(`private SASL Kafka did not start:\n${tail}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    return k;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGKILL');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
