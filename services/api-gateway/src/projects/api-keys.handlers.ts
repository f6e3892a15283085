import { DomainError, NotFoundError } from '@hookrail/domain';
import { parsePageQuery } from '@hookrail/store';
import type { ApiKeyCreateBody } from '@hookrail/api-contract';
import type { GatewayDeps } from '../deps';
import { roleOf } from '../auth/roles';
import { presentApiKey } from './project.presenter';
import { issueApiKey } from './issue-api-key.usecase';
import { apiKeyOperations } from '@hookrail/api-contract';
import type { Handlers } from '../http/call';

export function apiKeyHandlers({ store, now }: GatewayDeps): Handlers<typeof apiKeyOperations> {
  return {
    async createApiKey({ project, body }) {
      const { doc, key } = await issueApiKey(store, project._id, {
        name: body.name ?? 'api key',
        expiresAt: expiryOf(body, now()),
        role: typeof body.role === 'string' ? roleOf(body.role) : 'owner',
        viewPayloads: body.view_payloads ?? false,
      });
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

/** `expires_in` (seconds from now) or `expires_at` (a time to come), not both; none: never. */
function expiryOf(body: ApiKeyCreateBody, now: Date): Date | null {
  if (body.expires_in && body.expires_at)
    throw new DomainError('validation', 'send expires_in or expires_at, not both');
  if (body.expires_in) return new Date(now.getTime() + body.expires_in * 1000);
  if (!body.expires_at) return null;
  const at = new Date(body.expires_at);
  if (at <= now) throw new DomainError('validation', 'expires_at must be in the future');
  return at;
}
