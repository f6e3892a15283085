import { endpointCreateBody, projectUpdateBody, subscriptionCreateBody } from '@hookrail/api-contract';
import type { TSchema } from '@sinclair/typebox';
import { ValidationError } from '@hookrail/domain';
import { checkValue, fieldSchema } from '../../ui/components/form/schema';
import { validate } from '../http/validator';

/** Sets a dotted field in a body (`a.b.c`), creating the objects on the way. */
function withField(body: Record<string, unknown>, name: string, value: unknown) {
  const out = structuredClone(body);
  const keys = name.split('.');
  let node = out;
  for (const k of keys.slice(0, -1)) node = (node[k] ??= {}) as Record<string, unknown>;
  node[keys[keys.length - 1]] = value;
  return out;
}

/** What the gateway's validator says of the field (undefined when it accepts the value). */
function apiSays(schema: TSchema, body: Record<string, unknown>, field: string): string | undefined {
  try {
    validate(schema, body);
    return undefined;
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    const errors = (err as { details?: { errors: { field: string; message: string }[] } }).details!.errors;
    return errors.find((e) => e.field === field)?.message;
  }
}

// A valid body of each form, and values of its fields the API refuses (as the form holds them: text).
const cases: [string, TSchema, Record<string, unknown>, string, string, unknown][] = [
  ['endpoint', endpointCreateBody, { name: 'a', url: 'https://a.example' }, 'http_timeout', '90', 90],
  ['endpoint', endpointCreateBody, { name: 'a', url: 'https://a.example' }, 'http_timeout', '0', 0],
  ['endpoint', endpointCreateBody, { name: 'a', url: 'https://a.example' }, 'url', 'ftp://a', 'ftp://a'],
  ['endpoint', endpointCreateBody, { name: 'a', url: 'https://a.example' }, 'support_email', 'nope', 'nope'],
  ['endpoint', endpointCreateBody, { name: 'a', url: 'https://a.example' }, 'secret', 'short', 'short'],
  ['endpoint', endpointCreateBody, { name: 'a', url: 'https://a.example' }, 'rate_limit', '-1', -1],
  [
    'endpoint',
    endpointCreateBody,
    { name: 'a', url: 'https://a.example' },
    'name',
    'x'.repeat(201),
    'x'.repeat(201),
  ],
  [
    'subscription',
    subscriptionCreateBody,
    { name: 'a', endpoint_id: 'e' },
    'retry_config.retry_count',
    '101',
    101,
  ],
  [
    'subscription',
    subscriptionCreateBody,
    { name: 'a', endpoint_id: 'e' },
    'rate_limit_config.count',
    '0',
    0,
  ],
  ['project', projectUpdateBody, {}, 'config.retention_seconds', '60', 60],
  ['project', projectUpdateBody, {}, 'config.meta_event.url', 'ftp://meta', 'ftp://meta'],
];

describe("the console forms' checks say what the API says", () => {
  it.each(
    cases.map(([what, schema, base, field, text, value]) => ({ what, schema, base, field, text, value })),
  )('$what: $field = $text', ({ schema, base, field, text, value }) => {
    const said = apiSays(schema, withField(base, field, value), field);
    expect(said).toBeDefined();
    const declared = fieldSchema(schema, field)!;
    expect(checkValue(declared.schema, declared.required, text)).toBe(said);
  });

  it('accepts what the API accepts, and refuses a required field left empty as it does', () => {
    const e = fieldSchema(endpointCreateBody, 'http_timeout')!;
    expect(checkValue(e.schema, e.required, '30')).toBe('');
    expect(checkValue(e.schema, e.required, '')).toBe('');
    const name = fieldSchema(endpointCreateBody, 'name')!;
    expect(checkValue(name.schema, name.required, '')).toBe('is required');
    expect(apiSays(endpointCreateBody, { url: 'https://a.example' }, 'name')).toBe('is required');
    const duration = fieldSchema(subscriptionCreateBody, 'retry_config.duration')!;
    expect(checkValue(duration.schema, duration.required, '30s')).toBe(''); // "30s" or seconds
  });
});
