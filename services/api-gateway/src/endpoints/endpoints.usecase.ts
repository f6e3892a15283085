import { NotFoundError, ValidationError, newId, randomToken, type ProjectId } from '@hookrail/domain';
import type { MetaEventType } from '@hookrail/api-contract';
import { generateStandardWebhooksSecret } from '@hookrail/signing';
import { releaseHeldDeliveries } from '@hookrail/operations';
import type { EndpointDoc, EndpointSecret, ProjectDoc } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import { endpointMetaData } from '../endpoints/endpoint.presenter';
import type { EndpointCreateBody, EndpointUpdateBody, ExpireSecretBody } from '@hookrail/api-contract';
import { publishConfigChange } from '../common/config-changed';
import { ENDPOINT_CREDENTIALS, seal } from '../common/credentials';
import { clearedFields } from '../common/cleared-fields';
import { rollSecret } from './roll-secret';
import { destinationFields } from './endpoint-destination';

/** A generated signing secret: in Standard Webhooks mode in the `whsec_<base64>` form its verifiers take. */
function generatedSecret(project: ProjectDoc): string {
  return project.config?.signature?.standard_webhooks ? generateStandardWebhooksSecret() : randomToken(32);
}

/**
 * The scheme of an endpoint whose create leaves `advanced_signatures` out, wherever it is created
 * (API, portal, the console's form pre-filled with it): the project's choice, simple by default.
 */
const advancedByDefault = (project: ProjectDoc): boolean =>
  project.config?.signature?.advanced_signatures_default ?? false;

const DISABLED_REASON = 'disabled through the API (is_disabled)';

const SETTABLE = [
  'name',
  'description',
  'owner_id',
  'content_type',
  'advanced_signatures',
  'http_timeout',
  'rate_limit',
  'rate_limit_duration',
  'support_email',
  'slack_webhook_url',
] as const;

/** https is required when the project enforces secure endpoints. */
function checkUrl(project: ProjectDoc, url: string): void {
  if (project.config?.ssl?.enforce_secure_endpoints && !url.startsWith('https://'))
    throw new ValidationError('this project only accepts https endpoints', [
      { field: 'url', message: 'must use https (the project enforces secure endpoints)' },
    ]);
}

/** Keeps only the sub-object the auth `type` selects, with its credentials sealed. */
function sealedCredentials(deps: GatewayDeps, body: EndpointUpdateBody) {
  const auth = body.authentication;
  const authentication = auth ? { type: auth.type, [auth.type]: auth[auth.type] } : auth;
  return seal(deps.box, { authentication, mtls_client_cert: body.mtls_client_cert }, ENDPOINT_CREDENTIALS);
}

async function emit(
  deps: GatewayDeps,
  doc: EndpointDoc,
  event: MetaEventType,
  op: 'created' | 'updated' | 'deleted',
) {
  await Promise.all([
    publishConfigChange(deps.publisher, doc.project_id, 'endpoint', doc._id, op),
    deps.publisher.publish('meta', [
      {
        project_id: doc.project_id,
        event_type: event,
        data: endpointMetaData(doc, deps),
        occurred_at: deps.now().toISOString(),
      },
    ]),
  ]);
}

export async function createEndpoint(
  deps: GatewayDeps,
  project: ProjectDoc,
  body: EndpointCreateBody,
): Promise<EndpointDoc> {
  const target = await destinationFields(deps, body);
  if (target.type === 'http') checkUrl(project, target.url);
  const now = deps.now();
  const secret: EndpointSecret = {
    uid: newId(),
    value: deps.box.seal(body.secret ?? generatedSecret(project)),
    created_at: now,
    updated_at: now,
    deleted_at: null,
    expires_at: null,
  };
  const creds = sealedCredentials(deps, body);
  const doc = await deps.store.endpoints.insert(project._id, {
    _id: newId(),
    owner_id: body.owner_id ?? null,
    name: body.name,
    description: body.description ?? '',
    ...target,
    content_type: body.content_type ?? 'application/json',
    status: body.is_disabled ? 'inactive' : 'active',
    status_reason: body.is_disabled ? DISABLED_REASON : null,
    circuit_breaker: null,
    advanced_signatures: body.advanced_signatures ?? advancedByDefault(project),
    http_timeout: body.http_timeout ?? 10,
    rate_limit: body.rate_limit ?? 0,
    rate_limit_duration: body.rate_limit_duration ?? 0,
    events: 0,
    failure_rate: 0,
    support_email: body.support_email ?? null,
    slack_webhook_url: body.slack_webhook_url ?? null,
    mtls_client_cert: creds.mtls_client_cert ?? null,
    secrets: [secret],
    authentication: creds.authentication ?? null,
  });
  await emit(deps, doc, 'endpoint.created', 'created');
  return doc;
}

export async function getEndpoint(deps: GatewayDeps, projectId: ProjectId, id: string): Promise<EndpointDoc> {
  const doc = await deps.store.endpoints.findById(projectId, id);
  if (!doc) throw new NotFoundError('endpoint');
  return doc;
}

/** A new `secret` on update becomes the newest secret and the old ones expire at once. */
export async function updateEndpoint(
  deps: GatewayDeps,
  project: ProjectDoc,
  id: string,
  body: EndpointUpdateBody,
): Promise<EndpointDoc> {
  const current = await getEndpoint(deps, project._id, id);
  const set: Partial<EndpointDoc> = {};
  for (const key of SETTABLE) if (body[key] !== undefined) (set as Record<string, unknown>)[key] = body[key];
  if (body.type !== undefined || body.url !== undefined || body.destination !== undefined) {
    const target = await destinationFields(deps, body, current);
    if (target.type === 'http' && body.url !== undefined) checkUrl(project, target.url);
    Object.assign(set, target);
  }
  const creds = sealedCredentials(deps, body);
  if (body.authentication !== undefined) set.authentication = creds.authentication ?? null;
  if (body.mtls_client_cert !== undefined) set.mtls_client_cert = creds.mtls_client_cert ?? null;
  Object.assign(set, clearedFields(body));
  const newest = current.secrets?.[current.secrets.length - 1];
  if (body.secret !== undefined && (!newest || deps.box.open(newest.value) !== body.secret))
    set.secrets = rollSecret(current.secrets ?? [], {
      uid: newId(),
      sealedValue: deps.box.seal(body.secret),
      expirationSeconds: 0,
      now: deps.now(),
    });
  // Convoy's is_disabled: true disables; false undoes only that. Convoy's SDK sends false on every
  // update, so it must not resume a paused endpoint or one the health checks disabled (activate does).
  const reenable =
    body.is_disabled === false && current.status === 'inactive' && current.status_reason === DISABLED_REASON;
  if (body.is_disabled === true && current.status !== 'inactive')
    Object.assign(set, { status: 'inactive', status_reason: DISABLED_REASON });
  if (reenable) Object.assign(set, { status: 'active', status_reason: null });
  const updated = await saveAndEmit(deps, project._id, id, set);
  if (reenable) await releaseHeldDeliveries(deps, project._id, id);
  return updated;
}

export async function expireSecret(
  deps: GatewayDeps,
  project: ProjectDoc,
  id: string,
  body: ExpireSecretBody,
): Promise<EndpointDoc> {
  const projectId = project._id;
  const current = await getEndpoint(deps, projectId, id);
  const secrets = rollSecret(current.secrets ?? [], {
    uid: newId(),
    sealedValue: deps.box.seal(body.secret ?? generatedSecret(project)),
    expirationSeconds: body.expiration,
    now: deps.now(),
  });
  return saveAndEmit(deps, projectId, id, { secrets });
}

/** pause: deliveries are held, nothing lost; activate: resumes (and re-enables an inactive endpoint). */
export async function setEndpointStatus(
  deps: GatewayDeps,
  projectId: ProjectId,
  id: string,
  status: 'active' | 'paused',
  through: 'API' | 'portal' = 'API',
): Promise<EndpointDoc> {
  await getEndpoint(deps, projectId, id);
  const updated = await saveAndEmit(deps, projectId, id, {
    status,
    status_reason: status === 'paused' ? `paused through the ${through}` : null,
  });
  // A paused endpoint resumes on activate (held deliveries go out at once)
  if (status === 'active') await releaseHeldDeliveries(deps, projectId, id);
  return updated;
}

async function saveAndEmit(deps: GatewayDeps, projectId: ProjectId, id: string, set: Partial<EndpointDoc>) {
  const updated = await deps.store.endpoints.update(projectId, id, set);
  if (!updated) throw new NotFoundError('endpoint');
  await emit(deps, updated, 'endpoint.updated', 'updated');
  return updated;
}

/** Deleting an endpoint deletes its subscriptions: they could never deliver again. */
export async function deleteEndpoint(deps: GatewayDeps, projectId: ProjectId, id: string): Promise<void> {
  const doc = await getEndpoint(deps, projectId, id);
  const subscriptions = await deps.store.subscriptions.listByEndpoint(projectId, id);
  for (const s of subscriptions) {
    await deps.store.subscriptions.softDelete(projectId, s._id);
    await publishConfigChange(deps.publisher, projectId, 'subscription', s._id, 'deleted');
  }
  await deps.store.endpoints.softDelete(projectId, id);
  await emit(deps, { ...doc, deleted_at: deps.now() }, 'endpoint.deleted', 'deleted');
}
