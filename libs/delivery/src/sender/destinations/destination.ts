import type { EndpointType } from '@hookrail/api-contract';
import type { BrokerEnvironment, DestinationPublishers } from '@hookrail/brokers';
import type { SecretBox } from '@hookrail/domain';
import type { HttpClient, OAuth2TokenCache } from '@hookrail/outbound';
import { answerClass, type AttemptResult } from '@hookrail/retry';
import type { DeliveryAttempt, DeliveryDoc, EndpointDoc } from '@hookrail/store';
import type { Metrics } from '@hookrail/telemetry';
import type { GateDecision } from '../gates';
import type { CliRelayDeps } from '../relay-to-listener';

/** How a delivery reaches a broker endpoint: the dispatcher's open publishers and its environment. */
export interface DestinationDeps {
  publishers: DestinationPublishers;
  env: BrokerEnvironment;
}

/** What the sender hands every destination once, when it is made. */
export interface DestinationContext {
  http: HttpClient;
  tokens: OAuth2TokenCache;
  box: SecretBox;
  /** Broker endpoints (docs/destinations.md); without it such a delivery is not sent. */
  destinations?: DestinationDeps;
  /** `cli` endpoints (`hookrail listen`, docs/cli.md); without it such a delivery is not sent. */
  cliRelay?: CliRelayDeps;
  metrics: Metrics;
  now: () => number;
}

/** One attempt's signed request, the same for every destination (buildRequest). */
export interface SignedRequest {
  delivery: DeliveryDoc;
  eventId: string;
  body: Buffer;
  /** The request's headers; a destination may add its own (the HTTP one adds endpoint auth). */
  headers: Record<string, string>;
  /** The endpoint's `http_timeout`, bounded: how long the attempt may take. */
  timeoutMs: number;
}

/**
 * What a send came to: an attempt, read by the retry policy, the breaker and the meta events like
 * any other, with its record (built when the outcome is recorded); or no attempt at all, the
 * delivery held or discarded instead (a `cli` endpoint nobody listens on).
 */
export type Sent =
  | { kind: 'attempt'; result: AttemptResult; record: () => DeliveryAttempt }
  | { kind: 'no_attempt'; decision: Exclude<GateDecision, { kind: 'send' }> };

export type SendTo = (endpoint: EndpointDoc, request: SignedRequest) => Promise<Sent>;

/** One kind of endpoint the sender delivers to: a new kind is one module and one line in the registry. */
export interface Destination {
  /** The endpoints it sends to, by their `type`. */
  readonly type: EndpointType;
  /** Binds it to the sender's dependencies (and its metrics) once, when the sender is made. */
  open(ctx: DestinationContext): SendTo;
}

/** The request-duration histogram of the attempts that are HTTP requests (direct or relayed). */
export function requestDuration(metrics: Metrics): (result: AttemptResult) => void {
  const histogram = metrics.histogram(
    'hookrail_delivery_request_duration_seconds',
    'HTTP time of one attempt, by how the endpoint answered (2xx…5xx, timeout, connection_error)',
    ['class'],
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  );
  return (result) => {
    if (result.kind !== 'not_sent')
      histogram.observe({ class: answerClass(result) }, result.latencyMs / 1000);
  };
}
