import {
  EVENT_TYPE_LIMITS,
  type EventTypeCreateBody,
  type EventTypeUpdateBody,
} from '@hookrail/api-contract';
import { ConflictError, NotFoundError, ValidationError, newId, type ProjectId } from '@hookrail/domain';
import { isDuplicateKey, type EventCatalogDoc } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import { checkDataSchema, checkExample } from '@hookrail/event-schemas';
import { checkEventTypeName } from './event-type-name';

function duplicateName(name: string): ConflictError {
  return new ConflictError(`an event type named ${JSON.stringify(name)} already exists in this project`);
}

/** A catalog is bounded: the list is one unpaginated answer (Convoy's shape). */
export function catalogFull(count: number): ConflictError {
  return new ConflictError(
    `the project has ${count} event types: a catalog holds at most ${EVENT_TYPE_LIMITS.perProject}`,
  );
}

export async function createEventType(
  deps: GatewayDeps,
  projectId: ProjectId,
  body: EventTypeCreateBody,
): Promise<EventCatalogDoc> {
  checkEventTypeName(body.name, 'name');
  const schemaJson = body.json_schema === undefined ? null : checkDataSchema(body.json_schema, 'json_schema');
  const exampleJson = body.example === undefined ? null : checkExample(body.example, schemaJson, 'example');
  if (await deps.store.eventCatalog.findByName(projectId, body.name)) throw duplicateName(body.name);
  const count = await deps.store.eventCatalog.count(projectId);
  if (count >= EVENT_TYPE_LIMITS.perProject) throw catalogFull(count);
  try {
    return await deps.store.eventCatalog.insert(projectId, {
      _id: newId(),
      name: body.name,
      description: body.description ?? '',
      category: body.category ?? '',
      json_schema_json: schemaJson,
      example_json: exampleJson,
      deprecated_at: null,
    });
  } catch (err) {
    // a create of the same name that raced this one
    if (isDuplicateKey(err)) throw duplicateName(body.name);
    throw err;
  }
}

export async function getEventType(deps: GatewayDeps, projectId: ProjectId, id: string) {
  const doc = await deps.store.eventCatalog.findById(projectId, id);
  if (!doc) throw new NotFoundError('event type');
  return doc;
}

export async function updateEventType(
  deps: GatewayDeps,
  projectId: ProjectId,
  id: string,
  body: EventTypeUpdateBody,
): Promise<EventCatalogDoc> {
  const current = await getEventType(deps, projectId, id);
  if (body.name !== undefined && body.name !== current.name) {
    const message = `cannot be changed (it is ${JSON.stringify(current.name)}): create the new type and deprecate this one`;
    throw new ValidationError(`name: ${message}`, [{ field: 'name', message }]);
  }
  const set: Partial<EventCatalogDoc> = {};
  if (body.description !== undefined) set.description = body.description;
  if (body.category !== undefined) set.category = body.category;
  if (body.json_schema !== undefined) set.json_schema_json = checkDataSchema(body.json_schema, 'json_schema');
  const schemaJson = set.json_schema_json !== undefined ? set.json_schema_json : current.json_schema_json;
  if (body.example !== undefined) set.example_json = checkExample(body.example, schemaJson, 'example');
  else if (set.json_schema_json !== undefined && current.example_json !== null) {
    // the stored example must still match: say so rather than keep a catalog that contradicts itself
    try {
      checkExample(JSON.parse(current.example_json), schemaJson, 'example');
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      const errors = (err.details?.errors ?? []).map((e) => ({
        field: e.field,
        message: `${e.message} (the stored example does not match the new json_schema: send an example that does)`,
      }));
      throw new ValidationError(`${errors[0]?.field ?? 'example'}: ${errors[0]?.message ?? ''}`, errors);
    }
  }
  if (body.deprecated === true) set.deprecated_at = current.deprecated_at ?? new Date();
  if (body.deprecated === false) set.deprecated_at = null;
  const updated = await deps.store.eventCatalog.update(projectId, id, set);
  if (!updated) throw new NotFoundError('event type');
  return updated;
}

/** Marks the type deprecated (it stays in the catalog); deprecating it again keeps the first date. */
export async function deprecateEventType(deps: GatewayDeps, projectId: ProjectId, id: string) {
  const current = await getEventType(deps, projectId, id);
  if (current.deprecated_at) return current;
  const updated = await deps.store.eventCatalog.update(projectId, id, { deprecated_at: new Date() });
  if (!updated) throw new NotFoundError('event type');
  return updated;
}

export async function deleteEventType(deps: GatewayDeps, projectId: ProjectId, id: string): Promise<void> {
  if (!(await deps.store.eventCatalog.softDelete(projectId, id))) throw new NotFoundError('event type');
}
