import type { Publisher, RetryMessage } from '@hookrail/bus';
import { metaEventDestination, toTimestamp } from '@hookrail/domain';
import { Coalescer, RECORD_WRITES } from '@hookrail/toolbox';
import type {
  CountedOutcome,
  DeliveryAttempt,
  DeliveryDoc,
  DeliveryOutcome,
  DeliveryStatus,
  ProjectDoc,
  Store,
} from '@hookrail/store';
import type { AttemptOutcome } from '@hookrail/retry';
import type { Logger } from '@hookrail/telemetry';
import type { GateDecision } from '../sender/gates';
import type { RetryStates } from '../sender/retry-states';

/** An attempt's outcome, or a delivery discarded without an attempt. */
export type FinalOutcome = AttemptOutcome | { status: 'Discarded'; reason: string };

/**
 * Where recorded outcomes are counted for the console's charts and the portal's event types
 * (the wiring passes libs/operations' DeliveryStatsBuffer). Must not wait: it is told after the
 * outcome is durable and only buffers.
 */
export interface DeliveryStatsSink {
  add(outcome: CountedOutcome): void;
}

interface OutcomeRecorderDeps {
  store: Store;
  publisher: Publisher;
  stats: DeliveryStatsSink;
  logger: Logger;
  now?: () => number;
  /** Told of every outcome once it is durable (ordered delivery releases the next of a key). */
  onRecorded?: (delivery: DeliveryDoc, status: DeliveryStatus) => Promise<void>;
  /** Told of every outcome once it is durable, to know where retried deliveries stand. */
  retryStates?: RetryStates;
}

/**
 * Makes an outcome durable, then tells the rest of the system. The delivery document is written
 * once per outcome (inserted with its first attempt when the first send carried everything), in
 * group-committed batches; that is the only write: the event's status is derived from its
 * deliveries when read (libs/store event-status.ts). The retry message follows the delivery write
 * (the scheduler's send reads the document); the meta event is published only when the project
 * will send it. A redelivered message repeats these idempotent writes.
 */
export class OutcomeRecorder {
  private readonly deliveryWrites: Coalescer<DeliveryOutcome>;
  /**
   * Outcomes of ordered deliveries do not wait for company: the next delivery of the key waits
   * for this write (docs/ordered-delivery.md), so it is on the latency path.
   */
  private readonly orderedWrites: Coalescer<DeliveryOutcome>;
  private readonly now: () => number;
  /** Deliveries of first sends: no document exists yet, so their first write is an insert. */
  private readonly unrecorded = new WeakSet<DeliveryDoc>();

  constructor(private readonly deps: OutcomeRecorderDeps) {
    this.deliveryWrites = new Coalescer((o) => deps.store.deliveries.recordOutcomes(o), RECORD_WRITES);
    this.orderedWrites = new Coalescer((o) => deps.store.deliveries.recordOutcomes(o), {
      gate: RECORD_WRITES.gate,
    });
    this.now = deps.now ?? Date.now;
  }

  /** A final or retry outcome; `project` is known when an attempt was made (meta events). */
  async finish(
    delivery: DeliveryDoc,
    outcome: FinalOutcome,
    attempt: DeliveryAttempt | null,
    project?: ProjectDoc,
  ): Promise<void> {
    const nextAt = outcome.status === 'Retry' ? new Date(this.now() + outcome.delaySeconds * 1000) : null;
    const recorded = this.write({
      delivery,
      status: outcome.status,
      reason: 'reason' in outcome ? outcome.reason : null,
      nextAttemptAt: nextAt,
      attempt,
      retrySpent: outcome.status === 'Retry',
      firstRecord: this.unrecorded.delete(delivery),
    });
    await Promise.all([
      nextAt ? recorded.then(() => this.publishRetry(delivery, nextAt, 'failed')) : recorded,
      recorded.then(() => this.deps.onRecorded?.(delivery, outcome.status)),
      attempt && project ? this.publishMeta(delivery, outcome, attempt, project) : undefined,
    ]);
    this.count({
      projectId: delivery.project_id,
      endpointId: delivery.endpoint_id,
      eventType: delivery.event_type,
      status: outcome.status,
      latencyMs: attempt?.latency_ms ?? null,
      at: this.now(),
    });
  }

  /** The outcome made durable (group-committed), then remembered where retried deliveries stand. */
  private async write(outcome: DeliveryOutcome): Promise<void> {
    await this.writesOf(outcome.delivery).submit(outcome);
    this.deps.retryStates?.recorded(outcome);
  }

  private writesOf(delivery: DeliveryDoc): Coalescer<DeliveryOutcome> {
    return typeof delivery.metadata?.ordering_key === 'string' ? this.orderedWrites : this.deliveryWrites;
  }

  /** The charts are best-effort: a failing count never fails a recorded delivery. */
  private count(outcome: CountedOutcome): void {
    try {
      this.deps.stats.add(outcome);
    } catch (err) {
      this.deps.logger.warn({ err }, 'delivery outcome not counted');
    }
  }

  /** Held by a gate: waits without spending a retry and comes back through the retry scheduler. */
  async hold(delivery: DeliveryDoc, gate: Extract<GateDecision, { kind: 'hold' }>): Promise<void> {
    const until = new Date(gate.untilMs);
    await this.write({
      delivery,
      status: 'Scheduled',
      reason: `held: ${gate.detail ?? gate.reason}`,
      nextAttemptAt: until,
      attempt: null,
      retrySpent: false,
      firstRecord: this.unrecorded.delete(delivery),
    });
    await Promise.all([
      this.publishRetry(delivery, until, gate.reason),
      this.deps.onRecorded?.(delivery, 'Scheduled'),
    ]);
  }

  /**
   * at_most_once: the durable marker that a request may be on its way, written before it goes
   * out. Returns the status the delivery had before (null: it had no document yet).
   */
  markProcessing(delivery: DeliveryDoc): Promise<DeliveryStatus | null> {
    this.unrecorded.delete(delivery);
    return this.deps.store.deliveries.markProcessing(delivery);
  }

  /** A delivery built from its first-send message: it has no document yet. */
  firstSend(delivery: DeliveryDoc): DeliveryDoc {
    this.unrecorded.add(delivery);
    return delivery;
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

  private async publishMeta(
    delivery: DeliveryDoc,
    outcome: FinalOutcome,
    attempt: DeliveryAttempt,
    project: ProjectDoc,
  ): Promise<void> {
    const type = outcome.status === 'Success' ? 'eventdelivery.success' : 'eventdelivery.failed';
    if (metaEventDestination(project.config.meta_event, type).kind !== 'send') return;
    await this.deps.publisher.publish('meta', [
      {
        project_id: delivery.project_id,
        event_type: type,
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
    ]);
  }
}
