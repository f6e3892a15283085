import amqp, { type Channel, type ChannelModel, type ConfirmChannel, type ConsumeMessage } from 'amqplib';
import { refusedLiteral } from '@hookrail/outbound';
import { amqpSocketOptions } from './outbound-guard';
import type { AmqpSettings } from './settings';
import { headerValues, InFlight, type Session, type SubscriberOptions } from './subscriber';

/** How long a message that met a transient failure is held before it is requeued (no hot loop). */
const REQUEUE_DELAY_MS = 1000;
const STOP_DRAIN_MS = 5000;

export async function connectAmqp(s: AmqpSettings, timeoutMs = 5000): Promise<ChannelModel> {
  const refused = refusedLiteral(new URL(s.url).hostname, s.allowPrivateHosts);
  if (refused) throw refused;
  return amqp.connect(s.url, { timeout: timeoutMs, ...amqpSocketOptions(s.allowPrivateHosts) });
}

/**
 * `workers` channels on one connection, each a consumer of the queue with `prefetch` unacked
 * messages at most. Ack after Kafka acknowledged; a transient failure is requeued after a pause.
 * A rejected message goes to the source's `deadLetterExchange` when it has one: Hookrail publishes
 * it there itself (confirmed, with the reason in `x-hookrail-rejected`) and then acks it, so it is
 * dead-lettered whether or not the queue was declared with that exchange. Without one it is nacked
 * without requeue: RabbitMQ applies the queue's own dead-letter settings, or drops it.
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
  const deadLetters = s.deadLetterExchange ? new DeadLetterPublisher(conn, s.deadLetterExchange) : undefined;
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
        if (deadLetters && (await deadLetters.publish(msg, verdict.reason))) {
          ch.ack(msg);
          opts.onRejected(verdict.reason, 'dead_lettered');
        } else {
          ch.nack(msg, false, false);
          opts.onRejected(verdict.reason, 'dropped');
        }
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

/**
 * Publishes rejected messages to the dead-letter exchange on a confirm channel of its own, so a
 * missing exchange (which closes the channel) never takes a consumer channel with it.
 */
class DeadLetterPublisher {
  private channel?: Promise<ConfirmChannel>;

  constructor(
    private readonly conn: ChannelModel,
    private readonly exchange: string,
  ) {}

  /** True once the broker confirmed the copy; false when it could not be dead-lettered. */
  async publish(msg: ConsumeMessage, reason: string): Promise<boolean> {
    try {
      const ch = await this.open();
      const headers = { ...(msg.properties.headers ?? {}), 'x-hookrail-rejected': reason };
      await new Promise<void>((resolve, reject) =>
        ch.publish(
          this.exchange,
          msg.fields.routingKey,
          msg.content,
          { ...msg.properties, headers },
          (err) => (err ? reject(err) : resolve()),
        ),
      );
      return true;
    } catch {
      this.channel = undefined;
      return false;
    }
  }

  private open(): Promise<ConfirmChannel> {
    this.channel ??= this.conn.createConfirmChannel().then((ch) => {
      ch.on('error', () => undefined);
      ch.on('close', () => (this.channel = undefined));
      return ch;
    });
    return this.channel;
  }
}
