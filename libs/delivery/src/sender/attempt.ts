import type { SecretBox } from '@hookrail/domain';
import { decideAttemptOutcome, type AttemptResult } from '@hookrail/retry';
import type { DeliveryDoc, DeliveryStatus } from '@hookrail/store';
import type { Logger } from '@hookrail/telemetry';
import type { OutcomeRecorder } from '../outcome/outcome-recorder';
import { buildRequest, type EventForDelivery } from './build-request';
import type { DestinationContext, Sent, SignedRequest } from './destinations/destination';
import { openDestinations } from './destinations/registry';
import type { GateContext } from './gates';

const DEFAULT_TIMEOUT_SECONDS = 10;
const MAX_TIMEOUT_SECONDS = 60;

export interface AttemptDeps extends DestinationContext {
  box: SecretBox;
  logger: Logger;
  /** One info line per attempt (HOOKRAIL_LOG_ATTEMPTS); at debug level otherwise. */
  logAttempts?: boolean;
  afterAttempt?: (ctx: GateContext, result: AttemptResult) => Promise<void>;
}

/**
 * One attempt of a delivery that passed its gates, at whatever its endpoint is (a destination of
 * the registry); `attemptEnded` is called once it has its answer, before the outcome is recorded.
 */
export type Attempt = (
  gate: GateContext,
  event: EventForDelivery,
  attemptEnded?: () => void,
) => Promise<void>;

export function createAttempt(deps: AttemptDeps, recorder: OutcomeRecorder): Attempt {
  const attempts = deps.metrics.counter('hookrail_delivery_attempts_total', 'Delivery attempts by outcome', [
    'outcome',
  ]);
  const destinationOf = openDestinations(deps);
  return async (gate, event, attemptEnded) => {
    const { delivery, endpoint } = gate;
    const sent = await destinationOf(endpoint)(endpoint, signedRequest(deps.box, gate, event));
    if (sent.kind === 'no_attempt') return withoutAttempt(recorder, delivery, sent.decision);
    attemptEnded?.();
    const outcome = decideAttemptOutcome({
      result: sent.result,
      mode: delivery.delivery_mode,
      policy: gate.subscription?.retry_config ?? gate.project.config.strategy,
      retriesUsed: delivery.retries_used,
      now: gate.now,
    });
    attempts.inc({ outcome: outcome.status });
    logAttempt(deps, gate, sent.result, outcome.status);
    await recorder.finish(delivery, outcome, sent.record(), gate.project);
    await deps.afterAttempt?.(gate, sent.result);
  };
}

/** The body and signed headers of the attempt (the same for every destination), and its timeout. */
function signedRequest(box: SecretBox, gate: GateContext, event: EventForDelivery): SignedRequest {
  const { delivery, endpoint, project } = gate;
  const { body, headers } = buildRequest({
    delivery,
    event,
    endpoint,
    signature: project.config.signature,
    box,
    now: new Date(gate.now),
  });
  const timeoutSeconds = Math.min(endpoint.http_timeout || DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS);
  return { delivery, eventId: event._id, body, headers, timeoutMs: timeoutSeconds * 1000 };
}

/** No attempt was made (nobody listening on a `cli` endpoint): the delivery is held or discarded. */
function withoutAttempt(
  recorder: OutcomeRecorder,
  delivery: DeliveryDoc,
  decision: Extract<Sent, { kind: 'no_attempt' }>['decision'],
): Promise<void> {
  return decision.kind === 'hold'
    ? recorder.hold(delivery, decision)
    : recorder.finish(delivery, { status: 'Discarded', reason: decision.reason }, null);
}

function logAttempt(
  deps: AttemptDeps,
  gate: GateContext,
  result: AttemptResult,
  outcome: DeliveryStatus,
): void {
  const level = deps.logAttempts ? 'info' : 'debug';
  if (!deps.logger.isLevelEnabled(level)) return;
  const m = gate.message;
  deps.logger[level](
    {
      project_id: m.project_id,
      delivery_id: m.delivery_id,
      endpoint_id: m.endpoint_id,
      event_id: m.event_id,
      attempt: gate.delivery.attempts_made + 1,
      http_status: result.kind === 'response' ? result.status : null,
      latency_ms: result.kind === 'not_sent' ? null : Math.round(result.latencyMs),
      outcome,
      ...(result.kind !== 'response' && { error: result.message }),
    },
    'delivery attempt',
  );
}
