import { endpointOperations } from '@hookrail/api-contract';
import { parsePageQuery, type EndpointDoc, type EndpointListFilter } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import type { Handlers } from '../http/call';
import { presentEndpoint } from './endpoint.presenter';
import {
  createEndpoint,
  deleteEndpoint,
  expireSecret,
  getEndpoint,
  setEndpointStatus,
  updateEndpoint,
} from './endpoints.usecase';
import { testOAuth2 } from './test-oauth2.usecase';
import { listBlockedKeys, presentBlockedKey, requestUnblock } from './blocked-keys.usecase';

export function endpointHandlers(deps: GatewayDeps): Handlers<typeof endpointOperations> {
  const present = (doc: EndpointDoc) => presentEndpoint(doc, deps);
  const setStatus =
    (status: 'active' | 'paused') =>
    async ({
      project,
      params,
    }: {
      project: { _id: EndpointDoc['project_id'] };
      params: Record<string, string>;
    }) =>
      present(await setEndpointStatus(deps, project._id, params.endpointID, status));
  return {
    testOAuth2: ({ body }) => testOAuth2(deps.http, body.oauth2),
    createEndpoint: async ({ project, body }) => present(await createEndpoint(deps, project, body)),
    async listEndpoints({ project, query }) {
      const filter: EndpointListFilter = {};
      if (query.ownerId !== undefined) filter.ownerId = String(query.ownerId);
      if (query.status !== undefined) filter.status = query.status as EndpointDoc['status'];
      if (query.q !== undefined) filter.nameContains = String(query.q);
      const page = await deps.store.endpoints.page(project._id, filter, parsePageQuery(query));
      return { content: page.content.map(present), pagination: page.pagination };
    },
    getEndpoint: async ({ project, params }) =>
      present(await getEndpoint(deps, project._id, params.endpointID)),
    updateEndpoint: async ({ project, params, body }) =>
      present(await updateEndpoint(deps, project, params.endpointID, body)),
    async deleteEndpoint({ project, params }) {
      await deleteEndpoint(deps, project._id, params.endpointID);
      return null;
    },
    expireSecret: async ({ project, params, body }) =>
      present(await expireSecret(deps, project, params.endpointID, body)),
    pauseEndpoint: setStatus('paused'),
    activateEndpoint: setStatus('active'),
    activateEndpointPost: setStatus('active'),
    listBlockedKeys: async ({ project, params }) =>
      (await listBlockedKeys(deps, project._id, params.endpointID)).map(presentBlockedKey),
    unblockKey: async ({ project, params, body }) =>
      presentBlockedKey(await requestUnblock(deps, project._id, params.endpointID, body)),
  };
}
