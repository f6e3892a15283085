import { defineOperations } from '../operation';
import { pageQuery } from '../schemas/pagination.schema';
import { apiKeyCreateBody, apiKeyResponse, issuedApiKeyResponse } from '../schemas/project.schema';

const TAG = 'API keys';
const BASE = '/v1/projects/:projectID/keys';

export const apiKeyOperations = defineOperations('api', {
  createApiKey: {
    method: 'post',
    path: BASE,
    summary: 'Issue a project API key; the key is shown only in this response',
    tag: TAG,
    auth: 'project',
    permission: 'own',
    changesConfiguration: true,
    body: apiKeyCreateBody,
    status: 201,
    message: 'API key created successfully',
    response: issuedApiKeyResponse,
  },
  listApiKeys: {
    method: 'get',
    path: BASE,
    summary: 'List the project API keys (never the keys themselves)',
    tag: TAG,
    auth: 'project',
    permission: 'own',
    changesConfiguration: false,
    query: pageQuery,
    paginated: true,
    status: 200,
    message: 'API keys fetched successfully',
    response: apiKeyResponse,
  },
  revokeApiKey: {
    method: 'delete',
    path: `${BASE}/:keyID`,
    summary: 'Revoke a project API key; it stops working at once',
    tag: TAG,
    auth: 'project',
    permission: 'own',
    changesConfiguration: true,
    status: 200,
    message: 'API key revoked successfully',
    response: apiKeyResponse,
  },
});
