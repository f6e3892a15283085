import type { DeliveryMessage, Publisher } from '@hookrail/bus';
import { boundedLru, type SecretBox } from '@hookrail/domain';
import {
  credentialHeaderNames,
  endpointAuthHeaders,
  type HttpClient,
  type OAuth2TokenCache,
} from '@hookrail/outbound';
import { answerClass, decideAttemptOutcome, type AttemptResult, type RetryPolicy } from '@hookrail/retry';
import type { ConfigCache, DeliveryAttempt, Store } from '@hookrail/store';
import type { Logger, Metrics } from '@hookrail/telemetry';
import { OutcomeRecorder, type DeliveryStatsSink } from '../outcome/outcome-recorder';
import { attemptRecord } from './attempt-record';
import { buildRequest } from './build-request';
import { consultGates, type Gate, type GateContext } from './gates';
import { subscriptionChangeReason } from './still-routed';
import {
  isBrokerEndpoint,
  publishAttemptRecord,
  publishToDestination,
  type DestinationDeps,
} from './publish-destination';
import { FINAL_STATUSES, fromFirstSend, loadForSend, routedUnderOlderConfig } from './load-delivery';
import { isCliEndpoint, relayToListener, withoutListener, type CliRelayDeps } from './relay-to-listener';
import type { DeliveryOrdering } from '../ordering/delivery-ordering';
import type { Place } from '../ordering/key-locks';

export interface SenderDeps {
  store: Store;
  config: ConfigCache;
  http: HttpClient;
  tokens: OAuth2TokenCache;
  box: SecretBox;
  publisher: Publisher;
  /** Counts every recorded outcome for the charts (one buffer per process, flushed on stop). */
  stats: DeliveryStatsSink;
  logger: Logger;
  metrics: Metrics;
  gates: readonly Gate[];
  /** Told about every attempt once its outcome is recorded (endpoint health: breaker, 410, alerts). */
  afterAttempt?: (ctx: GateContext, result: AttemptResult) => Promise<void>;
  /** Broker endpoints (docs/destinations.md); without it such a delivery is not sent. */
  destinations?: DestinationDeps;
  /** `cli` endpoints (`hookrail listen`, docs/cli.md); without it such a delivery is not sent. */
  cliRelay?: CliRelayDeps;
  /** Ordered delivery (docs/ordered-delivery.md); without it every delivery is sent as it comes. */
  ordering?: DeliveryOrdering;
  /** One info line per attempt (HOOKRAIL_LOG_ATTEMPTS); at debug level otherwise. */
  logAttempts?: boolean;
  now?: () => number;
}

/** at_most_once: a request may have reached the endpoint, so it is never sent again. */
const INTERRUPTED = {
  status: 'Failure',
  reason: 'interrupted while sending (at_most_once: not sent again)',
} as const;
const DEFAULT_TIMEOUT_SECONDS = 10;
const MAX_TIMEOUT_SECONDS = 60;

/**
 * Sends one delivery message. `attemptEnded` is called once its attempt's request has its answer
 * (or failed), before the outcome is recorded; not at all when no attempt is made.
 */
export type SendDelivery = (m: DeliveryMessage, attemptEnded?: () => void) => Promise<void>;

/**
 * The sender stage: one delivery message → at most one attempt (an HTTP request, or a publish to a
 * broker endpoint's broker), recorded before the offset
 * is committed. It never waits for a retry: a failed attempt goes to the retries topic.
 */
export function createSender(deps: SenderDeps): SendDelivery {
  const now = deps.now ?? Date.now;
  const ordering = deps.ordering;
  const recorder = new OutcomeRecorder({
    ...deps,
    onRecorded: ordering && ((delivery, status) => ordering.recorded(delivery, status)),
  });
  const attempts = deps.metrics.counter('hookrail_delivery_attempts_total', 'Delivery attempts by outcome', [
    'outcome',
  ]);
  const duration = deps.metrics.histogram(
    'hookrail_delivery_request_duration_seconds',
    'HTTP time of one attempt, by how the endpoint answered (2xx…5xx, timeout, connection_error)',
    ['class'],
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  );
  const publishDuration = deps.metrics.histogram(
    'hookrail_destination_publish_duration_seconds',
    'Time of one publish to a broker endpoint until acknowledged or failed, by kind and outcome (acked, failed)',
    ['kind', 'outcome'],
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  );

  // Deliveries are keyed by endpoint, so copies of one delivery message reach this process: the
  // second waits for the first and then finds its outcome instead of sending again. A first send
  // reads nothing, so the first sends this process recorded are remembered: a redelivered copy
  // (a rebalance, a router that crashed after publishing) is dropped. Only a crash of this
  // process forgets them, and then the copy is sent again with the same delivery id. A held
  // delivery comes back as a first send `released`, which is not a copy.
  const inFlight = new Map<string, Promise<void>>();
  const firstSent = boundedLru<string, true>(200_000);
  ordering?.sendWith((m) => sendOnce(m));
  return sendOnce;

  async function sendOnce(m: DeliveryMessage, attemptEnded?: () => void): Promise<void> {
    const running = inFlight.get(m.delivery_id);
    if (running) await running.catch(() => undefined);
    if (m.first_send && m.reason !== 'released' && firstSent.has(m.delivery_id)) return;
    // Taken before anything is awaited: an ordered first send's place follows the partition's order.
    const place = ordering?.place(m);
    const p = send(m, place, attemptEnded).finally(() => {
      place?.release();
      inFlight.delete(m.delivery_id);
      // a head's attempt ended: what waited in memory behind it goes or is held (never awaited here)
      ordering
        ?.sent(m.delivery_id)
        .catch((err: unknown) =>
          deps.logger.warn({ err, delivery_id: m.delivery_id }, 'ordering: after a send'),
        );
    });
    inFlight.set(m.delivery_id, p);
    await p;
    if (m.first_send) firstSent.set(m.delivery_id, true);
  }

  async function send(
    m: DeliveryMessage,
    place: Place | undefined,
    attemptEnded: (() => void) | undefined,
  ): Promise<void> {
    const fields = () => ({
      project_id: m.project_id,
      delivery_id: m.delivery_id,
      endpoint_id: m.endpoint_id,
      event_id: m.event_id,
    });
    const loaded = m.first_send ? fromFirstSend(m, m.first_send) : await loadForSend(deps.store, m);
    if (loaded.kind === 'skip') {
      if (loaded.reason) deps.logger.warn(fields(), loaded.reason);
      return;
    }
    const { delivery, event } = loaded;
    if (m.first_send) recorder.firstSend(delivery);
    if (loaded.kind === 'retry_recorded') return recorder.republishRetry(delivery);
    if (loaded.kind === 'interrupted') {
      return recorder.finish(delivery, INTERRUPTED, null);
    }
    const admission = ordering ? await ordering.admit(m, delivery, place) : { kind: 'send' as const };
    if (admission.kind === 'done') return;
    if (admission.kind === 'held') {
      deps.logger.debug({ ...fields(), head: admission.head }, 'ordered delivery held behind its key');
      return;
    }

    // The configuration as of the newest barrier this process was told of: at least every change
    // whose API call returned before this message was published.
    const [endpoint, project, subscription] = await Promise.all([
      deps.config.endpoint(m.project_id, delivery.endpoint_id),
      deps.config.project(m.project_id),
      deps.config.subscription(m.project_id, delivery.subscription_id),
    ]);
    if (!project) {
      // A deleted project: its deliveries are dropped, not recorded (its data is being purged).
      deps.logger.debug(fields(), 'delivery of a deleted project dropped');
      return;
    }
    if (!endpoint)
      return recorder.finish(delivery, { status: 'Discarded', reason: 'endpoint deleted' }, null);
    const changed = subscriptionChangeReason(
      subscription,
      delivery.endpoint_id,
      routedUnderOlderConfig(m, deps.config.tokenOf(m.project_id)),
    );
    if (changed) return recorder.finish(delivery, { status: 'Discarded', reason: changed }, null);
    const at = now();
    const gateContext: GateContext = { message: m, delivery, endpoint, subscription, project, now: at };
    const gate = await consultGates(deps.gates, gateContext);
    if (gate.kind === 'discard')
      return recorder.finish(delivery, { status: 'Discarded', reason: gate.reason }, null);
    if (gate.kind === 'hold') return recorder.hold(delivery, gate);

    if (!event) return recorder.finish(delivery, { status: 'Discarded', reason: 'event deleted' }, null);
    if (delivery.delivery_mode === 'at_most_once') {
      const before = await recorder.markProcessing(delivery);
      if (before === 'Processing') {
        return recorder.finish(delivery, INTERRUPTED, null);
      }
      if (before && FINAL_STATUSES.has(before)) return; // already done: a redelivered first send
    }

    const { body, headers } = buildRequest({
      delivery,
      event,
      endpoint,
      signature: project.config.signature,
      box: deps.box,
      now: new Date(at),
    });
    const timeoutSeconds = Math.min(endpoint.http_timeout || DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS);
    let result: AttemptResult;
    let record: () => DeliveryAttempt;
    if (isBrokerEndpoint(endpoint)) {
      // A broker endpoint: the same body and signature headers, published; the outcome is read
      // like an HTTP one below, so retries, breaker, rate limit and meta events apply unchanged.
      const published = deps.destinations
        ? await publishToDestination(
            deps.destinations,
            deps.box,
            endpoint,
            { body, headers, eventId: event._id, deliveryId: delivery._id },
            timeoutSeconds * 1000,
          )
        : {
            result: { kind: 'not_sent', message: 'this dispatcher publishes to no broker' } as const,
            address: endpoint.type ?? '',
            headers,
          };
      result = published.result;
      if (result.kind !== 'not_sent')
        publishDuration.observe(
          { kind: endpoint.type ?? '', outcome: result.kind === 'response' ? 'acked' : 'failed' },
          result.latencyMs / 1000,
        );
      record = () => publishAttemptRecord(published.address, published.headers, published.result);
    } else if (isCliEndpoint(endpoint)) {
      // A cli endpoint: the same signed request, relayed to the connected `hookrail listen`; its
      // local URL's answer is the attempt's, recorded and retried like an HTTP one.
      const relayed = deps.cliRelay
        ? await relayToListener(
            deps.cliRelay,
            endpoint,
            { body, headers, eventId: event._id, eventType: delivery.event_type, deliveryId: delivery._id },
            timeoutSeconds * 1000,
          )
        : {
            result: { kind: 'not_sent', message: 'this dispatcher relays to no hookrail listen' } as const,
            url: `hookrail listen (${endpoint.name})`,
          };
      if ('noListener' in relayed) {
        const waiting = withoutListener(delivery, now());
        return waiting.kind === 'hold'
          ? recorder.hold(delivery, waiting)
          : recorder.finish(delivery, { status: 'Discarded', reason: waiting.reason }, null);
      }
      const sent = (result = relayed.result);
      record = () => attemptRecord(relayed.url, headers, sent, []);
    } else {
      const auth = await endpointAuthHeaders(endpoint._id, endpoint.authentication, deps);
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
      const sent = result;
      record = () =>
        attemptRecord(endpoint.url, headers, sent, credentialHeaderNames(endpoint.authentication));
    }
    attemptEnded?.();
    if (result.kind !== 'not_sent' && !isBrokerEndpoint(endpoint))
      duration.observe({ class: answerClass(result) }, result.latencyMs / 1000);

    const policy: RetryPolicy = subscription?.retry_config ?? project.config.strategy;
    const outcome = decideAttemptOutcome({
      result,
      mode: delivery.delivery_mode,
      policy,
      retriesUsed: delivery.retries_used,
      now: at,
    });
    attempts.inc({ outcome: outcome.status });
    const level = deps.logAttempts ? 'info' : 'debug';
    if (deps.logger.isLevelEnabled(level))
      deps.logger[level](
        {
          ...fields(),
          attempt: delivery.attempts_made + 1,
          http_status: result.kind === 'response' ? result.status : null,
          latency_ms: result.kind === 'not_sent' ? null : Math.round(result.latencyMs),
          outcome: outcome.status,
          ...(result.kind !== 'response' && { error: result.message }),
        },
        'delivery attempt',
      );
    await recorder.finish(delivery, outcome, record(), project);
    await deps.afterAttempt?.(gateContext, result);
  }
}
