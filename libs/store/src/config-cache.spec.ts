import { asProjectId, isRetriable, newId } from '@hookrail/domain';
import { CONFIG_READ_TIMEOUT_MS, ConfigCache } from './config-cache';
import type { Store } from './store';

/** A store whose endpoint reads and version reads are counted (pure logic of the cache). */
function fakeStore() {
  const state = { token: '', url: 'http://a', endpointReads: 0, versionReads: [] as string[][] };
  const store = {
    endpoints: {
      findById: async (_p: string, id: string) => {
        state.endpointReads++;
        return { _id: id, url: state.url };
      },
    },
    configVersions: {
      read: async (ids: string[]) => {
        state.versionReads.push([...ids]);
        return new Map(ids.map((id) => [id, state.token]));
      },
    },
  } as unknown as Store;
  return { store, state };
}

const p1 = asProjectId(newId());
const p2 = asProjectId(newId());

describe('ConfigCache with version checks', () => {
  it('reads an entry again only after its project token changed', async () => {
    const { store, state } = fakeStore();
    const cache = new ConfigCache(store, { versioned: true });
    await cache.sync(p1);
    expect((await cache.endpoint(p1, 'e'))?.url).toBe('http://a');
    await cache.sync(p1);
    expect((await cache.endpoint(p1, 'e'))?.url).toBe('http://a');
    expect(state.endpointReads).toBe(1);

    state.url = 'http://b';
    state.token = 't2';
    // Not synced yet: the cache still answers from what it had.
    expect((await cache.endpoint(p1, 'e'))?.url).toBe('http://a');
    await cache.sync(p1);
    expect(cache.tokenOf(p1)).toBe('t2');
    expect((await cache.endpoint(p1, 'e'))?.url).toBe('http://b');
    expect(state.endpointReads).toBe(2);
  });

  it('answers concurrent syncs of many projects with one query', async () => {
    const { store, state } = fakeStore();
    const cache = new ConfigCache(store, { versioned: true });
    await Promise.all([cache.sync(p1), cache.sync(p2), cache.sync(p1)]);
    expect(state.versionReads).toEqual([[p1, p2]]);
  });

  it('a sync called while a query is running waits for the next query, issued after it', async () => {
    const { store, state } = fakeStore();
    const cache = new ConfigCache(store, { versioned: true });
    const first = cache.sync(p1);
    await new Promise((r) => setImmediate(r)); // the first query is on its way
    state.token = 't2';
    const second = cache.sync(p1);
    await first;
    await second;
    expect(state.versionReads).toHaveLength(2);
    expect(cache.tokenOf(p1)).toBe('t2');
  });

  it('a failed version query fails the syncs waiting for it and the next one tries again', async () => {
    const { store, state } = fakeStore();
    const read = store.configVersions.read.bind(store.configVersions);
    let fail = true;
    (store.configVersions as unknown as { read: typeof read }).read = async (ids) => {
      if (fail) throw new Error('database down');
      return read(ids);
    };
    const cache = new ConfigCache(store, { versioned: true });
    await expect(cache.sync(p1)).rejects.toThrow('database down');
    fail = false;
    state.token = 't3';
    await cache.sync(p1);
    expect(cache.tokenOf(p1)).toBe('t3');
  });

  it('without version checks, sync is free and entries live for the short TTL', async () => {
    const { store, state } = fakeStore();
    const cache = new ConfigCache(store);
    await cache.sync(p1);
    expect(state.versionReads).toHaveLength(0);
    await cache.endpoint(p1, 'e');
    await cache.endpoint(p1, 'e');
    expect(state.endpointReads).toBe(1);
  });
});

describe('ConfigCache reads that never answer', () => {
  afterEach(() => jest.useRealTimers());

  it('fail after the read timeout instead of stalling every later caller', async () => {
    jest.useFakeTimers();
    let hang = true;
    const store = {
      endpoints: {
        findById: (_p: string, id: string) =>
          hang ? new Promise(() => undefined) : Promise.resolve({ _id: id, url: 'http://a' }),
      },
      configVersions: {
        read: (ids: string[]) =>
          hang ? new Promise(() => undefined) : Promise.resolve(new Map(ids.map((id) => [id, 't']))),
      },
    } as unknown as Store;
    const cache = new ConfigCache(store, { versioned: true });

    const synced = cache.sync(p1);
    const read = cache.endpoint(p1, 'e');
    const outcomes = Promise.allSettled([synced, read]);
    await jest.advanceTimersByTimeAsync(CONFIG_READ_TIMEOUT_MS + 1);
    const [s, r] = await outcomes;
    expect(s.status).toBe('rejected');
    expect(r.status).toBe('rejected');
    expect(isRetriable((s as PromiseRejectedResult).reason)).toBe(true);

    // The database answers again: the next callers are served, nothing stays stuck.
    hang = false;
    const again = Promise.all([cache.sync(p1), cache.endpoint(p1, 'e')]);
    await jest.advanceTimersByTimeAsync(10);
    const [, endpoint] = await again;
    expect(endpoint?.url).toBe('http://a');
    expect(cache.tokenOf(p1)).toBe('t');
  });
});
