import { LRUCache } from 'lru-cache';
import type { ApiKeyDoc } from './api-keys/api-key.schema';
import type { EndpointDoc } from './endpoints/endpoint.schema';
import { DEFAULT_PROJECT_CONFIG, type ProjectDoc } from './projects/project.schema';
import type { Store } from './store';
import type { SubscriptionDoc } from './subscriptions/subscription.schema';
import type { ProjectId } from '@hookrail/domain';

/** Configuration is read on every event; this long a change may take to be seen (documented). */
export const CONFIG_TTL_MS = 2000;

type Cached<T> = { value: T | null };

/**
 * Short-lived read-through caches of API keys, projects, endpoints and subscriptions: the hot
 * paths (the events API, routing, sending) read them per event and per delivery. Concurrent misses
 * for one key share one query. A replica that changes a project's settings calls `invalidate`, so
 * its own next request sees the change; other replicas see it within CONFIG_TTL_MS.
 */
export class ConfigCache {
  private readonly cache = new LRUCache<string, Cached<unknown>>({ max: 50_000, ttl: CONFIG_TTL_MS });
  private readonly loading = new Map<string, Promise<unknown>>();

  constructor(private readonly store: Store) {}

  /** A live API key by its id (the part of the token before the secret). */
  apiKey(keyId: string): Promise<ApiKeyDoc | null> {
    return this.get(`k:${keyId}`, () => this.store.apiKeys.findByKeyId(keyId));
  }

  project(projectId: ProjectId): Promise<ProjectDoc | null> {
    return this.get(`p:${projectId}`, async () => {
      const p = await this.store.projects.findById(projectId);
      return p ? { ...p, config: { ...DEFAULT_PROJECT_CONFIG, ...(p.config ?? {}) } } : null;
    });
  }

  endpoint(projectId: ProjectId, endpointId: string): Promise<EndpointDoc | null> {
    return this.get(`e:${projectId}:${endpointId}`, () =>
      this.store.endpoints.findById(projectId, endpointId),
    );
  }

  subscription(projectId: ProjectId, subscriptionId: string): Promise<SubscriptionDoc | null> {
    return this.get(`s:${projectId}:${subscriptionId}`, () =>
      this.store.subscriptions.findById(projectId, subscriptionId),
    );
  }

  /** Every live subscription of a project (routing filters them in memory). */
  async subscriptions(projectId: ProjectId): Promise<SubscriptionDoc[]> {
    return (await this.get(`ss:${projectId}`, () => this.store.subscriptions.listAll(projectId))) ?? [];
  }

  async endpointIdsOfOwner(projectId: ProjectId, ownerId: string): Promise<Set<string>> {
    return (
      (await this.get(`o:${projectId}:${ownerId}`, async () => {
        const eps = await this.store.endpoints.listByOwner(projectId, ownerId);
        return new Set(eps.map((e) => e._id));
      })) ?? new Set()
    );
  }

  /** Forget everything of a project, its API keys included (something of it changed). */
  invalidate(projectId: ProjectId): void {
    for (const [key, entry] of this.cache.entries()) {
      const keyOfProject =
        key.startsWith('k:') && (entry.value as ApiKeyDoc | null)?.project_id === projectId;
      if (keyOfProject || key.includes(`:${projectId}`)) this.cache.delete(key);
    }
  }

  private async get<T>(key: string, load: () => Promise<T | null>): Promise<T | null> {
    const hit = this.cache.get(key) as Cached<T> | undefined;
    if (hit) return hit.value;
    const pending = this.loading.get(key) as Promise<T | null> | undefined;
    if (pending) return pending;
    const p = load()
      .then((value) => {
        this.cache.set(key, { value });
        return value;
      })
      .finally(() => this.loading.delete(key));
    this.loading.set(key, p);
    return p;
  }
}
