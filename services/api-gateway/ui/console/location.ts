import { useEffect, useState } from 'preact/hooks';

/** The page's path and query: the console keeps its view and filters in the URL. */
export interface Where {
  path: string;
  query: URLSearchParams;
}

const current = (): Where => ({
  path: location.pathname.replace(/\/+$/, ''),
  query: new URLSearchParams(location.search),
});
const listeners = new Set<() => void>();

/** Goes to a console URL without a reload (a new history entry unless `replace`). */
export function navigate(href: string, replace = false): void {
  history[replace ? 'replaceState' : 'pushState'](null, '', href);
  listeners.forEach((l) => l());
}

/** The current location, updated on navigate() and on the browser's back and forward. */
export function useWhere(): Where {
  const [where, setWhere] = useState(current);
  useEffect(() => {
    const update = () => setWhere(current());
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return where;
}
