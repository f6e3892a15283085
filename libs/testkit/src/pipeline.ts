import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import type { Bus, EventMessage } from '@hookrail/bus';
import type { ServiceName } from '@hookrail/config';
import { newId, type ProjectId } from '@hookrail/domain';
import type { ProjectConfig, SourceDoc, Store } from '@hookrail/store';
import { makeEndpoint, makeProject, makeSource, makeSubscription } from './fixtures';
import { serviceArgs } from './service-bundle';
import { sparePort } from './spare-port';
import { startReceiver, type Receiver } from './receiver';
import { migrateTestDatabase, TEST_KAFKA_BROKERS, TEST_MONGODB_URL } from './stack';
import { waitFor } from './wait-for';

const root = path.resolve(__dirname, '../../..');

export type PipelineService = ServiceName;

/** The admin key the pipeline's processes accept. */
export const PIPELINE_ADMIN_KEY = 'hr_admin.pipeline-admin-key-0123456789';

/** What one endpoint of the pipeline's receiver got for one event. */
export interface Receipt {
  deliveryIds: Set<string>;
  /** When it first answered 2xx. */
  succeededAt?: number;
  /** Requests it answered 2xx (more than one: a duplicate). */
  successes: number;
}

/** How the HTTP front door answered a load: accepted (2xx) events are in `Pipeline.accepted`. */
export interface HttpTally {
  sent: number;
  accepted: number;
  /** Non-2xx answers by status. */
  refused: Record<number, number>;
  /** 503 answers without a Retry-After header. */
  refusedWithoutRetryAfter: number;
  /** No answer at all (connection refused or reset, or no answer within 10 s). */
  unanswered: number;
  /** The longest a non-2xx answer took (a figure; 503s are meant to come promptly). */
  slowestRefusalMs: number;
}

/** One request of an HTTP load; `eventId` reads the accepted event's id from a 2xx body. */
export interface HttpRequestSpec {
  url: string;
  headers?: Record<string, string>;
  body: unknown;
  eventId: (body: unknown) => string;
}

/**
 * The pipeline as real processes (any of the six services, run from its bundle as the image runs
 * it) on the local servers or a private Kafka or database, delivering to a real receiver that fails
 * the first attempt of a chosen share of deliveries. Events come either straight into `events`
 * (`load`, what an accepting service does) or over HTTP to ingest or the events API
 * (`loadOverHttp`). Every event goes to `endpoints` endpoints; the receiver keeps, per event and
 * endpoint, the delivery ids seen and the successes, so tests check exactly-once per endpoint. Used
 * by the chaos tests and the failing-once benchmark.
 */
export class Pipeline {
  readonly processes = new Map<PipelineService, ChildProcess>();
  /** A service keeps its port across restarts, as behind a load balancer. */
  private readonly ports = new Map<PipelineService, number>();
  /** Accepted events (acknowledged by Kafka, or answered 2xx over HTTP): id → accepted at (ms). */
  readonly accepted = new Map<string, number>();
  /** Per event, per endpoint index: what the receiver got. */
  readonly seen = new Map<string, Map<number, Receipt>>();
  readonly failedOnce = new Set<string>();
  readonly http: HttpTally = {
    sent: 0,
    accepted: 0,
    refused: {},
    refusedWithoutRetryAfter: 0,
    unanswered: 0,
    slowestRefusalMs: 0,
  };
  requests = 0;
  receiver!: Receiver;
  projectId!: ProjectId;
  source!: SourceDoc;
  private logs: string[] = [];

  constructor(
    private readonly opts: {
      prefix: string;
      store: Store;
      /** Needed by `load` only. */
      bus?: Bus;
      failOncePercent: number;
      /** The services' log level (default HOOKRAIL_TEST_LOG_LEVEL, else warn: a run that fails is explained by storedTrail). */
      logLevel?: string;
      /** Short in the crash tests so a killed process's partitions move quickly. */
      sessionTimeoutMs?: number;
      /** The services' database (default: the test database). */
      mongodbUrl?: string;
      /** The services' Kafka (default: the local stack's). */
      kafkaBrokers?: string[];
      /** Endpoints every event is delivered to (default 1). */
      endpoints?: number;
      /** `outgoing` for the events API (default `incoming`: a source's subscriptions). */
      projectType?: 'incoming' | 'outgoing';
      /** Project settings beyond the retry strategy (meta events). */
      projectConfig?: Partial<ProjectConfig>;
    },
  ) {}

  /**
   * A project with an HTTP source and `endpoints` endpoints (owner `owner`, for fanout), each
   * subscribed to the source and, in an outgoing project, to the events API.
   */
  async setUp(): Promise<void> {
    const { store } = this.opts;
    this.receiver = await startReceiver({
      respond: (req) => this.answer(req.path, req.headers),
      countOnly: true,
    });
    this.projectId = await makeProject(
      store,
      { strategy: { type: 'linear', duration: 1, retry_count: 5 }, ...this.opts.projectConfig },
      this.opts.projectType,
    );
    this.source = await makeSource(store, this.projectId, { name: 'load source' });
    for (let i = 0; i < (this.opts.endpoints ?? 1); i++) {
      const endpoint = await makeEndpoint(store, this.projectId, {
        name: `sink-${i}`,
        url: `${this.receiver.url}/hook/${i}`,
        owner_id: 'owner',
        secrets: [],
      });
      await makeSubscription(store, this.projectId, {
        name: `all-${i}`,
        source_id: this.source._id,
        endpoint_id: endpoint._id,
      });
      // A subscription naming a source takes only that source's events: the events API's go
      // through one without a source.
      if (this.opts.projectType === 'outgoing')
        await makeSubscription(store, this.projectId, { name: `api-${i}`, endpoint_id: endpoint._id });
    }
  }

  /** Base URL of a started service (its HTTP port: /readyz, the API, /ingest). */
  url(service: PipelineService): string {
    const port = this.ports.get(service);
    if (port === undefined) throw new Error(`${service} was never started`);
    return `http://127.0.0.1:${port}`;
  }

  /** Starts a service process and waits until it is ready. */
  async start(service: PipelineService): Promise<void> {
    let port = this.ports.get(service);
    if (port === undefined) this.ports.set(service, (port = await sparePort()));
    await migrateTestDatabase(this.opts.mongodbUrl ?? TEST_MONGODB_URL);
    const child = spawn(process.execPath, serviceArgs(service), {
      cwd: root,
      env: {
        ...process.env,
        HOOKRAIL_HTTP_PORT: String(port),
        HOOKRAIL_MONGODB_URL: this.opts.mongodbUrl ?? TEST_MONGODB_URL,
        HOOKRAIL_KAFKA_BROKERS: (this.opts.kafkaBrokers ?? TEST_KAFKA_BROKERS).join(','),
        HOOKRAIL_KAFKA_TOPIC_PREFIX: this.opts.prefix,
        HOOKRAIL_KAFKA_PARTITIONS: '3',
        HOOKRAIL_KAFKA_SESSION_TIMEOUT_MS: String(this.opts.sessionTimeoutMs ?? 30_000),
        HOOKRAIL_ALLOW_PRIVATE_TARGETS: 'true',
        HOOKRAIL_ADMIN_KEY: PIPELINE_ADMIN_KEY,
        // The test database is shared: no background purge or retention sweep.
        HOOKRAIL_HOUSEKEEPING_INTERVAL_MS: '86400000',
        HOOKRAIL_LOG_LEVEL: this.opts.logLevel ?? process.env.HOOKRAIL_TEST_LOG_LEVEL ?? 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (d: Buffer) => {
      for (const line of d.toString().split('\n')) if (line) this.logs.push(`${service}: ${line}\n`);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.processes.set(service, child);
    // A service that could not start (its port taken, say) fails here, not as events never delivered.
    let exit: string | undefined;
    child.once('exit', (code, signal) => (exit = String(signal ?? code)));
    await waitFor(
      `${service} ready`,
      async () => exit !== undefined || (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200,
      { timeoutMs: 60_000, intervalMs: 250 },
    )
      .then(() => {
        if (exit !== undefined) throw new Error(`${service} exited (${exit}) before it was ready`);
      })
      .catch((err: Error) => {
        throw new Error(`${err.message}\n${this.recentLogs()}`);
      });
  }

  kill(service: PipelineService, signal: NodeJS.Signals = 'SIGKILL'): void {
    this.processes.get(service)?.kill(signal);
    this.processes.delete(service);
  }

  /** Publishes `rate` events per second for `seconds`, calling `at(second)` at each whole second. */
  async load(rate: number, seconds: number, at?: (second: number) => Promise<void> | void): Promise<void> {
    if (!this.opts.bus) throw new Error('load() publishes into Kafka: give the pipeline a bus');
    const publisher = await this.opts.bus.connectPublisher();
    await this.paced(
      rate,
      (elapsedMs) => elapsedMs < seconds * 1000,
      at,
      (count) => {
        const batch = Array.from({ length: count }, () => this.event());
        const publishedAt = Date.now();
        return publisher
          .publish('events', batch)
          .then(() => batch.forEach((m) => this.accepted.set(m.event_id, publishedAt)));
      },
    );
  }

  /**
   * Sends `rate` requests per second over HTTP, each built by `request(n)`, without waiting for
   * earlier answers (clients keep sending while a service is down): for `seconds`, then on while
   * `more()` says so (up to `maxSeconds`), so a slow restart still sees load after it. Only 2xx
   * answers count as accepted; the rest are tallied in `http`.
   */
  async loadOverHttp(
    rate: number,
    duration: { seconds: number; more?: () => boolean; maxSeconds?: number },
    request: (n: number) => HttpRequestSpec,
    at?: (second: number) => Promise<void> | void,
  ): Promise<void> {
    let n = 0;
    const { seconds, more, maxSeconds = seconds * 3 } = duration;
    const going = (elapsedMs: number) =>
      elapsedMs < seconds * 1000 || (elapsedMs < maxSeconds * 1000 && (more?.() ?? false));
    await this.paced(rate, going, at, (count) =>
      Promise.all(Array.from({ length: count }, () => this.send(request(n++)))).then(() => undefined),
    );
  }

  /**
   * HTTP load through a crash: at `killAt` seconds `service` is SIGKILLed and started again on its
   * port while requests keep coming, until the restarted process accepted `afterRestart` more
   * (bounded at 75 s of load). Returns how many were accepted when it was ready again.
   */
  async crashUnderHttpLoad(
    service: PipelineService,
    opts: { rate: number; killAt: number; afterRestart: number },
    request: (n: number) => HttpRequestSpec,
  ): Promise<{ acceptedWhenBack: number }> {
    let restarted: Promise<void> | undefined;
    let acceptedWhenBack: number | undefined;
    await this.loadOverHttp(
      opts.rate,
      {
        seconds: opts.killAt + 1,
        more: () =>
          acceptedWhenBack === undefined || this.http.accepted < acceptedWhenBack + opts.afterRestart,
        maxSeconds: 75,
      },
      request,
      (second) => {
        if (second !== opts.killAt) return;
        this.kill(service);
        restarted = this.start(service).then(() => void (acceptedWhenBack = this.http.accepted));
      },
    );
    await restarted;
    return { acceptedWhenBack: acceptedWhenBack! };
  }

  undelivered(): string[] {
    const endpoints = this.opts.endpoints ?? 1;
    return [...this.accepted.keys()].filter((id) => {
      const receipts = this.seen.get(id);
      let done = 0;
      for (const r of receipts?.values() ?? []) if (r.succeededAt !== undefined) done++;
      return done < endpoints;
    });
  }

  /** Waits until every accepted event reached every endpoint; fails naming how many did not. */
  async waitAllDelivered(timeoutMs: number): Promise<void> {
    await waitFor('every accepted event delivered', () => this.undelivered().length === 0, {
      timeoutMs,
      intervalMs: 500,
    }).catch(async (err: Error) => {
      const stored = await this.storedTrail().catch((e: Error) => `stored records not read: ${e.message}`);
      throw new Error(
        `${err.message}: ${this.undelivered().length} of ${this.accepted.size} missing\n${this.describeMissing()}\n${stored}\n${this.recentLogs()}`,
      );
    });
  }

  /**
   * What the database holds for the first undelivered events' deliveries (the document, appended
   * retry outcomes, schedule entries, dead letters): the logs are at `warn`, so a delivery that
   * stopped silently is explained here, before the test drops its database.
   */
  async storedTrail(max = 3): Promise<string> {
    const ids = this.undelivered().slice(0, max);
    const deliveryIds = ids.flatMap((id) =>
      [...(this.seen.get(id)?.values() ?? [])].flatMap((r) => [...r.deliveryIds]),
    );
    const client = await MongoClient.connect(this.opts.mongodbUrl ?? TEST_MONGODB_URL, {
      serverSelectionTimeoutMS: 5000,
    });
    try {
      const db = client.db();
      const find = (collection: string, filter: object) =>
        db.collection(collection).find(filter).limit(20).toArray();
      const trail = {
        events: await find('events', { _id: { $in: ids } }),
        event_deliveries: await find('event_deliveries', {
          $or: [{ _id: { $in: deliveryIds } }, { event_id: { $in: ids } }],
        }),
        delivery_retry_outcomes: await find('delivery_retry_outcomes', { delivery_id: { $in: deliveryIds } }),
        schedules: await find('schedules', { target_id: { $in: deliveryIds } }),
        dead_letters: await find('dead_letters', {}),
      };
      return `stored: ${JSON.stringify(trail)}`;
    } finally {
      await client.close();
    }
  }

  /** What the receiver got for the first undelivered events, every log line naming them, the last errors. */
  describeMissing(max = 5): string {
    return this.undelivered()
      .slice(0, max)
      .map((id) => {
        const receipts = [...(this.seen.get(id)?.entries() ?? [])].map(([endpoint, r]) => ({
          endpoint,
          delivery_ids: [...r.deliveryIds],
          failed_once: [...r.deliveryIds].some((d) => this.failedOnce.has(d)),
          successes: r.successes,
        }));
        const names = [id, ...receipts.flatMap((r) => r.delivery_ids)];
        const lines = this.logs.filter((l) => names.some((n) => l.includes(n)));
        return `missing ${id}: received ${JSON.stringify(receipts)}\n${lines.join('')}`;
      })
      .concat(this.logs.filter((l) => /"level":"(error|fatal)"/.test(l)).slice(-20))
      .join('\n');
  }

  /** Events an endpoint got under more than one delivery id (a duplicate must reuse its id). */
  mixedDeliveryIds(): string[] {
    return [...this.seen.entries()]
      .filter(([, receipts]) => [...receipts.values()].some((r) => r.deliveryIds.size !== 1))
      .map(([id]) => id);
  }

  /** 2xx answers beyond the first per event and endpoint (each with the same delivery id). */
  duplicates(): number {
    let extra = 0;
    for (const receipts of this.seen.values())
      for (const r of receipts.values()) extra += Math.max(0, r.successes - 1);
    return extra;
  }

  /** Events delivered that were never answered 2xx (their request timed out or failed). */
  deliveredUnaccepted(): number {
    return [...this.seen.keys()].filter((id) => !this.accepted.has(id)).length;
  }

  /** The figures a chaos test reports. */
  figures(): Record<string, unknown> {
    return {
      accepted: this.accepted.size,
      lost: this.undelivered().length,
      duplicates: this.duplicates(),
      mixed_delivery_ids: this.mixedDeliveryIds().length,
      delivered_without_2xx: this.deliveredUnaccepted(),
      http: this.http,
    };
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

  /** Calls `emit(count)` every 100 ms with the events due by then; waits for every emission. */
  private async paced(
    rate: number,
    going: (elapsedMs: number) => boolean,
    at: ((second: number) => Promise<void> | void) | undefined,
    emit: (count: number) => Promise<void>,
  ): Promise<void> {
    const started = Date.now();
    let sent = 0;
    let second = 0;
    const pending: Promise<void>[] = [];
    while (going(Date.now() - started)) {
      const due = Math.floor(((Date.now() - started) / 1000) * rate);
      if (due > sent) pending.push(emit(due - sent));
      sent = Math.max(sent, due);
      // Every whole second gets its call, even when a stalled loop passed more than one at once
      // (a skipped second was a kill that never happened).
      const s = Math.floor((Date.now() - started) / 1000);
      while (second < s) await at?.(++second);
      await new Promise((r) => setTimeout(r, 100));
    }
    await Promise.all(pending);
  }

  private async send(spec: HttpRequestSpec): Promise<void> {
    this.http.sent++;
    const t0 = Date.now();
    let res: Response;
    let text: string;
    try {
      res = await fetch(spec.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...spec.headers },
        body: JSON.stringify(spec.body),
        signal: AbortSignal.timeout(10_000),
      });
      text = await res.text();
    } catch {
      this.http.unanswered++;
      return;
    }
    if (res.status >= 200 && res.status < 300) {
      this.http.accepted++;
      this.accepted.set(spec.eventId(JSON.parse(text)), Date.now());
      return;
    }
    this.http.refused[res.status] = (this.http.refused[res.status] ?? 0) + 1;
    this.http.slowestRefusalMs = Math.max(this.http.slowestRefusalMs, Date.now() - t0);
    if (res.status === 503 && !res.headers.get('retry-after')) this.http.refusedWithoutRetryAfter++;
  }

  private event(): EventMessage {
    const data = { n: this.accepted.size, at: Date.now() };
    return {
      event_id: newId(),
      project_id: this.projectId,
      source_id: this.source._id,
      event_type: 'load.test',
      target: { mode: 'source' },
      data,
      raw: JSON.stringify(data),
      headers: { 'content-type': 'application/json' },
      accepted_at: new Date().toISOString(),
    };
  }

  private answer(requestPath: string, headers: Record<string, string>): { status: number } {
    this.requests++;
    const eventId = headers['x-hookrail-event-id'];
    const deliveryId = headers['x-hookrail-delivery-id'];
    const endpoint = Number(requestPath.split('/')[2] ?? 0);
    let receipts = this.seen.get(eventId);
    if (!receipts) this.seen.set(eventId, (receipts = new Map()));
    let receipt = receipts.get(endpoint);
    if (!receipt) receipts.set(endpoint, (receipt = { deliveryIds: new Set(), successes: 0 }));
    receipt.deliveryIds.add(deliveryId);
    const bucket = createHash('sha256').update(deliveryId).digest().readUInt16BE(0) % 100;
    if (bucket < this.opts.failOncePercent && !this.failedOnce.has(deliveryId)) {
      this.failedOnce.add(deliveryId);
      return { status: 503 };
    }
    receipt.successes++;
    receipt.succeededAt ??= Date.now();
    return { status: 200 };
  }
}
