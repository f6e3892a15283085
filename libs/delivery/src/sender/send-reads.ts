import type { ProjectId } from '@hookrail/domain';
import type { DeliveryDoc, EventDoc, ScopedId, Store } from '@hookrail/store';
import { byteBoundedLru, Coalescer } from '@hookrail/toolbox';
import type { RetryStates } from './retry-states';

/** What a delivery sent again (retry, resend, release) reads before its attempt. */
export interface SendReads {
  delivery(projectId: ProjectId, id: string): Promise<DeliveryDoc | null>;
  event(projectId: ProjectId, id: string): Promise<EventDoc | null>;
}

/**
 * Events are never changed once stored, so the ones read lately are kept: a delivery retried ten
 * times reads its event once (deliveries are keyed by endpoint, so its retries come back to the
 * same dispatcher). Bounded in bytes of payload, within the dispatcher's memory limit.
 */
const EVENT_CACHE_BYTES = 16 * 1024 * 1024;
/** What an event holds besides its payload and headers, roughly. */
const EVENT_OVERHEAD_BYTES = 256;

/**
 * The reads of deliveries sent again, coalesced: the reads of many retries due at once (a
 * thousand a second when endpoints fail) are one round trip per batch instead of one each, on the
 * database every tenant's writes share. `retryStates`: what this process knows of its retried
 * deliveries, so that most are not read at all and the rest without their appended outcomes.
 */
export function coalescedSendReads(store: Store, retryStates?: RetryStates): SendReads {
  const deliveries = new Coalescer<ScopedId, DeliveryDoc | null>((refs) =>
    store.deliveries.findManyForSend(refs, retryStates?.known),
  );
  const events = new Coalescer<ScopedId, EventDoc | null>((refs) => store.events.findManyForSend(refs));
  const recentEvents = byteBoundedLru<string, EventDoc>(
    EVENT_CACHE_BYTES,
    (e) => e.raw.length + e.forward_headers_json.length + EVENT_OVERHEAD_BYTES,
  );
  return {
    delivery: async (projectId, id) => {
      const known = retryStates?.delivery({ projectId, id });
      return known ? { ...known } : deliveries.submit({ projectId, id });
    },
    event: async (projectId, id) => {
      const key = `${projectId}/${id}`;
      const cached = recentEvents.get(key);
      if (cached) return cached;
      const event = await events.submit({ projectId, id });
      if (event) recentEvents.set(key, event);
      return event;
    },
  };
}
