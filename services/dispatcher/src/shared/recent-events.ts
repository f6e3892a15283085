import { LRUCache } from 'lru-cache';
import type { EventDoc, Store } from '@hookrail/store';

/** What the sender needs of an event to build the request. */
export interface EventForDelivery {
  _id: string;
  event_type: string;
  raw: string;
  forward_headers_json: string;
  idempotency_key: string | null;
  acknowledged_at: Date | null;
}

/**
 * Events this process just routed: the sender stage of the same process usually delivers them
 * moments later, so it reads them from memory instead of MongoDB. Misses fall back to the store.
 */
export class RecentEvents {
  private readonly cache = new LRUCache<string, EventForDelivery>({ max: 20_000, ttl: 120_000 });

  constructor(private readonly store: Store) {}

  remember(projectId: string, e: EventForDelivery): void {
    this.cache.set(`${projectId}:${e._id}`, e);
  }

  async get(projectId: string, eventId: string): Promise<EventForDelivery | null> {
    const hit = this.cache.get(`${projectId}:${eventId}`);
    if (hit) return hit;
    const doc: EventDoc | null = await this.store.events.findById(projectId, eventId);
    return doc;
  }
}
