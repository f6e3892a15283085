import type { Consumer, EachBatchPayload, IHeaders, KafkaMessage } from 'kafkajs';
import type { Logger, Metrics } from '@hookrail/telemetry';
import { extractTraceContext, withSpan, SpanKind } from '@hookrail/telemetry';
import { errorMessage, isRetriable } from '@hookrail/domain';
import { decodeMessage, PoisonMessageError } from './codec';
import type { MessageOf, TopicKey } from './topics';

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
  /** Messages of one partition's batch handled at once (order within a partition is not kept when > 1). */
  concurrency?: number;
}

/**
 * Runs a handler over a topic with at-least-once semantics: an offset is committed only after the
 * handler for it (and every earlier message) finished. A retriable failure stops the batch so
 * kafkajs redelivers from the first unfinished message; a non-retriable one (poison, programming
 * error) is logged, counted and skipped so it never blocks the partition.
 */
export async function consume<K extends TopicKey>(
  consumer: Consumer,
  opts: ConsumeOptions<K>,
  deps: { logger: Logger; metrics: Metrics; partitionsConcurrently?: number },
): Promise<void> {
  const handled = deps.metrics.counter('hookrail_bus_messages_total', 'Messages consumed, by outcome', [
    'topic',
    'outcome',
  ]);
  const duration = deps.metrics.histogram(
    'hookrail_bus_handler_duration_seconds',
    'Handler time per message',
    ['topic'],
  );
  const concurrency = Math.max(1, opts.concurrency ?? 1);

  const runOne = async (m: KafkaMessage, partition: number): Promise<void> => {
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
        },
        () => opts.handle(message, ctx),
      );
      handled.inc({ topic: opts.topic, outcome: 'ok' });
    } catch (err) {
      if (isRetriable(err) && !(err instanceof PoisonMessageError)) {
        handled.inc({ topic: opts.topic, outcome: 'retry' });
        throw err;
      }
      handled.inc({ topic: opts.topic, outcome: 'skipped' });
      deps.logger.error(
        { err, topic: opts.topicName, partition, offset: m.offset },
        `skipping message: ${errorMessage(err)}`,
      );
    } finally {
      end();
    }
  };

  await consumer.subscribe({ topic: opts.topicName, fromBeginning: true });
  await consumer.run({
    autoCommit: true,
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: deps.partitionsConcurrently ?? 3,
    eachBatch: async ({
      batch,
      resolveOffset,
      heartbeat,
      commitOffsetsIfNecessary,
      isRunning,
      isStale,
    }: EachBatchPayload) => {
      const messages = batch.messages;
      for (let i = 0; i < messages.length; i += concurrency) {
        if (!isRunning() || isStale()) return;
        const chunk = messages.slice(i, i + concurrency);
        const results = await Promise.allSettled(chunk.map((m) => runOne(m, batch.partition)));
        // Resolve only the prefix that fully succeeded: later messages are redelivered with the failed one.
        for (let j = 0; j < chunk.length; j++) {
          const r = results[j];
          if (r.status === 'rejected') {
            await commitOffsetsIfNecessary();
            deps.logger.warn(
              { err: r.reason, topic: opts.topicName, partition: batch.partition },
              'handler failed, will redeliver',
            );
            throw r.reason;
          }
          resolveOffset(chunk[j].offset);
        }
        await heartbeat();
        await commitOffsetsIfNecessary();
      }
    },
  });
}
