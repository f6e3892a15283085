import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { ValidationError, type FieldError } from '@hookrail/domain';
import type { Static, TSchema } from '@sinclair/typebox';
import type { JsonSchema } from '@hookrail/api-contract';

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);

/** ajv's `/pub_sub/sqs` pointer as the dotted field name users see: `pub_sub.sqs`. */
function fieldOf(instancePath: string, child?: string): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (child !== undefined) parts.push(child);
  return parts.length > 0 ? parts.join('.') : 'body';
}

function toFieldError(e: ErrorObject): FieldError | undefined {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'if':
    case 'anyOf':
      return undefined; // the failing branch's own error says what is wrong
    case 'required':
      return { field: fieldOf(e.instancePath, String(p.missingProperty)), message: 'is required' };
    case 'dependencies':
      return {
        field: fieldOf(e.instancePath, String(p.missingProperty)),
        message: `is required with ${String(p.property)}`,
      };
    case 'additionalProperties':
      return { field: fieldOf(e.instancePath, String(p.additionalProperty)), message: 'is not allowed' };
    case 'enum':
      return {
        field: fieldOf(e.instancePath),
        message: `must be one of: ${(p.allowedValues as unknown[]).filter((v) => v !== null).join(', ')}`,
      };
    case 'const':
      return { field: fieldOf(e.instancePath), message: `must be ${JSON.stringify(p.allowedValue)}` };
    default:
      return { field: fieldOf(e.instancePath), message: e.message ?? 'is invalid' };
  }
}

/** ajv's errors as field errors, one per field and message (the catalog's JSON Schema checks reuse it). */
export function toFieldErrors(errors: ErrorObject[] | null | undefined): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    const fe = toFieldError(e);
    if (!fe) continue;
    const key = `${fe.field}|${fe.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(fe);
  }
  return out;
}

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

/** Whether a field's schema accepts `""` (an unset Go string is sent as `""`). */
export function acceptsEmptyString(schema: JsonSchema): boolean {
  return compile(schema)('') === true;
}
