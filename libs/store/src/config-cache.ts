import type { LRUCache } from 'lru-cache';
import pTimeout from 'p-timeout';
import type { ApiKeyDoc } from './api-keys/api-key.schema';
import type { EndpointDoc } from './endpoints/endpoint.schema';
import { DEFAULT_PROJECT_CONFIG, type ProjectDoc } from './projects/project.schema';
import type { Store } from './store';
import { someOrdered, type SubscriptionDoc } from './subscriptions/subscription.schema';
import { UnavailableError, type ProjectId } from '@hookrail/domain';
import { boundedLru } from '@hookrail/toolbox';

/**
 * Without version checks, a change is seen by the first use after this long has passed (that use
 * is still answered from the old entry while it is read again; documented).
 */
export const CONFIG_TTL_MS = 2000;
/**
 * With version checks an entry is current until its project's token changes; this bounds how long
 * a write made outside the API (a script writing the database directly) can go unseen.
 */
const VERSIONED_CONFIG_TTL_MS = 30_000;
/**
 * A read that has not answered by then fails (retriable). Every caller of a key waits on one
 * shared read: a read that never settled (a connection lost mid-request) would stall routing and
 * sending for good.
 */
export const CONFIG_READ_TIMEOUT_MS = 10_000;
/**
 * How long `endpointExists` takes a found endpoint as existing before reading it again; one not
 * found is read again after the cache's own expiry, like any entry.
 */
export const ENDPOINT_EXISTS_TTL_MS = 30_000;
/** The token of a project whose configuration has not changed since this process started. */
export const INITIAL_CONFIG_TOKEN = '';

export interface ConfigCacheOptions {
  /**
   * Entries are current until the project's configuration token changes (`applyToken`, told by
   * the configuration barriers on the dispatcher's topics): an entry loaded under an older token
   * is read again. The dispatcher uses this so no message published after a configuration change
   * returned is handled with the old configuration, without a database read per message.
   */
  versioned?: boolean;
  /** The clock entries expire by (tests). */
  clock?: { now(): number };
}

/** What was read, under which token, and when (on the cache's clock). */
type Cached<T> = { value: T; token: string; readAt: number };
type Loading = { promise: Promise<unknown>; token: string };
/** How a kind of entry differs from the cache's defaults. */
interface EntryRules<T> {
  /**
   * Entries of other keys found in what was read (a list's items), kept under the same token and
   * time unless their key holds a later read.
   */
  members?(value: T): [string, unknown][];
  /** How long this value stays current, when not the cache's expiry. */
  ttlMs?(value: T): number;
}
/** Shared, so a cache hit allocates nothing for its rules. */
const DEFAULT_RULES: EntryRules<never> = {};

/**
 * Read-through caches of API keys, projects, endpoints and subscriptions: the hot paths (the events
 * API, routing, sending) read them per event and per delivery. Concurrent misses for one key share
 * one query. A replica that changes a project's settings calls `invalidate`, so its own next
 * request sees the change. Other replicas see it within CONFIG_TTL_MS, or, with `versioned`, as
 * soon as they are told the project's new token.
 */
export class ConfigCache {
  private readonly cache: LRUCache<string, Cached<unknown>>;
  private readonly loading = new Map<string, Loading>();
  private readonly versioned: boolean;
  private readonly ttlMs: number;
  private readonly clock: { now(): number };
  /** The newest token told per project (versioned caches). */
  private readonly tokens = boundedLru<string, string>(100_000);
  /** endpointExists: a found endpoint stays current longer than one not found. */
  private readonly existsRules: EntryRules<boolean> = {
    ttlMs: (found) => (found ? ENDPOINT_EXISTS_TTL_MS : this.ttlMs),
  };

  constructor(
    private readonly store: Store,
    opts: ConfigCacheOptions = {},
  ) {
    this.versioned = opts.versioned ?? false;
    this.ttlMs = this.versioned ? VERSIONED_CONFIG_TTL_MS : CONFIG_TTL_MS;
    this.clock = opts.clock ?? performance;
    // Expiry is the entries' own (readAt), not lru-cache's ttl: an expired entry stays until it is
    // read again (see get) and invalidate sees every entry. Asking lru-cache whether an entry was
    // stale took a status object per read, which it filled with six fields; the dispatcher reads
    // six entries per routed event.
    this.cache = boundedLru(50_000);
  }

  /**
   * The project's configuration changed (a configuration barrier): entries read under another
   * token are read again on their next use.
   */
  applyToken(projectId: ProjectId, token: string): void {
    if (this.versioned) this.tokens.set(projectId, token);
  }

  /** The token the next reads of the project are checked against (sent along with routed deliveries). */
  tokenOf(projectId: ProjectId): string {
    return this.tokens.get(projectId) ?? INITIAL_CONFIG_TOKEN;
  }

  /** A live API key by its id (the part of the token before the secret). */
  apiKey(keyId: string): Promise<ApiKeyDoc | null> {
    return this.get(`k:${keyId}`, null, () => this.store.apiKeys.findByKeyId(keyId));
  }

  project(projectId: ProjectId): Promise<ProjectDoc | null> {
    return this.get(`p:${projectId}`, projectId, async () => {
      const p = await this.store.projects.findById(projectId);
      return p ? { ...p, config: { ...DEFAULT_PROJECT_CONFIG, ...(p.config ?? {}) } } : null;
    });
  }

  endpoint(projectId: ProjectId, endpointId: string): Promise<EndpointDoc | null> {
    return this.get(`e:${projectId}:${endpointId}`, projectId, () =>
      this.store.endpoints.findById(projectId, endpointId),
    );
  }

  /**
   * Whether the endpoint exists: the intake's check of an event's target (events API, broker
   * sources). A found endpoint stays found for ENDPOINT_EXISTS_TTL_MS: with the cache's 2 s, every
   * event to an endpoint quieter than that cost the gateway a read, and a thousand endpoints took
   * the database server's core. An endpoint deleted through another replica so takes events for
   * up to 30 s more; the router reads under configuration barriers and records them as reaching
   * no endpoint. One not found is read again after 2 s, so a new endpoint is taken as soon.
   */
  endpointExists(projectId: ProjectId, endpointId: string): Promise<boolean> {
    return this.get(
      `x:${projectId}:${endpointId}`,
      projectId,
      async () => (await this.store.endpoints.findById(projectId, endpointId)) !== null,
      this.existsRules,
    );
  }

  subscription(projectId: ProjectId, subscriptionId: string): Promise<SubscriptionDoc | null> {
    return this.get(`s:${projectId}:${subscriptionId}`, projectId, () =>
      this.store.subscriptions.findById(projectId, subscriptionId),
    );
  }

  /**
   * Whether some subscription of the project orders its deliveries (`someOrdered`): asked for
   * every accepted event, so the answer is cached itself rather than found again in the list.
   */
  ordersDeliveries(projectId: ProjectId): Promise<boolean> {
    return this.get(`so:${projectId}`, projectId, async () =>
      someOrdered(await this.store.subscriptions.listAll(projectId)),
    );
  }

  /**
   * Every live subscription of a project (routing filters them in memory). Each one read is also
   * kept as `subscription`'s entry: the sender asks for the subscription of every delivery the
   * router just made from this list, and a new endpoint's first delivery would otherwise wait for
   * a read of its own.
   */
  subscriptions(projectId: ProjectId): Promise<SubscriptionDoc[]> {
    return this.get(`ss:${projectId}`, projectId, () => this.store.subscriptions.listAll(projectId), {
      members: (subs) => subs.map((sub) => [`s:${projectId}:${sub._id}`, sub]),
    });
  }

  endpointIdsOfOwner(projectId: ProjectId, ownerId: string): Promise<Set<string>> {
    return this.get(`o:${projectId}:${ownerId}`, projectId, async () => {
      const eps = await this.store.endpoints.listByOwner(projectId, ownerId);
      return new Set(eps.map((e) => e._id));
    });
  }

  /** Forget everything of a project, its API keys included (something of it changed). */
  invalidate(projectId: ProjectId): void {
    for (const [key, entry] of this.cache.entries()) {
      const keyOfProject =
        key.startsWith('k:') && (entry.value as ApiKeyDoc | null)?.project_id === projectId;
      if (keyOfProject || key.includes(`:${projectId}`)) this.cache.delete(key);
    }
  }

  private get<T>(
    key: string,
    projectId: ProjectId | null,
    load: () => Promise<T>,
    rules: EntryRules<T> = DEFAULT_RULES,
  ): Promise<T> {
    // The token is taken before the load starts: an entry is never newer than the token it carries.
    const token = this.versioned && projectId ? this.tokenOf(projectId) : INITIAL_CONFIG_TOKEN;
    const hit = this.cache.get(key) as Cached<T> | undefined;
    if (hit && hit.token === token) {
      // Expired: answered from what was read, and read again beside it, so a request never
      // waits on the database for an entry it had (a busy database would stall every caller of
      // the key at each expiry). A failed read is tried again by the next caller.
      if (this.clock.now() - hit.readAt > (rules.ttlMs?.(hit.value) ?? this.ttlMs))
        this.load(key, token, load, rules).catch(() => undefined);
      return Promise.resolve(hit.value);
    }
    return this.load(key, token, load, rules);
  }

  /** One read per key and token at a time, shared by every caller. */
  private load<T>(
    key: string,
    token: string,
    load: () => Promise<T>,
    { members }: EntryRules<T>,
  ): Promise<T> {
    const pending = this.loading.get(key);
    if (pending && pending.token === token) return pending.promise as Promise<T>;
    const readAt = this.clock.now();
    const p = pTimeout(load(), {
      milliseconds: CONFIG_READ_TIMEOUT_MS,
      fallback: () => {
        throw new UnavailableError(`reading ${key}: no answer within ${CONFIG_READ_TIMEOUT_MS} ms`);
      },
    })
      .then((value) => {
        this.cache.set(key, { value, token, readAt });
        for (const [k, v] of members?.(value) ?? [])
          if ((this.cache.get(k)?.readAt ?? -Infinity) <= readAt)
            this.cache.set(k, { value: v, token, readAt });
        return value;
      })
      .finally(() => {
        if (this.loading.get(key)?.promise === p) this.loading.delete(key);
      });
    this.loading.set(key, { promise: p, token });
    return p;
  }
}
