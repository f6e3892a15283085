import { Type, type ObjectOptions, type Static } from '@sinclair/typebox';
import {
  bool,
  clearList,
  enumOf,
  int,
  nonEmpty,
  nullable,
  object,
  resource,
  responseOnly,
  responseOnlyFields,
  scopedFields,
  str,
  strArray,
  timestamp,
  typeSelects,
} from './common.schema';
import { PROVIDERS } from '../vocabulary';
import { amqpConnectionFields, googleServiceAccount, kafkaConnectionFields } from './broker-settings.schema';

export const SOURCE_TYPES = ['http', 'rest_api', 'pub_sub', 'db_change_stream'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

/**
 * The service document's source types Hookrail refuses (a 400 on `type`), with why: `rest_api` is,
 * in Convoy's meaning, the events API itself, which every project has without a source. Stored, it
 * would take an ingest URL and do nothing.
 */
export const REFUSED_SOURCE_TYPES: Readonly<Partial<Record<SourceType, string>>> = {
  rest_api:
    'rest_api is the events API itself (POST /api/v1/projects/{projectID}/events with a project API key), ' +
    'which every project has without a source; for a URL that providers post to, use type http',
};
export const VERIFIER_TYPES = ['noop', 'api_key', 'basic_auth', 'hmac'] as const;
export const PUB_SUB_TYPES = ['sqs', 'amqp', 'google', 'kafka'] as const;
export const CHANGE_STREAM_DATABASES = ['mongodb', 'postgres'] as const;
/** `replace` is MongoDB's only, `truncate` PostgreSQL's only (a 400 on the other type). */
export const CHANGE_OPERATIONS = ['insert', 'update', 'replace', 'delete', 'truncate'] as const;
export const FULL_DOCUMENT_MODES = ['updateLookup', 'whenAvailable', 'off'] as const;

const fn = nullable(str({ maxLength: 64 * 1024 }));

// ---- requests ----------------------------------------------------------------------------------

const verifierFields = {
  type: enumOf(VERIFIER_TYPES),
  api_key: object({ header_name: nonEmpty(200), header_value: nonEmpty(1000) }, [
    'header_name',
    'header_value',
  ]),
  basic_auth: object({ username: nonEmpty(200), password: nonEmpty(1000) }, ['username', 'password']),
  hmac: object(
    {
      encoding: enumOf(['base64', 'hex']),
      hash: enumOf(['SHA256', 'SHA512']),
      header: nonEmpty(200),
      secret: nonEmpty(1000),
    },
    ['secret'],
  ),
};

export const verifierInput = object(verifierFields, ['type'], typeSelects(['api_key', 'basic_auth', 'hmac']));

const amqpInput = object(
  {
    ...amqpConnectionFields,
    queue: nonEmpty(500),
    deadLetterExchange: str({ maxLength: 500 }),
    bindExchange: object({ exchange: nonEmpty(500), routingKey: str({ maxLength: 500 }) }, ['exchange']),
    bindedExchange: responseOnly,
    routingKey: responseOnly,
  },
  ['host', 'queue'],
);

const kafkaFields = {
  ...kafkaConnectionFields,
  consumer_group_id: str({ maxLength: 500 }),
  topic_name: nonEmpty(500),
};
const kafkaInput = object(kafkaFields, ['brokers', 'topic_name']);

const sqsInput = object(
  {
    access_key_id: nonEmpty(500),
    secret_key: nonEmpty(1000),
    default_region: nonEmpty(100),
    queue_name: nonEmpty(500),
    endpoint: responseOnly,
  },
  ['access_key_id', 'secret_key', 'default_region', 'queue_name'],
);

const googleInput = object(
  {
    project_id: nonEmpty(500),
    subscription_id: nonEmpty(500),
    service_account: googleServiceAccount,
  },
  ['project_id', 'subscription_id'],
);

export const pubSubInput = object(
  {
    type: enumOf(PUB_SUB_TYPES),
    workers: int({ minimum: 1, maximum: 64 }),
    amqp: amqpInput,
    google: googleInput,
    kafka: kafkaInput,
    sqs: sqsInput,
  },
  ['type'],
  typeSelects(PUB_SUB_TYPES),
);

/** A PostgreSQL identifier as Hookrail accepts it unquoted (publication, slot, schema, table). */
const PG_NAME = '[A-Za-z_][A-Za-z0-9_$]{0,62}';

/**
 * What a `db_change_stream` source watches (docs/sources.md); the connection string is sealed at
 * rest. `collections`, `full_document` and `match` are MongoDB's; `tables`, `publication`, `slot`
 * and `create_if_missing` PostgreSQL's: a field of the other type is a 400 naming it.
 */
const dbChangeStreamFields = {
  type: enumOf(CHANGE_STREAM_DATABASES),
  database: str({ minLength: 1, maxLength: 64, pattern: '^[^/\\\\. "$]+$' }),
  collections: Type.Array(str({ minLength: 1, maxLength: 255, pattern: '^[^$]+$' }), {
    maxItems: 100,
    uniqueItems: true,
    description: 'the collections to watch; empty or absent: the whole database',
  }),
  operations: Type.Array(enumOf(CHANGE_OPERATIONS), {
    minItems: 1,
    uniqueItems: true,
    description:
      'the operation types to keep (default: all of the type: insert, update, replace, delete for mongodb; insert, update, delete, truncate for postgres)',
  }),
  full_document: enumOf(FULL_DOCUMENT_MODES, {
    description: "what an update's event carries as `document` (default updateLookup)",
  }),
  match: Type.Unsafe<Record<string, unknown>>({
    type: 'object',
    description:
      'an aggregation $match stage over the change events, checked against the database when stored',
  }),
  tables: Type.Array(str({ minLength: 1, maxLength: 127, pattern: `^(${PG_NAME}\\.)?${PG_NAME}$` }), {
    maxItems: 100,
    uniqueItems: true,
    description:
      'postgres: the tables whose changes become events (schema-qualified or in public); empty or absent: every table of the publication',
  }),
  publication: str({
    pattern: `^${PG_NAME}$`,
    description: 'postgres: the publication to decode (pgoutput)',
  }),
  slot: str({
    pattern: '^[a-z0-9_]{1,63}$',
    description: "postgres: the logical replication slot that keeps the source's place",
  }),
  create_if_missing: Type.Boolean({
    description:
      'postgres: create the publication (for the tables, else for all tables) and the slot when they do not exist; otherwise both must exist',
  }),
  connection: str({
    pattern: '^[a-z][a-z0-9-]{0,62}$',
    description:
      'instead of connection_string: the name of a connection the operator configured (Helm: changeStreams.connections, each from a Secret), usable by the projects listed with it',
  }),
  event_type_template: str({
    minLength: 1,
    maxLength: 200,
    description:
      'the event type, with {collection} (mongodb), {table} and {schema} (postgres) and {operation} replaced (default "{collection}.{operation}", postgres "{table}.{operation}")',
  }),
};

const dbChangeStreamSettings = {
  ...dbChangeStreamFields,
  connection_string: str({
    minLength: 1,
    maxLength: 4000,
    pattern: '^(mongodb(\\+srv)?|postgres(ql)?)://',
    description: 'mongodb:// or mongodb+srv:// (type mongodb), postgres:// or postgresql:// (type postgres)',
  }),
  restart_from_now: Type.Boolean({
    description:
      'drop the stored resume point and read from now on: how a source whose resume point fell out of the oplog restarts',
  }),
};
/**
 * Exactly one of connection_string and connection on create, checked by the gateway naming the
 * field; an update may leave both out (a string is never returned): the stored one is kept.
 */
const dbChangeStreamInput = object(dbChangeStreamSettings, ['type', 'database']);

const customResponse = object({ body: str({ maxLength: 64 * 1024 }), content_type: nonEmpty(200) }, [
  'body',
  'content_type',
]);

const sourceInputFields = {
  name: nonEmpty(200),
  type: enumOf(SOURCE_TYPES, {
    description:
      'http (an ingest URL), pub_sub (a broker) or db_change_stream (a database change stream); ' +
      'rest_api (the events API itself, which needs no source) is refused with 400',
  }),
  provider: nullable(enumOf(PROVIDERS)),
  body_function: fn,
  header_function: fn,
  forward_headers: Type.Array(nonEmpty(200), { maxItems: 100 }),
  idempotency_keys: Type.Array(str({ pattern: '^request\\.(header|body|query)\\..+' }), { maxItems: 20 }),
  is_disabled: bool,
  custom_response: nullable(customResponse),
  pub_sub: nullable(pubSubInput),
  db_change_stream: nullable(dbChangeStreamInput),
  verifier: nullable(verifierInput),
  ...responseOnlyFields([
    'uid',
    'project_id',
    'url',
    'mask_id',
    'provider_config',
    'created_at',
    'updated_at',
    'deleted_at',
  ]),
};

/** `pub_sub` settings are required exactly when the source is a broker source. */
const pubSubWhenBroker: ObjectOptions = {
  if: { properties: { type: { const: 'pub_sub' } }, required: ['type'] },
  then: { required: ['pub_sub'], properties: { pub_sub: { type: 'object' } } },
};

export const sourceCreateBody = object(sourceInputFields, ['name', 'type'], pubSubWhenBroker);
export type SourceCreateBody = Static<typeof sourceCreateBody>;
/** The optional settings an update can empty: no provider, no functions, the default response. */
export const CLEARABLE_SOURCE_FIELDS = [
  'provider',
  'body_function',
  'header_function',
  'custom_response',
] as const;

export const sourceUpdateBody = object(
  {
    ...sourceInputFields,
    db_change_stream: nullable(dbChangeStreamInput),
    clear: clearList(CLEARABLE_SOURCE_FIELDS),
  },
  [],
  pubSubWhenBroker,
);
export type SourceUpdateBody = Static<typeof sourceUpdateBody>;
export type VerifierInput = Static<typeof verifierInput>;
export type PubSubInput = Static<typeof pubSubInput>;

// ---- responses ---------------------------------------------------------------------------------

const sourceFields = {
  ...scopedFields,
  name: str(),
  type: enumOf(SOURCE_TYPES),
  provider: nullable(enumOf(PROVIDERS)),
  provider_config: nullable(
    Type.Object({
      twitter: Type.Optional(Type.Object({ crc_verified_at: Type.Optional(nullable(timestamp)) })),
    }),
  ),
  url: str(),
  mask_id: str(),
  is_disabled: bool,
  forward_headers: strArray(),
  idempotency_keys: strArray(),
  body_function: nullable(str()),
  header_function: nullable(str()),
  custom_response: nullable(customResponse),
  pub_sub: nullable(
    Type.Object({
      type: enumOf(PUB_SUB_TYPES),
      workers: int(),
      amqp: Type.Optional(
        object({
          host: str(),
          port: str(),
          schema: str(),
          vhost: str(),
          queue: str(),
          deadLetterExchange: str(),
          auth: Type.Object({ user: Type.Optional(str()), password: Type.Optional(str()) }),
          bindedExchange: str(),
          routingKey: str(),
        }),
      ),
      google: Type.Optional(googleInput),
      kafka: Type.Optional(object(kafkaFields)),
      sqs: Type.Optional(
        object({
          access_key_id: str(),
          secret_key: str(),
          default_region: str(),
          queue_name: str(),
          endpoint: str(),
        }),
      ),
    }),
  ),
  // The connection string is never returned (sealed at rest, like broker credentials).
  db_change_stream: nullable(
    object({
      ...dbChangeStreamFields,
      restart_requested_at: nullable(timestamp),
    }),
  ),
  verifier: nullable(object(verifierFields, ['type'])),
  // Broker sources: the consumer's last reported state (null until one reported).
  health: nullable(
    resource({
      // resume_lost: a change stream's resume point is gone from the database (restart_from_now).
      state: enumOf(['connecting', 'consuming', 'unreachable', 'resume_lost', 'stopped']),
      error: nullable(str()),
      lag_seconds: nullable(
        Type.Number({
          minimum: 0,
          description:
            'change streams: seconds between the newest change read and when it was read (0: caught up), as last recorded',
        }),
      ),
      behind_bytes: nullable(
        int({
          minimum: 0,
          description:
            "postgres change streams: WAL bytes between the server's current position and the slot's confirmed one",
        }),
      ),
      behind_changes: nullable(
        int({
          minimum: 0,
          description:
            'mongodb change streams: changes still to read (oplog entries past the newest read, counted up to 100,000); null when the user may not read the oplog',
        }),
      ),
      instance_id: str(),
      updated_at: nullable(timestamp),
    }),
  ),
};

export const sourceResponse = resource(sourceFields, ['health']);
