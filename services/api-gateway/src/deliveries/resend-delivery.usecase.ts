import { ConflictError, NotFoundError, type ProjectId } from '@hookrail/domain';
import { resendDelivery, type OperationDeps, type ResendMode } from '@hookrail/operations';
import type { DeliveryDoc } from '@hookrail/store';

/**
 * The API's and the portal's single-delivery resend: the rules live in libs/operations; this maps
 * its outcome to the gateway's errors (404 unknown, 409 not resendable in its status).
 */
export async function resendDeliveryOrThrow(
  deps: OperationDeps,
  projectId: ProjectId,
  deliveryId: string,
  mode: ResendMode = 'resend',
): Promise<DeliveryDoc> {
  const outcome = await resendDelivery(deps, projectId, deliveryId, mode);
  switch (outcome.kind) {
    case 'resent':
      return outcome.delivery;
    case 'not_found':
      throw new NotFoundError('event delivery');
    case 'not_resendable':
      throw new ConflictError(
        `an event delivery in status ${outcome.status} cannot be ${mode === 'force' ? 'force ' : ''}resent` +
          (mode === 'resend' && outcome.status === 'Success' ? ' (use force resend)' : ''),
      );
  }
}
