import type { Consumer, EachBatchPayload, IHeaders, KafkaMessage } from 'kafkajs';
import type { Logger, Metrics } from '@hookrail/telemetry';
import { extractTraceContext, withSpan, SpanKind } from '@hookrail/telemetry';
import { backoffMs, errorMessage, isDependencyOutage, isRetriable } from '@hookrail/domain';
import { decodeBarrier, decodeMessage, PoisonMessageError } from './codec';
import { OffsetTracker } from './offset-tracker';
import type { ConfigBarrier, DeadLetterMessage } from './messages';
import { CONFIG_BARRIER_HEADER, type MessageOf, type TopicKey } from './topics';

/** The ids a message carries, as span attributes: a trace can be found by any of them. */
const TRACED_IDS = ['project_id', 'event_id', 'delivery_id', 'endpoint_id', 'source_id'] as const;

export function traceAttributes(message: object): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of TRACED_IDS) {
    const value = (message as Record<string, unknown>)[key];
    if (typeof value === 'string') out[`hookrail.${key}`] = value;
  }
  return out;
}

export interface MessageContext {
  topic: string;
  partition: number;
  offset: string;
  headers: IHeaders;
}

export type MessageHandler<K extends TopicKey> = (
  message: MessageOf<K>,
  ctx: MessageContext,
) => Promise<void>;

export interface ConsumeOptions<K extends TopicKey> {
  topic: K;
  topicName: string;
  handle: MessageHandler<K>;
  /** Messages handled at once by this consumer, over all its partitions (order is not kept when > 1). */
  concurrency?: number;
  /** Attempts for a message whose failure is retriable, before it is dead-lettered (default 8). */
  maxAttempts?: number;
  /**
   * Told of each configuration barrier on the topic (Bus.announceConfigChange), synchronously and
   * in partition order: before any later message of its partition is handled. Without it,
   * barriers are passed over.
   */
  onBarrier?: (barrier: ConfigBarrier) => void;
}

/** Where a message goes when its consumer gives up on it; resolves once it is stored durably. */
export type DeadLetterSink = (letter: DeadLetterMessage) => Promise<void>;

export const DEFAULT_MAX_ATTEMPTS = 8;

/** A running consumer: `drain` finishes what was started and commits it (graceful shutdown). */
export interface RunningConsumer {
  drain(timeoutMs: number): Promise<void>;
}

/** How often finished offsets are committed. */
const COMMIT_INTERVAL_MS = 50;

/**
 * Runs a handler over a topic with at-least-once semantics, pipelined: messages are started as
 * they arrive, up to `concurrency` at a time, without waiting for the previous batch to finish,
 * so a handler's slow tail (a database write, an HTTP request) never holds the partition. An
 * offset is committed only once its message and every earlier one of the partition finished.
 * A retriable failure is retried in place with backoff (the commit point waits for it); a
 * non-retriable one (poison, programming error) is logged, counted and skipped so it never
 * blocks the partition. After a rebalance, uncommitted messages are delivered again.
 */
export async function consume<K extends TopicKey>(
  consumer: Consumer,
  opts: ConsumeOptions<K>,
  deps: {
    logger: Logger;
    metrics: Metrics;
    partitionsConcurrently?: number;
    /** Without one, a message given up on is logged, counted and skipped. */
    deadLetter?: DeadLetterSink;
    /** Named in dead letters. */
    group?: string;
  },
): Promise<RunningConsumer> {
  const handled = deps.metrics.counter('hookrail_bus_messages_total', 'Messages consumed, by outcome', [
    'topic',
    'outcome',
  ]);
  const duration = deps.metrics.histogram(
    'hookrail_bus_handler_duration_seconds',
    'Handler time per message',
    ['topic'],
  );
  const deadLetters = deps.metrics.counter(
    'hookrail_dead_letters_total',
    'Messages a consumer gave up on and dead-lettered',
    ['topic'],
  );
  const lag = deps.metrics.gauge(
    'hookrail_kafka_consumer_lag',
    "Messages of a partition not yet finished by this consumer: the partition's high watermark minus the next offset to commit",
    ['topic', 'partition'],
  );
  /** Per partition: the high watermark of the newest batch, and the next offset to commit. */
  const positions = new Map<number, { highWatermark: number; next: number | null }>();
  const showLag = (partition: number): void => {
    const p = positions.get(partition);
    if (p && p.next !== null)
      lag.set({ topic: opts.topic, partition: String(partition) }, Math.max(0, p.highWatermark - p.next));
  };
  const maxAttempts = Math.max(1, opts.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
  const limit = Math.max(1, opts.concurrency ?? 1);
  let inFlight = 0;
  const slotWaiters = new Set<() => void>();
  let idle: (() => void) | null = null;
  let stopping = false;
  // A rebalance starts a new generation: work of the old one must not commit anything.
  let generation = 0;
  let trackers = new Map<number, OffsetTracker>();
  const toCommit = new Map<number, string>();
  let commitTimer: NodeJS.Timeout | undefined;

  consumer.on(consumer.events.REBALANCING, () => {
    generation++;
    trackers = new Map();
    toCommit.clear();
    positions.clear();
    lag.reset();
  });

  const commit = async (): Promise<void> => {
    commitTimer = undefined;
    if (toCommit.size === 0) return;
    const offsets = [...toCommit].map(([partition, offset]) => ({
      topic: opts.topicName,
      partition,
      offset,
    }));
    toCommit.clear();
    await consumer.commitOffsets(offsets).catch((err: unknown) => {
      deps.logger.warn({ err, topic: opts.topicName }, `offset commit failed: ${errorMessage(err)}`);
    });
  };

  const handleOnce = async (m: KafkaMessage, partition: number): Promise<void> => {
    const end = duration.startTimer({ topic: opts.topic });
    try {
      const message = decodeMessage(opts.topic, m.value);
      const ctx: MessageContext = {
        topic: opts.topicName,
        partition,
        offset: m.offset,
        headers: m.headers ?? {},
      };
      await withSpan(
        `consume ${opts.topicName}`,
        {
          parent: extractTraceContext(m.headers as Record<string, Buffer | string | undefined>),
          kind: SpanKind.CONSUMER,
          attributes: traceAttributes(message),
        },
        () => opts.handle(message, ctx),
      );
    } finally {
      end();
    }
  };

  /** Stores a message given up on, retrying the store itself until it succeeds or we stop. */
  const giveUp = async (
    m: KafkaMessage,
    partition: number,
    gen: number,
    err: unknown,
    retriable: boolean,
    attempts: number,
  ): Promise<void> => {
    const where = { err, topic: opts.topicName, partition, offset: m.offset, attempts };
    if (!deps.deadLetter) {
      handled.inc({ topic: opts.topic, outcome: 'skipped' });
      deps.logger.error(where, `skipping message: ${errorMessage(err)}`);
      return;
    }
    const letter: DeadLetterMessage = {
      topic: opts.topicName,
      partition,
      offset: m.offset,
      group: deps.group ?? '',
      key: m.key ? m.key.toString('utf8') : null,
      value: m.value ? m.value.toString('utf8') : null,
      headers: headerText(m.headers),
      error: errorMessage(err),
      error_name: err instanceof Error ? err.name : typeof err,
      retriable,
      attempts,
      failed_at: new Date().toISOString(),
    };
    for (let attempt = 0; ; attempt++) {
      try {
        await deps.deadLetter(letter);
        break;
      } catch (storeErr) {
        if (stopping || gen !== generation) throw storeErr;
        deps.logger.warn(
          { ...where, err: storeErr },
          `dead-lettering failed, retrying: ${errorMessage(storeErr)}`,
        );
        await new Promise((r) => setTimeout(r, backoffMs(attempt, { maxMs: 5000 })));
      }
    }
    handled.inc({ topic: opts.topic, outcome: 'dead_lettered' });
    deadLetters.inc({ topic: opts.topic });
    deps.logger.error(where, `message dead-lettered after ${attempts} attempt(s): ${errorMessage(err)}`);
  };

  /**
   * Handles one message to its end: a retriable failure is retried in place with backoff, at most
   * `maxAttempts` times (a dependency outage, e.g. MongoDB unreachable, without bound: the message
   * is not at fault and every other one would fail the same way); then, or at once for a
   * non-retriable failure, the message is dead-lettered and the partition moves on.
   */
  const run = async (m: KafkaMessage, partition: number, gen: number): Promise<void> => {
    for (let attempt = 0; ; attempt++) {
      try {
        await handleOnce(m, partition);
        handled.inc({ topic: opts.topic, outcome: 'ok' });
        return;
      } catch (err) {
        const retriable = isRetriable(err) && !(err instanceof PoisonMessageError);
        if (!retriable || (attempt + 1 >= maxAttempts && !isDependencyOutage(err))) {
          await giveUp(m, partition, gen, err, retriable, attempt + 1);
          return;
        }
        handled.inc({ topic: opts.topic, outcome: 'retry' });
        // Another member owns the partition now, or we are stopping: it will be delivered again.
        if (stopping || gen !== generation) throw err;
        deps.logger.warn(
          { err, topic: opts.topicName, partition, offset: m.offset, attempt },
          `handler failed, retrying: ${errorMessage(err)}`,
        );
        await new Promise((r) => setTimeout(r, backoffMs(attempt, { maxMs: 5000 })));
      }
    }
  };

  /** A barrier is applied at once, so every later message of its partition starts after it. */
  const applyBarrier = async (m: KafkaMessage): Promise<void> => {
    try {
      opts.onBarrier?.(decodeBarrier(opts.topic, m.value));
      handled.inc({ topic: opts.topic, outcome: 'barrier' });
    } catch (err) {
      handled.inc({ topic: opts.topic, outcome: 'skipped' });
      deps.logger.error(
        { err, topic: opts.topicName, offset: m.offset },
        `skipping a configuration barrier: ${errorMessage(err)}`,
      );
    }
  };

  const start = (m: KafkaMessage, partition: number): void => {
    const gen = generation;
    let tracker = trackers.get(partition);
    if (!tracker) trackers.set(partition, (tracker = new OffsetTracker()));
    const t = tracker;
    t.start(m.offset);
    inFlight++;
    (m.headers?.[CONFIG_BARRIER_HEADER] !== undefined ? applyBarrier(m) : run(m, partition, gen))
      .then(
        () => {
          if (gen !== generation) return;
          const next = t.finish(m.offset);
          if (next === null) return;
          toCommit.set(partition, next);
          const p = positions.get(partition);
          if (p) p.next = Number(next);
          showLag(partition);
          commitTimer ??= setTimeout(() => void commit(), COMMIT_INTERVAL_MS);
        },
        () => undefined, // left uncommitted: redelivered after the rebalance or restart
      )
      .finally(() => {
        inFlight--;
        for (const wake of slotWaiters) wake();
        slotWaiters.clear();
        if (inFlight === 0) idle?.();
      });
  };

  await consumer.subscribe({ topic: opts.topicName, fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: deps.partitionsConcurrently ?? 3,
    eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload) => {
      const p = positions.get(batch.partition);
      const highWatermark = Number(batch.highWatermark);
      // Until something finishes here, the batch's first offset is the next to commit.
      if (p) p.highWatermark = highWatermark;
      else
        positions.set(batch.partition, { highWatermark, next: Number(batch.firstOffset() ?? highWatermark) });
      showLag(batch.partition);
      for (const m of batch.messages) {
        while (inFlight >= limit) {
          await new Promise<void>((r) => slotWaiters.add(r));
          await heartbeat();
        }
        if (!isRunning() || isStale() || stopping) return;
        start(m, batch.partition);
        // Moves the fetch position only (autoCommit is off): commits follow the finished prefix.
        resolveOffset(m.offset);
      }
      await heartbeat();
    },
  });

  return {
    async drain(timeoutMs: number): Promise<void> {
      stopping = true;
      consumer.pause([{ topic: opts.topicName }]);
      if (inFlight > 0) {
        const done = new Promise<void>((r) => (idle = r));
        await Promise.race([done, new Promise((r) => setTimeout(r, timeoutMs))]);
      }
      clearTimeout(commitTimer);
      await commit();
    },
  };
}

function headerText(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    out[name] = (Array.isArray(value) ? value : [value]).map((v) => v.toString()).join(',');
  }
  return out;
}
