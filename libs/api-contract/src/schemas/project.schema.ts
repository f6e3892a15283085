import { META_EVENT_TYPES } from '../vocabulary';
import { ROLES } from '../roles';
import { SignatureVersionSchema, signatureConfigOf } from './signature-config.schema';
import { Type, type Static } from '@sinclair/typebox';
import {
  anyObject,
  bool,
  enumOf,
  int,
  nonEmpty,
  nullable,
  nullableTimestamp,
  object,
  resource,
  responseOnlyFields,
  scopedFields,
  str,
  timestamp,
} from './common.schema';

export const retryStrategy = object(
  {
    type: enumOf(['linear', 'exponential']),
    duration: int({ minimum: 1, maximum: 86400 }),
    retry_count: int({ minimum: 0, maximum: 100 }),
    max_retry_seconds: int({ minimum: 1, maximum: 7 * 86400 }),
  },
  [],
);

/** A signature version as sent and returned: Convoy's fields are accepted too, and ignored. */
const signatureVersion = object(
  { ...SignatureVersionSchema.properties, ...responseOnlyFields(['uid', 'created_at']) },
  ['hash', 'encoding'],
);

/** A colour as the portal's CSS takes it: `#rrggbb`. */
const hexColour = (description: string) =>
  str({ pattern: '^#[0-9a-fA-F]{6}$', description: `${description}, as #rrggbb` });

/**
 * How the customer portal presents itself (header name, logo, colours). Sent whole: a member left
 * out is removed (the portal then shows its own).
 */
export const portalBranding = object({
  name: nonEmpty(100),
  logo_url: str({
    format: 'uri',
    // (escaped: the browser bundles carry this schema and hold no literal external URL)
    pattern: '^https:\\/\\/',
    maxLength: 2000,
    description: 'an https image URL, shown in the portal header',
  }),
  primary_color: hexColour("the portal's accent: buttons, links, the header's rule"),
  background_color: hexColour("the portal page's background"),
});

export type PortalBranding = Static<typeof portalBranding>;

/** Project config as stored and returned. */
const projectConfigFields = {
  max_payload_bytes: int({ minimum: 1024, maximum: 50 * 1024 * 1024 }),
  retention_seconds: int({ minimum: 3600, maximum: 10 * 365 * 86400 }),
  strategy: retryStrategy,
  // The stored shape (libs/domain), each member optional.
  signature: object({
    ...signatureConfigOf(signatureVersion).properties,
    advanced_signatures_default: Type.Boolean({
      description:
        "an endpoint's `advanced_signatures` when its create leaves it out (API, portal, console form); default false",
    }),
  }),
  disable_endpoint: bool,
  meta_event: object({
    is_enabled: bool,
    type: enumOf(['http', 'pub_sub'], {
      description: 'how meta events leave: http (the only one supported; pub_sub is refused)',
    }),
    url: str({ format: 'uri', pattern: '^https?://' }),
    secret: nonEmpty(200),
    event_type: Type.Array(enumOf(META_EVENT_TYPES)),
  }),
  ssl: object({ enforce_secure_endpoints: bool }),
  add_event_id_trace_headers: bool,
  event_validation: object({
    mode: enumOf(['off', 'warn', 'enforce'], {
      description:
        "check each event's data against its type's JSON Schema: off; warn (accepted, violations " +
        'recorded in validation_errors); enforce (refused with 400 naming each failing path)',
    }),
    unknown_types: enumOf(['allow', 'warn', 'refuse'], {
      description: 'an event type the catalog does not have: allow; warn (recorded); refuse (400)',
    }),
  }),
  circuit_breaker: object({
    min_requests: int({ minimum: 1 }),
    failure_rate: int({ minimum: 1, maximum: 100 }),
    consecutive_failures: int({ minimum: 1 }),
    probe_interval_seconds: int({ minimum: 1 }),
    disable_after_seconds: int({ minimum: 60 }),
  }),
  portal_branding: portalBranding,
};

/**
 * Project config as sent: every member optional, merged over the stored (or default) config.
 * Convoy's own names are accepted beside ours (the gateway's projects/project-config.ts translates them).
 */
export const projectConfigInput = object({
  ...projectConfigFields,
  max_payload_read_size: int({
    minimum: 1024,
    maximum: 50 * 1024 * 1024,
    description: "Convoy's max_payload_bytes",
  }),
  retention_policy_enabled: Type.Boolean({ description: 'Convoy: whether retention_policy applies' }),
  retention_policy: object({ policy: str({ description: 'a duration, e.g. "720h"' }) }, ['policy']),
  replay_attacks_prevention_enabled: Type.Boolean({
    description: 'accepted and ignored: advanced signatures always carry their timestamp',
  }),
  ratelimit: object({ count: int(), duration: int() }, [], {
    description: 'Convoy project rate limit: refused (Hookrail limits per endpoint: rate_limit)',
  }),
});
export type ProjectConfigInput = Static<typeof projectConfigInput>;

const projectResponseOnly = responseOnlyFields(['uid', 'created_at', 'updated_at', 'deleted_at', 'api_key']);

/** Convoy's project fields with no Hookrail meaning: accepted, not stored (docs/convoy-compatibility.md). */
const convoyProjectFields = {
  logo_url: str({ description: "Convoy's dashboard logo: accepted, not stored" }),
  rate_limit: int({ description: 'Convoy (deprecated): accepted, not stored' }),
  rate_limit_duration: str({ description: 'Convoy (deprecated): accepted, not stored' }),
};

export const projectCreateBody = object(
  {
    name: nonEmpty(200),
    type: enumOf(['incoming', 'outgoing']),
    config: projectConfigInput,
    ...convoyProjectFields,
    ...projectResponseOnly,
  },
  ['name', 'type'],
);

export const projectUpdateBody = object({
  name: nonEmpty(200),
  type: enumOf(['incoming', 'outgoing']),
  config: projectConfigInput,
  ...convoyProjectFields,
  ...projectResponseOnly,
});

const projectConfigResponse = resource(projectConfigFields, ['circuit_breaker']);

const projectFields = {
  uid: str(),
  name: str(),
  type: enumOf(['incoming', 'outgoing']),
  config: projectConfigResponse,
  created_at: timestamp,
  updated_at: timestamp,
  deleted_at: nullableTimestamp,
};

export const projectResponse = resource(projectFields);

/** A key's role in Convoy's shape (`{type, project}`), so Convoy's clients decode it. */
export const API_KEY_ROLE_TYPES = ['project_admin', 'project_viewer'] as const;

const apiKeyFields = {
  ...scopedFields,
  name: str(),
  role: resource({
    type: enumOf(API_KEY_ROLE_TYPES),
    project: str({ description: 'the project the key opens' }),
    name: enumOf(ROLES, { description: 'Hookrail: what the key may do (docs/access.md)' }),
  }),
  view_payloads: bool,
  expires_at: nullableTimestamp,
  last_used_at: nullableTimestamp,
};

export const apiKeyResponse = resource(apiKeyFields);
export type ApiKeyResponse = Static<typeof apiKeyResponse>;

/** Returned once, when the key is issued: the only time the full key is shown. */
export const issuedApiKeyResponse = resource({ ...apiKeyFields, key: str({ pattern: '^hr_' }) });

/** The project's fields, and again under `project` beside `api_key` as Convoy answers. */
export const projectCreatedResponse = resource({
  ...projectFields,
  project: projectResponse,
  api_key: issuedApiKeyResponse,
});

export const apiKeyCreateBody = object({
  name: nonEmpty(200),
  expires_in: nullable(
    int({ minimum: 60, maximum: 10 * 365 * 86400, description: 'seconds until the key expires' }),
  ),
  expires_at: nullable(
    Type.String({ format: 'date-time', description: 'when the key expires (instead of expires_in)' }),
  ),
  // a name of ROLES (default owner: every permission, as every key had before roles); the object
  // is this key's own answer sent back (Convoy's `{type, project}`) and changes nothing
  role: Type.Union([enumOf(ROLES), anyObject], { description: `one of ${ROLES.join(', ')}; default owner` }),
  view_payloads: Type.Boolean({ description: 'a viewer key also sees payloads' }),
  ...responseOnlyFields([
    'uid',
    'project_id',
    'key',
    'last_used_at',
    'created_at',
    'updated_at',
    'deleted_at',
  ]),
});
export type ApiKeyCreateBody = Static<typeof apiKeyCreateBody>;
