import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { SERVICE_NAMES } from '@hookrail/config';
import { sparePort, TEST_BROKERS, TEST_KAFKA_BROKERS, waitFor } from '@hookrail/testkit';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../../..');
export const SERVICES: readonly string[] = SERVICE_NAMES;

export const podman = (...args: string[]) =>
  run('bash', [path.join(root, 'deploy/docker/podman.sh'), ...args], { maxBuffer: 16 * 1024 * 1024 });

/** What every container of a stack shares: its topics' prefix, its database and its keys. */
export interface StackSettings {
  prefix: string;
  mongoUrl: string;
  adminKey: string;
  encryptionKey: string;
}

/**
 * The six services of one image as containers on the host's network, run as the chart runs a pod
 * (read-only root, uid 10001) against the local servers: the set-up job first, then the services.
 */
export class ContainerStack {
  private constructor(
    readonly image: string,
    private readonly settings: StackSettings,
    private readonly ports: ReadonlyMap<string, number>,
  ) {}

  /** A stack of `image`, each service on a spare port; `ports` reuses another stack's addresses. */
  static async of(image: string, settings: StackSettings, ports?: ReadonlyMap<string, number>) {
    const taken = new Map(ports ?? []);
    if (!ports) for (const s of SERVICES) taken.set(s, await sparePort());
    return new ContainerStack(image, settings, taken);
  }

  url(service: string): string {
    return `http://127.0.0.1:${this.ports.get(service)}`;
  }

  get portMap(): ReadonlyMap<string, number> {
    return this.ports;
  }

  /** The prefix, the image's tag and the service: two stacks of one prefix never share a name. */
  containerName(service: string): string {
    return `${this.settings.prefix}-${this.image.split(':').pop()}-${service}`;
  }

  /** The variables the chart sets (charts/hookrail/templates/_helpers.tpl), for the local servers. */
  private env(): Record<string, string> {
    const s = this.settings;
    return {
      HOOKRAIL_HTTP_HOST: '127.0.0.1',
      HOOKRAIL_LOG_LEVEL: 'info',
      HOOKRAIL_KAFKA_BROKERS: TEST_KAFKA_BROKERS.join(','),
      HOOKRAIL_KAFKA_TOPIC_PREFIX: s.prefix,
      HOOKRAIL_KAFKA_PARTITIONS: '3',
      HOOKRAIL_KAFKA_REPLICATION_FACTOR: '1',
      HOOKRAIL_MONGODB_URL: s.mongoUrl,
      HOOKRAIL_PUBLIC_URL: this.url('api-gateway'),
      HOOKRAIL_INGEST_PUBLIC_URL: this.url('ingest'),
      HOOKRAIL_ALLOW_PRIVATE_TARGETS: 'true',
      HOOKRAIL_ALLOW_PRIVATE_BROKERS: 'true',
      HOOKRAIL_ADMIN_KEY: s.adminKey,
      HOOKRAIL_ENCRYPTION_KEY: s.encryptionKey,
      HOOKRAIL_SQS_ENDPOINT: TEST_BROKERS.sqsEndpoint,
      PUBSUB_EMULATOR_HOST: TEST_BROKERS.pubsubEmulatorHost,
      OTEL_TRACES_EXPORTER: 'none',
    };
  }

  /** `podman run` arguments for `dist/<bundle>.js` with `args`. */
  runArgs(bundle: string, args: string[] = [], extra: Record<string, string> = {}): string[] {
    const vars = Object.entries({ ...this.env(), ...extra }).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    return [
      '--network=host',
      '--read-only',
      '--user',
      '10001',
      ...vars,
      this.image,
      `dist/${bundle}.js`,
      ...args,
    ];
  }

  /** Runs the set-up bundle (topics, then migrations) to its end; returns what it printed. */
  async setup(...args: string[]): Promise<string> {
    const { stdout } = await podman(
      'run',
      '--rm',
      '--name',
      this.containerName('setup'),
      ...this.runArgs('setup', args),
    );
    return stdout;
  }

  /** Starts the six services and waits until each answers /readyz with 200. */
  async start(): Promise<void> {
    await Promise.all(
      SERVICES.map((s) =>
        podman(
          'run',
          '-d',
          '--name',
          this.containerName(s),
          ...this.runArgs(s, [], { HOOKRAIL_HTTP_PORT: String(this.ports.get(s)) }),
        ),
      ),
    );
    await waitFor(
      `the six containers of ${this.image} to answer /readyz with 200`,
      async () => {
        const statuses = await Promise.all(
          SERVICES.map((s) =>
            fetch(`${this.url(s)}/readyz`).then(
              (r) => r.status,
              () => 0,
            ),
          ),
        );
        return statuses.every((s) => s === 200);
      },
      { timeoutMs: 120_000, intervalMs: 500 },
    );
  }

  /**
   * Keeps each container's log in .local/<dir>/<service>.log, then stops (SIGTERM, SIGKILL after
   * `graceSeconds`) and removes the containers; throws if one is left.
   */
  async remove(logDir: string, graceSeconds = 2): Promise<void> {
    const logs = path.join(root, '.local', logDir);
    mkdirSync(logs, { recursive: true });
    for (const s of SERVICES) {
      const out = await podman('logs', this.containerName(s)).catch(
        (err: { stdout?: string; stderr?: string }) => err,
      );
      writeFileSync(path.join(logs, `${s}.log`), `${out.stdout ?? ''}${out.stderr ?? ''}`);
    }
    const names = [...SERVICES, 'setup'].map((s) => this.containerName(s));
    await podman('rm', '--force', '--ignore', '--time', String(graceSeconds), ...names);
  }
}
