import { managementOperations as api, type Caller, type ResponseOf } from '@hookrail/api-contract';
import { hostname, userInfo } from 'node:os';

type Endpoint = ResponseOf<typeof api.getEndpoint>;

/** What `listen` set up, for its first lines. */
export interface ListenTarget {
  endpoint: Endpoint;
  /** What changed on the way: created, activated, the event types set. */
  changes: string[];
}

/** `cli-<host>-<user>`: one endpoint per person and machine, found again by the next `listen`. */
export function defaultListenerName(): string {
  const clean = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60);
  let user = 'user';
  try {
    user = userInfo().username;
  } catch {
    // no passwd entry (a container): the host alone names it
  }
  return `cli-${clean(hostname())}-${clean(user)}`;
}

const sameTypes = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

/** Pages of the name search read before giving up (it reads in bounded steps: a page may be short). */
const MAX_PAGES = 50;

async function findByName(call: Caller, projectID: string, name: string): Promise<Endpoint | undefined> {
  let cursor: string | undefined;
  for (let n = 0; n < MAX_PAGES; n++) {
    const page = await call(api.listEndpoints, {
      params: { projectID },
      query: { q: name, perPage: '100', ...(cursor && { next_page_cursor: cursor, direction: 'next' }) },
    });
    const found = page.content.find((e) => e.type === 'cli' && e.name === name);
    if (found || !page.pagination.has_next_page) return found;
    cursor = page.pagination.next_page_cursor;
  }
  return undefined;
}

/** The project's cli endpoint of this name, created when there is none (activated when it was not active). */
async function cliEndpoint(
  call: Caller,
  projectID: string,
  name: string,
  changes: string[],
): Promise<Endpoint> {
  const found = await findByName(call, projectID, name);
  if (!found) {
    changes.push('created');
    return call(api.createEndpoint, {
      params: { projectID },
      body: { name, type: 'cli', description: 'deliveries relayed to hookrail listen' },
    });
  }
  if (found.status === 'active') return found;
  changes.push(`activated (was ${found.status})`);
  return call(api.activateEndpoint, { params: { projectID, endpointID: found.uid } });
}

/** Its subscription lets exactly `eventTypes` through: created, or its filter updated when it differs. */
async function subscribe(
  call: Caller,
  projectID: string,
  endpoint: Endpoint,
  eventTypes: string[],
  changes: string[],
): Promise<void> {
  const page = await call(api.listSubscriptions, {
    params: { projectID },
    query: { endpointId: [endpoint.uid], perPage: '100' },
  });
  const current = page.content.find((s) => s.name === endpoint.name) ?? page.content[0];
  if (!current) {
    await call(api.createSubscription, {
      params: { projectID },
      body: { name: endpoint.name, endpoint_id: endpoint.uid, filter_config: { event_types: eventTypes } },
    });
    changes.push(`subscribed to ${eventTypes.join(', ')}`);
    return;
  }
  if (sameTypes(current.filter_config.event_types, eventTypes)) return;
  await call(api.updateSubscription, {
    params: { projectID, subscriptionID: current.uid },
    body: { filter_config: { event_types: eventTypes } },
  });
  changes.push(`event types now ${eventTypes.join(', ')}`);
}

/** Creates or reuses the `cli` endpoint `listen` receives for, with a subscription to the chosen types. */
export async function ensureListenTarget(
  call: Caller,
  projectID: string,
  opts: { name: string; eventTypes: string[] },
): Promise<ListenTarget> {
  const changes: string[] = [];
  const endpoint = await cliEndpoint(call, projectID, opts.name, changes);
  await subscribe(call, projectID, endpoint, opts.eventTypes, changes);
  return { endpoint, changes };
}
