import { Type } from '@sinclair/typebox';
import { defineOperations, type OperationShape } from '../operation';
import { enumOf, str } from '../schemas/common.schema';
import { pageQuery } from '../schemas/pagination.schema';
import { SOURCE_TYPES, sourceCreateBody, sourceResponse, sourceUpdateBody } from '../schemas/source.schema';
import { PROVIDERS } from '../vocabulary';

const TAG = 'Sources';
const BASE = '/v1/projects/:projectID/sources';

const update = <const M extends 'put' | 'post'>(method: M, summary: string) =>
  ({
    method,
    path: `${BASE}/:sourceID` as const,
    summary,
    tag: TAG,
    auth: 'project',
    permission: 'configure',
    changesConfiguration: true,
    body: sourceUpdateBody,
    status: 202,
    message: 'Source updated successfully',
    response: sourceResponse,
  }) satisfies OperationShape;

export const sourceOperations = defineOperations('api', {
  createSource: {
    method: 'post',
    path: BASE,
    summary: 'Create a source',
    tag: TAG,
    auth: 'project',
    permission: 'configure',
    changesConfiguration: true,
    body: sourceCreateBody,
    status: 201,
    message: 'Source created successfully',
    response: sourceResponse,
  },
  listSources: {
    method: 'get',
    path: BASE,
    summary: 'List sources',
    tag: TAG,
    auth: 'project',
    permission: 'read',
    changesConfiguration: false,
    query: { ...pageQuery, type: enumOf(SOURCE_TYPES), provider: enumOf(PROVIDERS), name: str() },
    paginated: true,
    status: 200,
    message: 'Sources fetched successfully',
    response: sourceResponse,
  },
  getSource: {
    method: 'get',
    path: `${BASE}/:sourceID`,
    summary: 'Get a source',
    tag: TAG,
    auth: 'project',
    permission: 'read',
    changesConfiguration: false,
    status: 200,
    message: 'Source fetched successfully',
    response: sourceResponse,
  },
  updateSource: update('put', 'Update a source, enable or disable it'),
  // convoy-go v2's Source.Update sends POST where Convoy's server takes PUT
  updateSourcePost: update('post', "Update a source (Convoy SDK's verb for updateSource)"),
  deleteSource: {
    method: 'delete',
    path: `${BASE}/:sourceID`,
    summary: 'Delete a source',
    tag: TAG,
    auth: 'project',
    permission: 'configure',
    changesConfiguration: true,
    status: 200,
    message: 'Source deleted successfully',
    response: Type.Null(),
  },
});
