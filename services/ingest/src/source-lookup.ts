import type { LRUCache } from 'lru-cache';
import {
  DEFAULT_EVENT_VALIDATION,
  DEFAULT_PROJECT_CONFIG,
  someOrdered,
  type EventValidationConfig,
  type ProjectDoc,
  type SourceDoc,
  type Store,
} from '@hookrail/store';
import { boundedLru } from '@hookrail/toolbox';

export interface IngestTarget {
  source: SourceDoc;
  maxPayloadBytes: number;
  /** The project's event_validation settings. */
  validation: EventValidationConfig;
  /** Some subscription of the project orders deliveries: events are keyed by project (docs/ordered-delivery.md). */
  ordered: boolean;
}

/**
 * Source (by mask id) and project limit and event validation settings, cached briefly: every ingest request needs them and a
 * source change is read again by the first request after `ttlMs` (which is still answered from the
 * old entry). Unknown masks are cached too, so a flood of
 * requests to a wrong URL does not reach MongoDB each time.
 */
export class SourceLookup {
  private readonly cache: LRUCache<string, { target: IngestTarget | null }>;

  constructor(
    private readonly store: Store,
    ttlMs = 2000,
  ) {
    this.cache = boundedLru(10_000, {
      ttl: ttlMs,
      // An expired entry answers while it is read again, so no request waits on the database for
      // a source it had (a busy database would stall every request of the source at each expiry).
      allowStale: true,
      noDeleteOnStaleGet: true,
      allowStaleOnFetchRejection: true,
      fetchMethod: async (maskId) => ({ target: await this.load(maskId) }),
    });
  }

  async find(maskId: string): Promise<IngestTarget | null> {
    const hit = await this.cache.fetch(maskId);
    return hit?.target ?? null;
  }

  forget(maskId: string): void {
    this.cache.delete(maskId);
  }

  private async load(maskId: string): Promise<IngestTarget | null> {
    const source = await this.store.sources.findByMaskId(maskId);
    if (!source) return null;
    const project: ProjectDoc | null = await this.store.projects.findById(source.project_id);
    if (!project || project.deleted_at) return null;
    const maxPayloadBytes = project.config?.max_payload_bytes ?? DEFAULT_PROJECT_CONFIG.max_payload_bytes;
    const subscriptions = await this.store.subscriptions.listAll(project._id);
    return {
      ordered: someOrdered(subscriptions),
      source,
      maxPayloadBytes,
      validation: project.config?.event_validation ?? DEFAULT_EVENT_VALIDATION,
    };
  }
}
