import { NotFoundError, ValidationError, type ProjectId } from '@hookrail/domain';
import type { OrderingKeyDoc } from '@hookrail/store';
import type { UnblockKeyBody } from '@hookrail/api-contract';
import type { GatewayDeps } from '../deps';
import { getEndpoint } from './endpoints.usecase';

/** A blocked key as the API shows it, with how many deliveries wait behind its head. */
export interface BlockedKey {
  doc: OrderingKeyDoc;
  held: number;
}

/** The endpoint's blocked keys, oldest key first, each with its held count. */
export async function listBlockedKeys(
  deps: GatewayDeps,
  projectId: ProjectId,
  endpointId: string,
): Promise<BlockedKey[]> {
  await getEndpoint(deps, projectId, endpointId);
  const docs = await deps.store.ordering.ofEndpoint(projectId, endpointId);
  return Promise.all(
    docs.map(async (doc) => ({
      doc,
      held: await deps.store.ordering.countHeld(projectId, endpointId, doc.key),
    })),
  );
}

/**
 * Asks the dispatcher that owns the endpoint to skip the key's head (docs/ordered-delivery.md):
 * a request, carried out by its sweep, because only the owner may move the key. 404 when the key
 * is not blocked; 400 naming `head_delivery_id` when another delivery is its head by now.
 */
export async function requestUnblock(
  deps: GatewayDeps,
  projectId: ProjectId,
  endpointId: string,
  body: UnblockKeyBody,
): Promise<BlockedKey> {
  await getEndpoint(deps, projectId, endpointId);
  const current = await deps.store.ordering.findKey(projectId, endpointId, body.key);
  if (!current) throw new NotFoundError('blocked key');
  if (current.head !== body.head_delivery_id)
    throw new ValidationError(`head_delivery_id: the key's head is ${current.head} now`, [
      { field: 'head_delivery_id', message: `is not the key's head (${current.head} is)` },
    ]);
  if (!(await deps.store.ordering.requestSkip(projectId, endpointId, body.key, current.head)))
    throw new NotFoundError('blocked key');
  const doc = (await deps.store.ordering.findKey(projectId, endpointId, body.key)) ?? current;
  deps.logger.info(
    { project_id: projectId, endpoint_id: endpointId, key: body.key, delivery_id: current.head },
    'ordering key unblock requested',
  );
  return { doc, held: await deps.store.ordering.countHeld(projectId, endpointId, body.key) };
}

export function presentBlockedKey({ doc, held }: BlockedKey) {
  return {
    key: doc.key,
    head_delivery_id: doc.head,
    held,
    blocked_since: doc.blocked_since.toISOString(),
    head_status: doc.head_status ?? null,
    skip_requested_at: doc.skip_requested_at ? doc.skip_requested_at.toISOString() : null,
  };
}
