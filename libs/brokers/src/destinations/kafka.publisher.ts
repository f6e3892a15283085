import type { Producer } from 'kafkajs';
import { kafkaClient } from '../kafka.session';
import { clusterIdOf, refuseHookrailTopics } from '../outbound-guard';
import type { KafkaDestination } from './destination-settings';
import { publishFailure, withTimeout, type DestinationPublisher, type PublishResult } from './publisher';

/**
 * An idempotent producer (acks=-1, as kafkajs requires for idempotence): a publish is
 * acknowledged once every in-sync replica has the message; its id is `<partition>:<offset>`.
 * kafkajs reconnects a producer by itself, so one producer serves the endpoint until it changes.
 */
export async function openKafkaPublisher(
  d: KafkaDestination,
  timeoutMs: number,
): Promise<DestinationPublisher> {
  // The publish timeout bounds the work; kafkajs' own retries stay inside it.
  const kafka = kafkaClient(d.connection, 'hookrail-dispatcher', 2);
  // Hookrail's own topics on its own cluster carry every tenant's traffic: never a destination.
  await withTimeout(
    refuseHookrailTopics(d.connection, () => clusterIdOf(kafka)),
    timeoutMs,
    'reading the cluster id',
  );
  const producer: Producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
  });
  await withTimeout(producer.connect(), timeoutMs, 'connecting').catch(async (err: unknown) => {
    await producer.disconnect().catch(() => undefined);
    throw err;
  });
  let broken = false;
  producer.on(producer.events.DISCONNECT, () => (broken = true));
  return {
    get broken() {
      return broken;
    },
    async publish(m, ms): Promise<PublishResult> {
      try {
        const [meta] = await withTimeout(
          producer.send({
            topic: d.connection.topic,
            acks: -1,
            timeout: ms,
            messages: [{ key: m.key, value: m.body, headers: m.headers }],
          }),
          ms,
          'kafka publish',
        );
        return { ok: true, messageId: `${meta.partition}:${meta.baseOffset ?? meta.offset}` };
      } catch (err) {
        return publishFailure(err, true);
      }
    },
    close: () => producer.disconnect().catch(() => undefined),
  };
}
