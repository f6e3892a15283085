import type { ProjectId } from '@hookrail/domain';
import type { DeliveryDoc, EventDoc, ScopedId, Store } from '@hookrail/store';
import { Coalescer } from '@hookrail/toolbox';

/** What a delivery sent again (retry, resend, release) reads before its attempt. */
export interface SendReads {
  delivery(projectId: ProjectId, id: string): Promise<DeliveryDoc | null>;
  event(projectId: ProjectId, id: string): Promise<EventDoc | null>;
}

/**
 * The reads of deliveries sent again, coalesced: the reads of many retries due at once (a
 * thousand a second when endpoints fail) are one round trip per batch instead of one each, on the
 * database every tenant's writes share.
 */
export function coalescedSendReads(store: Store): SendReads {
  const deliveries = new Coalescer<ScopedId, DeliveryDoc | null>((refs) =>
    store.deliveries.findManyForSend(refs),
  );
  const events = new Coalescer<ScopedId, EventDoc | null>((refs) => store.events.findManyForSend(refs));
  return {
    delivery: (projectId, id) => deliveries.submit({ projectId, id }),
    event: (projectId, id) => events.submit({ projectId, id }),
  };
}
