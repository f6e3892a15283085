import {
  ENDPOINT_TYPES,
  managementOperations as api,
  PORTAL_AUTH_TYPES,
  PROVIDERS,
  SOURCE_TYPES,
} from '@hookrail/api-contract';
import type { Command } from 'commander';
import type { CliContext } from '../context';
import { eventTypeList } from '../commands/listen';
import { collect, positiveInt } from '../commands/options';
import { localTime } from '../output';
import { defineResource, registerResource, type ResourceSpec } from './resource-commands';

const name = (noun: string) => ({ flags: '--name <name>', field: 'name', description: `the ${noun}'s name` });
const ownerId = {
  flags: '--owner-id <id>',
  field: 'owner_id',
  description: 'the owner (a customer, a tenant)',
};

const endpoints = defineResource({
  command: 'endpoints',
  noun: 'endpoint',
  idParam: 'endpointID',
  ops: {
    list: api.listEndpoints,
    get: api.getEndpoint,
    create: api.createEndpoint,
    update: api.updateEndpoint,
    remove: api.deleteEndpoint,
  },
  columns: [
    ['id', (e) => e.uid],
    ['name', (e) => e.name],
    ['type', (e) => e.type],
    ['status', (e) => e.status],
    ['url', (e) => e.url],
    ['owner', (e) => e.owner_id ?? ''],
  ],
  fields: [
    name('endpoint'),
    { flags: '--url <url>', field: 'url', description: 'where deliveries are POSTed (type http)' },
    {
      flags: '--type <type>',
      field: 'type',
      description: 'http (default) or a broker',
      choices: ENDPOINT_TYPES,
    },
    { flags: '--description <text>', field: 'description', description: 'what it is for' },
    ownerId,
    {
      flags: '--http-timeout <seconds>',
      field: 'http_timeout',
      description: 'how long an attempt waits for an answer (1 to 60)',
      parse: positiveInt,
    },
  ],
});

const subscriptions = defineResource({
  command: 'subscriptions',
  noun: 'subscription',
  idParam: 'subscriptionID',
  ops: {
    list: api.listSubscriptions,
    get: api.getSubscription,
    create: api.createSubscription,
    update: api.updateSubscription,
    remove: api.deleteSubscription,
  },
  columns: [
    ['id', (s) => s.uid],
    ['name', (s) => s.name],
    ['endpoint', (s) => s.endpoint_metadata?.name ?? ''],
    ['source', (s) => s.source_metadata?.name ?? ''],
    ['event types', (s) => s.filter_config.event_types.join(', ')],
  ],
  fields: [
    name('subscription'),
    { flags: '--endpoint <id>', field: 'endpoint_id', description: 'the endpoint it delivers to' },
    { flags: '--source <id>', field: 'source_id', description: 'only events from this source' },
    {
      flags: '--event-types <types>',
      field: 'filter_config.event_types',
      description: 'the event types it lets through, comma-separated (* wildcards)',
      parse: eventTypeList,
    },
  ],
});

const sources = defineResource({
  command: 'sources',
  noun: 'source',
  idParam: 'sourceID',
  ops: {
    list: api.listSources,
    get: api.getSource,
    create: api.createSource,
    update: api.updateSource,
    remove: api.deleteSource,
  },
  columns: [
    ['id', (s) => s.uid],
    ['name', (s) => s.name],
    ['type', (s) => s.type],
    ['provider', (s) => s.provider ?? ''],
    ['created', (s) => localTime(s.created_at)],
  ],
  fields: [
    name('source'),
    { flags: '--type <type>', field: 'type', description: 'how events arrive', choices: SOURCE_TYPES },
    { flags: '--provider <provider>', field: 'provider', description: 'a known sender', choices: PROVIDERS },
  ],
});

const eventTypes = defineResource({
  command: 'event-types',
  noun: 'event type',
  idParam: 'eventTypeId',
  ops: {
    list: api.listEventTypes,
    get: api.getEventType,
    create: api.createEventType,
    update: api.updateEventType,
    remove: api.deleteEventType,
  },
  columns: [
    ['id', (t) => t.uid],
    ['name', (t) => t.name],
    ['category', (t) => t.category],
    ['deprecated', (t) => (t.deprecated ? 'yes' : '')],
    ['description', (t) => t.description.slice(0, 60)],
  ],
  fields: [
    name('event type'),
    { flags: '--description <text>', field: 'description', description: 'what the event means' },
    { flags: '--category <category>', field: 'category', description: 'a group in the catalog' },
  ],
});

const portalLinks = defineResource({
  command: 'portal-links',
  noun: 'portal link',
  idParam: 'portalLinkID',
  ops: {
    list: api.listPortalLinks,
    get: api.getPortalLink,
    create: api.createPortalLink,
    update: api.updatePortalLink,
    remove: api.revokePortalLink,
  },
  removed: 'revoked',
  columns: [
    ['id', (l) => l.uid],
    ['name', (l) => l.name],
    ['owner', (l) => l.owner_id ?? ''],
    ['endpoints', (l) => String(l.endpoint_count)],
    ['url', (l) => l.url],
  ],
  fields: [
    name('portal link'),
    ownerId,
    {
      flags: '--endpoint <id>',
      field: 'endpoints',
      description: 'an endpoint the link shows (repeatable)',
      parse: collect,
    },
    {
      flags: '--can-manage-endpoint',
      field: 'can_manage_endpoint',
      description: 'the portal user may create and change endpoints',
    },
    {
      flags: '--auth-type <type>',
      field: 'auth_type',
      description: 'how the portal signs in',
      choices: PORTAL_AUTH_TYPES,
    },
  ],
});

/** The resources `hookrail` manages as the API does, one table each (docs/cli.md). */
const RESOURCES: readonly ResourceSpec[] = [endpoints, subscriptions, sources, eventTypes, portalLinks];

/** The resources `hookrail apply` manages, by the file's section names. */
export const APPLIED = { event_types: eventTypes, sources, endpoints, subscriptions } as const;

export function registerResources(program: Command, ctx: CliContext): void {
  for (const spec of RESOURCES) registerResource(program, ctx, spec);
}
