import { ConflictError, NotFoundError } from '@hookrail/domain';
import type { DeliveryDoc, DeliveryStatus } from '@hookrail/store';
import type { GatewayDeps } from '../deps';

/** Resend from a final failure; force resend also from Success (spec/behaviour.md, "Manual"). */
const RESENDABLE: Record<'resend' | 'force', readonly DeliveryStatus[]> = {
  resend: ['Failure', 'Discarded'],
  force: ['Failure', 'Discarded', 'Success'],
};

/**
 * Sends a delivery again at once: back to `Scheduled` (the sender skips final statuses), then a
 * `resend` message on `deliveries`. Retries stay the delivery's own; the attempt history is kept.
 */
export async function resendDelivery(
  deps: Pick<GatewayDeps, 'store' | 'publisher'>,
  projectId: string,
  deliveryId: string,
  mode: 'resend' | 'force' = 'resend',
): Promise<DeliveryDoc> {
  const delivery = await deps.store.deliveries.findById(projectId, deliveryId);
  if (!delivery) throw new NotFoundError('event delivery');
  if (!RESENDABLE[mode].includes(delivery.status))
    throw new ConflictError(
      `an event delivery in status ${delivery.status} cannot be ${mode === 'force' ? 'force ' : ''}resent`,
    );
  const updated = await deps.store.deliveries.update(projectId, deliveryId, {
    status: 'Scheduled',
    status_reason: null,
    next_attempt_at: null,
  });
  if (!updated) throw new NotFoundError('event delivery');
  await deps.publisher.publish('deliveries', [
    {
      delivery_id: deliveryId,
      project_id: projectId,
      endpoint_id: delivery.endpoint_id,
      event_id: delivery.event_id,
      reason: 'resend',
    },
  ]);
  return updated;
}
