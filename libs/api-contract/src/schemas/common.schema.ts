import {
  Type,
  type ArrayOptions,
  type IntegerOptions,
  type ObjectOptions,
  type SchemaOptions,
  type Static,
  type StringOptions,
  type TObject,
  type TOptional,
  type TProperties,
  type TSchema,
  type TUnsafe,
} from '@sinclair/typebox';

/**
 * Building blocks for the schemas of every resource, on TypeBox: each shape is declared once and
 * yields both the JSON Schema and its TypeScript type (`Static<typeof schema>`). The same objects
 * are compiled by ajv to validate requests and emitted as the OpenAPI document's components
 * (openapi/openapi.ts), so neither the documentation nor the handlers' types can drift from what
 * the gateway accepts.
 */

/** Any JSON Schema object, as the code that walks schemas (unset fields, OpenAPI) reads it. */
export type JsonSchema = Record<string, unknown>;

export const str = (options?: StringOptions) => Type.String(options);
export const nonEmpty = (maxLength = 1000) => Type.String({ minLength: 1, maxLength });
export const int = (options?: IntegerOptions) => Type.Integer(options);
export const bool = Type.Boolean();
export const strArray = (options?: ArrayOptions) => Type.Array(Type.String(), options);
export const timestamp = Type.String({ format: 'date-time' });
export const anyJson = Type.Unknown();
export const anyObject = Type.Unsafe<Record<string, unknown>>({ type: 'object' });

/** A string of a fixed set, as one `enum` (ajv then names the allowed values in one error). */
export const enumOf = <const V extends readonly string[]>(values: V, options?: SchemaOptions) =>
  Type.Unsafe<V[number]>({ type: 'string', enum: [...values], ...options });

/** An object of any keys whose values all take `value` (`additionalProperties`, as Convoy documents maps). */
export const mapOf = <T extends TSchema>(value: T, options?: ObjectOptions) =>
  Type.Unsafe<Record<string, Static<T>>>({ type: 'object', additionalProperties: value, ...options });

/**
 * Makes a schema also accept null (JSON Schema 2020-12 / OpenAPI 3.1 style, no `nullable`). A
 * scalar keeps one `type` (`['string', 'null']`) so ajv reports one error naming the field.
 */
export function nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  if (typeof schema.type === 'string') {
    const out: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) out.enum = [...(schema.enum as unknown[]), null];
    return Type.Unsafe<Static<T> | null>(out);
  }
  return Type.Unsafe<Static<T> | null>(Type.Union([schema, Type.Null()]));
}

export const nullableTimestamp = nullable(timestamp);

/** `properties` with every key but those in `Required` optional. */
type WithRequired<P extends TProperties, Required extends PropertyKey> = {
  [K in keyof P]: K extends Required ? P[K] : TOptional<P[K]>;
};

/** `properties` with those `isRequired` refuses wrapped in TypeBox's Type.Optional. */
function withRequired<P extends TProperties, R extends PropertyKey>(
  properties: P,
  isRequired: (key: string) => boolean,
): WithRequired<P, R> {
  return Object.fromEntries(
    Object.entries(properties).map(([k, s]) => [k, isRequired(k) ? s : Type.Optional(s)]),
  ) as WithRequired<P, R>;
}

/** A closed object (unknown fields are rejected); only the keys in `required` must be present. */
export function object<P extends TProperties, const R extends readonly (keyof P & string)[] = []>(
  properties: P,
  required?: R,
  options?: ObjectOptions,
): TObject<WithRequired<P, R[number]>> {
  const props = withRequired<P, R[number]>(properties, (k) => required?.includes(k) ?? false);
  return Type.Object(props, { additionalProperties: false, ...options });
}

/** A response object: documented fields, all present unless listed as optional. */
export function resource<P extends TProperties, const O extends readonly (keyof P & string)[] = []>(
  properties: P,
  optional?: O,
  options?: ObjectOptions,
): TObject<WithRequired<P, Exclude<keyof P, O[number]>>> {
  const props = withRequired<P, Exclude<keyof P, O[number]>>(properties, (k) => !optional?.includes(k));
  return Type.Object(props, { additionalProperties: false, ...options });
}

/**
 * `type` picks the sub-object that must be present, e.g. verifier `{type: 'hmac', hmac: {...}}`.
 * Expressed as if/then so ajv reports "<path>.hmac is required" rather than an opaque oneOf failure.
 */
export function typeSelects(types: readonly string[]): ObjectOptions {
  return {
    allOf: types.map((t) => ({
      if: { properties: { type: { const: t } }, required: ['type'] },
      then: { required: [t] },
    })),
  };
}

/**
 * An update's `clear`: the optional settings it empties (stored as null), since `null` and `""`
 * mean "not set" for Convoy's clients. A field also set in the same body is a 400.
 */
export const clearList = <const V extends readonly string[]>(fields: V) =>
  Type.Array(enumOf(fields), {
    uniqueItems: true,
    description: 'Hookrail: the settings this update empties (stored as null); not also set in the same body',
  });

/** Accepted on input so a response can be sent back as a request, and ignored (documented response-only fields). */
export const responseOnly = Type.Unknown({ description: 'response only; ignored on input' });

/** Properties named `names`, each with the same `schema`. */
export function sameFields<const N extends readonly string[], T extends TSchema>(
  names: N,
  schema: T,
): Record<N[number], T> {
  return Object.fromEntries(names.map((n) => [n, schema])) as Record<N[number], T>;
}

export const responseOnlyFields = <const N extends readonly string[]>(names: N) =>
  sameFields(names, responseOnly);

export const scopedFields = {
  uid: str(),
  project_id: str(),
  created_at: timestamp,
  updated_at: timestamp,
  deleted_at: nullableTimestamp,
};
