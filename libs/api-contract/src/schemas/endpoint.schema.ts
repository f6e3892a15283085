import { SUPPORTED_ALGORITHMS } from '../vocabulary';
import { Type, type ObjectOptions, type Static } from '@sinclair/typebox';
import {
  bool,
  clearList,
  enumOf,
  int,
  nonEmpty,
  nullable,
  nullableTimestamp,
  object,
  resource,
  responseOnlyFields,
  sameFields,
  scopedFields,
  str,
  timestamp,
  typeSelects,
} from './common.schema';
import {
  destinationInput,
  destinationResponse,
  destinationRules,
  ENDPOINT_TYPES,
} from './destination.schema';

export const ENDPOINT_STATUSES = ['active', 'paused', 'inactive'] as const;
export const OAUTH2_AUTH_TYPES = ['shared_secret', 'client_assertion'] as const;
export const EXPIRY_TIME_UNITS = ['seconds', 'milliseconds', 'minutes', 'hours'] as const;

const JWK_MEMBERS = ['crv', 'd', 'dp', 'dq', 'e', 'kid', 'kty', 'n', 'p', 'q', 'qi', 'x', 'y', 'k'] as const;

export const signingKey = object(sameFields(JWK_MEMBERS, str({ maxLength: 16 * 1024 })), ['kty']);

const oauth2Fields = {
  url: str({ format: 'uri', pattern: '^https?://' }),
  client_id: nonEmpty(1000),
  client_secret: str({ maxLength: 4000 }),
  authentication_type: enumOf(OAUTH2_AUTH_TYPES),
  grant_type: str({ maxLength: 200 }),
  scope: str({ maxLength: 2000 }),
  audience: str({ maxLength: 2000 }),
  issuer: str({ maxLength: 2000 }),
  subject: str({ maxLength: 2000 }),
  signing_algorithm: enumOf(SUPPORTED_ALGORITHMS),
  expiry_time_unit: enumOf(EXPIRY_TIME_UNITS),
  field_mapping: object({
    access_token: str({ maxLength: 200 }),
    expires_in: str({ maxLength: 200 }),
    token_type: str({ maxLength: 200 }),
  }),
  signing_key: signingKey,
};

/** shared_secret needs client_secret; client_assertion needs a JWK and its algorithm. */
const oauth2Rules: ObjectOptions = {
  allOf: [
    {
      if: {
        properties: { authentication_type: { const: 'client_assertion' } },
        required: ['authentication_type'],
      },
      then: { required: ['signing_key', 'signing_algorithm'] },
      else: { required: ['client_secret'] },
    },
  ],
};

export const oauth2Input = object(oauth2Fields, ['url', 'client_id'], oauth2Rules);

const authFields = {
  type: enumOf(['api_key', 'basic_auth', 'oauth2']),
  api_key: object({ header_name: nonEmpty(200), header_value: nonEmpty(4000) }, [
    'header_name',
    'header_value',
  ]),
  basic_auth: object({ username: nonEmpty(200), password: nonEmpty(1000) }, ['username', 'password']),
  oauth2: oauth2Input,
};

export const authenticationInput = object(
  authFields,
  ['type'],
  typeSelects(['api_key', 'basic_auth', 'oauth2']),
);

const mtls = object({ client_cert: nonEmpty(64 * 1024), client_key: nonEmpty(64 * 1024) }, [
  'client_cert',
  'client_key',
]);

const endpointInputFields = {
  name: nonEmpty(200),
  type: enumOf(ENDPOINT_TYPES, { description: 'where deliveries go: http (default) or a broker' }),
  url: str({ format: 'uri', pattern: '^https?://', maxLength: 4096, description: 'required for http' }),
  destination: nullable(destinationInput),
  description: str({ maxLength: 2000 }),
  owner_id: nullable(str({ minLength: 1, maxLength: 200 })),
  content_type: str({ maxLength: 200 }),
  advanced_signatures: bool,
  http_timeout: int({ minimum: 1, maximum: 60, description: 'seconds' }),
  rate_limit: int({ minimum: 0 }),
  rate_limit_duration: int({ minimum: 0, description: 'seconds' }),
  support_email: nullable(str({ format: 'email', maxLength: 320 })),
  slack_webhook_url: nullable(str({ format: 'uri', pattern: '^https?://' })),
  mtls_client_cert: nullable(mtls),
  secret: str({ minLength: 8, maxLength: 1000, description: 'signing secret; generated when omitted' }),
  authentication: nullable(authenticationInput),
  is_disabled: Type.Boolean({
    description:
      "Convoy's switch: true makes the endpoint inactive; false re-enables only an endpoint is_disabled disabled (paused or health-disabled ones need activate)",
  }),
  ...responseOnlyFields([
    'uid',
    'project_id',
    'status',
    'status_reason',
    'circuit_breaker',
    'events',
    'failure_rate',
    'secrets',
    'created_at',
    'updated_at',
    'deleted_at',
  ]),
};

export const endpointCreateBody = object(endpointInputFields, ['name'], destinationRules(true));
export type EndpointCreateBody = Static<typeof endpointCreateBody>;
/** The optional settings an update can empty (`null` and `""` mean "not set" for Convoy's clients). */
export const CLEARABLE_ENDPOINT_FIELDS = [
  'owner_id',
  'authentication',
  'mtls_client_cert',
  'support_email',
  'slack_webhook_url',
] as const;

export const endpointUpdateBody = object(
  {
    ...endpointInputFields,
    clear: clearList(CLEARABLE_ENDPOINT_FIELDS),
  },
  [],
  destinationRules(false),
);
export type EndpointUpdateBody = Static<typeof endpointUpdateBody>;

export const expireSecretBody = object(
  {
    expiration: int({
      minimum: 0,
      maximum: 30 * 86400,
      description: 'seconds until the current secret expires',
    }),
    secret: str({ minLength: 8, maxLength: 1000, description: 'the new secret; generated when omitted' }),
  },
  ['expiration'],
);
export type ExpireSecretBody = Static<typeof expireSecretBody>;

/** Operation 11: the oauth2 members; the signing key may also come as its JSON text. */
export const oauth2TestBody = object(
  {
    oauth2: object(
      { ...oauth2Fields, signing_key: Type.Union([signingKey, str({ maxLength: 64 * 1024 })]) },
      ['url', 'client_id'],
      oauth2Rules,
    ),
  },
  ['oauth2'],
);
export type OAuth2TestBody = Static<typeof oauth2TestBody>;

export const oauth2TestResponse = resource(
  {
    success: bool,
    message: str(),
    error: str(),
    access_token: str(),
    token_type: str(),
    expires_at: str(),
  },
  [],
);
export type OAuth2TestResponse = Static<typeof oauth2TestResponse>;

export const secretResponse = resource({
  uid: str(),
  value: str(),
  created_at: timestamp,
  updated_at: timestamp,
  deleted_at: nullableTimestamp,
  expires_at: nullableTimestamp,
});

export const circuitBreakerResponse = object(
  {
    state: enumOf(['closed', 'open', 'half_open']),
    reason: nullable(str()),
    since: nullableTimestamp,
  },
  ['state', 'reason', 'since'],
);

const endpointFields = {
  ...scopedFields,
  owner_id: nullable(str()),
  name: str(),
  description: str(),
  type: enumOf(ENDPOINT_TYPES),
  url: str({ description: 'empty for a broker destination' }),
  destination: nullable(destinationResponse),
  content_type: str(),
  status: enumOf(ENDPOINT_STATUSES),
  is_disabled: Type.Boolean({ description: "Convoy's flag: true exactly when status is inactive" }),
  status_reason: nullable(str({ description: 'why the endpoint is paused or inactive' })),
  circuit_breaker: circuitBreakerResponse,
  advanced_signatures: bool,
  http_timeout: int(),
  rate_limit: int(),
  rate_limit_duration: int(),
  events: int(),
  failure_rate: Type.Number(),
  support_email: nullable(str()),
  slack_webhook_url: nullable(str()),
  mtls_client_cert: nullable(mtls),
  secrets: Type.Array(secretResponse),
  authentication: nullable(object(authFields, ['type'])),
};

export const endpointResponse = resource(endpointFields);

/** The endpoint without its secrets and credentials (a delivery's endpoint_metadata). */
export const endpointMetadataResponse = resource(
  endpointFields,
  ['secrets', 'authentication', 'mtls_client_cert'],
  { description: 'the endpoint without its secrets and credentials; null once deleted' },
);
