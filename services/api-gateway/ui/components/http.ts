import { readRefusal, refusalText, type Envelope, type FieldProblem } from '@hookrail/api-contract';

/** A refused API call: the envelope's message with its field errors, and the HTTP status. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** The envelope's field-named errors (a 400's), for a form to show beside its fields. */
    readonly fields: FieldProblem[] = [],
  ) {
    super(message);
  }
}

/**
 * One JSON call to the gateway's own origin; answers the envelope's `data` or throws ApiError. The
 * transport under the contract's typed caller: pages call operations, never this.
 */
export async function requestJson(
  method: string,
  url: string,
  opts: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<unknown> {
  const headers: Record<string, string> = { ...opts.headers };
  const init: RequestInit = { method, headers, credentials: 'same-origin' };
  if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(opts.body);
  }
  const res = await fetch(url, init);
  const data = (await res.json().catch(() => undefined)) as Envelope | undefined;
  if (!res.ok) {
    const refusal = readRefusal(data, `HTTP ${res.status}`);
    throw new ApiError(refusalText(refusal), res.status, refusal.fields);
  }
  return data?.data;
}

/** The message of anything thrown, for a toast or an alert. */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** A failure the page has already dealt with (the console's ended session): nothing more to show. */
export class HandledError extends Error {}
