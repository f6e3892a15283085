import { Type, type ObjectOptions, type TSchema } from '@sinclair/typebox';
import { nonEmpty, object, str } from './common.schema';
import { amqpConnectionFields, googleServiceAccount, kafkaConnectionFields } from './broker-settings.schema';

/**
 * Broker destinations (docs/destinations.md): an endpoint's `type` says where a delivery goes and
 * `destination` holds the settings of that kind. The fields mirror a broker source's `pub_sub.<kind>`
 * objects (source.schema.ts) where the meaning is the same; what differs is where a message goes
 * (a topic, an exchange or queue) instead of where it is read from.
 */
/** `cli`: deliveries relayed to a connected `hookrail listen` (docs/cli.md), no url or destination. */
export const ENDPOINT_TYPES = ['http', 'kafka', 'amqp', 'sqs', 'google_pubsub', 'cli'] as const;
export type EndpointType = (typeof ENDPOINT_TYPES)[number];
export const BROKER_DESTINATION_TYPES = ['kafka', 'amqp', 'sqs', 'google_pubsub'] as const;
export type BrokerDestinationType = (typeof BROKER_DESTINATION_TYPES)[number];

const amqpDestination = object(
  {
    ...amqpConnectionFields,
    exchange: str({ maxLength: 500, description: 'empty or absent: the default exchange' }),
    routingKey: str({ maxLength: 500, description: 'default: `queue`' }),
    queue: str({ maxLength: 500, description: 'a queue on the default exchange (the routing key)' }),
  },
  ['host'],
  {
    // Somewhere to route to: a queue (default exchange) or a named exchange.
    anyOf: [
      { required: ['queue'], properties: { queue: { minLength: 1 } } },
      { required: ['exchange'], properties: { exchange: { minLength: 1 } } },
    ],
  },
);

const kafkaDestination = object(
  {
    ...kafkaConnectionFields,
    topic_name: nonEmpty(500),
  },
  ['brokers', 'topic_name'],
);

const sqsDestination = object(
  {
    access_key_id: nonEmpty(500),
    secret_key: nonEmpty(1000),
    default_region: nonEmpty(100),
    queue_name: str({
      minLength: 1,
      maxLength: 80,
      pattern: '^[A-Za-z0-9_-]+(\\.fifo)?$',
      description: 'a name ending in .fifo is a FIFO queue: the event id is the message group',
    }),
  },
  ['access_key_id', 'default_region', 'queue_name'],
);

const googlePubSubDestination = object(
  {
    project_id: nonEmpty(500),
    topic_id: nonEmpty(500),
    service_account: googleServiceAccount,
    message_ordering: Type.Boolean({ description: 'publish with the event id as ordering key' }),
  },
  ['project_id', 'topic_id'],
);

export const destinationSchemas: Record<BrokerDestinationType, TSchema> = {
  amqp: amqpDestination,
  kafka: kafkaDestination,
  sqs: sqsDestination,
  google_pubsub: googlePubSubDestination,
};

/** Any kind's settings (the request side is checked by `destinationRules` against `type`). */
export const destinationInput = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  description: "the settings of the endpoint's `type` (docs/destinations.md); null for http",
});

/**
 * The endpoint body's rules on `type`: `url` is required for http (the default, so Convoy's bodies
 * stay valid) and `destination` with the kind's settings for a broker type. On update (`create`
 * false) a `destination` needs its `type` in the same body, so it is always checked as that kind.
 */
export function destinationRules(create: boolean): ObjectOptions {
  const kinds = BROKER_DESTINATION_TYPES.map((t) => ({
    if: { properties: { type: { const: t } }, required: ['type'] },
    then: {
      ...(create ? { required: ['destination'] } : {}),
      properties: { destination: destinationSchemas[t] },
    },
  }));
  const http = create
    ? [
        {
          if: {
            anyOf: [
              { not: { required: ['type'] } },
              { properties: { type: { const: 'http' } }, required: ['type'] },
            ],
          },
          then: { required: ['url'] },
        },
      ]
    : [];
  return { allOf: [...kinds, ...http], dependencies: { destination: ['type'] } };
}

/** Responses show the settings without their credentials (never returned once stored). */
export const destinationResponse = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  description: 'the settings of a broker destination without its credentials; null for http',
});
