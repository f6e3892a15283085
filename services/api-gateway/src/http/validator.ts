import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { ValidationError } from '@hookrail/domain';
import { toFieldErrors } from '@hookrail/event-schemas';
import type { Static, TSchema } from '@sinclair/typebox';
import type { JsonSchema } from '@hookrail/api-contract';

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);

const cache = new WeakMap<JsonSchema, ValidateFunction>();

function compile(schema: JsonSchema): ValidateFunction {
  let fn = cache.get(schema);
  if (!fn) {
    fn = ajv.compile(schema);
    cache.set(schema, fn);
  }
  return fn;
}

/**
 * Validates `value` against `schema`, throwing a ValidationError that names every bad field; a
 * TypeBox schema's value comes back as its static type.
 */
export function validate<S extends TSchema>(schema: S, value: unknown, what?: string): Static<S>;
export function validate(schema: JsonSchema, value: unknown, what?: string): unknown;
export function validate(schema: JsonSchema, value: unknown, what = 'invalid request body'): unknown {
  const fn = compile(schema);
  if (!fn(value)) {
    const errors = toFieldErrors(fn.errors);
    const first = errors[0];
    throw new ValidationError(first ? `${what}: ${first.field} ${first.message}` : what, errors);
  }
  return value;
}

/**
 * Validates a list's query. A bad value of a repeated parameter is reported under the parameter's
 * name with the value (`status "Bogus" must be one of: …`), not as `status.1`.
 */
export function validateQuery(schema: JsonSchema, value: Record<string, unknown>): void {
  const fn = compile(schema);
  if (fn(value)) return;
  const errors = toFieldErrors(fn.errors).map((e) => {
    const item = /^([^.]+)\.(\d+)$/.exec(e.field);
    if (!item) return e;
    const given = (value[item[1]] as unknown[] | undefined)?.[Number(item[2])];
    return { field: item[1], message: `${JSON.stringify(given)} ${e.message}` };
  });
  const first = errors[0];
  throw new ValidationError(
    first ? `invalid query: ${first.field} ${first.message}` : 'invalid query',
    errors,
  );
}

/**
 * Whether a field's schema accepts `""` (an unset Go string is sent as `""`). A declared `type`
 * without `string` refuses it whatever else the schema says, which answers most fields without
 * compiling them (the OpenAPI document asks this of every request field).
 */
export function acceptsEmptyString(schema: JsonSchema): boolean {
  const { type } = schema;
  if (typeof type === 'string' ? type !== 'string' : Array.isArray(type) && !type.includes('string'))
    return false;
  return compile(schema)('') === true;
}
