import { hash } from 'node:crypto';
import { boundedLru } from '@hookrail/toolbox';
import type { OAuth2Config, OAuth2TokenResult } from './oauth2.types';

type Fetch = (config: OAuth2Config) => Promise<OAuth2TokenResult>;
type Token = Extract<OAuth2TokenResult, { success: true }>;

/** Refresh this long before expiry: a tenth of the lifetime, at most 60 s. */
export function refreshSkewMs(lifetimeMs: number): number {
  return Math.min(60_000, Math.max(0, lifetimeMs / 10));
}

/**
 * Tokens per endpoint, reused until shortly before they expire. Concurrent callers for the same
 * endpoint share one in-flight request (single flight), so a burst of deliveries costs one token
 * fetch. The key includes a hash of the configuration: editing the endpoint's oauth2 settings
 * fetches a new token at once. Failures are not cached.
 */
export class OAuth2TokenCache {
  private readonly tokens = boundedLru<string, Token & { fetchedAtMs: number }>(10_000);
  private readonly inFlight = new Map<string, Promise<OAuth2TokenResult>>();

  constructor(
    private readonly fetch: Fetch,
    private readonly now: () => number = Date.now,
  ) {}

  async get(endpointId: string, config: OAuth2Config): Promise<OAuth2TokenResult> {
    const key = `${endpointId}:${hash('sha256', JSON.stringify(config), 'base64url')}`;
    const cached = this.tokens.get(key);
    if (cached) {
      const lifetime = cached.expiresAtMs - cached.fetchedAtMs;
      if (this.now() < cached.expiresAtMs - refreshSkewMs(lifetime)) return cached;
      this.tokens.delete(key);
    }
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const fetchedAtMs = this.now();
    const request = this.fetch(config)
      .then((result) => {
        if (result.success) this.tokens.set(key, { ...result, fetchedAtMs });
        return result;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, request);
    return request;
  }
}
