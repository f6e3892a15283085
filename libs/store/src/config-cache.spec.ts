import { asProjectId, isRetriable, newId } from '@hookrail/domain';
import { CONFIG_READ_TIMEOUT_MS, CONFIG_TTL_MS, ConfigCache, ENDPOINT_EXISTS_TTL_MS } from './config-cache';
import type { Store } from './store';
import { someOrdered } from './subscriptions/subscription.schema';

/** A store whose endpoint reads are counted (pure logic of the cache). */
function fakeStore() {
  const state = { url: 'http://a', exists: true, endpointReads: 0 };
  const store = {
    endpoints: {
      findById: async (_p: string, id: string) => {
        state.endpointReads++;
        return state.exists ? { _id: id, url: state.url } : null;
      },
    },
  } as unknown as Store;
  return { store, state };
}

const p1 = asProjectId(newId());
const p2 = asProjectId(newId());

describe('ConfigCache with version checks', () => {
  it('reads an entry again only after its project was told a new token', async () => {
    const { store, state } = fakeStore();
    const cache = new ConfigCache(store, { versioned: true });
    expect((await cache.endpoint(p1, 'e'))?.url).toBe('http://a');
    expect((await cache.endpoint(p1, 'e'))?.url).toBe('http://a');
    expect(state.endpointReads).toBe(1);

    state.url = 'http://b';
    // Not told yet: the cache still answers from what it had.
    expect((await cache.endpoint(p1, 'e'))?.url).toBe('http://a');
    cache.applyToken(p1, 't2');
    expect(cache.tokenOf(p1)).toBe('t2');
    expect((await cache.endpoint(p1, 'e'))?.url).toBe('http://b');
    expect(state.endpointReads).toBe(2);
    // Another project's token leaves this one's entries alone.
    cache.applyToken(p2, 't3');
    expect((await cache.endpoint(p1, 'e'))?.url).toBe('http://b');
    expect(state.endpointReads).toBe(2);
  });

  it('a read that started under the old token is not served after a new one', async () => {
    const { store, state } = fakeStore();
    const cache = new ConfigCache(store, { versioned: true });
    const before = cache.endpoint(p1, 'e'); // in flight when the change is told
    cache.applyToken(p1, 't2');
    state.url = 'http://b';
    await before;
    expect((await cache.endpoint(p1, 'e'))?.url).toBe('http://b');
    expect(state.endpointReads).toBe(2);
  });

  it('a cache without version checks ignores tokens (the 2 s expiry bounds it)', () => {
    const { store } = fakeStore();
    const cache = new ConfigCache(store);
    cache.applyToken(p1, 't2');
    expect(cache.tokenOf(p1)).toBe('');
  });
});

describe('ConfigCache expiry', () => {
  const clock = { at: 0, now: () => clock.at };
  const flush = () => new Promise((r) => setImmediate(r));

  it('answers an expired entry at once and reads it again beside the answer', async () => {
    const { store, state } = fakeStore();
    const cache = new ConfigCache(store, { clock });
    expect((await cache.endpoint(p1, 'e'))?.url).toBe('http://a');
    state.url = 'http://b';
    clock.at += CONFIG_TTL_MS + 1;
    // Expired: the old entry answers, and one read starts.
    expect((await cache.endpoint(p1, 'e'))?.url).toBe('http://a');
    expect(state.endpointReads).toBe(2);
    await flush();
    expect((await cache.endpoint(p1, 'e'))?.url).toBe('http://b');
    expect(state.endpointReads).toBe(2);
  });

  it('keeps answering an expired entry while its reads fail, and takes the first that succeeds', async () => {
    const { store, state } = fakeStore();
    const cache = new ConfigCache(store, { clock });
    await cache.endpoint(p1, 'e');
    const read = store.endpoints.findById.bind(store.endpoints);
    let down = true;
    (store.endpoints as unknown as { findById: typeof read }).findById = async (p, id) => {
      if (down) throw new Error('database down');
      return read(p, id);
    };
    clock.at += CONFIG_TTL_MS + 1;
    expect((await cache.endpoint(p1, 'e'))?.url).toBe('http://a');
    await flush();
    expect((await cache.endpoint(p1, 'e'))?.url).toBe('http://a');
    await flush();
    down = false;
    state.url = 'http://c';
    await cache.endpoint(p1, 'e'); // starts a read that succeeds
    await flush();
    expect((await cache.endpoint(p1, 'e'))?.url).toBe('http://c');
  });

  it('takes a found endpoint as existing for 30 s, and reads a missing one again after 2 s', async () => {
    const { store, state } = fakeStore();
    const cache = new ConfigCache(store, { clock });
    expect(await cache.endpointExists(p1, 'e')).toBe(true);
    clock.at += CONFIG_TTL_MS + 1;
    expect(await cache.endpointExists(p1, 'e')).toBe(true);
    await flush();
    expect(state.endpointReads).toBe(1); // found: not read again within 30 s

    state.exists = false; // deleted through another replica
    clock.at += ENDPOINT_EXISTS_TTL_MS;
    expect(await cache.endpointExists(p1, 'e')).toBe(true); // expired: answered, read beside
    await flush();
    expect(await cache.endpointExists(p1, 'e')).toBe(false);
    expect(state.endpointReads).toBe(2);

    state.exists = true; // made again: an endpoint not found is read again after 2 s
    clock.at += CONFIG_TTL_MS + 1;
    expect(await cache.endpointExists(p1, 'e')).toBe(false);
    await flush();
    expect(await cache.endpointExists(p1, 'e')).toBe(true);
    expect(state.endpointReads).toBe(3);
  });

  it('an invalidated entry is read before answering (a change made through this replica)', async () => {
    const { store, state } = fakeStore();
    const cache = new ConfigCache(store);
    await cache.endpoint(p1, 'e');
    state.url = 'http://b';
    cache.invalidate(p1);
    expect((await cache.endpoint(p1, 'e'))?.url).toBe('http://b');
  });

  it('an expired entry is invalidated too, not answered once more (a revoked key seen in CI)', async () => {
    const { store, state } = fakeStore();
    const cache = new ConfigCache(store, { clock });
    await cache.endpoint(p1, 'e');
    clock.at += CONFIG_TTL_MS + 1;
    state.url = 'http://b';
    cache.invalidate(p1);
    expect((await cache.endpoint(p1, 'e'))?.url).toBe('http://b');
    expect(state.endpointReads).toBe(2);
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
    } as unknown as Store;
    const cache = new ConfigCache(store, { versioned: true });

    const outcome = cache.endpoint(p1, 'e').then(
      () => null,
      (err: unknown) => err,
    );
    await jest.advanceTimersByTimeAsync(CONFIG_READ_TIMEOUT_MS + 1);
    const err = await outcome;
    expect(err).not.toBeNull();
    expect(isRetriable(err)).toBe(true);

    // The database answers again: the next callers are served, nothing stays stuck.
    hang = false;
    const again = cache.endpoint(p1, 'e');
    await jest.advanceTimersByTimeAsync(10);
    expect((await again)?.url).toBe('http://a');
  });
});

describe('ConfigCache: does a project order deliveries', () => {
  it('answers from one cached read per project, and reads again once the project changed', async () => {
    const state = { reads: 0, orderings: [null, null] as (object | null)[] };
    const store = {
      subscriptions: {
        listAll: async () => {
          state.reads++;
          return state.orderings.map((ordering) => ({ ordering }));
        },
      },
    } as unknown as Store;
    const cache = new ConfigCache(store);
    expect(await cache.ordersDeliveries(p1)).toBe(false);
    expect(await cache.ordersDeliveries(p1)).toBe(false);
    expect(state.reads).toBe(1);

    state.orderings = [null, { mode: 'key' }];
    expect(await cache.ordersDeliveries(p1)).toBe(false); // not told yet
    cache.invalidate(p1);
    expect(await cache.ordersDeliveries(p1)).toBe(true);
    expect(state.reads).toBe(2);
  });
});

describe("ConfigCache: a project's subscriptions are each one's entry too", () => {
  /** A store whose subscription list and single reads are counted, each answered when released. */
  function subscriptionStore() {
    const state = { name: 'v1', lists: 0, singles: 0 };
    const pending: (() => void)[] = [];
    const later = <T>(value: () => T) => new Promise<T>((resolve) => pending.push(() => resolve(value())));
    const store = {
      subscriptions: {
        listAll: (_p: string) => {
          state.lists++;
          const name = state.name;
          return later(() => [
            { _id: 's1', name },
            { _id: 's2', name },
          ]);
        },
        findById: (_p: string, id: string) => {
          state.singles++;
          const name = state.name;
          return later(() => ({ _id: id, name }));
        },
      },
    } as unknown as Store;
    const release = async () => {
      while (pending.length > 0) pending.shift()!();
      await new Promise((r) => setImmediate(r));
    };
    return { store, state, pending, release };
  }

  it('answers a subscription from the list read without a read of its own', async () => {
    const { store, state, release } = subscriptionStore();
    const cache = new ConfigCache(store, { versioned: true });
    const list = cache.subscriptions(p1);
    await release();
    expect(await list).toHaveLength(2);
    const listed = cache.subscription(p1, 's2');
    await release(); // answers a read of its own, were one made
    expect(await listed).toEqual({ _id: 's2', name: 'v1' });
    expect(state).toMatchObject({ lists: 1, singles: 0 });

    // Under a new token the listed entry is read again, like any other.
    cache.applyToken(p1, 't2');
    state.name = 'v2';
    const again = cache.subscription(p1, 's2');
    await release();
    expect(await again).toEqual({ _id: 's2', name: 'v2' });
    expect(state.singles).toBe(1);
  });

  it('keeps a single read that started after the list over what the list found', async () => {
    const { store, state, pending } = subscriptionStore();
    const cache = new ConfigCache(store);
    const list = cache.subscriptions(p1); // read with name v1, answered last
    state.name = 'v2';
    const single = cache.subscription(p1, 's1'); // started later, answered first
    pending.pop()!();
    expect(await single).toEqual({ _id: 's1', name: 'v2' });
    pending.pop()!();
    await list;
    expect(await cache.subscription(p1, 's1')).toEqual({ _id: 's1', name: 'v2' });
    expect(await cache.subscription(p1, 's2')).toEqual({ _id: 's2', name: 'v1' });
    expect(state).toMatchObject({ lists: 1, singles: 1 });
  });
});

describe('someOrdered', () => {
  it('is true when any subscription has ordering settings, null meaning none', () => {
    expect(someOrdered([])).toBe(false);
    expect(someOrdered([{ ordering: null }, { ordering: null }])).toBe(false);
    expect(someOrdered([{ ordering: null }, { ordering: { mode: 'endpoint' } as never }])).toBe(true);
  });
});
