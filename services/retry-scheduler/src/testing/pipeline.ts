import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Bus, EventMessage } from '@hookrail/bus';
import { newId, type ProjectId } from '@hookrail/domain';
import type { Store } from '@hookrail/store';
import {
  makeEndpoint,
  makeProject,
  makeSubscription,
  startReceiver,
  TEST_MONGODB_URL,
  waitFor,
  type Receiver,
} from '@hookrail/testkit';

const root = path.resolve(__dirname, '../../../..');

export type PipelineService = 'dispatcher' | 'retry-scheduler';

/**
 * The delivery pipeline as real processes (dispatcher, retry-scheduler) on the local servers, fed
 * straight into `events` (what ingest does once an event is accepted) and delivering to a real
 * receiver that fails the first attempt of a chosen share of deliveries. Used by the zero-loss test
 * and the failing-once benchmark.
 */
export class Pipeline {
  readonly processes = new Map<PipelineService, ChildProcess>();
  /** Accepted (acknowledged by Kafka) events: id → accepted at (ms). */
  readonly accepted = new Map<string, number>();
  /** Per event: the delivery ids seen by the receiver, and when it first answered 2xx. */
  readonly seen = new Map<string, { deliveryIds: Set<string>; succeededAt?: number }>();
  readonly failedOnce = new Set<string>();
  requests = 0;
  receiver!: Receiver;
  projectId!: ProjectId;
  sourceId = newId();
  private logs: string[] = [];

  constructor(
    private readonly opts: {
      prefix: string;
      store: Store;
      bus: Bus;
      failOncePercent: number;
      logLevel?: string;
      /** Short in the crash test so a killed process's partitions move quickly. */
      sessionTimeoutMs?: number;
      /** The services' database (default: the test database). */
      mongodbUrl?: string;
    },
  ) {}

  async setUp(): Promise<void> {
    const { store } = this.opts;
    this.receiver = await startReceiver({ respond: (req) => this.answer(req.headers), countOnly: true });
    this.projectId = await makeProject(store, { strategy: { type: 'linear', duration: 1, retry_count: 5 } });
    const endpoint = await makeEndpoint(store, this.projectId, {
      name: 'sink',
      url: `${this.receiver.url}/hook`,
      secrets: [],
    });
    await makeSubscription(store, this.projectId, {
      name: 'all',
      source_id: this.sourceId,
      endpoint_id: endpoint._id,
    });
  }

  /** Starts a service process and waits until it is ready. */
  async start(service: PipelineService): Promise<void> {
    const port = 19000 + Math.floor(Math.random() * 900);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(root, `services/${service}/src/main.ts`)],
      {
        cwd: root,
        env: {
          ...process.env,
          HOOKRAIL_HTTP_PORT: String(port),
          HOOKRAIL_MONGODB_URL: this.opts.mongodbUrl ?? TEST_MONGODB_URL,
          HOOKRAIL_KAFKA_TOPIC_PREFIX: this.opts.prefix,
          HOOKRAIL_KAFKA_PARTITIONS: '3',
          HOOKRAIL_KAFKA_SESSION_TIMEOUT_MS: String(this.opts.sessionTimeoutMs ?? 30_000),
          HOOKRAIL_ALLOW_PRIVATE_TARGETS: 'true',
          HOOKRAIL_LOG_LEVEL: this.opts.logLevel ?? 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const keep = (d: Buffer) => this.logs.push(`${service}: ${d.toString()}`);
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.processes.set(service, child);
    await waitFor(
      `${service} ready`,
      async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200,
      { timeoutMs: 60_000, intervalMs: 250 },
    );
  }

  kill(service: PipelineService, signal: NodeJS.Signals = 'SIGKILL'): void {
    this.processes.get(service)?.kill(signal);
    this.processes.delete(service);
  }

  /** Publishes `rate` events per second for `seconds`, calling `at(second)` at each whole second. */
  async load(rate: number, seconds: number, at?: (second: number) => Promise<void> | void): Promise<void> {
    const publisher = await this.opts.bus.connectPublisher();
    const tickMs = 100;
    const started = Date.now();
    let sent = 0;
    let second = 0;
    const pending: Promise<void>[] = [];
    while (Date.now() - started < seconds * 1000) {
      const due = Math.floor(((Date.now() - started) / 1000) * rate);
      const batch: EventMessage[] = [];
      for (; sent < due; sent++) batch.push(this.event());
      if (batch.length > 0) {
        const publishedAt = Date.now();
        pending.push(
          publisher
            .publish('events', batch)
            .then(() => batch.forEach((m) => this.accepted.set(m.event_id, publishedAt))),
        );
      }
      const s = Math.floor((Date.now() - started) / 1000);
      if (s > second) {
        second = s;
        await at?.(second);
      }
      await new Promise((r) => setTimeout(r, tickMs));
    }
    await Promise.all(pending);
  }

  undelivered(): string[] {
    return [...this.accepted.keys()].filter((id) => this.seen.get(id)?.succeededAt === undefined);
  }

  /** Waits until every accepted event reached the receiver; fails naming how many did not. */
  async waitAllDelivered(timeoutMs: number): Promise<void> {
    await waitFor('every accepted event delivered', () => this.undelivered().length === 0, {
      timeoutMs,
      intervalMs: 500,
    }).catch((err: Error) => {
      throw new Error(
        `${err.message}: ${this.undelivered().length} of ${this.accepted.size} missing\n${this.recentLogs()}`,
      );
    });
  }

  /** Events the receiver got under more than one delivery id (a duplicate must reuse its id). */
  mixedDeliveryIds(): string[] {
    return [...this.seen.entries()].filter(([, s]) => s.deliveryIds.size !== 1).map(([id]) => id);
  }

  /** Stops every process and waits for it to exit (its database may be dropped afterwards). */
  async stopAll(): Promise<void> {
    const exits = [...this.processes.values()].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const hard = setTimeout(() => child.kill('SIGKILL'), 12_000);
          child.once('exit', () => (clearTimeout(hard), resolve()));
          child.kill('SIGTERM');
        }),
    );
    this.processes.clear();
    await Promise.all(exits);
    await this.receiver?.close();
  }

  recentLogs(): string {
    return this.logs.slice(-40).join('');
  }

  private event(): EventMessage {
    const data = { n: this.accepted.size, at: Date.now() };
    return {
      event_id: newId(),
      project_id: this.projectId,
      source_id: this.sourceId,
      event_type: 'load.test',
      target: { mode: 'source' },
      data,
      raw: JSON.stringify(data),
      headers: { 'content-type': 'application/json' },
      accepted_at: new Date().toISOString(),
    };
  }

  private answer(headers: Record<string, string>): { status: number } {
    this.requests++;
    const eventId = headers['x-hookrail-event-id'];
    const deliveryId = headers['x-hookrail-delivery-id'];
    let entry = this.seen.get(eventId);
    if (!entry) this.seen.set(eventId, (entry = { deliveryIds: new Set() }));
    entry.deliveryIds.add(deliveryId);
    const bucket = createHash('sha256').update(deliveryId).digest().readUInt16BE(0) % 100;
    if (bucket < this.opts.failOncePercent && !this.failedOnce.has(deliveryId)) {
      this.failedOnce.add(deliveryId);
      return { status: 503 };
    }
    entry.succeededAt ??= Date.now();
    return { status: 200 };
  }
}
