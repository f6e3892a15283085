import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import { connectAmqp } from '../amqp.session';
import type { AmqpDestination } from './destination-settings';
import { publishFailure, withTimeout, type DestinationPublisher, type PublishResult } from './publisher';

/**
 * A confirm channel: a publish is acknowledged when RabbitMQ confirms it (persistent, so a durable
 * queue has it on disk). It is `mandatory`: a message no queue takes is returned by the broker
 * before its confirm, and that publish fails instead of vanishing. The message id is the delivery
 * id (AMQP brokers name no message themselves).
 */
export async function openAmqpPublisher(
  d: AmqpDestination,
  timeoutMs: number,
): Promise<DestinationPublisher> {
  const conn = await connectAmqp(d.connection, timeoutMs);
  let broken = false;
  conn.on('error', () => undefined); // followed by 'close'
  conn.on('close', () => (broken = true));
  let ch: ConfirmChannel;
  try {
    ch = await conn.createConfirmChannel();
  } catch (err) {
    await conn.close().catch(() => undefined);
    throw err;
  }
  ch.on('error', () => undefined);
  // A missing exchange closes the channel (404): the next publish opens a new connection.
  ch.on('close', () => {
    broken = true;
    void conn.close().catch(() => undefined);
  });
  const returned = new Set<string>();
  ch.on('return', (msg: ConsumeMessage) => {
    if (msg.properties.messageId) returned.add(String(msg.properties.messageId));
  });
  return {
    get broken() {
      return broken;
    },
    async publish(m, ms): Promise<PublishResult> {
      if (broken)
        return { ok: false, code: 'ECONNRESET', message: 'amqp connection closed', maybeReached: false };
      try {
        await withTimeout(
          new Promise<void>((resolve, reject) => {
            ch.publish(
              d.exchange,
              d.routingKey,
              m.body,
              {
                mandatory: true,
                persistent: true,
                contentType: 'application/json',
                messageId: m.deliveryId,
                headers: m.headers,
              },
              (err: unknown) =>
                err ? reject(err instanceof Error ? err : new Error('nacked by the broker')) : resolve(),
            );
          }),
          ms,
          'amqp publish',
        );
      } catch (err) {
        returned.delete(m.deliveryId);
        return publishFailure(err, true);
      }
      // basic.return comes before the confirm of the same message
      if (returned.delete(m.deliveryId))
        return {
          ok: false,
          code: 'NO_ROUTE',
          message: `no queue is bound to exchange "${d.exchange}" with routing key "${d.routingKey}" (message returned)`,
          maybeReached: true,
        };
      return { ok: true, messageId: m.deliveryId };
    },
    close: async () => {
      broken = true;
      await conn.close().catch(() => undefined);
    },
  };
}
