import type { EndpointDoc } from '@hookrail/store';
import { brokerDestination } from './broker';
import { cliDestination } from './cli';
import type { Destination, DestinationContext, SendTo } from './destination';
import { httpDestination } from './http';

/** Every kind of endpoint the sender delivers to. A new kind is one module and one line here. */
export const DESTINATIONS: readonly Destination[] = [
  httpDestination,
  cliDestination,
  brokerDestination('kafka'),
  brokerDestination('amqp'),
  brokerDestination('sqs'),
  brokerDestination('google_pubsub'),
];

/**
 * Every destination bound to the sender's dependencies, and the send of an endpoint's kind. An
 * endpoint without a `type` (Convoy's, and every one made before types existed) is `http`.
 */
export function openDestinations(ctx: DestinationContext): (endpoint: EndpointDoc) => SendTo {
  const opened = new Map(DESTINATIONS.map((d) => [d.type as string, d.open(ctx)]));
  const http = opened.get('http');
  if (!http) throw new Error('no http destination registered');
  return (endpoint) => opened.get(endpoint.type ?? 'http') ?? http;
}
