import type { EventMessage } from '@hookrail/bus';
import { errorMessage, isRetriable } from '@hookrail/domain';

export type PublishOutcome = { kind: 'accepted'; eventId: string } | { kind: 'unavailable'; message: string };

/**
 * Hands the event to `hookrail.events`. `accepted` means Kafka acknowledged it; a retriable
 * failure (Kafka down or slow) is `unavailable`, so the caller answers 503 or leaves the broker
 * message unacknowledged. Anything else is a bug and is thrown.
 */
export async function publishAccepted(
  message: EventMessage,
  publish: (message: EventMessage) => Promise<void>,
): Promise<PublishOutcome> {
  try {
    await publish(message);
  } catch (err) {
    if (!isRetriable(err)) throw err;
    return { kind: 'unavailable', message: errorMessage(err) };
  }
  return { kind: 'accepted', eventId: message.event_id };
}
