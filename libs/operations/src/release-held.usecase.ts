import type { RetryMessage } from '@hookrail/bus';
import { toTimestamp, type ProjectId } from '@hookrail/domain';
import type { OperationDeps } from './resend.usecase';

// Dispatchers see the activation at once (they sync the project's configuration token before each
// send), so this only spaces the release a little after the activation.
export const RELEASE_DELAY_MS = 3000;

/**
 * An activated endpoint's held deliveries (paused, inactive, circuit open: `Scheduled` with a
 * next attempt time) become due almost at once: a retry message supersedes each waiting entry in
 * the retry-scheduler, so delivery resumes within seconds instead of at the next re-check.
 * Deliveries waiting for a policy retry (`Retry`) keep their time.
 */
export async function releaseHeldDeliveries(
  deps: OperationDeps,
  projectId: ProjectId,
  endpointId: string,
  now = Date.now(),
): Promise<number> {
  const held = await deps.store.deliveries.listHeld(projectId, endpointId, 100_000);
  const dueAt = now + RELEASE_DELAY_MS;
  // Stored first: the sender takes a retry due before the stored next attempt for a stale copy.
  await deps.store.deliveries.releaseHeld(
    projectId,
    held.map((d) => d._id),
    new Date(dueAt),
  );
  const messages: RetryMessage[] = held.map((d) => ({
    delivery_id: d._id,
    project_id: projectId,
    endpoint_id: endpointId,
    event_id: d.event_id,
    due_at: toTimestamp(dueAt),
    reason: 'paused',
    kind: 'delivery',
  }));
  await deps.publisher.publish('retries', messages);
  return messages.length;
}
