import { hash } from 'node:crypto';
import {
  BrokerSettingsError,
  destinationSettings,
  describeDestination,
  DESTINATION_CREDENTIAL_PATHS,
  isDestinationKind,
  type BrokerEnvironment,
  type DestinationPublishers,
} from '@hookrail/brokers';
import { mapPaths, type SecretBox } from '@hookrail/domain';
import type { AttemptResult } from '@hookrail/retry';
import type { DeliveryAttempt, EndpointDoc } from '@hookrail/store';
import { attemptRecord } from './attempt-record';

/** How a delivery reaches a broker endpoint: the dispatcher's open publishers and its environment. */
export interface DestinationDeps {
  publishers: DestinationPublishers;
  env: BrokerEnvironment;
}

/** HTTP framing headers: a broker message has no use for them (AMQP carries the content type itself). */
const HTTP_ONLY = new Set(['content-type', 'user-agent']);

export const isBrokerEndpoint = (e: EndpointDoc): boolean => isDestinationKind(e.type);

/**
 * One publish of a delivery to its endpoint's broker, as an attempt result the retry policy, the
 * circuit breaker and the meta events read exactly as an HTTP one: an acknowledged publish is a 200
 * (its body the broker's message id), a failed one an error (`maybeReached` false only when the
 * message certainly never left), settings that cannot work are `not_sent`.
 */
export async function publishToDestination(
  deps: DestinationDeps,
  box: SecretBox,
  endpoint: EndpointDoc,
  msg: { body: Buffer; headers: Record<string, string>; eventId: string; deliveryId: string },
  timeoutMs: number,
): Promise<{ result: AttemptResult; address: string; headers: Record<string, string> }> {
  const headers = Object.fromEntries(
    Object.entries(msg.headers).filter(([k]) => !HTTP_ONLY.has(k.toLowerCase())),
  );
  const stored = endpoint.destination ?? {};
  let settings;
  try {
    if (!isDestinationKind(endpoint.type))
      throw new BrokerSettingsError(`type ${endpoint.type} is not a broker`);
    settings = destinationSettings(
      endpoint._id,
      endpoint.type,
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
    { body: msg.body, headers, key: msg.eventId, deliveryId: msg.deliveryId },
    timeoutMs,
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
export function publishAttemptRecord(
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
