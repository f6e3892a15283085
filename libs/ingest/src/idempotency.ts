import { hash } from 'node:crypto';

export interface IdempotencyInput {
  headers: Readonly<Record<string, string>>;
  query: URLSearchParams;
  data: unknown;
}

const LOCATION = /^request\.(header|body|query)\.(.+)$/;

/** Field error text for an idempotency key location, or undefined when it is valid. */
export function idempotencyLocationProblem(location: string): string | undefined {
  return LOCATION.test(location)
    ? undefined
    : 'must look like request.header.<name>, request.body.<path> or request.query.<name>';
}

/**
 * The event's idempotency key from the source's `idempotency_keys` locations: a hash of the
 * source id and every value found, in order. Undefined when none of the locations is present,
 * so requests without the identifying parts are never taken for duplicates of each other.
 */
export function idempotencyKey(
  sourceId: string,
  locations: readonly string[],
  req: IdempotencyInput,
): string | undefined {
  const values: string[] = [];
  for (const location of locations) {
    const m = LOCATION.exec(location);
    if (!m) continue;
    const [, where, name] = m;
    const value = extract(where, name, req);
    // Header names are case-insensitive, so they are hashed lower-cased.
    if (value !== undefined)
      values.push(`${where}.${where === 'header' ? name.toLowerCase() : name}=${value}`);
  }
  if (values.length === 0) return undefined;
  // The digest of the source and the values, NUL between them (stored claims depend on it).
  return hash('sha256', [sourceId, ...values].join('\0'), 'hex');
}

function extract(where: string, name: string, req: IdempotencyInput): string | undefined {
  if (where === 'header') return req.headers[name.toLowerCase()];
  if (where === 'query') return req.query.get(name) ?? undefined;
  let value: unknown = req.data;
  for (const segment of name.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}
