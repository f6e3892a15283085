import { Type } from '@sinclair/typebox';
import { defineOperations } from '../operation';
import {
  eventTypeCreateBody,
  eventTypeImportBody,
  eventTypeImportResponse,
  eventTypeListResponse,
  eventTypeResponse,
  eventTypeUpdateBody,
} from '../schemas/event-type.schema';

const TAG = 'EventTypes';
const BASE = '/v1/projects/:projectID/event-types';
const ONE = `${BASE}/:eventTypeId` as const;

/** Convoy's event-type catalog (paths, fields, statuses and messages), with Hookrail's extensions. */
export const eventTypeOperations = defineOperations('api', {
  importEventTypes: {
    method: 'post',
    path: `${BASE}/import`,
    summary:
      'Create or update event types from an OpenAPI 3.1 (webhooks, x-webhooks) or AsyncAPI 2/3 document',
    tag: TAG,
    auth: 'project',
    body: eventTypeImportBody,
    status: 200,
    message: 'Event types imported successfully',
    response: eventTypeImportResponse,
  },
  createEventType: {
    method: 'post',
    path: BASE,
    summary: 'Create an event type',
    tag: TAG,
    auth: 'project',
    body: eventTypeCreateBody,
    status: 201,
    message: 'Event type created successfully',
    response: eventTypeResponse,
  },
  listEventTypes: {
    method: 'get',
    path: BASE,
    summary: "The project's event types, in name order (all of them: a catalog holds at most 1,000)",
    tag: TAG,
    auth: 'project',
    status: 200,
    message: 'Event types fetched successfully',
    response: eventTypeListResponse,
  },
  getEventType: {
    method: 'get',
    path: ONE,
    summary: 'Get an event type',
    tag: TAG,
    auth: 'project',
    status: 200,
    message: 'Event type fetched successfully',
    response: eventTypeResponse,
  },
  updateEventType: {
    method: 'put',
    path: ONE,
    summary: 'Update an event type (the fields sent; the name cannot change)',
    tag: TAG,
    auth: 'project',
    body: eventTypeUpdateBody,
    status: 202,
    message: 'Event type updated successfully',
    response: eventTypeResponse,
  },
  deleteEventType: {
    method: 'delete',
    path: ONE,
    summary: 'Delete an event type from the catalog (events of the type are still accepted)',
    tag: TAG,
    auth: 'project',
    status: 200,
    message: 'Event type deleted successfully',
    response: Type.Null(),
  },
  deprecateEventType: {
    method: 'post',
    path: `${ONE}/deprecate`,
    summary: 'Deprecate an event type (it stays in the catalog, marked deprecated)',
    tag: TAG,
    auth: 'project',
    status: 200,
    message: 'Event type deprecated successfully',
    response: eventTypeResponse,
  },
});
