import type { IncomingHttpHeaders } from 'node:http';

/** Header names lower-cased, repeated headers joined with ", " (set-cookie included). */
export function normaliseHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The source's `forward_headers` that the request carried, by lower-case name. */
export function pickForwardHeaders(
  headers: Readonly<Record<string, string>>,
  names: readonly string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = headers[name.toLowerCase()];
    if (value !== undefined) out[name.toLowerCase()] = value;
  }
  return out;
}
