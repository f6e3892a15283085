import { hash } from 'node:crypto';
import {
  BrokerSettingsError,
  destinationSettings,
  describeDestination,
  DESTINATION_CREDENTIAL_PATHS,
  type DestinationKind,
} from '@hookrail/brokers';
import { type SecretBox } from '@hookrail/domain';
import { mapPaths } from '@hookrail/toolbox';
import type { AttemptResult } from '@hookrail/retry';
import type { DeliveryAttempt, EndpointDoc } from '@hookrail/store';
import type { Metrics } from '@hookrail/telemetry';
import { attemptRecord } from '../attempt-record';
import type { Destination, DestinationDeps, SignedRequest } from './destination';

/** HTTP framing headers: a broker message has no use for them (AMQP carries the content type itself). */
const HTTP_ONLY = new Set(['content-type', 'user-agent']);

interface Published {
  result: AttemptResult;
  address: string;
  headers: Record<string, string>;
}

/**
 * A broker endpoint (docs/destinations.md): the same body and signature headers, published to the
 * tenant's broker through the publisher libs/brokers opens for its kind. The outcome is read like
 * an HTTP one, so retries, breaker, rate limit and meta events apply unchanged. Every broker kind
 * registers through here; only the publisher differs.
 */
export function brokerDestination(kind: DestinationKind): Destination {
  return {
    type: kind,
    open(ctx) {
      const observe = publishDuration(ctx.metrics);
      return async (endpoint, request) => {
        const published: Published = ctx.destinations
          ? await publishToDestination(ctx.destinations, ctx.box, kind, endpoint, request)
          : {
              result: { kind: 'not_sent', message: 'this dispatcher publishes to no broker' },
              address: endpoint.type ?? '',
              headers: request.headers,
            };
        observe(kind, published.result);
        return {
          kind: 'attempt',
          result: published.result,
          record: () => publishAttemptRecord(published.address, published.headers, published.result),
        };
      };
    },
  };
}

function publishDuration(metrics: Metrics): (kind: DestinationKind, result: AttemptResult) => void {
  const histogram = metrics.histogram(
    'hookrail_destination_publish_duration_seconds',
    'Time of one publish to a broker endpoint until acknowledged or failed, by kind and outcome (acked, failed)',
    ['kind', 'outcome'],
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  );
  return (kind, result) => {
    if (result.kind !== 'not_sent')
      histogram.observe(
        { kind, outcome: result.kind === 'response' ? 'acked' : 'failed' },
        result.latencyMs / 1000,
      );
  };
}

/**
 * One publish of a delivery to its endpoint's broker, as an attempt result the retry policy, the
 * circuit breaker and the meta events read exactly as an HTTP one: an acknowledged publish is a 200
 * (its body the broker's message id), a failed one an error (`maybeReached` false only when the
 * message certainly never left), settings that cannot work are `not_sent`.
 */
async function publishToDestination(
  deps: DestinationDeps,
  box: SecretBox,
  kind: DestinationKind,
  endpoint: EndpointDoc,
  request: SignedRequest,
): Promise<Published> {
  const headers = Object.fromEntries(
    Object.entries(request.headers).filter(([k]) => !HTTP_ONLY.has(k.toLowerCase())),
  );
  const stored = endpoint.destination ?? {};
  let settings;
  try {
    settings = destinationSettings(
      endpoint._id,
      kind,
      mapPaths(stored, DESTINATION_CREDENTIAL_PATHS, (v) => box.open(v)),
      deps.env,
    );
  } catch (err) {
    const message =
      err instanceof BrokerSettingsError ? err.message : `destination unreadable: ${String(err)}`;
    return { result: { kind: 'not_sent', message }, address: endpoint.type ?? '', headers };
  }
  // The stored settings (credentials sealed) name the version: any change opens a new publisher.
  const version = hash('sha256', JSON.stringify([endpoint.type, stored]), 'base64url');
  const started = performance.now();
  const published = await deps.publishers.publish(
    endpoint._id,
    version,
    settings,
    { body: request.body, headers, key: request.eventId, deliveryId: request.delivery._id },
    request.timeoutMs,
  );
  const latencyMs = Math.round(performance.now() - started);
  const result: AttemptResult = published.ok
    ? { kind: 'response', status: 200, headers: {}, body: published.messageId, latencyMs }
    : {
        kind: 'error',
        code: published.code,
        message: published.message,
        maybeReached: published.maybeReached,
        latencyMs,
      };
  return { result, address: describeDestination(settings), headers };
}

/**
 * A broker attempt as stored and shown, in the attempt's Convoy shape: `url` is where it was
 * published, `method` PUBLISH, `http_status` null, `response_data` the broker's message id.
 */
function publishAttemptRecord(
  address: string,
  headers: Record<string, string>,
  result: AttemptResult,
): DeliveryAttempt {
  // the acknowledgement is read as a 200 by the retry policy, but no HTTP exchange took place
  return {
    ...attemptRecord(address, headers, result, []),
    method: 'PUBLISH',
    response_headers_json: '{}',
    http_status: null,
  };
}
