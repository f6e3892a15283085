import { pubsubClient } from '../pubsub.session';
import type { GooglePubSubDestination } from './destination-settings';
import { publishFailure, withTimeout, type DestinationPublisher, type PublishResult } from './publisher';

/**
 * A topic publisher without batching delay: acknowledged when Pub/Sub answers with the message id.
 * With `message_ordering` the event id is the ordering key; a failed publish pauses its key in the
 * client, so it is resumed at once (the retry is Hookrail's, not the client's).
 */
export async function openPubSubPublisher(
  d: GooglePubSubDestination,
  _timeoutMs: number,
): Promise<DestinationPublisher> {
  const client = pubsubClient(d.connection);
  const topic = client.topic(d.topicId, {
    batching: { maxMessages: 1, maxMilliseconds: 0 },
    ...(d.ordering ? { messageOrdering: true } : {}),
  });
  let broken = false;
  return {
    get broken() {
      return broken;
    },
    async publish(m, ms): Promise<PublishResult> {
      try {
        const id = await withTimeout(
          topic.publishMessage({
            data: m.body,
            attributes: m.headers,
            ...(d.ordering ? { orderingKey: m.key } : {}),
          }),
          ms,
          'pubsub publish',
        );
        return { ok: true, messageId: id };
      } catch (err) {
        if (d.ordering) topic.resumePublishing(m.key);
        broken = true;
        return publishFailure(err, true);
      }
    },
    close: async () => {
      await topic.flush().catch(() => undefined);
      await client.close().catch(() => undefined);
    },
  };
}
