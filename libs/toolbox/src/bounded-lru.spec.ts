import { getHeapStatistics } from 'node:v8';
import { boundedLru } from './bounded-lru';

describe('boundedLru', () => {
  it('holds at most maxEntries, forgetting the least recently used', () => {
    const cache = boundedLru<string, number>(3);
    cache.set('a', 1).set('b', 2).set('c', 3);
    expect(cache.get('a')).toBe(1); // a is now the most recently used
    cache.set('d', 4);
    expect(cache.size).toBe(3);
    expect([...cache.keys()].sort()).toEqual(['a', 'c', 'd']);
    for (let i = 0; i < 1000; i++) cache.set(`k${i}`, i);
    expect(cache.size).toBe(3);
    expect([...cache.keys()].sort()).toEqual(['k997', 'k998', 'k999']);
  });

  it('keeps the options it is given (expiry, dispose)', () => {
    let now = 1000; // lru-cache reads a start time of 0 as "never expires"
    const disposed: string[] = [];
    const cache = boundedLru<string, string>(1, {
      ttl: 100,
      ttlResolution: 0,
      perf: { now: () => now },
      dispose: (_v, key) => disposed.push(key),
    });
    cache.set('a', 'x');
    now = 1050;
    expect(cache.get('a')).toBe('x');
    now = 1150;
    expect(cache.get('a')).toBeUndefined();
    cache.set('b', 'y').set('c', 'z');
    expect(disposed).toEqual(['a', 'b']);
  });

  it('allocates nothing for entries it does not hold', () => {
    const before = getHeapStatistics().used_heap_size;
    // lru-cache's own `max: 1_000_000` takes 23 MB of heap before any entry is set
    const caches = Array.from({ length: 4 }, () => boundedLru<string, number>(1_000_000));
    caches.forEach((c, i) => c.set('k', i));
    expect(getHeapStatistics().used_heap_size - before).toBeLessThan(2_000_000);
  });
});
