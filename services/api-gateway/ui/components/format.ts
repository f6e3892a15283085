/** Local date and time of an API timestamp ('' for none). */
export const when = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleString() : '');

/** Pretty JSON for a <pre>; a value JSON cannot hold is shown as its string. */
export function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** `path?query` with the empty parameters left out. */
export function withQuery(path: string, params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** An attempt's outcome in words: `HTTP 500`, or why there was no response. */
export const attemptOutcome = (a: { http_status?: number | string | null; error?: string | null }): string =>
  a.http_status === null || a.http_status === undefined ? a.error || 'no response' : `HTTP ${a.http_status}`;
