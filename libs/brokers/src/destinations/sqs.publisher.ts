import { GetQueueUrlCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { sqsClient } from '../sqs.session';
import type { SqsDestination } from './destination-settings';
import { sqsMessageAttributes } from './sqs-attributes';
import { publishFailure, withTimeout, type DestinationPublisher, type PublishResult } from './publisher';

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
      const abort = new AbortController();
      try {
        const out = await withTimeout(
          client.send(
            new SendMessageCommand({
              QueueUrl: queueUrl,
              MessageBody: m.body.toString('utf8'),
              MessageAttributes: sqsMessageAttributes(m.headers),
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
