import { Type } from '@sinclair/typebox';
import { parsePageQuery, type EndpointDoc, type EndpointListFilter } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import { route, type RouteFile } from '../http/route';
import { presentEndpoint } from '../presenters/endpoint.presenter';
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
import { idQuery, pageQuery, searchQuery } from '../schemas/pagination.schema';
import {
  createEndpoint,
  deleteEndpoint,
  expireSecret,
  getEndpoint,
  setEndpointStatus,
  updateEndpoint,
} from '../usecases/endpoints.usecase';
import { testOAuth2 } from '../usecases/test-oauth2.usecase';
import type { ProjectId } from '@hookrail/domain';

const TAG = 'Endpoints';
const BASE = '/v1/projects/:projectID/endpoints';
const ONE = `${BASE}/:endpointID`;

export const endpointRoutes: RouteFile<GatewayDeps> = (deps) => {
  const present = (doc: EndpointDoc) => presentEndpoint(doc, deps);
  const statusRoute = (
    status: 'active' | 'paused',
    verb: 'pause' | 'activate',
    method: 'put' | 'post' = 'put',
  ) => ({
    method,
    path: `${ONE}/${verb}`,
    operationId: method === 'put' ? `${verb}Endpoint` : `${verb}EndpointPost`,
    summary:
      verb === 'pause'
        ? 'Pause an endpoint: deliveries are held, nothing is lost'
        : method === 'put'
          ? 'Activate an endpoint: held deliveries resume'
          : "Activate an endpoint (Convoy's verb for the same operation)",
    tag: TAG,
    auth: 'project' as const,
    status: 202,
    message: `Endpoint ${verb === 'pause' ? 'paused' : 'activated'} successfully`,
    response: endpointResponse,
    handler: async ({ project, params }: { project: { _id: ProjectId }; params: Record<string, string> }) =>
      present(await setEndpointStatus(deps, project._id, params.endpointID, status)),
  });

  return [
    // literal path before `/:endpointID` routes
    route({
      method: 'post',
      path: `${BASE}/oauth2/test`,
      operationId: 'testOAuth2',
      summary: 'Test an OAuth2 configuration with a real token request (operation 11)',
      tag: TAG,
      auth: 'project',
      body: oauth2TestBody,
      status: 200,
      message: 'OAuth2 configuration tested',
      response: oauth2TestResponse,
      handler: ({ body }) => testOAuth2(deps.http, body.oauth2),
    }),
    route({
      method: 'post',
      path: BASE,
      operationId: 'createEndpoint',
      summary: 'Create an endpoint (a signing secret is generated when none is given)',
      tag: TAG,
      auth: 'project',
      body: endpointCreateBody,
      status: 201,
      message: 'Endpoint created successfully',
      response: endpointResponse,
      handler: async ({ project, body }) => present(await createEndpoint(deps, project, body)),
    }),
    {
      method: 'get',
      path: BASE,
      operationId: 'listEndpoints',
      summary: 'List endpoints',
      tag: TAG,
      auth: 'project',
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
      async handler({ project, query }) {
        const filter: EndpointListFilter = {};
        if (query.ownerId !== undefined) filter.ownerId = String(query.ownerId);
        if (query.status !== undefined) filter.status = query.status as EndpointDoc['status'];
        if (query.q !== undefined) filter.nameContains = String(query.q);
        const page = await deps.store.endpoints.page(project._id, filter, parsePageQuery(query));
        return { content: page.content.map(present), pagination: page.pagination };
      },
    },
    {
      method: 'get',
      path: ONE,
      operationId: 'getEndpoint',
      summary: 'Get an endpoint (operation 9)',
      tag: TAG,
      auth: 'project',
      status: 200,
      message: 'Endpoint fetched successfully',
      response: endpointResponse,
      handler: async ({ project, params }) =>
        present(await getEndpoint(deps, project._id, params.endpointID)),
    },
    route({
      method: 'put',
      path: ONE,
      operationId: 'updateEndpoint',
      summary: 'Update an endpoint; a new `secret` replaces the current one at once',
      tag: TAG,
      auth: 'project',
      body: endpointUpdateBody,
      status: 202,
      message: 'Endpoint updated successfully',
      response: endpointResponse,
      handler: async ({ project, params, body }) =>
        present(await updateEndpoint(deps, project, params.endpointID, body)),
    }),
    {
      method: 'delete',
      path: ONE,
      operationId: 'deleteEndpoint',
      summary: 'Delete an endpoint and its subscriptions',
      tag: TAG,
      auth: 'project',
      status: 200,
      message: 'Endpoint deleted successfully',
      response: Type.Null(),
      async handler({ project, params }) {
        await deleteEndpoint(deps, project._id, params.endpointID);
        return null;
      },
    },
    route({
      method: 'put',
      path: `${ONE}/expire_secret`,
      operationId: 'expireSecret',
      summary: 'Roll the endpoint secret: the current one expires after `expiration` seconds (operation 10)',
      tag: TAG,
      auth: 'project',
      body: expireSecretBody,
      status: 200,
      message: 'Endpoint secret rolled successfully',
      response: endpointResponse,
      handler: async ({ project, params, body }) =>
        present(await expireSecret(deps, project, params.endpointID, body)),
    }),
    statusRoute('paused', 'pause'),
    statusRoute('active', 'activate'),
    statusRoute('active', 'activate', 'post'),
  ];
};
