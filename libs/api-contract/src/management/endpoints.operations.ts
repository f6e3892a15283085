import { Type } from '@sinclair/typebox';
import { defineOperations, type OperationShape } from '../operation';
import { enumOf } from '../schemas/common.schema';
import {
  ENDPOINT_STATUSES,
  endpointCreateBody,
  endpointResponse,
  endpointUpdateBody,
  expireSecretBody,
  oauth2TestBody,
  oauth2TestResponse,
} from '../schemas/endpoint.schema';
import { blockedKeyResponse, unblockKeyBody } from '../schemas/ordering.schema';
import { idQuery, pageQuery, searchQuery } from '../schemas/pagination.schema';

const tag = 'Endpoints';
const BASE = '/v1/projects/:projectID/endpoints';
const ONE = `${BASE}/:endpointID` as const;

const statusChange = <const P extends string>(path: P, summary: string, message: string) =>
  ({
    method: 'put',
    path,
    summary,
    tag,
    auth: 'project',
    permission: 'configure',
    changesConfiguration: true,
    status: 202,
    message,
    response: endpointResponse,
  }) satisfies OperationShape;

export const endpointOperations = defineOperations('api', {
  // literal path before `/:endpointID` operations
  testOAuth2: {
    method: 'post',
    path: `${BASE}/oauth2/test`,
    summary: 'Test an OAuth2 configuration with a real token request',
    tag,
    auth: 'project',
    permission: 'operate',
    changesConfiguration: false,
    body: oauth2TestBody,
    status: 200,
    message: 'OAuth2 configuration tested',
    response: oauth2TestResponse,
  },
  createEndpoint: {
    method: 'post',
    path: BASE,
    summary: 'Create an endpoint (a signing secret is generated when none is given)',
    tag,
    auth: 'project',
    permission: 'configure',
    changesConfiguration: true,
    body: endpointCreateBody,
    status: 201,
    message: 'Endpoint created successfully',
    response: endpointResponse,
  },
  listEndpoints: {
    method: 'get',
    path: BASE,
    summary: 'List endpoints',
    tag,
    auth: 'project',
    permission: 'read',
    changesConfiguration: false,
    query: {
      ...pageQuery,
      ownerId: idQuery('endpoints of this owner'),
      status: enumOf(ENDPOINT_STATUSES),
      q: searchQuery(
        'endpoints whose name contains this text, ignoring case (alias: `query`); read in bounded steps, so a page may hold fewer items than perPage with has_next_page: follow next_page_cursor',
      ),
    },
    paginated: true,
    status: 200,
    message: 'Endpoints fetched successfully',
    response: endpointResponse,
  },
  getEndpoint: {
    method: 'get',
    path: ONE,
    summary: 'Get an endpoint',
    tag,
    auth: 'project',
    permission: 'read',
    changesConfiguration: false,
    status: 200,
    message: 'Endpoint fetched successfully',
    response: endpointResponse,
  },
  updateEndpoint: {
    method: 'put',
    path: ONE,
    summary: 'Update an endpoint; a new `secret` replaces the current one at once',
    tag,
    auth: 'project',
    permission: 'configure',
    changesConfiguration: true,
    body: endpointUpdateBody,
    status: 202,
    message: 'Endpoint updated successfully',
    response: endpointResponse,
  },
  deleteEndpoint: {
    method: 'delete',
    path: ONE,
    summary: 'Delete an endpoint and its subscriptions',
    tag,
    auth: 'project',
    permission: 'configure',
    changesConfiguration: true,
    status: 200,
    message: 'Endpoint deleted successfully',
    response: Type.Null(),
  },
  expireSecret: {
    method: 'put',
    path: `${ONE}/expire_secret`,
    summary: 'Roll the endpoint secret: the current one expires after `expiration` seconds',
    tag,
    auth: 'project',
    permission: 'configure',
    changesConfiguration: true,
    body: expireSecretBody,
    status: 200,
    message: 'Endpoint secret rolled successfully',
    response: endpointResponse,
  },
  pauseEndpoint: statusChange(
    `${ONE}/pause`,
    'Pause an endpoint: deliveries are held, nothing is lost',
    'Endpoint paused successfully',
  ),
  activateEndpoint: statusChange(
    `${ONE}/activate`,
    'Activate an endpoint: held deliveries resume',
    'Endpoint activated successfully',
  ),
  activateEndpointPost: {
    ...statusChange(
      `${ONE}/activate`,
      "Activate an endpoint (Convoy's verb for the same operation)",
      'Endpoint activated successfully',
    ),
    method: 'post',
  },
  listBlockedKeys: {
    method: 'get',
    path: `${ONE}/blocked-keys`,
    summary:
      'Ordering keys of the endpoint that hold deliveries behind an unfinished one (docs/ordered-delivery.md)',
    tag,
    auth: 'project',
    permission: 'read',
    changesConfiguration: false,
    status: 200,
    message: 'Blocked keys fetched successfully',
    response: Type.Array(blockedKeyResponse),
  },
  unblockKey: {
    method: 'post',
    path: `${ONE}/blocked-keys/unblock`,
    summary: "Skip a blocked key's head: it is recorded Discarded and the next held delivery is sent",
    tag,
    auth: 'project',
    permission: 'operate',
    changesConfiguration: true,
    body: unblockKeyBody,
    status: 202,
    message: 'Unblock requested: the dispatcher skips the head shortly',
    response: blockedKeyResponse,
  },
});
