import type { Consumer, EachBatchPayload, IHeaders, KafkaMessage } from 'kafkajs';
import type { Logger, Metrics } from '@hookrail/telemetry';
import { extractTraceContext, withSpan, SpanKind } from '@hookrail/telemetry';
import { errorMessage, isDependencyOutage, isRetriable } from '@hookrail/domain';
import { backoffMs } from '@hookrail/toolbox';
import { decodeBarrier, decodeMessage, PoisonMessageError } from './codec';
import { CommitSchedule } from './commit-schedule';
import { ConsumerMetrics } from './consumer-metrics';
import { giveUp, type DeadLetterSink } from './give-up';
import { InFlight } from './in-flight';
import { PARTITIONS_CONSUMED_AT_ONCE } from './kafka-client';
import { OffsetTracker } from './offset-tracker';
import type { ConfigBarrier } from './messages';
import { CONFIG_BARRIER_HEADER, type MessageOf, type TopicKey } from './topics';

export type { DeadLetterSink } from './give-up';

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
  /**
   * Frees the message's place among the `concurrency` handled at once while the handler goes on:
   * for a handler that will wait long in memory for something other messages do not need (the
   * dispatcher's deliveries waiting for a slow endpoint's slot). Its offset is still committed only
   * once the handler ends, so a crash meanwhile redelivers it, and a graceful stop's drain waits for
   * it as for the others. A failure retried in place takes a place again. Idempotent.
   */
  leaveWindow: () => void;
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
  /**
   * Bytes of messages (their values) handled at once, besides their count (default
   * DEFAULT_MAX_IN_FLIGHT_BYTES). A message larger than this is handled alone.
   */
  maxInFlightBytes?: number;
  /** Attempts for a message whose failure is retriable, before it is dead-lettered (default 8). */
  maxAttempts?: number;
  /**
   * Told of each configuration barrier on the topic (Bus.announceConfigChange), synchronously and
   * in partition order: before any later message of its partition is handled. Without it,
   * barriers are passed over.
   */
  onBarrier?: (barrier: ConfigBarrier) => void;
}

export const DEFAULT_MAX_ATTEMPTS = 8;

/**
 * A handler holds a few times its message's size (the decoded object takes 3-6 times its JSON,
 * then the body it sends and the documents it writes), so 32 MiB of messages in flight is at most
 * about 200 MiB per consumer, within a dispatcher's 768 MiB with its two consumers, whatever the
 * count bound, which is sized for small events (2,000 events of 10 KiB are 20 MiB).
 */
export const DEFAULT_MAX_IN_FLIGHT_BYTES = 32 * 1024 * 1024;

/** A running consumer: `drain` finishes what was started and commits it (graceful shutdown). */
export interface RunningConsumer {
  drain(timeoutMs: number): Promise<void>;
}

interface ConsumeDeps {
  logger: Logger;
  metrics: Metrics;
  partitionsConcurrently?: number;
  /** Without one, a message given up on is logged, counted and skipped. */
  deadLetter?: DeadLetterSink;
  /** Named in dead letters. */
  group?: string;
}

/**
 * Runs a handler over a topic with at-least-once semantics, pipelined: messages are started as
 * they arrive, up to `concurrency` at a time, without waiting for the previous batch to finish,
 * so a handler's slow tail (a database write, an HTTP request) never holds the partition. An
 * offset is committed only once its message and every earlier one of the partition finished.
 * A retriable failure is retried in place with backoff (the commit point waits for it); a
 * non-retriable one (poison, programming error) is dead-lettered so it never blocks the
 * partition. After a rebalance, uncommitted messages are delivered again.
 */
export async function consume<K extends TopicKey>(
  consumer: Consumer,
  opts: ConsumeOptions<K>,
  deps: ConsumeDeps,
): Promise<RunningConsumer> {
  const loop = new ConsumerLoop(consumer, opts, deps);
  consumer.on(consumer.events.REBALANCING, () => loop.newGeneration());
  await consumer.subscribe({ topic: opts.topicName, fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: deps.partitionsConcurrently ?? PARTITIONS_CONSUMED_AT_ONCE,
    eachBatch: (payload) => loop.eachBatch(payload),
  });
  return { drain: (timeoutMs) => loop.drain(timeoutMs) };
}

const sizeOf = (m: KafkaMessage): number => m.value?.length ?? 0;

/** One consumer's state between batches: what is in flight, what may be committed, and when to stop. */
class ConsumerLoop<K extends TopicKey> {
  private readonly metrics: ConsumerMetrics;
  private readonly inFlight: InFlight;
  private readonly commits: CommitSchedule;
  private readonly maxAttempts: number;
  private stopping = false;
  /** A rebalance starts a new generation: work of the old one must not commit anything. */
  private generation = 0;
  private trackers = new Map<number, OffsetTracker>();

  constructor(
    private readonly consumer: Consumer,
    private readonly opts: ConsumeOptions<K>,
    private readonly deps: ConsumeDeps,
  ) {
    this.metrics = new ConsumerMetrics(deps.metrics, opts.topic);
    this.inFlight = new InFlight(
      Math.max(1, opts.concurrency ?? 1),
      opts.maxInFlightBytes ?? DEFAULT_MAX_IN_FLIGHT_BYTES,
    );
    this.commits = new CommitSchedule(consumer, opts.topicName, deps.logger);
    this.maxAttempts = Math.max(1, opts.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
  }

  newGeneration(): void {
    this.generation++;
    this.trackers = new Map();
    this.commits.clear();
    this.metrics.reset();
  }

  async eachBatch({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    const highWatermark = Number(batch.highWatermark);
    this.metrics.batchSeen(batch.partition, highWatermark, Number(batch.firstOffset() ?? highWatermark));
    for (const m of batch.messages) {
      const bytes = sizeOf(m);
      while (!this.inFlight.admits(bytes)) {
        await this.inFlight.slotFreed();
        await heartbeat();
      }
      if (!isRunning() || isStale() || this.stopping) return;
      this.start(m, batch.partition, bytes);
      // Moves the fetch position only (autoCommit is off): commits follow the finished prefix.
      resolveOffset(m.offset);
    }
    await heartbeat();
  }

  async drain(timeoutMs: number): Promise<void> {
    this.stopping = true;
    this.consumer.pause([{ topic: this.opts.topicName }]);
    await this.inFlight.settled(timeoutMs);
    await this.commits.commit();
  }

  /** Starts a message without waiting for it; when it ends, the partition's commit point may move. */
  private start(m: KafkaMessage, partition: number, bytes: number): void {
    const gen = this.generation;
    let tracker = this.trackers.get(partition);
    if (!tracker) this.trackers.set(partition, (tracker = new OffsetTracker()));
    const t = tracker;
    t.start(m.offset);
    this.inFlight.started(bytes);
    this.metrics.started(Number(m.timestamp));
    let inWindow = true;
    const window = {
      leave: () => {
        if (inWindow) this.inFlight.left(bytes);
        inWindow = false;
      },
      // A failure retried in place holds a place again, as every failing message does: a
      // dependency outage stops the intake at the window whatever had left it.
      reenter: () => {
        if (!inWindow) this.inFlight.reentered(bytes);
        inWindow = true;
      },
    };
    const work =
      m.headers?.[CONFIG_BARRIER_HEADER] !== undefined
        ? this.applyBarrier(m)
        : this.run(m, partition, gen, window);
    work
      .then(
        () => {
          if (gen !== this.generation) return;
          const next = t.finish(m.offset);
          if (next === null) return;
          this.commits.set(partition, next);
          this.metrics.finishedUpTo(partition, Number(next));
        },
        () => undefined, // left uncommitted: redelivered after the rebalance or restart
      )
      .finally(() => this.inFlight.finished(bytes, inWindow));
  }

  /** A barrier is applied at once, so every later message of its partition starts after it. */
  private async applyBarrier(m: KafkaMessage): Promise<void> {
    try {
      this.opts.onBarrier?.(decodeBarrier(this.opts.topic, m.value));
      this.metrics.count('barrier');
    } catch (err) {
      this.metrics.count('skipped');
      this.deps.logger.error(
        { err, topic: this.opts.topicName, offset: m.offset },
        `skipping a configuration barrier: ${errorMessage(err)}`,
      );
    }
  }

  /**
   * Handles one message to its end: a retriable failure is retried in place with backoff, at most
   * `maxAttempts` times (a dependency outage, e.g. MongoDB unreachable, without bound: the message
   * is not at fault and every other one would fail the same way); then, or at once for a
   * non-retriable failure, the message is dead-lettered and the partition moves on.
   */
  private async run(
    m: KafkaMessage,
    partition: number,
    gen: number,
    window: { leave: () => void; reenter: () => void },
  ): Promise<void> {
    const stillOwned = () => !this.stopping && gen === this.generation;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.handleOnce(m, partition, window.leave);
        this.metrics.count('ok');
        return;
      } catch (err) {
        const retriable = isRetriable(err) && !(err instanceof PoisonMessageError);
        if (!retriable || (attempt + 1 >= this.maxAttempts && !isDependencyOutage(err))) {
          const giveUpDeps = {
            topic: this.opts.topicName,
            group: this.deps.group ?? '',
            logger: this.deps.logger,
            metrics: this.metrics,
            deadLetter: this.deps.deadLetter,
          };
          await giveUp(giveUpDeps, m, partition, { err, retriable, attempts: attempt + 1 }, stillOwned);
          return;
        }
        this.metrics.count('retry');
        window.reenter();
        // Another member owns the partition now, or we are stopping: it will be delivered again.
        if (!stillOwned()) throw err;
        this.deps.logger.warn(
          { err, topic: this.opts.topicName, partition, offset: m.offset, attempt },
          `handler failed, retrying: ${errorMessage(err)}`,
        );
        await new Promise((r) => setTimeout(r, backoffMs(attempt, { maxMs: 5000 })));
      }
    }
  }

  /** Decodes the message and runs the handler once, in a consumer span continuing the producer's trace. */
  private async handleOnce(m: KafkaMessage, partition: number, leaveWindow: () => void): Promise<void> {
    const end = this.metrics.timeHandler();
    try {
      const message = decodeMessage(this.opts.topic, m.value);
      const ctx: MessageContext = {
        topic: this.opts.topicName,
        partition,
        offset: m.offset,
        headers: m.headers ?? {},
        leaveWindow,
      };
      await withSpan(
        `consume ${this.opts.topicName}`,
        {
          parent: extractTraceContext(m.headers as Record<string, Buffer | string | undefined>),
          kind: SpanKind.CONSUMER,
          attributes: traceAttributes(message),
        },
        () => this.opts.handle(message, ctx),
      );
    } finally {
      end();
    }
  }
}
