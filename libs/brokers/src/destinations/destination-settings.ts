import type {
  BrokerEnvironment,
  AmqpSettings,
  GoogleSettings,
  KafkaSettings,
  SqsSettings,
} from '../settings';
import { BrokerSettingsError, brokerSettings } from '../settings';

/** Endpoint types that publish to a broker (the API's `type` besides `http`). */
export const DESTINATION_KINDS = ['kafka', 'amqp', 'sqs', 'google_pubsub'] as const;
export type DestinationKind = (typeof DESTINATION_KINDS)[number];

export const isDestinationKind = (t: unknown): t is DestinationKind =>
  (DESTINATION_KINDS as readonly unknown[]).includes(t);

/**
 * Where a destination keeps credentials, relative to its `destination` object: sealed at rest by
 * the API (as endpoint secrets are), opened only by the dispatcher that publishes, never returned.
 * `service_account` is stored as the key file's bytes in base64 so it can be sealed like the rest.
 */
export const DESTINATION_CREDENTIAL_PATHS = ['auth.password', 'secret_key', 'service_account'] as const;

export interface AmqpDestination {
  kind: 'amqp';
  connection: AmqpSettings;
  exchange: string;
  routingKey: string;
}
export interface KafkaDestination {
  kind: 'kafka';
  connection: KafkaSettings;
}
export interface SqsDestination {
  kind: 'sqs';
  connection: SqsSettings;
  /** A `.fifo` queue: the event id is the message group, the delivery id deduplicates. */
  fifo: boolean;
}
export interface GooglePubSubDestination {
  kind: 'google_pubsub';
  connection: GoogleSettings;
  topicId: string;
  ordering: boolean;
}
export type DestinationSettings =
  AmqpDestination | KafkaDestination | SqsDestination | GooglePubSubDestination;

type Json = Record<string, unknown>;
const text = (v: unknown): string =>
  typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);

/** Renames the source mapping's field names in its errors to the destination's. */
function asDestination<T>(build: () => T): T {
  try {
    return build();
  } catch (err) {
    if (err instanceof BrokerSettingsError)
      throw new BrokerSettingsError(err.message.replace(/^pub_sub\.\w+\./, 'destination.'));
    throw err;
  }
}

/**
 * An endpoint's stored `destination` (credentials already opened) as the settings a publisher
 * needs. The connection part is the broker sources' own mapping (settings.ts), so both sides of
 * Hookrail read the same fields the same way. Pure: unit tested field by field.
 */
export function destinationSettings(
  endpointId: string,
  kind: DestinationKind,
  destination: Json,
  env: BrokerEnvironment = {},
): DestinationSettings {
  switch (kind) {
    case 'amqp': {
      const queue = text(destination.queue);
      const exchange = text(destination.exchange);
      const routingKey = text(destination.routingKey) || queue;
      if (!queue && !exchange)
        throw new BrokerSettingsError('destination.queue or destination.exchange is required');
      const { settings } = asDestination(() =>
        brokerSettings(endpointId, { type: 'amqp', amqp: { ...destination, queue: queue || exchange } }, env),
      );
      return { kind, connection: settings as AmqpSettings, exchange, routingKey };
    }
    case 'kafka': {
      const { settings } = asDestination(() =>
        brokerSettings(endpointId, { type: 'kafka', kafka: destination }, env),
      );
      return { kind, connection: settings as KafkaSettings };
    }
    case 'sqs': {
      const { settings } = asDestination(() =>
        brokerSettings(endpointId, { type: 'sqs', sqs: destination }, env),
      );
      const connection = settings as SqsSettings;
      return { kind, connection, fifo: connection.queueName.endsWith('.fifo') };
    }
    case 'google_pubsub': {
      if (!text(destination.topic_id)) throw new BrokerSettingsError('destination.topic_id is required');
      const key = text(destination.service_account);
      const google = {
        project_id: destination.project_id,
        subscription_id: destination.topic_id,
        ...(key ? { service_account: [...Buffer.from(key, 'base64')] } : {}),
      };
      const { settings } = asDestination(() => brokerSettings(endpointId, { type: 'google', google }, env));
      const connection = settings as GoogleSettings;
      return {
        kind,
        connection,
        topicId: connection.subscriptionId,
        ordering: destination.message_ordering === true,
      };
    }
  }
}

/** Where a destination publishes, as an attempt's `url` and in logs (never a credential). */
export function describeDestination(d: DestinationSettings): string {
  switch (d.kind) {
    case 'amqp':
      return `${d.connection.address} exchange "${d.exchange}" routing key "${d.routingKey}"`;
    case 'kafka':
      return `kafka://${d.connection.brokers.join(',')}/${d.connection.topic}`;
    case 'sqs':
      return `${d.connection.endpoint ?? `sqs.${d.connection.region}`} queue ${d.connection.queueName}`;
    case 'google_pubsub':
      return `projects/${d.connection.projectId}/topics/${d.topicId}`;
  }
}

/** The stored destination as responses show it: every credential left out. */
export function withoutCredentials(destination: Json | null | undefined): Json | null {
  if (!destination) return null;
  const copy = structuredClone(destination);
  delete copy.secret_key;
  delete copy.service_account;
  const auth = copy.auth as Json | undefined;
  if (auth && typeof auth === 'object') delete auth.password;
  return copy;
}

/**
 * The environment of broker destinations: the deployment's SQS and Pub/Sub servers, and the
 * webhooks' private-address switch (a destination is a delivery target, not a source).
 */
export function destinationEnvironment(config: {
  brokers: { sqsEndpoint?: string; pubsubEmulatorHost?: string };
  security: { allowPrivateTargets: boolean };
}): BrokerEnvironment {
  return {
    sqsEndpoint: config.brokers.sqsEndpoint,
    pubsubEmulatorHost: config.brokers.pubsubEmulatorHost,
    allowPrivateHosts: config.security.allowPrivateTargets,
  };
}
