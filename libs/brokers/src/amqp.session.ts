import amqp, { type Channel, type ChannelModel, type ConsumeMessage } from 'amqplib';
import type { AmqpSettings } from './settings';
import { headerValues, InFlight, type Session, type SubscriberOptions } from './subscriber';

/** How long a message that met a transient failure is held before it is requeued (no hot loop). */
const REQUEUE_DELAY_MS = 1000;
const STOP_DRAIN_MS = 5000;

export async function connectAmqp(s: AmqpSettings, timeoutMs = 5000): Promise<ChannelModel> {
  return amqp.connect(s.url, { timeout: timeoutMs });
}

/**
 * `workers` channels on one connection, each a consumer of the queue with `prefetch` unacked
 * messages at most. Ack after Kafka acknowledged; a transient failure is requeued after a pause;
 * a rejected message is nacked without requeue, which RabbitMQ dead-letters when the queue has a
 * dead-letter exchange (x-dead-letter-exchange argument or policy) and drops otherwise.
 */
export async function openAmqp(s: AmqpSettings, opts: SubscriberOptions): Promise<Session> {
  const conn = await connectAmqp(s);
  const inFlight = new InFlight();
  let closing = false;
  let lost: (err: Error | undefined) => void = () => undefined;
  const closed = new Promise<Error | undefined>((r) => (lost = r));
  conn.on('error', () => undefined); // followed by 'close', which carries the reason
  conn.on('close', (err?: Error) => lost(closing ? undefined : (err ?? new Error('amqp connection closed'))));

  const consumers: { ch: Channel; tag: string }[] = [];
  try {
    for (let i = 0; i < opts.workers; i++) {
      const ch = await conn.createChannel();
      ch.on('error', () => undefined);
      // A channel closed by the broker (queue deleted, access revoked) ends the session.
      ch.on('close', () => {
        if (!closing) void conn.close().catch(() => undefined);
      });
      await ch.prefetch(opts.prefetch);
      if (i === 0) {
        await ch.checkQueue(s.queue);
        if (s.bind) await ch.bindQueue(s.queue, s.bind.exchange, s.bind.routingKey);
      }
      const onMessage = (msg: ConsumeMessage | null) => {
        if (!msg) {
          lost(new Error(`queue ${s.queue} was deleted or the consumer was cancelled`));
          return;
        }
        void inFlight.track(handle(ch, msg));
      };
      const { consumerTag } = await ch.consume(s.queue, onMessage, { noAck: false });
      consumers.push({ ch, tag: consumerTag });
    }
  } catch (err) {
    closing = true;
    await conn.close().catch(() => undefined);
    throw err;
  }

  async function handle(ch: Channel, msg: ConsumeMessage): Promise<void> {
    const headers = headerValues(msg.properties.headers as Record<string, unknown> | undefined);
    if (msg.properties.contentType) headers['content-type'] = String(msg.properties.contentType);
    const verdict = await opts.handle({ headers, body: msg.content });
    try {
      if (verdict.kind === 'ack') ch.ack(msg);
      else if (verdict.kind === 'reject') {
        ch.nack(msg, false, false);
        opts.onRejected(verdict.reason, s.deadLetterExchange ? 'dead_lettered' : 'dropped');
      } else {
        await new Promise((r) => setTimeout(r, REQUEUE_DELAY_MS));
        if (!closing) ch.nack(msg, false, true);
      }
    } catch {
      // The channel is gone: RabbitMQ requeues every unacked message of it.
    }
  }

  return {
    closed,
    async close() {
      closing = true;
      await Promise.all(consumers.map(({ ch, tag }) => ch.cancel(tag).catch(() => undefined)));
      await inFlight.idle(STOP_DRAIN_MS);
      await conn.close().catch(() => undefined);
    },
  };
}
