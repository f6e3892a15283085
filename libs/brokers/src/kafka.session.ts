import { Kafka, logLevel, type Consumer, type KafkaConfig, type KafkaMessage } from 'kafkajs';
import { backoffMs } from '@hookrail/toolbox';
import { clusterIdOf, guardedKafkaSocketFactory, refuseHookrailTopics } from './outbound-guard';
import type { KafkaSettings } from './settings';
import { headerValues, type Session, type SubscriberOptions, type Verdict } from './subscriber';

export function kafkaClient(s: KafkaSettings, clientId: string, retries = 5): Kafka {
  const config: KafkaConfig = {
    clientId,
    brokers: s.brokers,
    ssl: s.ssl,
    connectionTimeout: 3000,
    retry: { retries, initialRetryTime: 300 },
    logLevel: logLevel.NOTHING,
  };
  if (s.sasl) config.sasl = s.sasl as KafkaConfig['sasl'];
  if (!s.allowPrivateHosts) config.socketFactory = guardedKafkaSocketFactory;
  return new Kafka(config);
}

/**
 * A consumer in the source's group (`consumer_group_id`, else one per source) on its topic, from
 * the earliest offset when the group is new. `workers` partitions are handled at once, and within
 * a partition up to `prefetch` messages at a time; an offset is resolved (and committed) only once
 * every earlier message of the partition was acknowledged by our Kafka or rejected. Kafka has no
 * dead-letter facility, so a rejected message is dropped (logged, counted). A transient failure is
 * retried in place: the partition waits, nothing after it is committed.
 */
export async function openKafka(s: KafkaSettings, opts: SubscriberOptions): Promise<Session> {
  const kafka = kafkaClient(s, 'hookrail-source-consumer');
  const consumer: Consumer = kafka.consumer({
    groupId: s.groupId,
    sessionTimeout: 30_000,
    maxWaitTimeInMs: 200,
    // A crash ends the session instead of kafkajs restarting in silence: the supervisor reports
    // the source unreachable and reopens it with backoff, like every other broker kind.
    retry: { retries: 5, initialRetryTime: 300, restartOnFailure: async () => false },
  });
  await refuseHookrailTopics(s, () => clusterIdOf(kafka));
  let closing = false;
  let lost: (err: Error | undefined) => void = () => undefined;
  const closed = new Promise<Error | undefined>((r) => (lost = r));
  consumer.on(consumer.events.CRASH, (e) => {
    if (!closing) lost(e.payload.error);
  });
  try {
    await consumer.connect();
    await consumer.subscribe({ topic: s.topic, fromBeginning: true });
  } catch (err) {
    await consumer.disconnect().catch(() => undefined);
    throw err;
  }

  const handleUntilSettled = async (m: KafkaMessage, isRunning: () => boolean): Promise<boolean> => {
    for (let attempt = 0; ; attempt++) {
      const verdict: Verdict = await opts.handle({
        headers: headerValues(m.headers as Record<string, unknown> | undefined),
        body: m.value ?? Buffer.alloc(0),
      });
      if (verdict.kind === 'ack') return true;
      if (verdict.kind === 'reject') {
        opts.onRejected(verdict.reason, 'dropped');
        return true;
      }
      if (!isRunning() || closing) return false;
      await new Promise((r) => setTimeout(r, backoffMs(attempt, { maxMs: 5000 })));
    }
  };

  await consumer.run({
    autoCommit: true,
    autoCommitInterval: 500,
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: opts.workers,
    eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale, commitOffsetsIfNecessary }) => {
      const messages = batch.messages;
      for (let i = 0; i < messages.length && isRunning() && !isStale() && !closing; i += opts.prefetch) {
        const chunk = messages.slice(i, i + opts.prefetch);
        const settled = await Promise.all(chunk.map((m) => handleUntilSettled(m, isRunning)));
        const done = settled.indexOf(false);
        const upTo = done === -1 ? chunk.length : done;
        if (upTo > 0) resolveOffset(chunk[upTo - 1].offset);
        await commitOffsetsIfNecessary();
        await heartbeat();
        if (done !== -1) return; // stopping: the rest is delivered again
      }
    },
  });

  return {
    closed,
    async close() {
      closing = true;
      await consumer.disconnect().catch(() => undefined);
    },
  };
}
