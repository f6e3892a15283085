import { NotFoundError } from '@hookrail/domain';
import { parsePageQuery } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import { route, type RouteFile } from '../http/legacy-route';
import { presentApiKey } from '../presenters/project.presenter';
import { pageQuery } from '@hookrail/api-contract';
import { apiKeyCreateBody, apiKeyResponse, issuedApiKeyResponse } from '@hookrail/api-contract';
import { issueApiKey } from '../usecases/issue-api-key.usecase';

const TAG = 'API keys';
const BASE = '/v1/projects/:projectID/keys';

export const apiKeyRoutes: RouteFile<GatewayDeps> = ({ store, now }) => [
  route({
    method: 'post',
    path: BASE,
    operationId: 'createApiKey',
    summary: 'Issue a project API key; the key is shown only in this response',
    tag: TAG,
    auth: 'project',
    body: apiKeyCreateBody,
    status: 201,
    message: 'API key created successfully',
    response: issuedApiKeyResponse,
    async handler({ project, body }) {
      const expiresAt = body.expires_in ? new Date(now().getTime() + body.expires_in * 1000) : null;
      const { doc, key } = await issueApiKey(store, project._id, { name: body.name ?? 'api key', expiresAt });
      return { ...presentApiKey(doc), key };
    },
  }),
  {
    method: 'get',
    path: BASE,
    operationId: 'listApiKeys',
    summary: 'List the project API keys (never the keys themselves)',
    tag: TAG,
    auth: 'project',
    query: pageQuery,
    paginated: true,
    status: 200,
    message: 'API keys fetched successfully',
    response: apiKeyResponse,
    async handler({ project, query }) {
      const page = await store.apiKeys.page(project._id, parsePageQuery(query));
      return { content: page.content.map(presentApiKey), pagination: page.pagination };
    },
  },
  {
    method: 'delete',
    path: `${BASE}/:keyID`,
    operationId: 'revokeApiKey',
    summary: 'Revoke a project API key; it stops working at once',
    tag: TAG,
    auth: 'project',
    status: 200,
    message: 'API key revoked successfully',
    response: apiKeyResponse,
    async handler({ project, params }) {
      const doc = await store.apiKeys.findById(project._id, params.keyID);
      if (!doc) throw new NotFoundError('api key');
      await store.apiKeys.softDelete(project._id, doc._id);
      const at = now();
      return presentApiKey({ ...doc, deleted_at: at, updated_at: at });
    },
  },
];
