import type { DeliveryMessage, Publisher } from '@hookrail/bus';
import type { DeliveryDoc, DeliveryStatus, Store } from '@hookrail/store';
import type { ProjectId } from '@hookrail/domain';

export type ResendMode = 'resend' | 'force' | 'retry_now';

/**
 * Manual operations: resend from Failure/Discarded; force resend also from Success; retry now also
 * a delivery still in Retry (the portal): it is sent at once, and the retry already scheduled for
 * it is skipped if that send delivers it (or makes one more attempt, early, if it fails again).
 */
export const RESENDABLE: Record<ResendMode, readonly DeliveryStatus[]> = {
  resend: ['Failure', 'Discarded'],
  force: ['Failure', 'Discarded', 'Success'],
  retry_now: ['Failure', 'Discarded', 'Retry'],
};

export type ResendOutcome =
  | { kind: 'resent'; delivery: DeliveryDoc }
  | { kind: 'not_found' }
  | { kind: 'not_resendable'; status: DeliveryStatus };

export interface OperationDeps {
  store: Store;
  publisher: Publisher;
}

/**
 * Sends deliveries again through the normal pipeline: back to `Scheduled` (the sender skips final
 * statuses), then a `resend` message on `deliveries`, so every gate (paused, inactive, breaker,
 * rate limit) applies. The attempt history is kept.
 */
export async function resendDeliveries(
  deps: OperationDeps,
  projectId: ProjectId,
  ids: readonly string[],
  mode: ResendMode,
): Promise<Map<string, ResendOutcome>> {
  const found = await deps.store.deliveries.findByIds(projectId, [...new Set(ids)]);
  return resendLoaded(deps, projectId, found, ids, mode);
}

/** As `resendDeliveries`, for deliveries already loaded (batch retry by filter). */
export async function resendLoaded(
  deps: OperationDeps,
  projectId: ProjectId,
  found: readonly DeliveryDoc[],
  ids: readonly string[],
  mode: ResendMode,
): Promise<Map<string, ResendOutcome>> {
  const byId = new Map(found.map((d) => [d._id, d]));
  const outcomes = new Map<string, ResendOutcome>();
  const picked = new Map<string, DeliveryDoc>();
  for (const id of ids) {
    const d = byId.get(id);
    if (!d) outcomes.set(id, { kind: 'not_found' });
    else if (!RESENDABLE[mode].includes(d.status))
      outcomes.set(id, { kind: 'not_resendable', status: d.status });
    else picked.set(id, d);
  }
  const resend = [...picked.values()];
  const now = new Date();
  await deps.store.deliveries.markForResend(
    projectId,
    resend.map((d) => d._id),
    `manual ${mode}`,
  );
  const messages: DeliveryMessage[] = resend.map((d) => ({
    delivery_id: d._id,
    project_id: projectId,
    endpoint_id: d.endpoint_id,
    event_id: d.event_id,
    reason: 'resend',
  }));
  await deps.publisher.publish('deliveries', messages);
  for (const d of resend) {
    outcomes.set(d._id, {
      kind: 'resent',
      delivery: {
        ...d,
        status: 'Scheduled',
        status_reason: `manual ${mode}`,
        next_attempt_at: null,
        updated_at: now,
      },
    });
  }
  return outcomes;
}

/** One delivery (the API's resend and force resend of a single id). */
export async function resendDelivery(
  deps: OperationDeps,
  projectId: ProjectId,
  id: string,
  mode: ResendMode,
): Promise<ResendOutcome> {
  return (await resendDeliveries(deps, projectId, [id], mode)).get(id) as ResendOutcome;
}
