/**
 * Building blocks for the JSON Schemas of every resource. The same objects are compiled by ajv to
 * validate requests and emitted as the OpenAPI document's components (openapi/openapi.ts), so the
 * documentation cannot drift from what the gateway accepts.
 */
export type JsonSchema = Record<string, unknown>;

export const str = (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', ...extra });
export const nonEmpty = (maxLength = 1000): JsonSchema => ({ type: 'string', minLength: 1, maxLength });
export const int = (extra: JsonSchema = {}): JsonSchema => ({ type: 'integer', ...extra });
export const bool: JsonSchema = { type: 'boolean' };
export const strArray = (extra: JsonSchema = {}): JsonSchema => ({
  type: 'array',
  items: { type: 'string' },
  ...extra,
});
export const timestamp: JsonSchema = { type: 'string', format: 'date-time' };
export const nullableTimestamp: JsonSchema = { type: ['string', 'null'], format: 'date-time' };
export const anyJson: JsonSchema = {};
export const anyObject: JsonSchema = { type: 'object' };
export const enumOf = (values: readonly string[]): JsonSchema => ({ type: 'string', enum: [...values] });

/** Makes a schema also accept null (JSON Schema 2020-12 / OpenAPI 3.1 style, no `nullable`). */
export function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string') {
    const out: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) out.enum = [...(schema.enum as unknown[]), null];
    return out;
  }
  return { anyOf: [schema, { type: 'null' }] };
}

/** A closed object: unknown fields are rejected. */
export function object(
  properties: Record<string, JsonSchema>,
  required: string[] = [],
  extra: JsonSchema = {},
) {
  return { type: 'object', properties, required, additionalProperties: false, ...extra } as JsonSchema;
}

/**
 * `type` picks the sub-object that must be present, e.g. verifier `{type: 'hmac', hmac: {...}}`.
 * Expressed as if/then so ajv reports "<path>.hmac is required" rather than an opaque oneOf failure.
 */
export function typeSelects(types: readonly string[]): JsonSchema {
  return {
    allOf: types.map((t) => ({
      if: { properties: { type: { const: t } }, required: ['type'] },
      then: { required: [t] },
    })),
  };
}

/** Accepted on input so a response can be sent back as a request, and ignored (documented response-only fields). */
export const responseOnly: JsonSchema = { description: 'response only; ignored on input' };

export function responseOnlyFields(names: string[]): Record<string, JsonSchema> {
  return Object.fromEntries(names.map((n) => [n, responseOnly]));
}

export const SCOPED_RESPONSE_FIELDS = ['uid', 'project_id', 'created_at', 'updated_at', 'deleted_at'];

export const scopedFields: Record<string, JsonSchema> = {
  uid: str(),
  project_id: str(),
  created_at: timestamp,
  updated_at: timestamp,
  deleted_at: nullableTimestamp,
};

/** A response object: documented fields, all present unless listed as optional. */
export function resource(properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    additionalProperties: false,
  };
}
