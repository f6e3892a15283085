import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { RE2JS } from 're2js';
import { EVENT_TYPE_LIMITS } from '@hookrail/api-contract';
import { ValidationError, type FieldError } from '@hookrail/domain';
import { boundedLru } from '@hookrail/toolbox';
import { toFieldErrors } from './field-errors';

/**
 * The JSON Schema of an event type's `data`, checked when it is stored. Schemas are user input, so
 * every check is bounded before ajv sees the schema: its size and nesting, references only inside
 * the schema (`#/…`: nothing is fetched, and one project's schema can never reach another's), and
 * `pattern`s compiled by RE2 (linear time, like subscription filters' `$regex`), an `enum` of at most
 * EVENT_TYPE_LIMITS.enumItems values (each payload value is compared with each). Each schema is
 * compiled in an ajv instance of its own, so an `$id` in one schema is not visible to any other.
 */

const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';
const REF_KEYWORDS = ['$ref', '$dynamicRef'];

/** ajv's `pattern` and `patternProperties` on RE2 (the `code` string only serves standalone code). */
const re2Engine = Object.assign((pattern: string) => RE2JS.compile(pattern), {
  code: 'require("re2js").RE2JS.compile',
});

/**
 * `meta`: the instance that checks schemas against the 2020-12 meta-schema (it compiles nothing of
 * the users'); the others, one per schema, skip that check (done already) and its compile cost.
 */
function newAjv(meta: boolean): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    logger: false,
    meta,
    validateSchema: meta,
    // ajv's code optimisation pass triples the compile time of a large schema (measured: 0.3 s
    // against 0.1 s at the 64 KiB limit) for no measurable gain when validating
    code: { regExp: re2Engine, optimize: false },
  });
  // the "fast" formats: simpler regular expressions over user strings (RE2 is for `pattern` only)
  addFormats(ajv, { mode: 'fast' });
  return ajv;
}

const metaAjv = newAjv(true);

/** `prefix` + ajv's dotted field (`body` is the value itself). */
function under(prefix: string, errors: FieldError[]): FieldError[] {
  return errors.map((e) => ({
    field: e.field === 'body' ? prefix : `${prefix}.${e.field}`,
    message: e.message,
  }));
}

function refuse(errors: FieldError[]): never {
  const first = errors[0];
  throw new ValidationError(`${first.field}: ${first.message}`, errors);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Serialized size, refused over `max` bytes. */
function boundedJson(value: unknown, max: number, field: string): string {
  const json = JSON.stringify(value);
  const bytes = Buffer.byteLength(json);
  if (bytes > max) refuse([{ field, message: `is ${bytes} bytes; at most ${max} bytes are allowed` }]);
  return json;
}

/**
 * Walks the schema without recursion: nesting deeper than the limit is refused, and so is a
 * reference that leaves the schema (a URL, another file: nothing is ever fetched) and an `enum`
 * longer than the limit.
 */
function checkStructure(schema: Record<string, unknown>, field: string): void {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: schema, path: field, depth: 1 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (depth > EVENT_TYPE_LIMITS.schemaDepth)
      refuse([{ field: path, message: `nests deeper than ${EVENT_TYPE_LIMITS.schemaDepth} levels` }]);
    if (Array.isArray(value)) {
      value.forEach((v, i) => stack.push({ value: v, path: `${path}.${i}`, depth: depth + 1 }));
      continue;
    }
    if (!isPlainObject(value)) continue;
    for (const [key, v] of Object.entries(value)) {
      if (REF_KEYWORDS.includes(key) && typeof v === 'string' && !v.startsWith('#'))
        refuse([
          {
            field: `${path}.${key}`,
            message: `${JSON.stringify(v)} is not allowed: only references inside the schema (#/…) are resolved`,
          },
        ]);
      if (key === 'enum' && Array.isArray(v) && v.length > EVENT_TYPE_LIMITS.enumItems)
        refuse([
          {
            field: `${path}.enum`,
            message: `has ${v.length} values; at most ${EVENT_TYPE_LIMITS.enumItems} are allowed`,
          },
        ]);
      stack.push({ value: v, path: `${path}.${key}`, depth: depth + 1 });
    }
  }
}

/** Compiled schemas by their text, each in its own ajv instance, kept warm for repeated checks. */
const compiled = boundedLru<string, ValidateFunction>(500);

/**
 * The validator of a stored schema text (checked when it was stored), compiled once and kept warm.
 * Throws a ValidationError naming `field` when it cannot be compiled.
 */
export function compileDataSchema(json: string, field: string): ValidateFunction {
  let fn = compiled.get(json);
  if (fn) return fn;
  try {
    // `$schema` (2020-12 or absent, checked) would make this instance look for the meta-schema
    const { $schema: _dialect, ...schema } = JSON.parse(json) as Record<string, unknown>;
    fn = newAjv(false).compile(schema);
  } catch (err) {
    const e = err as { missingRef?: string; message?: string };
    const message = e.missingRef
      ? `$ref ${JSON.stringify(e.missingRef)} does not resolve inside the schema`
      : `cannot be compiled: ${e.message ?? String(err)}`;
    refuse([{ field, message }]);
  }
  compiled.set(json, fn);
  return fn;
}

/**
 * Checks a JSON Schema of `data` given at `field` and returns the text to store: null for `{}`
 * (a schema that accepts anything is no schema). Throws a ValidationError naming the field at fault.
 */
export function checkDataSchema(schema: unknown, field: string): string | null {
  if (!isPlainObject(schema)) refuse([{ field, message: 'must be a JSON Schema object (draft 2020-12)' }]);
  const json = boundedJson(schema, EVENT_TYPE_LIMITS.schemaBytes, field);
  if (Object.keys(schema).length === 0) return null;
  checkStructure(schema, field);
  const dialect = schema.$schema;
  if (dialect !== undefined && dialect !== DRAFT_2020 && dialect !== `${DRAFT_2020}#`)
    refuse([
      {
        field: `${field}.$schema`,
        message: `must be ${DRAFT_2020} or absent: only JSON Schema draft 2020-12 is supported`,
      },
    ]);
  if (!metaAjv.validateSchema(schema)) {
    const errors = under(field, toFieldErrors(metaAjv.errors as ErrorObject[]));
    refuse(errors.length > 0 ? errors : [{ field, message: 'is not a valid JSON Schema' }]);
  }
  compileDataSchema(json, field);
  return json;
}

/**
 * Checks an example `data` payload given at `field` against the schema text (when there is one)
 * and returns the text to store. A mismatch names each failing path of the example.
 */
export function checkExample(example: unknown, schemaJson: string | null, field: string): string {
  const json = boundedJson(example, EVENT_TYPE_LIMITS.exampleBytes, field);
  if (schemaJson === null) return json;
  const fn = compileDataSchema(schemaJson, field);
  if (!fn(example)) {
    const errors = under(field, toFieldErrors(fn.errors));
    refuse(errors.length > 0 ? errors : [{ field, message: 'does not match json_schema' }]);
  }
  return json;
}
