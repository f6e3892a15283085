import { ValidationError } from '@hookrail/domain';
import type { JsonSchema } from '@hookrail/api-contract';

/**
 * Convoy's names for list filters are camelCase; Hookrail's first names were snake_case. Routes
 * declare the camelCase name and the snake_case one is read as its alias.
 */
const QUERY_ALIASES: Readonly<Record<string, string>> = {
  owner_id: 'ownerId',
  endpoint_id: 'endpointId',
  event_id: 'eventId',
  source_id: 'sourceId',
  subscription_id: 'subscriptionId',
  idempotency_key: 'idempotencyKey',
  start_date: 'startDate',
  end_date: 'endDate',
  per_page: 'perPage',
  // convoy-go's endpoint list sends its search as `query`; Convoy's server (and its OpenAPI) `q`
  query: 'q',
};

const ZONELESS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/;
// Go's zero time, which Convoy's SDK sends for a date it was not given
const GO_ZERO_TIME = /^0001-01-01T00:00:00/;

/**
 * A list's query as its route declares it, before the schema (which refuses undeclared names):
 * - an empty value (`ownerId=`) is not set: Convoy's SDK sends every filter, unset ones empty;
 * - snake_case aliases are read under their camelCase name;
 * - a filter declared as a list (`type: array`) takes repeated values (`endpointId=a&endpointId=b`);
 *   any other given twice is refused rather than one value silently winning;
 * - a date-time without a zone (Convoy's `2006-01-02T15:04:05` layout) is UTC, Go's zero time is
 *   not set, and `perPage=0` is the default page size.
 */
export function normaliseListQuery(
  raw: Record<string, unknown>,
  declared: Record<string, JsonSchema>,
): Record<string, unknown> {
  const values = new Map<string, unknown[]>();
  for (const [given, value] of Object.entries(raw)) {
    const list = (Array.isArray(value) ? value : [value]).filter((v) => v !== '' && v !== undefined);
    if (list.length === 0) continue;
    const alias = QUERY_ALIASES[given];
    const name = !(given in declared) && alias !== undefined && alias in declared ? alias : given;
    values.set(name, [...(values.get(name) ?? []), ...list]);
  }
  const out: Record<string, unknown> = {};
  for (const [name, list] of values) {
    const schema = declared[name];
    if (schema?.type === 'array') {
      out[name] = list;
      continue;
    }
    if (list.length > 1)
      throw new ValidationError(`invalid query: ${name} is given more than once`, [
        { field: name, message: 'is given more than once (this list takes one value)' },
      ]);
    const v = list[0];
    if (schema?.format === 'date-time' && typeof v === 'string') {
      if (GO_ZERO_TIME.test(v)) continue;
      out[name] = ZONELESS.test(v) ? `${v}Z` : v;
      continue;
    }
    if (name === 'perPage' && v === '0') continue;
    out[name] = v;
  }
  return out;
}

/**
 * A repeated query filter beside the body's one-valued field (Convoy's batch operations send
 * `sourceId=a&sourceId=b`, our body `source_id`): one value is read as the body's field, as
 * filterFromQuery reads it; several go to the body's list field, and a body value that is not
 * among them is refused rather than the two silently matching nothing.
 */
export function listFilterFromQuery<B extends object>(
  body: B,
  values: readonly string[] | undefined,
  param: string,
  single: keyof B & string,
  list: keyof B & string,
): B {
  if (!values || values.length === 0) return body;
  if (values.length === 1)
    return filterFromQuery(body, { [param]: values[0] }, { [param]: single } as Record<
      string,
      keyof B & string
    >);
  const given = (body as Record<string, unknown>)[single];
  if (given !== undefined && !values.includes(given as string))
    throw new ValidationError(`invalid query: ${param} disagrees with the body's ${single}`, [
      { field: param, message: `disagrees with the body's ${single}` },
    ]);
  return { ...body, [list]: [...values] };
}

/**
 * Convoy's batch operations take their filter in the query (`?sourceId=…&startDate=…`), ours in the
 * body: both are read, as one filter. `names` maps a query name to its body field; the same filter
 * given differently in both is refused rather than one silently winning.
 */
export function filterFromQuery<B extends object>(
  body: B,
  query: Record<string, unknown>,
  names: Record<string, keyof B & string>,
): B {
  const out: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const [param, field] of Object.entries(names)) {
    const value = query[param];
    if (value === undefined) continue;
    if (out[field] !== undefined && JSON.stringify(out[field]) !== JSON.stringify(value))
      throw new ValidationError(`invalid query: ${param} disagrees with the body's ${field}`, [
        { field: param, message: `disagrees with the body's ${field}` },
      ]);
    out[field] = value;
  }
  return out as B;
}
