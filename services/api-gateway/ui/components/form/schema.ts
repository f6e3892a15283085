import type { TSchema } from '@sinclair/typebox';

/** A JSON Schema as the form code reads it (the contract's TypeBox schemas are plain objects). */
type Schema = Record<string, unknown>;

/** The object branch of a nullable object (`anyOf: [object, null]`), or the schema itself. */
function objectOf(schema: Schema): Schema | undefined {
  if (schema.properties) return schema;
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  return branches?.find((b) => b.properties);
}

/**
 * The schema of a dotted field (`authentication.api_key.header_name`) inside a request body's
 * schema, and whether its object requires it; undefined for a field the schema does not declare.
 */
export function fieldSchema(root: TSchema, name: string): { schema: Schema; required: boolean } | undefined {
  let node: Schema | undefined = root as Schema;
  let required = false;
  for (const key of name.split('.')) {
    const obj: Schema | undefined = node && objectOf(node);
    const props = obj?.properties as Record<string, Schema> | undefined;
    if (!obj || !props?.[key]) return undefined;
    required = ((obj.required as string[] | undefined) ?? []).includes(key);
    node = props[key];
  }
  return node ? { schema: node, required } : undefined;
}

const FORMATS: Record<string, RegExp> = {
  uri: /^[a-z][a-z0-9+.-]*:[^\s]*$/i,
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
};

/**
 * What the API would say of one text field's value, by its schema (the checks of the gateway's
 * validator that a single value can fail, with ajv's wording); '' when it passes. An empty value
 * is the field left out: only a required field refuses it.
 */
export function checkValue(schema: Schema, required: boolean, raw: string): string {
  if (raw === '') return required ? 'is required' : '';
  const types = ([] as unknown[]).concat(schema.type ?? []);
  if ((types.includes('integer') || types.includes('number')) && !types.includes('string')) {
    const n = Number(raw);
    if (!Number.isFinite(n)) return 'must be a number';
    if (types.includes('integer') && !Number.isInteger(n)) return 'must be integer';
    if (typeof schema.minimum === 'number' && n < schema.minimum) return `must be >= ${schema.minimum}`;
    if (typeof schema.maximum === 'number' && n > schema.maximum) return `must be <= ${schema.maximum}`;
    return '';
  }
  if (typeof schema.minLength === 'number' && raw.length < schema.minLength)
    return `must NOT have fewer than ${schema.minLength} characters`;
  if (typeof schema.maxLength === 'number' && raw.length > schema.maxLength)
    return `must NOT have more than ${schema.maxLength} characters`;
  const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
  if (format && !format.test(raw)) return `must match format "${String(schema.format)}"`;
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(raw))
    return `must match pattern "${schema.pattern}"`;
  return '';
}
