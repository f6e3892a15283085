import { NotFoundError } from '@hookrail/domain';
import { parsePageQuery } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import { presentApiKey } from './project.presenter';
import { issueApiKey } from './issue-api-key.usecase';
import { apiKeyOperations } from '@hookrail/api-contract';
import type { Handlers } from '../http/call';

export function apiKeyHandlers({ store, now }: GatewayDeps): Handlers<typeof apiKeyOperations> {
  return {
    async createApiKey({ project, body }) {
      const expiresAt = body.expires_in ? new Date(now().getTime() + body.expires_in * 1000) : null;
      const { doc, key } = await issueApiKey(store, project._id, { name: body.name ?? 'api key', expiresAt });
      return { ...presentApiKey(doc), key };
    },
    async listApiKeys({ project, query }) {
      const page = await store.apiKeys.page(project._id, parsePageQuery(query));
      return { content: page.content.map(presentApiKey), pagination: page.pagination };
    },
    async revokeApiKey({ project, params }) {
      const doc = await store.apiKeys.findById(project._id, params.keyID);
      if (!doc) throw new NotFoundError('api key');
      await store.apiKeys.softDelete(project._id, doc._id);
      const at = now();
      return presentApiKey({ ...doc, deleted_at: at, updated_at: at });
    },
  };
}
