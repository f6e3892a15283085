import { Type, type Static } from '@sinclair/typebox';
import {
  anyJson,
  anyObject,
  bool,
  nonEmpty,
  nullable,
  nullableTimestamp,
  object,
  resource,
  responseOnlyFields,
  scopedFields,
  str,
  strArray,
} from './common.schema';

/** Bounds of what a catalog entry holds (the gateway checks them with a message naming the field). */
export const EVENT_TYPE_LIMITS = {
  /** Serialized JSON Schema of `data`. */
  schemaBytes: 64 * 1024,
  /** Nesting of objects and arrays in a schema. */
  schemaDepth: 32,
  /** Values of one `enum` in a schema (every payload value is compared with each). */
  enumItems: 1000,
  /** Serialized example payload. */
  exampleBytes: 64 * 1024,
  /** Event types of one project (creates and imports beyond it are refused). */
  perProject: 1000,
  /** An import document, as text or JSON. */
  documentBytes: 2 * 1024 * 1024,
} as const;

const name = Type.String({
  minLength: 1,
  maxLength: 200,
  description:
    'a concrete event type: letters, digits, "_" and "-" in dot-separated parts (invoice.paid); ' +
    "patterns such as invoice.* belong in a subscription's filter_config.event_types",
});

const jsonSchemaField = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  description:
    "JSON Schema (draft 2020-12) of the event's data; checked when stored: at most 64 KiB and 32 " +
    'levels deep, local $ref only (#/...), patterns in RE2 syntax. {} removes the schema.',
});

const eventTypeInputFields = {
  description: nonEmpty(4000),
  category: nonEmpty(200),
  json_schema: jsonSchemaField,
  example: Type.Unknown({
    description: 'an example data payload (any JSON, at most 64 KiB); must match json_schema',
  }),
};

export const eventTypeCreateBody = object(
  {
    name,
    ...eventTypeInputFields,
    ...responseOnlyFields([
      'uid',
      'project_id',
      'deprecated',
      'deprecated_at',
      'created_at',
      'updated_at',
      'deleted_at',
    ]),
  },
  ['name'],
);
export type EventTypeCreateBody = Static<typeof eventTypeCreateBody>;

export const eventTypeUpdateBody = object({
  name: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'cannot be changed; if sent, the current name',
  }),
  ...eventTypeInputFields,
  deprecated: Type.Boolean({ description: 'false makes a deprecated type current again' }),
  ...responseOnlyFields(['uid', 'project_id', 'deprecated_at', 'created_at', 'updated_at', 'deleted_at']),
});
export type EventTypeUpdateBody = Static<typeof eventTypeUpdateBody>;

export const eventTypeResponse = resource({
  ...scopedFields,
  name: str(),
  description: str(),
  category: str(),
  json_schema: nullable(anyObject),
  example: anyJson,
  deprecated: bool,
  deprecated_at: nullableTimestamp,
});

export const eventTypeListResponse = Type.Array(eventTypeResponse);

export const eventTypeImportBody = object(
  {
    spec: Type.Unsafe<string | Record<string, unknown>>({
      type: ['string', 'object'],
      maxLength: EVENT_TYPE_LIMITS.documentBytes,
      description:
        'an OpenAPI 3.1 document (its webhooks, or x-webhooks) or an AsyncAPI 2.x/3.x document, as ' +
        'JSON or YAML text or as a JSON object',
    }),
    dry_run: Type.Boolean({
      description: 'report what the import would create, change and remove, and change nothing',
    }),
    replace_all: Type.Boolean({
      description: 'also delete the event types the document does not declare',
    }),
  },
  ['spec'],
);
export type EventTypeImportBody = Static<typeof eventTypeImportBody>;

const named = resource({ uid: str(), name: str() });

/** What an import would do (`dry_run`): the types it would create, change (with the fields) and remove. */
const eventTypeImportPlan = resource({
  dry_run: Type.Literal(true),
  created: Type.Array(resource({ name: str() })),
  changed: Type.Array(resource({ uid: str(), name: str(), fields: strArray() })),
  removed: Type.Array(named),
  unchanged: Type.Array(named),
});
export type EventTypeImportPlan = Static<typeof eventTypeImportPlan>;

export const eventTypeImportResponse = Type.Union([eventTypeListResponse, eventTypeImportPlan], {
  description:
    'the event types the document declares, as stored after the import; with dry_run, the plan instead',
});
