import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { MessageChannel, type Worker } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { Metrics } from '@hookrail/telemetry';
import { watchCallDeadline, type CallStart } from './call-deadline';
import {
  DEFAULT_TIMEOUT_MS,
  type FunctionLimits,
  type FunctionResult,
  type RunOptions,
} from './function-runner';
import type { FunctionTask } from './function-worker';

export interface FunctionPoolOptions extends FunctionLimits {
  /** Worker threads (default: cores, at least 2, at most 4). */
  threads?: number;
  /** CPU past the function's own timeout before its worker is terminated. */
  graceMs?: number;
  /** Wall time from a call's start after which its worker is terminated whatever CPU it had. */
  wallLimitMs?: number;
  /** V8 heap of each worker, in MiB (quickjs's own heap is capped by `memoryBytes`). */
  workerHeapMb?: number;
  /** Calls waiting for a worker before new ones are refused. */
  maxQueue?: number;
  /** Worker entry; found next to this module (bundled) or the source one otherwise. */
  workerFile?: string;
  /** Counts stopped calls and how long after their start they were stopped. */
  metrics?: Metrics;
}

export const DEFAULT_GRACE_MS = 200;
export const DEFAULT_WALL_LIMIT_MS = 3_000;

/** What a pool has done since it started (for logs, metrics and tests). */
export interface PoolStats {
  /** Workers terminated because a call overran its deadline or ran out of memory. */
  killed: number;
  /** The longest time from a stopped call's start in its worker to its caller's answer. */
  maxStopMs: number;
  /** Worker threads running now: none before the first call. */
  workers: number;
}

/**
 * Runs user functions off the event loop, in a pool of worker threads that each hold a quickjs
 * runner. quickjs checks its deadline between bytecodes only, so a single built-in call (a large
 * `Array.fill`, a string blow-up) can overrun it by seconds; the pool terminates the worker of a
 * call that has used `timeoutMs + graceMs` of CPU, read from outside the worker, or that is still
 * running `wallLimitMs` after it started (a starved thread). Waiting for a core is not charged, as
 * inside quickjs. The caller gets a clear error then; piscina starts a fresh worker.
 * The service's own thread never runs user code, so health checks and other tenants keep going.
 */
export class FunctionPool {
  private pool?: Piscina<FunctionTask, FunctionResult>;
  private closed = false;
  private readonly threads: number;
  private readonly workerOptions: ConstructorParameters<typeof Piscina>[0];
  private readonly timeoutMs: number;
  private readonly graceMs: number;
  private readonly wallLimitMs: number;
  private readonly counts: Omit<PoolStats, 'workers'> = { killed: 0, maxStopMs: 0 };
  private readonly stopped?: { inc(labels: { reason: string }): void };
  private readonly stopSeconds?: { observe(v: number): void };

  constructor(opts: FunctionPoolOptions = {}) {
    this.threads = opts.threads ?? Math.min(4, Math.max(2, availableParallelism()));
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.graceMs = opts.graceMs ?? DEFAULT_GRACE_MS;
    this.wallLimitMs = opts.wallLimitMs ?? DEFAULT_WALL_LIMIT_MS;
    this.workerOptions = {
      filename: opts.workerFile ?? workerFile(),
      minThreads: this.threads,
      maxThreads: this.threads,
      maxQueue: opts.maxQueue ?? 1_000,
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: opts.workerHeapMb ?? 128, maxYoungGenerationSizeMb: 16 },
    };
    this.stopped = opts.metrics?.counter(
      'hookrail_function_stopped_total',
      'User functions whose worker was terminated, by reason',
      ['reason'],
    );
    this.stopSeconds = opts.metrics?.histogram(
      'hookrail_function_stop_seconds',
      'Time from a stopped function call starting in its worker to its caller getting the failure',
      [],
      [0.1, 0.25, 0.5, 0.75, 1, 2, 5],
    );
  }

  /**
   * The workers start with the first call, not with the service: most replicas never run a
   * function, and the workers hold about 35 MiB of a service's memory. That first call waits for
   * a worker to load quickjs; its deadline counts from when the worker picks it up.
   */
  private workers(): Piscina<FunctionTask, FunctionResult> {
    if (this.closed) throw new Error('the pool is closed');
    if (!this.pool) {
      this.pool = new Piscina(this.workerOptions);
      // A terminated worker's error is the task's; the pool itself must never crash the service.
      this.pool.on('error', () => undefined);
    }
    return this.pool;
  }

  /** Resolves once every worker has loaded quickjs (tests that time calls start from there). */
  async ready(): Promise<void> {
    const pool = this.workers();
    await Promise.all(
      Array.from({ length: this.threads }, () =>
        pool.run({ source: 'function transform(x) { return x }', input: null, opts: {} }),
      ),
    );
  }

  /** Calls `transform(input)` of `source` in a worker; never throws. */
  async run(source: string, input: unknown, opts: RunOptions = {}): Promise<FunctionResult> {
    const timeoutMs = opts.timeoutMs ?? this.timeoutMs;
    const abort = new AbortController();
    // The deadline starts when a worker picks the call up, not while it waits in the queue
    // (after a kill the pool is one worker short until the replacement has loaded quickjs).
    const { port1, port2 } = new MessageChannel();
    let unwatch = () => {};
    let startedAt = 0;
    port1.once('message', (start: CallStart) => {
      startedAt = Date.now();
      const worker = this.pool?.threads.find((t) => t.threadId === start.threadId);
      unwatch = watchCallDeadline({
        cpuBudgetMs: timeoutMs + this.graceMs,
        wallLimitMs: this.wallLimitMs,
        readCpuMs: async () => (worker ? (await cpuMs(worker)) - start.cpuMs : undefined),
        stop: () => abort.abort(),
      });
    });
    const task: FunctionTask = { source, input, opts: { ...opts, timeoutMs }, started: port2 };
    try {
      // piscina infers its transfer-list type from MessagePort.postMessage's last overload, which
      // @types/node 26 declares with an options object; an array is what piscina passes on.
      const transferList = [port2] as unknown as NonNullable<Parameters<Piscina['run']>[1]>['transferList'];
      return await this.workers().run(task, { signal: abort.signal, transferList });
    } catch (err) {
      if (abort.signal.aborted) {
        this.recordStop('timeout', startedAt);
        return { kind: 'error', message: `function timed out after ${timeoutMs} ms and was stopped` };
      }
      const code = (err as { code?: string }).code;
      if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
        this.recordStop('memory', startedAt);
        return { kind: 'error', message: 'function exceeded its memory limit' };
      }
      const message = err instanceof Error ? err.message : String(err);
      if (/queue is at limit/i.test(message)) return { kind: 'error', message: 'function sandbox is busy' };
      return { kind: 'error', message: `function sandbox failed: ${message}` };
    } finally {
      unwatch();
      port1.close();
    }
  }

  private recordStop(reason: 'timeout' | 'memory', startedAt: number): void {
    const ms = startedAt ? Date.now() - startedAt : 0;
    this.counts.killed++;
    this.counts.maxStopMs = Math.max(this.counts.maxStopMs, ms);
    this.stopped?.inc({ reason });
    this.stopSeconds?.observe(ms / 1000);
  }

  stats(): PoolStats {
    return { ...this.counts, workers: this.pool?.threads.length ?? 0 };
  }

  /** Stops every worker (service shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    await this.pool?.destroy();
  }
}

async function cpuMs(worker: Worker): Promise<number> {
  const { user, system } = await worker.cpuUsage();
  return (user + system) / 1000;
}

function workerFile(): string {
  const bundled = path.join(__dirname, 'function-worker.js');
  return existsSync(bundled) ? bundled : path.join(__dirname, 'function-worker.dev.js');
}
