import { OAuth2TokenCache, refreshSkewMs } from './token-cache';
import type { OAuth2Config, OAuth2TokenResult } from './oauth2.types';

const config: OAuth2Config = { url: 'https://auth.example/token', client_id: 'c', client_secret: 's' };

function fakeFetch(now: () => number, lifetimeMs = 3_600_000) {
  let n = 0;
  const fetch = jest.fn(async (): Promise<OAuth2TokenResult> => {
    n++;
    await new Promise((r) => setTimeout(r, 5));
    const expiresAtMs = now() + lifetimeMs;
    return {
      success: true,
      access_token: `t${n}`,
      token_type: 'Bearer',
      expires_at: new Date(expiresAtMs).toISOString(),
      expiresAtMs,
    };
  });
  return fetch;
}

describe('OAuth2 token cache', () => {
  it('fetches once for many concurrent callers of one endpoint (single flight)', async () => {
    const t = 1_000_000;
    const fetch = fakeFetch(() => t);
    const cache = new OAuth2TokenCache(fetch, () => t);
    const results = await Promise.all(Array.from({ length: 50 }, () => cache.get('ep1', config)));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(new Set(results.map((r) => (r.success ? r.access_token : '')))).toEqual(new Set(['t1']));
  });

  it('reuses a token until shortly before expiry, then fetches a new one', async () => {
    let t = 1_000_000;
    const fetch = fakeFetch(() => t, 100_000);
    const cache = new OAuth2TokenCache(fetch, () => t);
    await cache.get('ep1', config);
    t += 100_000 - refreshSkewMs(100_000) - 1;
    expect(await cache.get('ep1', config)).toMatchObject({ access_token: 't1' });
    t += 2;
    expect(await cache.get('ep1', config)).toMatchObject({ access_token: 't2' });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('keeps tokens per endpoint and per configuration', async () => {
    const t = 1_000_000;
    const fetch = fakeFetch(() => t);
    const cache = new OAuth2TokenCache(fetch, () => t);
    await cache.get('ep1', config);
    await cache.get('ep2', config);
    await cache.get('ep1', { ...config, scope: 'changed' });
    await cache.get('ep1', config);
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('does not cache failures', async () => {
    const fetch = jest.fn(async (): Promise<OAuth2TokenResult> => ({
      success: false,
      error: 'request_failed',
      message: 'down',
    }));
    const cache = new OAuth2TokenCache(fetch);
    await cache.get('ep1', config);
    await cache.get('ep1', config);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('refreshes a tenth of the lifetime early, never more than a minute', () => {
    expect(refreshSkewMs(10_000)).toBe(1_000);
    expect(refreshSkewMs(3_600_000)).toBe(60_000);
  });
});
