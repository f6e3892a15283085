export const BROKER_KINDS = ['amqp', 'kafka', 'sqs', 'google'] as const;
export type BrokerKind = (typeof BROKER_KINDS)[number];

export interface AmqpSettings {
  kind: 'amqp';
  /** amqp(s)://user:password@host:port/vhost, credentials and vhost URL-encoded. */
  url: string;
  /** For messages: the URL without the password. */
  address: string;
  queue: string;
  bind?: { exchange: string; routingKey: string };
  deadLetterExchange?: string;
  /** Private, loopback and link-local hosts allowed (outbound-guard.ts). */
  allowPrivateHosts: boolean;
}

export interface KafkaSettings {
  kind: 'kafka';
  brokers: string[];
  topic: string;
  groupId: string;
  ssl: boolean;
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
  /** Private, loopback and link-local hosts allowed (outbound-guard.ts). */
  allowPrivateHosts: boolean;
  /** Hookrail's own cluster, whose topics and groups a source may not use. */
  ownKafka?: OwnKafka;
}

export interface OwnKafka {
  clusterId: string;
  topicPrefix: string;
}

export interface SqsSettings {
  kind: 'sqs';
  region: string;
  queueName: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** Custom endpoint (ElasticMQ, LocalStack, other SQS-compatible servers); AWS when absent. */
  endpoint?: string;
}

export interface GoogleSettings {
  kind: 'google';
  projectId: string;
  subscriptionId: string;
  /** The service account key file (JSON); unused with an emulator. */
  credentials?: Record<string, unknown>;
  /** host:port of a Pub/Sub emulator (local mode). */
  emulatorHost?: string;
}

export type BrokerSettings = AmqpSettings | KafkaSettings | SqsSettings | GoogleSettings;

/** What the deployment decides, beyond what each source says. */
export interface BrokerEnvironment {
  /** Where this deployment's SQS and Pub/Sub are (local mode, compatible servers). */
  sqsEndpoint?: string;
  pubsubEmulatorHost?: string;
  /** Sources may connect to private, loopback and link-local hosts (internal brokers). */
  allowPrivateHosts?: boolean;
  ownKafka?: OwnKafka;
}

export interface SourceBrokerConfig {
  settings: BrokerSettings;
  /** Concurrent consumers of the source. */
  workers: number;
}

type Json = Record<string, unknown>;

export class BrokerSettingsError extends Error {
  override readonly name = 'BrokerSettingsError';
}

const text = (v: unknown): string =>
  typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);

/** Reads a required field of the kind's object, naming it when missing. */
type Need = (field: string) => string;

/**
 * A source's stored `pub_sub` object (credentials already opened) as the settings a subscriber
 * needs. Pure, so the mapping of every API field is unit tested. Throws BrokerSettingsError naming
 * the field when a required one is missing (the API schema already requires them).
 */
export function brokerSettings(
  sourceId: string,
  pubSub: Json,
  env: BrokerEnvironment = {},
): SourceBrokerConfig {
  const kind = text(pubSub.type);
  const workers = Math.max(1, Number(pubSub.workers ?? 1) || 1);
  const sub = (pubSub[kind] ?? {}) as Json;
  const need: Need = (field) => {
    const v = text(sub[field]);
    if (!v) throw new BrokerSettingsError(`pub_sub.${kind}.${field} is required`);
    return v;
  };
  switch (kind) {
    case 'amqp':
      return { workers, settings: amqpSettings(sub, need, env) };
    case 'kafka':
      return { workers, settings: kafkaSettings(sourceId, sub, need, env) };
    case 'sqs':
      return { workers, settings: sqsSettings(need, env) };
    case 'google':
      return { workers, settings: googleSettings(sub, need, env) };
    default:
      throw new BrokerSettingsError(`pub_sub.type must be one of ${BROKER_KINDS.join(', ')}`);
  }
}

function amqpSettings(sub: Json, need: Need, env: BrokerEnvironment): AmqpSettings {
  const schema = text(sub.schema) || 'amqp';
  const host = need('host');
  const port = text(sub.port) || (schema === 'amqps' ? '5671' : '5672');
  const auth = (sub.auth ?? {}) as Json;
  const user = text(auth.user);
  const creds = user ? `${encodeURIComponent(user)}:${encodeURIComponent(text(auth.password))}@` : '';
  const vhost = text(sub.vhost);
  const path = vhost && vhost !== '/' ? `/${encodeURIComponent(vhost)}` : '';
  const bind = sub.bindExchange as { exchange?: string; routingKey?: string } | undefined;
  return {
    kind: 'amqp',
    url: `${schema}://${creds}${host}:${port}${path}`,
    address: `${schema}://${user ? `${user}@` : ''}${host}:${port}${path}`,
    queue: need('queue'),
    ...(bind?.exchange ? { bind: { exchange: bind.exchange, routingKey: bind.routingKey ?? '' } } : {}),
    ...(text(sub.deadLetterExchange) ? { deadLetterExchange: text(sub.deadLetterExchange) } : {}),
    allowPrivateHosts: env.allowPrivateHosts === true,
  };
}

function kafkaSettings(sourceId: string, sub: Json, need: Need, env: BrokerEnvironment): KafkaSettings {
  const brokers = Array.isArray(sub.brokers) ? sub.brokers.map(text).filter(Boolean) : [];
  if (brokers.length === 0) throw new BrokerSettingsError('pub_sub.kafka.brokers is required');
  const auth = (sub.auth ?? null) as Json | null;
  const sasl = kafkaSasl(auth);
  return {
    kind: 'kafka',
    brokers,
    topic: need('topic_name'),
    groupId: text(sub.consumer_group_id) || `hookrail-source-${sourceId}`,
    ssl: auth?.tls === true,
    ...(sasl ? { sasl } : {}),
    allowPrivateHosts: env.allowPrivateHosts === true,
    ...(env.ownKafka ? { ownKafka: env.ownKafka } : {}),
  };
}

function kafkaSasl(auth: Json | null): KafkaSettings['sasl'] {
  if (!auth || !text(auth.type)) return undefined;
  const type = text(auth.type);
  const hash = text(auth.hash) || 'SHA256';
  return {
    mechanism: type === 'plain' ? 'plain' : hash === 'SHA512' ? 'scram-sha-512' : 'scram-sha-256',
    username: text(auth.username),
    password: text(auth.password),
  };
}

function sqsSettings(need: Need, env: BrokerEnvironment): SqsSettings {
  return {
    kind: 'sqs',
    region: need('default_region'),
    queueName: need('queue_name'),
    credentials: { accessKeyId: need('access_key_id'), secretAccessKey: need('secret_key') },
    ...(env.sqsEndpoint ? { endpoint: env.sqsEndpoint } : {}),
  };
}

function googleSettings(sub: Json, need: Need, env: BrokerEnvironment): GoogleSettings {
  const bytes = sub.service_account;
  let credentials: Json | undefined;
  if (Array.isArray(bytes) && bytes.length > 0 && !env.pubsubEmulatorHost) {
    try {
      credentials = JSON.parse(Buffer.from(bytes as number[]).toString('utf8')) as Json;
    } catch {
      throw new BrokerSettingsError('pub_sub.google.service_account is not a JSON key file');
    }
  }
  return {
    kind: 'google',
    projectId: need('project_id'),
    subscriptionId: need('subscription_id'),
    ...(credentials ? { credentials } : {}),
    ...(env.pubsubEmulatorHost ? { emulatorHost: env.pubsubEmulatorHost } : {}),
  };
}

/** Names where the source reads from, for logs and health (never a credential). */
export function describeBroker(s: BrokerSettings): string {
  switch (s.kind) {
    case 'amqp':
      return `${s.address} queue ${s.queue}`;
    case 'kafka':
      return `${s.brokers.join(',')} topic ${s.topic}`;
    case 'sqs':
      return `${s.endpoint ?? `sqs.${s.region}`} queue ${s.queueName}`;
    case 'google':
      return `projects/${s.projectId}/subscriptions/${s.subscriptionId}`;
  }
}

/** The environment of a service's broker sources: its settings and its own Kafka cluster's id. */
export function brokerEnvironment(
  config: {
    brokers: { sqsEndpoint?: string; pubsubEmulatorHost?: string; allowPrivateHosts: boolean };
    kafka: { topicPrefix: string };
  },
  ownClusterId: string,
): BrokerEnvironment {
  return {
    sqsEndpoint: config.brokers.sqsEndpoint,
    pubsubEmulatorHost: config.brokers.pubsubEmulatorHost,
    allowPrivateHosts: config.brokers.allowPrivateHosts,
    ownKafka: { clusterId: ownClusterId, topicPrefix: config.kafka.topicPrefix },
  };
}
