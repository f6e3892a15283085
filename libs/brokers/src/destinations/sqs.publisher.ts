import { GetQueueUrlCommand, SendMessageCommand, type MessageAttributeValue } from '@aws-sdk/client-sqs';
import { sqsClient } from '../sqs.session';
import type { SqsDestination } from './destination-settings';
import { publishFailure, withTimeout, type DestinationPublisher, type PublishResult } from './publisher';

/** SQS takes at most 10 message attributes. */
export const SQS_MAX_ATTRIBUTES = 10;

/**
 * SendMessage: acknowledged when SQS answers with a MessageId. A FIFO queue gets the event id as
 * message group (one event's deliveries in order) and the delivery id as deduplication id, so a
 * retry of a publish whose answer was lost is not a second message within SQS's 5-minute window.
 */
export async function openSqsPublisher(d: SqsDestination, timeoutMs: number): Promise<DestinationPublisher> {
  const client = sqsClient(d.connection);
  let queueUrl: string;
  try {
    const out = await withTimeout(
      client.send(new GetQueueUrlCommand({ QueueName: d.connection.queueName })),
      timeoutMs,
      'sqs queue lookup',
    );
    queueUrl = out.QueueUrl!;
  } catch (err) {
    client.destroy();
    throw err;
  }
  let broken = false;
  return {
    get broken() {
      return broken;
    },
    async publish(m, ms): Promise<PublishResult> {
      const names = Object.keys(m.headers);
      if (names.length > SQS_MAX_ATTRIBUTES)
        return {
          ok: false,
          code: 'TOO_MANY_ATTRIBUTES',
          message: `SQS takes ${SQS_MAX_ATTRIBUTES} message attributes; this delivery has ${names.length} headers (${names.join(', ')})`,
          maybeReached: false,
        };
      const attributes: Record<string, MessageAttributeValue> = Object.fromEntries(
        Object.entries(m.headers).map(([k, v]) => [k, { DataType: 'String', StringValue: v }]),
      );
      const abort = new AbortController();
      try {
        const out = await withTimeout(
          client.send(
            new SendMessageCommand({
              QueueUrl: queueUrl,
              MessageBody: m.body.toString('utf8'),
              MessageAttributes: attributes,
              ...(d.fifo ? { MessageGroupId: m.key, MessageDeduplicationId: m.deliveryId } : {}),
            }),
            { abortSignal: abort.signal },
          ),
          ms,
          'sqs publish',
        );
        return { ok: true, messageId: out.MessageId ?? '' };
      } catch (err) {
        abort.abort();
        // A deleted queue, changed credentials: look the queue up again on the next publish.
        broken = true;
        return publishFailure(err, true);
      }
    },
    close: async () => client.destroy(),
  };
}
