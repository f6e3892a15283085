import { managementOperations as api, type Caller, type ResponseOf } from '@hookrail/api-contract';
import { listAll, looseCall } from '../resources/resource-commands';
import { APPLIED } from '../resources/resources';
import type { Change, ProjectState } from './apply-plan';

type Endpoint = ResponseOf<typeof api.getEndpoint>;
type Source = ResponseOf<typeof api.getSource>;
type Subscription = ResponseOf<typeof api.getSubscription>;

/**
 * The project's event types, sources, endpoints and subscriptions, each with its fields in the
 * file's terms: an endpoint's current secret as `secret`, a subscription's endpoint and source by
 * name. `cli` endpoints (`hookrail listen`'s) and their subscriptions are marked, never pruned.
 */
export async function readProject(call: Caller, projectID: string): Promise<ProjectState> {
  const [eventTypes, sources, endpoints, subscriptions] = await Promise.all([
    call(api.listEventTypes, { params: { projectID } }),
    listAll<Source>(call, api.listSources, projectID),
    listAll<Endpoint>(call, api.listEndpoints, projectID),
    listAll<Subscription>(call, api.listSubscriptions, projectID),
  ]);
  return {
    event_types: eventTypes.map((t) => ({ uid: t.uid, name: t.name, view: t })),
    sources: sources.map((s) => ({ uid: s.uid, name: s.name, view: s })),
    endpoints: endpoints.map((e) => ({
      uid: e.uid,
      name: e.name,
      view: { ...e, secret: e.secrets.at(-1)?.value },
      ephemeral: e.type === 'cli',
    })),
    subscriptions: subscriptions.map((s) => ({
      uid: s.uid,
      name: s.name,
      view: { ...s, endpoint: s.endpoint_metadata?.name, source: s.source_metadata?.name ?? null },
      ephemeral: s.endpoint_metadata?.type === 'cli',
    })),
  };
}

/** A step that the gateway refused, with the steps done before it. */
export class ApplyFailure extends Error {
  constructor(
    readonly change: Change,
    readonly error: unknown,
  ) {
    super((error as Error).message);
  }
}

type Ids = { endpoints: Map<string, string>; sources: Map<string, string> };

/** A subscription's body with its endpoint and source names replaced by their ids. */
function resolved(body: Record<string, unknown>, ids: Ids): Record<string, unknown> {
  const { endpoint, source, ...rest } = body;
  return {
    ...rest,
    ...(endpoint !== undefined && { endpoint_id: ids.endpoints.get(endpoint as string) }),
    ...(source !== undefined && { source_id: source === null ? null : ids.sources.get(source as string) }),
  };
}

/** One step through the resource's operations; a created item's id is kept for the names. */
async function applyOne(call: Caller, projectID: string, c: Change, ids: Ids): Promise<void> {
  const spec = APPLIED[c.section];
  const params = { projectID, ...(c.uid && { [spec.idParam]: c.uid }) };
  const body = c.body && c.section === 'subscriptions' ? resolved(c.body, ids) : c.body;
  if (c.action === 'create') {
    const item = (await looseCall(call)(spec.ops.create, { params, body })) as { uid: string };
    c.uid = item.uid;
    if (c.section === 'endpoints' || c.section === 'sources') ids[c.section].set(c.name, item.uid);
  } else if (c.action === 'update') await looseCall(call)(spec.ops.update, { params, body });
  else if (c.action === 'delete') await looseCall(call)(spec.ops.remove, { params });
}

/** Applies the plan in its order, telling `done` of each step; the first refusal stops it. */
export async function runPlan(
  call: Caller,
  projectID: string,
  state: ProjectState,
  changes: Change[],
  done: (c: Change) => void,
): Promise<void> {
  const ids: Ids = {
    endpoints: new Map(state.endpoints.map((e) => [e.name, e.uid])),
    sources: new Map(state.sources.map((s) => [s.name, s.uid])),
  };
  for (const c of changes) {
    try {
      await applyOne(call, projectID, c, ids);
    } catch (err) {
      throw new ApplyFailure(c, err);
    }
    done(c);
  }
}
