import type { DeliveryMessage, Publisher } from '@hookrail/bus';
import { newId, type SecretBox } from '@hookrail/domain';
import {
  credentialHeaderNames,
  decideAttemptOutcome,
  endpointAuthHeaders,
  type AttemptResult,
  type HttpClient,
  type OAuth2TokenCache,
} from '@hookrail/delivery';
import type { RetryPolicy } from '@hookrail/retry';
import type { DeliveryAttempt, Store } from '@hookrail/store';
import type { Logger, Metrics } from '@hookrail/telemetry';
import type { ConfigCache } from '../shared/config-cache';
import type { RecentEvents } from '../shared/recent-events';
import { buildRequest } from './build-request';
import { consultGates, type Gate, type GateContext } from './gates';
import { OutcomeRecorder } from './outcome-recorder';

export interface SenderDeps {
  store: Store;
  config: ConfigCache;
  events: RecentEvents;
  http: HttpClient;
  tokens: OAuth2TokenCache;
  box: SecretBox;
  publisher: Publisher;
  logger: Logger;
  metrics: Metrics;
  gates: readonly Gate[];
  /** Told about every attempt once its outcome is recorded (endpoint health: breaker, 410, alerts). */
  afterAttempt?: (ctx: GateContext, result: AttemptResult) => Promise<void>;
  now?: () => number;
}

const FINAL = new Set(['Success', 'Failure', 'Discarded']);
const DEFAULT_TIMEOUT_SECONDS = 10;
const MAX_TIMEOUT_SECONDS = 60;

/**
 * The sender stage: one delivery message → at most one HTTP attempt, recorded before the offset
 * is committed. It never waits for a retry: a failed attempt goes to the retries topic.
 */
export function createSender(deps: SenderDeps): (m: DeliveryMessage) => Promise<void> {
  const now = deps.now ?? Date.now;
  const recorder = new OutcomeRecorder(deps);
  const attempts = deps.metrics.counter('hookrail_delivery_attempts_total', 'Delivery attempts by outcome', [
    'outcome',
  ]);
  const duration = deps.metrics.histogram(
    'hookrail_delivery_request_duration_seconds',
    'HTTP time of one attempt',
    [],
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  );

  // Deliveries are keyed by endpoint, so copies of one delivery message reach this process: the
  // second waits for the first and then finds its outcome instead of sending again.
  const inFlight = new Map<string, Promise<void>>();
  return async function sendOnce(m: DeliveryMessage): Promise<void> {
    const running = inFlight.get(m.delivery_id);
    if (running) await running.catch(() => undefined);
    const p = send(m).finally(() => inFlight.delete(m.delivery_id));
    inFlight.set(m.delivery_id, p);
    return p;
  };

  async function send(m: DeliveryMessage): Promise<void> {
    const log = deps.logger.child({
      project_id: m.project_id,
      delivery_id: m.delivery_id,
      endpoint_id: m.endpoint_id,
      event_id: m.event_id,
    });
    const delivery = await deps.store.deliveries.findForSend(m.project_id, m.delivery_id);
    if (!delivery) return log.warn('delivery not found, skipping');
    if (FINAL.has(delivery.status)) return; // already done: a redelivered message
    if (delivery.status === 'Retry' && m.reason === 'initial') {
      // The outcome was recorded but the offset not committed: hand the retry on again (idempotent).
      return recorder.republishRetry(delivery);
    }
    if (delivery.status === 'Processing' && delivery.delivery_mode === 'at_most_once') {
      return recorder.finish(
        delivery,
        { status: 'Failure', reason: 'interrupted while sending (at_most_once: not sent again)' },
        null,
      );
    }

    const [endpoint, project, subscription] = await Promise.all([
      deps.config.endpoint(m.project_id, delivery.endpoint_id),
      deps.config.project(m.project_id),
      deps.config.subscription(m.project_id, delivery.subscription_id),
    ]);
    if (!endpoint || !project) {
      return recorder.finish(
        delivery,
        { status: 'Discarded', reason: endpoint ? 'project deleted' : 'endpoint deleted' },
        null,
      );
    }
    const at = now();
    const gateContext: GateContext = { message: m, delivery, endpoint, subscription, project, now: at };
    const gate = await consultGates(deps.gates, gateContext);
    if (gate.kind === 'discard')
      return recorder.finish(delivery, { status: 'Discarded', reason: gate.reason }, null);
    if (gate.kind === 'hold') return recorder.hold(delivery, gate);

    const event = await deps.events.get(m.project_id, delivery.event_id);
    if (!event) return recorder.finish(delivery, { status: 'Discarded', reason: 'event deleted' }, null);
    if (delivery.delivery_mode === 'at_most_once') await recorder.markProcessing(delivery);

    const { body, headers } = buildRequest({
      delivery,
      event,
      endpoint,
      signature: project.config.signature,
      box: deps.box,
      now: new Date(at),
    });
    const auth = await endpointAuthHeaders(endpoint._id, endpoint.authentication, deps);
    const timeoutSeconds = Math.min(endpoint.http_timeout || DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS);
    let result: AttemptResult;
    if (auth.kind === 'failed') {
      result = { kind: 'not_sent', message: auth.message };
    } else {
      Object.assign(headers, auth.headers);
      result = await deps.http.send({
        url: endpoint.url,
        headers,
        body,
        timeoutMs: timeoutSeconds * 1000,
        poolKey: endpoint._id,
        clientCert: endpoint.mtls_client_cert
          ? {
              cert: endpoint.mtls_client_cert.client_cert,
              key: deps.box.open(endpoint.mtls_client_cert.client_key),
            }
          : undefined,
      });
    }
    if (result.kind !== 'not_sent') duration.observe(result.latencyMs / 1000);

    const policy: RetryPolicy = subscription?.retry_config ?? project.config.strategy;
    const outcome = decideAttemptOutcome({
      result,
      mode: delivery.delivery_mode,
      policy,
      retriesUsed: delivery.retries_used,
      now: at,
    });
    attempts.inc({ outcome: outcome.status });
    log.debug({ status: outcome.status }, 'delivery attempt');
    await recorder.finish(
      delivery,
      outcome,
      attemptRecord(endpoint.url, headers, result, credentialHeaderNames(endpoint.authentication)),
    );
    await deps.afterAttempt?.(gateContext, result);
  }
}

function attemptRecord(
  url: string,
  headers: Record<string, string>,
  result: AttemptResult,
  secretHeaders: string[],
): DeliveryAttempt {
  const shown: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    shown[k] = secretHeaders.includes(k.toLowerCase()) ? '[redacted]' : v;
  return {
    uid: newId(),
    url,
    method: 'POST',
    request_headers_json: JSON.stringify(shown),
    response_headers_json: JSON.stringify(result.kind === 'response' ? result.headers : {}),
    http_status: result.kind === 'response' ? result.status : null,
    response_data: result.kind === 'response' ? result.body : '',
    error:
      result.kind === 'response'
        ? null
        : result.kind === 'error'
          ? `${result.code}: ${result.message}`
          : result.message,
    latency_ms: result.kind === 'not_sent' ? 0 : result.latencyMs,
    created_at: new Date(),
  };
}
