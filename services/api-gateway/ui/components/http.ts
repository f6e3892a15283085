/** One refused field of a request, as the API names it (`url`, `pub_sub.sqs.queue_name`). */
export interface FieldProblem {
  field?: string;
  message: string;
}

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

/** The gateway's envelope; a refusal's field errors are in `data.errors` (`field` '' for none). */
interface Envelope {
  message?: string;
  data?: unknown;
}

const problemsOf = (data: unknown): FieldProblem[] => {
  const errors = (data as { errors?: unknown } | null | undefined)?.errors;
  return Array.isArray(errors)
    ? (errors as FieldProblem[]).filter((e) => typeof e?.message === 'string')
    : [];
};

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
  const data = (await res.json().catch(() => ({ message: `HTTP ${res.status}` }))) as Envelope;
  if (!res.ok) {
    const fields = problemsOf(data.data).filter((e) => e.field);
    const detail = fields.map((e) => `${e.field}: ${e.message}`).join('; ');
    throw new ApiError(
      (data.message || `HTTP ${res.status}`) + (detail ? ` (${detail})` : ''),
      res.status,
      fields,
    );
  }
  return data.data;
}

/** The message of anything thrown, for a toast or an alert. */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** A failure the page has already dealt with (the console's ended session): nothing more to show. */
export class HandledError extends Error {}
