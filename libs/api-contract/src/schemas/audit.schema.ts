import type { Static } from '@sinclair/typebox';
import { ROLES } from '../roles';
import { anyJson, enumOf, int, mapOf, nullable, resource, str, strArray, timestamp } from './common.schema';

/**
 * Who made a recorded call: the admin key, a project API key (by id and name, with its role), a
 * portal link, or a person signed in through single sign-on (`user`: `user_id` is the provider's
 * `sub`, with their `email`; a failed sign-in names them when the provider did).
 * `via` is the surface: the management API (scripts, the CLI), the console or the portal.
 */
export const auditActor = resource({
  kind: enumOf(['admin_key', 'api_key', 'portal_link', 'user']),
  via: enumOf(['api', 'console', 'portal']),
  key_id: nullable(str()),
  key_name: nullable(str()),
  role: nullable(enumOf(ROLES)),
  portal_link_id: nullable(str()),
  user_id: nullable(str()),
  email: nullable(str()),
});
export type AuditActor = Static<typeof auditActor>;

/**
 * Sent events (`publish`: the events API, fan-out, broadcast, a portal's test event) are recorded
 * aggregated: one record per project, actor, operation, status and client address per window
 * (a minute by default), the other fields those of its first call (docs/access.md, "Audit log").
 */
const auditAggregate = resource({
  count: int({ description: 'how many calls the record stands for' }),
  first_at: timestamp,
  last_at: timestamp,
  event_ids: strArray({ description: 'the first events (at most 20) the calls created', maxItems: 20 }),
});

/**
 * One state-changing call, as the audit log keeps it: who, what, when, from where and its outcome.
 * `changes`: the fields an update changed, before and after, credentials redacted (`[redacted]`);
 * `fields`: the names of the request body's fields (every recorded call); `aggregate`: only on a
 * record of sent events, the calls it stands for.
 */
export const auditRecordResponse = resource(
  {
    uid: str(),
    project_id: nullable(str()),
    actor: auditActor,
    operation: str({ description: "the operation's operationId (/api/openapi.json)" }),
    method: str(),
    path: str(),
    resource: resource({ type: str(), id: nullable(str()) }),
    changes: nullable(mapOf(resource({ before: anyJson, after: anyJson }))),
    fields: strArray(),
    status: int({ description: 'the HTTP status the call was answered with' }),
    ip: str({ description: "the client's address (through HOOKRAIL_TRUSTED_PROXIES)" }),
    user_agent: str(),
    created_at: timestamp,
    aggregate: auditAggregate,
  },
  ['aggregate'],
);
export type AuditRecord = Static<typeof auditRecordResponse>;

/** The audit log's filters, besides the page and the time range. */
export const auditQuery = {
  actor: str({
    description: "a key id, a portal link id, a person's user id or e-mail, or `admin` for the admin key",
  }),
  operation: str({ description: 'an operationId, e.g. updateEndpoint' }),
  resource: str({ description: 'a resource id, or a type (`endpoint`)' }),
};
