import type { Role } from '@hookrail/api-contract';
import { hashSecret, newId, randomToken, type ProjectId } from '@hookrail/domain';
import type { ApiKeyDoc, Store } from '@hookrail/store';
import { formatProjectKey } from '../auth/principal';

/** Issues a project key; the full key exists only in the returned value, the store keeps a hash. */
export async function issueApiKey(
  store: Store,
  projectId: ProjectId,
  input: { name: string; expiresAt?: Date | null; role?: Role; viewPayloads?: boolean },
): Promise<{ doc: ApiKeyDoc; key: string }> {
  const id = newId();
  const secret = randomToken(32);
  const doc = await store.apiKeys.insert(projectId, {
    _id: id,
    name: input.name,
    secret_hash: hashSecret(secret),
    role: 'admin',
    access_role: input.role ?? 'owner',
    view_payloads: input.viewPayloads ?? false,
    expires_at: input.expiresAt ?? null,
    last_used_at: null,
  });
  return { doc, key: formatProjectKey(id, secret) };
}
