import { useEffect, useState } from 'preact/hooks';

export type Load<T> = { state: 'loading' } | { state: 'done'; data: T } | { state: 'failed'; error: unknown };

/**
 * Runs `fetcher` when a key changes and holds its result. A reload keeps the previous data on
 * screen until the new one arrives (live refresh does not blink); a late answer to an older key
 * is dropped.
 */
export function useLoad<T>(fetcher: () => Promise<T>, keys: unknown[]): Load<T> {
  const [load, setLoad] = useState<Load<T>>({ state: 'loading' });
  useEffect(() => {
    let current = true;
    fetcher().then(
      (data) => current && setLoad({ state: 'done', data }),
      (error: unknown) => current && setLoad({ state: 'failed', error }),
    );
    return () => void (current = false);
  }, keys);
  return load;
}
