import {
  ConflictError,
  NotFoundError,
  ValidationError,
  newId,
  randomToken,
  type ProjectId,
} from '@hookrail/domain';
import { assertBrokerReachable } from './source-broker-check';
import { checkedChangeStream, completeDbChangeStream } from './source-change-stream';
import type { SourceDoc } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import { publishConfigChange } from '../common/config-changed';
import { SOURCE_CREDENTIALS, open, seal } from '../common/credentials';
import type { SourceCreateBody, SourceUpdateBody } from '@hookrail/api-contract';
import { assertServedType, completePubSub, completeVerifier } from './source-input';
import { clearedFields } from '../common/cleared-fields';

type Json = Record<string, unknown>;

async function assertNameFree(deps: GatewayDeps, projectId: ProjectId, name: string, except?: string) {
  const other = await deps.store.sources.findByName(projectId, name);
  if (other && other._id !== except) throw new ConflictError(`a source named "${name}" already exists`);
}

function credentialsSealed(
  deps: GatewayDeps,
  verifier: Json | null,
  pubSub: Json | null,
  cdc: Json | null = null,
) {
  return seal(deps.box, { verifier, pub_sub: pubSub, db_change_stream: cdc }, SOURCE_CREDENTIALS);
}

export async function createSource(
  deps: GatewayDeps,
  projectId: ProjectId,
  body: SourceCreateBody,
): Promise<SourceDoc> {
  const type = body.type;
  assertServedType(type);
  const provider = body.provider ?? null;
  const verifier = completeVerifier(provider, body.verifier ?? null);
  const pubSub = completePubSub(type, body.pub_sub ?? null);
  const given = completeDbChangeStream(type, body.db_change_stream ?? null, null, new Date());
  await assertNameFree(deps, projectId, body.name);
  await assertBrokerReachable(deps, pubSub);
  const cdc = await checkedChangeStream(deps, projectId, given, null);
  const sealed = credentialsSealed(deps, verifier, pubSub, cdc);
  const doc = await deps.store.sources.insert(projectId, {
    _id: newId(),
    name: body.name,
    type,
    provider,
    provider_config: provider === 'twitter' ? { twitter: { crc_verified_at: null } } : null,
    mask_id: randomToken(12),
    is_disabled: body.is_disabled ?? false,
    forward_headers: body.forward_headers ?? [],
    idempotency_keys: body.idempotency_keys ?? [],
    body_function: body.body_function ?? null,
    header_function: body.header_function ?? null,
    custom_response: body.custom_response ?? null,
    pub_sub: sealed.pub_sub,
    db_change_stream: sealed.db_change_stream,
    verifier: sealed.verifier,
  });
  await publishConfigChange(deps.publisher, projectId, 'source', doc._id, 'created');
  return doc;
}

/** Fields given replace the stored ones; type, provider, verifier and pub_sub are re-checked together. */
export async function updateSource(
  deps: GatewayDeps,
  projectId: ProjectId,
  id: string,
  body: SourceUpdateBody,
): Promise<SourceDoc> {
  const current = await deps.store.sources.findById(projectId, id);
  if (!current) throw new NotFoundError('source');
  if (body.type !== undefined) assertServedType(body.type);
  if (body.name !== undefined) await assertNameFree(deps, projectId, body.name, id);
  const set: Partial<SourceDoc> = clearedFields(body);
  for (const key of [
    'name',
    'type',
    'provider',
    'body_function',
    'header_function',
    'forward_headers',
    'idempotency_keys',
    'is_disabled',
    'custom_response',
  ] as const)
    if (body[key] !== undefined) (set as Json)[key] = body[key];
  const type = body.type ?? current.type;
  const provider = body.provider ?? (set.provider === null ? null : (current.provider ?? null));
  if (body.verifier !== undefined || body.provider !== undefined || set.provider === null) {
    const stored = open(deps.box, { verifier: current.verifier ?? null }, SOURCE_CREDENTIALS).verifier;
    const verifier = body.verifier !== undefined ? body.verifier : stored;
    set.verifier = credentialsSealed(deps, completeVerifier(provider, verifier), null).verifier;
  }
  if (body.pub_sub !== undefined || body.type !== undefined) {
    const keep = body.pub_sub === undefined && type === 'pub_sub' && current.pub_sub;
    if (keep) set.pub_sub = current.pub_sub;
    else {
      const pubSub = completePubSub(type, body.pub_sub ?? null);
      await assertBrokerReachable(deps, pubSub);
      set.pub_sub = credentialsSealed(deps, null, pubSub).pub_sub;
    }
  }
  if (body.db_change_stream !== undefined || body.type !== undefined)
    set.db_change_stream = await changeStreamUpdate(deps, type, body, current);
  const updated = await deps.store.sources.update(projectId, id, set);
  if (!updated) throw new NotFoundError('source');
  await publishConfigChange(deps.publisher, projectId, 'source', id, 'updated');
  return updated;
}

/** The change stream settings after an update: kept when not given, else checked and sealed anew. */
async function changeStreamUpdate(
  deps: GatewayDeps,
  type: SourceDoc['type'],
  body: SourceUpdateBody,
  current: SourceDoc,
): Promise<Json | null> {
  if (body.db_change_stream === undefined && type === 'db_change_stream' && current.db_change_stream)
    return current.db_change_stream;
  const given = completeDbChangeStream(
    type,
    withStoredConnection(deps, body.db_change_stream ?? null, current.db_change_stream ?? null),
    current.db_change_stream ?? null,
    new Date(),
  );
  const cdc = await checkedChangeStream(deps, current.project_id, given, current.db_change_stream ?? null);
  return credentialsSealed(deps, null, null, cdc).db_change_stream;
}

/**
 * The settings of an update with the stored connection (its string, or the operator's connection
 * it names) when none is given for the same kind of database: a string is never returned, so an
 * edit form cannot send it back.
 */
function withStoredConnection(deps: GatewayDeps, input: Json | null, current: Json | null): Json | null {
  if (!input || input.connection_string !== undefined || input.connection !== undefined) return input;
  if (!current || current.type !== input.type)
    throw new ValidationError('db_change_stream.connection_string is required', [
      { field: 'db_change_stream.connection_string', message: 'is required for a new database' },
    ]);
  if (typeof current.connection === 'string') return { ...input, connection: current.connection };
  const stored = open(deps.box, { db_change_stream: current }, SOURCE_CREDENTIALS).db_change_stream;
  return { ...input, connection_string: stored.connection_string };
}

export async function deleteSource(deps: GatewayDeps, projectId: ProjectId, id: string): Promise<void> {
  if (!(await deps.store.sources.softDelete(projectId, id))) throw new NotFoundError('source');
  await publishConfigChange(deps.publisher, projectId, 'source', id, 'deleted');
}
