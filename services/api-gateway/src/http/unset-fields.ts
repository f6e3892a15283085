import type { JsonSchema } from '@hookrail/api-contract';

/**
 * Convoy's clients send every field of their request structs: an unset pointer as `null`, an unset
 * string as `""`. Convoy's decoder reads both as "not set", so this removes them before the schema
 * sees the body:
 * - `null` for any field the schema declares means the field is absent;
 * - `""` means absent when the field's schema refuses an empty string (an enum, a format, a
 *   minimum length), so a string that may legitimately be empty keeps it.
 * Only fields the schema declares are touched: free-form JSON (an event's `data`, a filter's body)
 * keeps its nulls, and an undeclared field still reaches the schema and is refused. Wrong types are
 * left for the schema to refuse.
 *
 * `acceptsEmpty(schema)` answers whether a field's schema accepts `""` (the validator's compile).
 */
export function dropUnsetFields(
  value: unknown,
  schema: JsonSchema | undefined,
  acceptsEmpty: (schema: JsonSchema) => boolean,
): unknown {
  if (!schema) return value;
  const s = concrete(schema);
  if (Array.isArray(value)) {
    const items = s.items as JsonSchema | undefined;
    return items && typeof items === 'object'
      ? value.map((v) => dropUnsetFields(v, items, acceptsEmpty))
      : value;
  }
  if (!isPlainObject(value)) return value;
  const properties = declaredProperties(s);
  if (!properties) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const field = Object.prototype.hasOwnProperty.call(properties, key) ? properties[key] : undefined;
    if (field === undefined) {
      out[key] = v; // not ours: the schema refuses it (or allows it) as it is
      continue;
    }
    if (v === null) continue;
    if (v === '' && !acceptsEmpty(field)) continue;
    out[key] = dropUnsetFields(v, field, acceptsEmpty);
  }
  return out;
}

/** The object/array branch of `nullable(x)` (`anyOf: [x, {type: 'null'}]`). */
function concrete(schema: JsonSchema): JsonSchema {
  const anyOf = schema.anyOf as JsonSchema[] | undefined;
  if (!Array.isArray(anyOf)) return schema;
  const branches = anyOf.filter((b) => b.type !== 'null');
  return branches.length === 1 ? concrete(branches[0]) : schema;
}

function declaredProperties(schema: JsonSchema): Record<string, JsonSchema> | undefined {
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  return props && typeof props === 'object' ? props : undefined;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The same rule written into a request schema for the OpenAPI document: every declared field also
 * accepts `null`, and `""` where its own schema refuses it, both documented as "not set".
 */
export function documentUnsetFields(
  schema: JsonSchema,
  acceptsEmpty: (schema: JsonSchema) => boolean,
): JsonSchema {
  const anyOf = schema.anyOf as JsonSchema[] | undefined;
  if (Array.isArray(anyOf))
    return {
      ...schema,
      anyOf: anyOf.map((b) => (b.type === 'null' ? b : documentUnsetFields(b, acceptsEmpty))),
    };
  const out: JsonSchema = { ...schema };
  if (schema.items && typeof schema.items === 'object')
    out.items = documentUnsetFields(schema.items as JsonSchema, acceptsEmpty);
  const properties = declaredProperties(schema);
  if (properties) {
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([key, field]) => {
        const inner = documentUnsetFields(field, acceptsEmpty);
        const unset: JsonSchema[] = [{ type: 'null', description: 'not set' }];
        if (!acceptsEmpty(field)) unset.push({ const: '', description: 'not set' });
        return [key, { anyOf: [inner, ...unset] }];
      }),
    );
  }
  return out;
}
