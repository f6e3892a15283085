import type { Publisher, RetryMessage } from '@hookrail/bus';
import { toTimestamp } from '@hookrail/domain';
import { eventStatusFrom } from '@hookrail/routing';
import type {
  DeliveryAttempt,
  DeliveryDoc,
  DeliveryStatus,
  DeliveryUpdate,
  EventStatus,
  Store,
} from '@hookrail/store';
import type { Logger } from '@hookrail/telemetry';
import { Coalescer } from '../shared/coalescer';
import type { GateDecision } from './gates';

export type FinalOutcome =
  | { status: 'Success' }
  | { status: 'Retry'; delaySeconds: number; reason: string }
  | { status: 'Failure' | 'Discarded'; reason: string };

type EventStatusUpdate = { projectId: string; id: string; status: EventStatus; reason?: string | null };

/**
 * Makes an outcome durable, then tells the rest of the system: the delivery document first (with
 * the attempt), then the retry message and meta event, then the event's status. A redelivered
 * message finds the recorded outcome and only repeats the (idempotent) follow-ups.
 */
export class OutcomeRecorder {
  private readonly deliveryWrites: Coalescer<DeliveryUpdate>;
  private readonly eventWrites: Coalescer<EventStatusUpdate>;
  private readonly now: () => number;

  constructor(
    private readonly deps: { store: Store; publisher: Publisher; logger: Logger; now?: () => number },
  ) {
    this.deliveryWrites = new Coalescer((u) => deps.store.deliveries.applyUpdates(u));
    this.eventWrites = new Coalescer((u) => deps.store.events.setStatuses(u));
    this.now = deps.now ?? Date.now;
  }

  async finish(delivery: DeliveryDoc, outcome: FinalOutcome, attempt: DeliveryAttempt | null): Promise<void> {
    const nextAt = outcome.status === 'Retry' ? new Date(this.now() + outcome.delaySeconds * 1000) : null;
    await this.deliveryWrites.submit({
      projectId: delivery.project_id,
      id: delivery._id,
      update: {
        $set: {
          status: outcome.status,
          status_reason: 'reason' in outcome ? outcome.reason : null,
          next_attempt_at: nextAt,
        },
        ...(attempt ? { $push: { attempts: attempt } } : {}),
        $inc: { attempts_made: attempt ? 1 : 0, retries_used: outcome.status === 'Retry' ? 1 : 0 },
      },
    });
    const follow: Promise<void>[] = [];
    if (nextAt) follow.push(this.publishRetry(delivery, nextAt, 'failed'));
    if (attempt) {
      follow.push(
        this.deps.publisher.publish('meta', [
          {
            project_id: delivery.project_id,
            event_type: outcome.status === 'Success' ? 'eventdelivery.success' : 'eventdelivery.failed',
            data: {
              delivery_id: delivery._id,
              event_id: delivery.event_id,
              endpoint_id: delivery.endpoint_id,
              subscription_id: delivery.subscription_id,
              event_type: delivery.event_type,
              status: outcome.status,
              http_status: attempt.http_status,
              error: attempt.error,
              attempts_made: delivery.attempts_made + 1,
            },
            occurred_at: toTimestamp(this.now()),
          },
        ]),
      );
    }
    follow.push(this.updateEventStatus(delivery, outcome.status));
    await Promise.all(follow);
  }

  /** Held by a gate: waits without spending a retry and comes back through the retry scheduler. */
  async hold(delivery: DeliveryDoc, gate: Extract<GateDecision, { kind: 'hold' }>): Promise<void> {
    const until = new Date(gate.untilMs);
    await this.deliveryWrites.submit({
      projectId: delivery.project_id,
      id: delivery._id,
      update: {
        $set: {
          status: 'Scheduled',
          next_attempt_at: until,
          status_reason: `held: ${gate.detail ?? gate.reason}`,
        },
      },
    });
    await this.publishRetry(delivery, until, gate.reason);
  }

  /** at_most_once: the durable marker that a request may be on its way. */
  async markProcessing(delivery: DeliveryDoc): Promise<void> {
    await this.deliveryWrites.submit({
      projectId: delivery.project_id,
      id: delivery._id,
      update: { $set: { status: 'Processing' } },
    });
  }

  republishRetry(delivery: DeliveryDoc): Promise<void> {
    return this.publishRetry(delivery, delivery.next_attempt_at ?? new Date(this.now()), 'failed');
  }

  private publishRetry(delivery: DeliveryDoc, due: Date, reason: RetryMessage['reason']): Promise<void> {
    return this.deps.publisher.publish('retries', [
      {
        delivery_id: delivery._id,
        project_id: delivery.project_id,
        endpoint_id: delivery.endpoint_id,
        event_id: delivery.event_id,
        due_at: toTimestamp(due),
        reason,
        kind: 'delivery',
      },
    ]);
  }

  private async updateEventStatus(delivery: DeliveryDoc, status: DeliveryStatus): Promise<void> {
    // The router records how many deliveries the event has; with one, no query is needed.
    const siblings = Number((delivery.metadata as { siblings?: number } | undefined)?.siblings ?? 0);
    const statuses =
      siblings === 1
        ? [status]
        : await this.deps.store.deliveries.statusesOfEvent(delivery.project_id, delivery.event_id);
    await this.eventWrites.submit({
      projectId: delivery.project_id,
      id: delivery.event_id,
      status: eventStatusFrom(statuses),
    });
  }
}
