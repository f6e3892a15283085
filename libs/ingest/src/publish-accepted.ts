import type { EventMessage, PublishGuard, Publisher } from '@hookrail/bus';
import { errorMessage, isRetriable, type ProjectId } from '@hookrail/domain';

/** Where every intake hands its accepted events: `hookrail.events`, behind the accept guard. */
export interface EventSink {
  publisher: Publisher;
  /** Bounds the wait for Kafka's acknowledgement (unavailable at once while Kafka is down). */
  acceptGuard: Pick<PublishGuard, 'run'>;
  /**
   * Some subscription of the project orders deliveries (from the intake's cached configuration):
   * its events are keyed by project (docs/ordered-delivery.md).
   */
  ordersDeliveries(projectId: ProjectId): boolean | Promise<boolean>;
}

export type PublishOutcome = { kind: 'accepted'; eventId: string } | { kind: 'unavailable'; message: string };

/**
 * Hands the event to `hookrail.events` and resolves once Kafka acknowledged it; the accept guard
 * rejects with a retriable error when Kafka is down or slow. The trace context active here goes
 * into the Kafka message's headers (the publisher injects it), so the event's consumers continue
 * the intake's trace.
 */
export async function publishToEventsTopic(message: EventMessage, sink: EventSink): Promise<void> {
  // Read before the guard's clock starts.
  const ordered = await sink.ordersDeliveries(message.project_id);
  await sink.acceptGuard.run(() =>
    sink.publisher.publish('events', [ordered ? { ...message, ordered: true } : message]),
  );
}

/**
 * `publishToEventsTopic` as an outcome. `accepted` means Kafka acknowledged it; a retriable
 * failure (Kafka down or slow, the configuration unreadable) is `unavailable`, so the caller
 * answers 503 or leaves the broker message unacknowledged. Anything else is a bug and is thrown.
 */
export async function publishAccepted(message: EventMessage, sink: EventSink): Promise<PublishOutcome> {
  try {
    await publishToEventsTopic(message, sink);
  } catch (err) {
    if (!isRetriable(err)) throw err;
    return { kind: 'unavailable', message: errorMessage(err) };
  }
  return { kind: 'accepted', eventId: message.event_id };
}
