import { Type, type Static } from '@sinclair/typebox';
import {
  anyObject,
  bool,
  enumOf,
  int,
  nonEmpty,
  nullable,
  object,
  resource,
  responseOnlyFields,
  scopedFields,
  str,
  strArray,
} from './common.schema';
import { endpointResponse } from './endpoint.schema';

export const PORTAL_AUTH_TYPES = ['static_token', 'refresh_token'] as const;

const portalLinkInputFields = {
  name: nonEmpty(200),
  owner_id: nullable(str({ minLength: 1, maxLength: 200 })),
  endpoints: Type.Array(nonEmpty(100), { maxItems: 100, description: 'deprecated: endpoint ids' }),
  can_manage_endpoint: bool,
  auth_type: enumOf(PORTAL_AUTH_TYPES),
  ...responseOnlyFields([
    'uid',
    'project_id',
    'auth_key',
    'auth_key_expires_at',
    'token',
    'url',
    'endpoint_count',
    'endpoints_metadata',
    'created_at',
    'updated_at',
    'deleted_at',
  ]),
};

export const portalLinkCreateBody = object(portalLinkInputFields, ['name']);
export type PortalLinkCreateBody = Static<typeof portalLinkCreateBody>;
export const portalLinkUpdateBody = object(portalLinkInputFields);
export type PortalLinkUpdateBody = Static<typeof portalLinkUpdateBody>;

export const portalLinkResponse = resource({
  ...scopedFields,
  name: str(),
  owner_id: nullable(str()),
  endpoints: strArray(),
  can_manage_endpoint: bool,
  auth_type: enumOf(PORTAL_AUTH_TYPES),
  auth_key: str({ description: 'refresh_token links: the short-lived key, shown when issued (else empty)' }),
  auth_key_expires_at: nullable(str({ format: 'date-time' })),
  token: str(),
  url: str(),
  endpoint_count: int(),
  endpoints_metadata: Type.Array(endpointResponse),
});

/** The portal's "send a test event": both fields optional (a default type and payload are sent). */
export const portalTestEventBody = object({
  event_type: str({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  data: anyObject,
});
export type PortalTestEventBody = Static<typeof portalTestEventBody>;
