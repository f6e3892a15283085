import { LRUCache } from 'lru-cache';

type Options<K extends NonNullable<unknown>, V extends NonNullable<unknown>, FC> = Omit<
  LRUCache.Options<K, V, FC>,
  'max' | 'maxSize' | 'sizeCalculation' | 'maxEntrySize'
>;

/**
 * An LRU cache of at most `maxEntries` entries whose storage grows with what it holds.
 * lru-cache's `max` allocates its arrays for every entry up front (2.8 MB and 21 ms per 100,000
 * entries): the bounds here are sized for the largest deployments, so a dispatcher carried
 * ~28 MB of empty arrays and spent a tenth of its start-up on them. Counting each entry as size 1
 * against `maxSize` gives the same bound without that.
 */
export function boundedLru<K extends NonNullable<unknown>, V extends NonNullable<unknown>, FC = unknown>(
  maxEntries: number,
  options: Options<K, V, FC> = {},
): LRUCache<K, V, FC> {
  return new LRUCache<K, V, FC>({ ...options, maxSize: maxEntries, sizeCalculation: () => 1 });
}

/**
 * An LRU cache holding at most `maxBytes` as `sizeOf` counts them (lru-cache's own size bound);
 * an entry larger than an eighth of that is not kept, so one large value cannot empty the cache.
 */
export function byteBoundedLru<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(
  maxBytes: number,
  sizeOf: (value: V) => number,
): LRUCache<K, V> {
  return new LRUCache<K, V>({
    maxSize: maxBytes,
    maxEntrySize: Math.floor(maxBytes / 8),
    sizeCalculation: (value) => Math.max(1, sizeOf(value)),
  });
}
