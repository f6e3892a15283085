import {
  EVENT_TYPE_LIMITS,
  type EventTypeImportBody,
  type EventTypeImportPlan,
} from '@hookrail/api-contract';
import { ConflictError, ValidationError, newId, type ProjectId } from '@hookrail/domain';
import { isDuplicateKey, type EventCatalogDoc } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import { checkDataSchema, checkExample } from '@hookrail/event-schemas';
import { checkEventTypeName } from './event-type-name';
import { catalogFull } from './event-types.usecase';
import { declaredTypes, parseDocument } from './import-document';

/** A declared type, checked, in stored form. */
interface Incoming {
  name: string;
  description: string;
  category: string;
  json_schema_json: string | null;
  example_json: string | null;
  deprecated: boolean;
}

type Change = { doc: EventCatalogDoc; set: Partial<EventCatalogDoc>; fields: string[] };

function tooLong(field: string, what: string, max: number): never {
  const message = `${what} is longer than ${max} characters`;
  throw new ValidationError(`${field}: ${message}`, [{ field, message }]);
}

/** Every declared type checked as a create would check it, before anything is written. */
function checkedTypes(spec: unknown): Incoming[] {
  const declared = declaredTypes(parseDocument(spec));
  if (declared.length > EVENT_TYPE_LIMITS.perProject)
    throw new ValidationError(`spec: declares ${declared.length} event types`, [
      {
        field: 'spec',
        message: `declares ${declared.length} event types; a catalog holds at most ${EVENT_TYPE_LIMITS.perProject}`,
      },
    ]);
  return declared.map((t) => {
    checkEventTypeName(t.name, t.at);
    if (t.description.length > 4000) tooLong(t.at, 'the description', 4000);
    if (t.category.length > 200) tooLong(t.at, 'the category (first tag)', 200);
    const schemaJson = t.schema === null ? null : checkDataSchema(t.schema, t.schemaAt);
    return {
      name: t.name,
      description: t.description,
      category: t.category,
      json_schema_json: schemaJson,
      example_json: t.example === undefined ? null : checkExample(t.example, schemaJson, t.exampleAt),
      deprecated: t.deprecated,
    };
  });
}

/**
 * What changes for a type the catalog has: the document's description, category, schema and
 * example replace the stored ones; a type the document marks deprecated is deprecated (an import
 * never makes a deprecated type current again: PUT with deprecated false does).
 */
function changeOf(doc: EventCatalogDoc, t: Incoming): Change {
  const set: Partial<EventCatalogDoc> = {};
  const fields: string[] = [];
  const change = <K extends keyof EventCatalogDoc>(field: string, k: K, v: EventCatalogDoc[K]) => {
    set[k] = v;
    fields.push(field);
  };
  if ((doc.description ?? '') !== t.description) change('description', 'description', t.description);
  if ((doc.category ?? '') !== t.category) change('category', 'category', t.category);
  if (doc.json_schema_json !== t.json_schema_json)
    change('json_schema', 'json_schema_json', t.json_schema_json);
  if (doc.example_json !== t.example_json) change('example', 'example_json', t.example_json);
  if (t.deprecated && !doc.deprecated_at) change('deprecated', 'deprecated_at', new Date());
  return { doc, set, fields };
}

/**
 * Imports the event types of an OpenAPI or AsyncAPI document (import-document.ts): types the
 * catalog lacks are created, those it has are updated by name, and with `replace_all` the types the
 * document does not declare are deleted. Every type is checked before the first write, so a bad
 * document changes nothing. With `dry_run` nothing is written and the plan is the answer.
 */
export async function importEventTypes(
  deps: GatewayDeps,
  projectId: ProjectId,
  body: EventTypeImportBody,
): Promise<EventCatalogDoc[] | EventTypeImportPlan> {
  const incoming = checkedTypes(body.spec);
  const catalog = deps.store.eventCatalog;
  const existing = await catalog.listAll(projectId, EVENT_TYPE_LIMITS.perProject + 1);
  const byName = new Map(existing.map((d) => [d.name, d]));
  const declared = new Set(incoming.map((t) => t.name));

  const created = incoming.filter((t) => !byName.has(t.name));
  const changes = incoming.filter((t) => byName.has(t.name)).map((t) => changeOf(byName.get(t.name)!, t));
  const removed = body.replace_all ? existing.filter((d) => !declared.has(d.name)) : [];
  const total = existing.length + created.length - removed.length;
  if (total > EVENT_TYPE_LIMITS.perProject) throw catalogFull(total);

  if (body.dry_run)
    return {
      dry_run: true,
      created: created.map((t) => ({ name: t.name })),
      changed: changes
        .filter((c) => c.fields.length > 0)
        .map((c) => ({ uid: c.doc._id, name: c.doc.name, fields: c.fields })),
      removed: removed.map((d) => ({ uid: d._id, name: d.name })),
      unchanged: changes
        .filter((c) => c.fields.length === 0)
        .map((c) => ({ uid: c.doc._id, name: c.doc.name })),
    };

  // One write at a time (the local database pays for overlapping writes; a catalog is small).
  const stored = new Map<string, EventCatalogDoc>();
  for (const t of created) {
    try {
      stored.set(
        t.name,
        await catalog.insert(projectId, {
          _id: newId(),
          name: t.name,
          description: t.description,
          category: t.category,
          json_schema_json: t.json_schema_json,
          example_json: t.example_json,
          deprecated_at: t.deprecated ? new Date() : null,
        }),
      );
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      throw new ConflictError(
        `event type ${JSON.stringify(t.name)} was created while importing: run the import again`,
      );
    }
  }
  for (const c of changes) {
    const doc = c.fields.length > 0 ? await catalog.update(projectId, c.doc._id, c.set) : c.doc;
    // deleted while importing: the import's answer leaves it out
    if (doc) stored.set(doc.name, doc);
  }
  for (const d of removed) await catalog.softDelete(projectId, d._id);
  return incoming.flatMap((t) => stored.get(t.name) ?? []);
}
