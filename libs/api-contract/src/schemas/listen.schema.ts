import { Type, type Static } from '@sinclair/typebox';
import { int, mapOf, nonEmpty, nullable, object, resource, str } from './common.schema';

/**
 * `hookrail listen` (docs/cli.md): a `cli` endpoint's deliveries are relayed by the gateway to the
 * listening CLI over one stream; the CLI sends each to its local URL and reports the answer back.
 */

/** The most of a local answer's body kept, as an HTTP attempt keeps of a response (libs/outbound). */
export const LISTEN_MAX_BODY_CHARS = 64 * 1024;

const localUrl = str({
  format: 'uri',
  pattern: '^https?://',
  maxLength: 4096,
  description: 'the local URL the listener forwards to (shown as the attempts’ url)',
});

/** The signed request as the dispatcher built it: what the CLI sends to its local URL. */
const signedRequest = {
  delivery_id: nonEmpty(100),
  event_id: nonEmpty(100),
  event_type: str({ maxLength: 1000 }),
  headers: mapOf(str()),
  body: str({ description: 'the request body (UTF-8 text, as every event payload is)' }),
  timeout_ms: int({ minimum: 1, maximum: 120_000, description: 'how long the answer is waited for' }),
};

/** A delivery on the listen stream (`event: delivery`): one request the CLI forwards and answers. */
export const listenDeliveryEvent = resource({ request_id: str(), method: str(), ...signedRequest }, [], {
  description:
    'text/event-stream: `event: ready` once connected ({endpoint_id, name}), `event: delivery` with this object for each request to forward, comments as heartbeats',
});
export type ListenDeliveryEvent = Static<typeof listenDeliveryEvent>;

/** What the local URL answered, or why it could not be reached. */
const localAnswer = {
  url: localUrl,
  status: nullable(int({ minimum: 100, maximum: 599, description: 'null when no answer came' })),
  headers: mapOf(str()),
  body: str({ maxLength: LISTEN_MAX_BODY_CHARS }),
  latency_ms: Type.Number({ minimum: 0, maximum: 3_600_000 }),
  error: nullable(object({ code: nonEmpty(100), message: str({ maxLength: 2000 }) }, ['code', 'message'])),
};

export const listenAnswerBody = object({ request_id: nonEmpty(100), ...localAnswer }, [
  'request_id',
  'url',
  'latency_ms',
]);
export type ListenAnswerBody = Static<typeof listenAnswerBody>;

export const listenQuery = { forward_to: localUrl };

/** The dispatcher's relay call: the signed request of one attempt at a `cli` endpoint. */
export const relayRequestBody = object(signedRequest, [
  'delivery_id',
  'event_id',
  'event_type',
  'headers',
  'body',
  'timeout_ms',
]);
export type RelayRequestBody = Static<typeof relayRequestBody>;

/** The listener's report of the local answer: the attempt the dispatcher records. */
export const relayAnswer = resource(localAnswer);
export type RelayAnswer = Static<typeof relayAnswer>;

/**
 * How the relay's refusal begins when no `hookrail listen` is connected for the endpoint (a 503):
 * the dispatcher then holds the delivery instead of failing an attempt (docs/cli.md).
 */
export const NO_LISTENER_MESSAGE = 'no hookrail listen connected';
