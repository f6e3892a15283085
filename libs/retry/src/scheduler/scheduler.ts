import type { ScheduleDoc, Store } from '@hookrail/store';
import { outsideAnyTrace, type Logger, type Metrics, type TraceContext } from '@hookrail/telemetry';
import { errorMessage, type ProjectId } from '@hookrail/domain';
import { backoffMs, boundedLru, Coalescer, RECORD_WRITES } from '@hookrail/toolbox';
import { HeldMessages } from './held-messages';
import { ScheduleQueue, type QueuedEntry } from './schedule-queue';
import { scheduleEntry, type RetryRequest } from './schedule-entry';

export interface SchedulerOptions {
  /** Topic prefix: shards are `<prefix>/<partition>`, so deployments sharing a database stay apart. */
  shardPrefix: string;
  /** Entries fired per publish. */
  batchSize?: number;
  /** How often fired and superseded entries are deleted (one bulk delete each time). */
  deleteIntervalMs?: number;
  /** Safety net: owned shards are re-read this often, so nothing written can stay unqueued. */
  rescanIntervalMs?: number;
  /** Entries due within this long of their message's arrival wait in memory, unwritten (default 30 s). */
  holdWithinMs?: number;
  /** At most this many entries wait in memory unwritten; past it they are written (default 20,000). */
  maxHeld?: number;
}

export interface SchedulerDeps {
  store: Store;
  /**
   * Sends due entries back to their topics (a delivery to `deliveries`, a meta event to `meta`);
   * resolves once they are durable there. A rejection puts them back in the queue.
   */
  fire: (due: ScheduleDoc[]) => Promise<void>;
  logger: Logger;
  metrics: Metrics;
}

type Entry = QueuedEntry<ScheduleDoc>;

/** Longest sleep between checks, so a clock jump never stalls the loop for long. */
const MAX_SLEEP_MS = 1000;
const HOLD_WITHIN_MS = 30_000;
const MAX_HELD = 20_000;

/**
 * Keeps the due-time entries of the retries-topic partitions this replica owns in memory and fires
 * each when due (through `deps.fire`), then deletes it.
 * Each entry is durable before its retry message is committed: an entry due soon (`holdWithinMs`)
 * is held, its message left uncommitted until the entry is fired, so a crash reads the message
 * again; any other is written to MongoDB first. A replica that is assigned a partition (start,
 * rebalance, a crashed peer's partitions) loads that shard's written entries.
 * Exclusive ownership comes from the Kafka group (see docs/decisions.md, "Retry scheduler").
 */
export class Scheduler {
  private readonly queue = new ScheduleQueue<ScheduleDoc>();
  private readonly writer: Coalescer<ScheduleDoc>;
  private owned = new Set<string>();
  private paused = true;
  private stopped = false;
  private firing = false;
  private failures = 0;
  private timer?: NodeJS.Timeout;
  private armedFor = Infinity;
  /** Fired or superseded, not deleted yet (id → its project): never queued again from a reload. */
  private readonly toDelete = new Map<string, ProjectId>();
  /** Being published right now: a reload that read them just before must not queue them again. */
  private readonly inFlight = new Set<string>();
  /** Reloads and deletes run one at a time, so a reload never reads an entry being deleted. */
  private io: Promise<void> = Promise.resolve();
  private deleteQueued = false;
  /** Reloads asked for and not finished: entries are held only when none is. */
  private loading = 0;
  private readonly held = new HeldMessages();
  /** Held entries fired lately: a redelivered message of one (a rebalance) is not fired again. */
  private readonly firedHeld = boundedLru<string, true>(100_000);
  private readonly intervals: NodeJS.Timeout[] = [];
  private readonly batchSize: number;
  private readonly holdWithinMs: number;
  private readonly maxHeld: number;
  private readonly m;

  constructor(
    private readonly deps: SchedulerDeps,
    private readonly opts: SchedulerOptions,
  ) {
    this.batchSize = opts.batchSize ?? 500;
    this.holdWithinMs = opts.holdWithinMs ?? HOLD_WITHIN_MS;
    this.maxHeld = opts.maxHeld ?? MAX_HELD;
    this.writer = new Coalescer((docs) => deps.store.schedules.insertMany(docs), RECORD_WRITES);
    this.m = {
      lateness: deps.metrics.histogram(
        'hookrail_retry_lateness_seconds',
        'Time from an entry being due to its message being acknowledged by Kafka',
        ['kind'],
        [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      ),
      fired: deps.metrics.counter('hookrail_retry_fired_total', 'Schedule entries fired', ['kind']),
      scheduled: deps.metrics.counter('hookrail_retry_scheduled_total', 'Schedule entries written', [
        'reason',
      ]),
      queued: deps.metrics.gauge('hookrail_retry_queued_entries', 'Entries waiting in this replica'),
      held: deps.metrics.gauge(
        'hookrail_retry_held_entries',
        'Entries waiting in this replica unwritten, their retry messages uncommitted',
      ),
    };
  }

  start(): void {
    this.intervals.push(
      setInterval(() => void this.flushDeletes(), this.opts.deleteIntervalMs ?? 250),
      setInterval(() => void this.reload([...this.owned]), this.opts.rescanIntervalMs ?? 30_000),
    );
  }

  /**
   * The retries-topic handler: durable first, then queued; the offset is committed after this
   * resolves. `trace` is the context the retry message carried, kept so the retry continues it.
   * `leaveWindow` (the consumer's) is called when the entry is held, which may take a while.
   */
  async accept(
    msg: RetryRequest,
    partition: number,
    trace?: TraceContext,
    leaveWindow?: () => void,
  ): Promise<void> {
    const doc = await this.toDoc(msg, partition, trace);
    if (!doc || this.firedHeld.has(doc._id)) return;
    if (this.mayHold(doc)) {
      leaveWindow?.();
      const fired = this.held.wait(doc._id, doc.shard);
      this.enqueue(doc);
      return fired;
    }
    await this.writer.submit(doc);
    this.m.scheduled.inc({ reason: msg.reason });
    if (this.owned.has(doc.shard)) this.enqueue(doc);
  }

  /** A rebalance finished: keep the owned shards' entries, load the newly assigned ones. */
  onAssignment(partitions: number[]): void {
    const next = new Set(partitions.map((p) => this.shard(p)));
    const added = [...next].filter((s) => !this.owned.has(s));
    this.owned = next;
    const dropped = this.queue.retainShards((s) => next.has(s));
    this.held.releaseUnowned((s) => next.has(s));
    this.deps.logger.info({ partitions, dropped }, 'retry partitions assigned');
    this.paused = false;
    void this.reload(added).finally(() => this.arm(0));
  }

  /** Ownership is about to move: stop firing until the group has settled. */
  onRebalancing(): void {
    this.paused = true;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.intervals.forEach(clearInterval);
    while (this.firing) await new Promise((r) => setTimeout(r, 10));
    await this.flushDeletes();
  }

  private shard(partition: number): string {
    return `${this.opts.shardPrefix}/${partition}`;
  }

  private async toDoc(
    msg: RetryRequest,
    partition: number,
    trace?: TraceContext,
  ): Promise<ScheduleDoc | null> {
    const log = { delivery_id: msg.delivery_id, project_id: msg.project_id, endpoint_id: msg.endpoint_id };
    const entry = scheduleEntry(msg, { shard: this.shard(partition), trace, now: new Date() });
    if (entry.kind === 'invalid') {
      this.deps.logger.error({ ...log, due_at: msg.due_at }, `${entry.reason}, dropped`);
      return null;
    }
    const doc = entry.doc;
    if (doc.kind === 'delivery' && !doc.event_id) {
      const delivery = await this.deps.store.deliveries.findById(msg.project_id, msg.delivery_id);
      if (!delivery) {
        this.deps.logger.error(log, 'retry message for an unknown delivery, dropped');
        return null;
      }
      doc.event_id = delivery.event_id;
    }
    return doc;
  }

  /**
   * Whether the entry waits in memory with its message uncommitted instead of being written: two
   * writes fewer per retry (the insert and, once fired, the delete), exactly when retries are many
   * and the database busiest. Only for a shard owned while no rebalance or reload is under way (the
   * queue then knows every entry of the shard and decides which entry of a target is live), and
   * within a bound of count and time, as an uncommitted message holds back its partition's commits.
   */
  private mayHold(doc: ScheduleDoc): boolean {
    if (this.held.has(doc._id)) return true;
    const dueIn = doc.due_at.getTime() - Date.now();
    return (
      dueIn <= this.holdWithinMs &&
      this.held.size < this.maxHeld &&
      !this.paused &&
      this.loading === 0 &&
      this.owned.has(doc.shard)
    );
  }

  private enqueue(doc: ScheduleDoc): void {
    if (this.inFlight.has(doc._id)) return; // being fired: a held one is released when that ends
    if (this.toDelete.has(doc._id)) return void this.held.release(doc._id);
    const entry: Entry = {
      id: doc._id,
      key: `${doc.kind}:${doc.target_id}`,
      shard: doc.shard,
      dueMs: new Date(doc.due_at).getTime(),
      createdMs: new Date(doc.created_at).getTime(),
      value: doc,
    };
    const out = this.queue.add(entry);
    if (out.kind === 'stale') this.drop(doc);
    if (out.kind === 'queued' && out.superseded) this.drop(out.superseded.value);
    this.gauges();
    if (entry.dueMs < this.armedFor) this.arm(entry.dueMs - Date.now());
  }

  /** An entry another entry of its target covers: a held one's message ends, a written one goes. */
  private drop(doc: ScheduleDoc): void {
    if (!this.held.release(doc._id)) this.toDelete.set(doc._id, doc.project_id);
  }

  private gauges(): void {
    this.m.queued.set(this.queue.size);
    this.m.held.set(this.held.size);
  }

  private reload(shards: string[]): Promise<void> {
    if (shards.length === 0 || this.stopped) return Promise.resolve();
    this.loading++;
    return this.serial(async () => {
      try {
        const docs = await this.deps.store.schedules.findByShards(shards);
        for (const doc of docs) if (this.owned.has(doc.shard)) this.enqueue(doc);
      } catch (err) {
        // Retried at the next rescan; until then the entries wait in MongoDB.
        this.deps.logger.error({ err: errorMessage(err), shards }, 'loading schedule entries failed');
      } finally {
        this.loading--;
      }
    });
  }

  private serial(fn: () => Promise<void>): Promise<void> {
    this.io = this.io.then(fn, fn);
    return this.io;
  }

  private arm(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(delayMs, MAX_SLEEP_MS));
    this.armedFor = Date.now() + wait;
    // Armed from whichever message was being handled: the timer must not carry that message's
    // trace into the firing of other entries (each is fired in its own trace).
    this.timer = outsideAnyTrace(() => setTimeout(() => void this.tick(), wait));
  }

  private async tick(): Promise<void> {
    this.armedFor = Infinity;
    if (this.stopped || this.firing) return;
    if (this.paused) return this.arm(MAX_SLEEP_MS);
    this.firing = true;
    let retryInMs: number | undefined;
    try {
      for (;;) {
        if (this.paused || this.stopped) break;
        const due = this.queue.popDue(Date.now(), this.batchSize);
        if (due.length === 0) break;
        if (!(await this.fire(due))) {
          retryInMs = backoffMs(this.failures++, { baseMs: 100, maxMs: 5000 });
          break;
        }
        this.failures = 0;
      }
    } finally {
      this.firing = false;
      this.gauges();
    }
    const next = this.queue.nextDueMs();
    this.arm(retryInMs ?? (next === undefined ? MAX_SLEEP_MS : next - Date.now()));
  }

  /** Publishes one batch; on failure the entries go back into the queue unchanged. */
  private async fire(due: Entry[]): Promise<boolean> {
    due.forEach((e) => this.inFlight.add(e.id));
    try {
      return await this.publish(due);
    } finally {
      due.forEach((e) => this.inFlight.delete(e.id));
    }
  }

  private async publish(due: Entry[]): Promise<boolean> {
    try {
      await this.deps.fire(due.map((e) => e.value));
    } catch (err) {
      this.deps.logger.warn(
        { err: errorMessage(err), entries: due.length },
        'firing retries failed, will retry',
      );
      due.forEach((e) => this.inFlight.delete(e.id));
      for (const e of due) this.enqueue(e.value);
      return false;
    }
    const now = Date.now();
    for (const e of due) {
      if (this.held.release(e.id)) this.firedHeld.set(e.id, true);
      else this.toDelete.set(e.id, e.value.project_id);
      this.m.lateness.observe({ kind: e.value.kind }, Math.max(0, now - e.dueMs) / 1000);
      this.m.fired.inc({ kind: e.value.kind });
    }
    return true;
  }

  private flushDeletes(): Promise<void> {
    if (this.deleteQueued || this.toDelete.size === 0) return this.io;
    this.deleteQueued = true;
    return this.serial(async () => {
      this.deleteQueued = false;
      const entries = [...this.toDelete].map(([id, projectId]) => ({ projectId, id }));
      try {
        await this.deps.store.schedules.deleteByIds(entries);
        entries.forEach(({ id }) => this.toDelete.delete(id));
      } catch (err) {
        this.deps.logger.warn({ err: errorMessage(err) }, 'deleting fired entries failed, will retry');
      }
    });
  }
}
