import { NotFoundError, ValidationError, newId, type ProjectId } from '@hookrail/domain';
import type { ProjectDoc, SubscriptionDoc } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import { publishConfigChange } from '../common/config-changed';
import type { SubscriptionCreateBody, SubscriptionUpdateBody } from '@hookrail/api-contract';
import { clearedFields } from '../common/cleared-fields';
import { checkAlertThreshold, retryConfigOf, storedFilter } from './subscription-input';
import { mentionsOrdering, orderingOf } from './ordering-input';

/** Referenced ids must name live resources of the same project; incoming projects route by source. */
async function checkLinks(
  deps: GatewayDeps,
  project: ProjectDoc,
  sourceId: string | null,
  endpointId: string,
) {
  const errors: { field: string; message: string }[] = [];
  if (project.type === 'incoming' && !sourceId)
    errors.push({ field: 'source_id', message: 'is required in an incoming project' });
  if (sourceId && !(await deps.store.sources.findById(project._id, sourceId)))
    errors.push({ field: 'source_id', message: 'no such source in this project' });
  if (!(await deps.store.endpoints.findById(project._id, endpointId)))
    errors.push({ field: 'endpoint_id', message: 'no such endpoint in this project' });
  if (errors.length > 0) throw new ValidationError(`${errors[0].field}: ${errors[0].message}`, errors);
}

export async function createSubscription(
  deps: GatewayDeps,
  project: ProjectDoc,
  body: SubscriptionCreateBody,
): Promise<SubscriptionDoc> {
  const sourceId = body.source_id ?? null;
  await checkLinks(deps, project, sourceId, body.endpoint_id);
  checkAlertThreshold(body.alert_config);
  const doc = await deps.store.subscriptions.insert(project._id, {
    _id: newId(),
    name: body.name,
    type: body.type ?? 'api',
    source_id: sourceId,
    endpoint_id: body.endpoint_id,
    app_id: body.app_id ?? null,
    delivery_mode: body.delivery_mode ?? 'at_least_once',
    function: body.function ?? null,
    alert_config: body.alert_config ?? null,
    rate_limit_config: body.rate_limit_config ?? null,
    filter_config: {
      event_types: body.filter_config?.event_types ?? ['*'],
      filter: storedFilter(body.filter_config?.filter),
    },
    retry_config: body.retry_config === undefined ? null : retryConfigOf(body.retry_config, null, project),
    ordering: orderingOf(body, null),
  });
  await publishConfigChange(deps.publisher, project._id, 'subscription', doc._id, 'created');
  return doc;
}

export async function getSubscription(deps: GatewayDeps, projectId: ProjectId, id: string) {
  const doc = await deps.store.subscriptions.findById(projectId, id);
  if (!doc) throw new NotFoundError('subscription');
  return doc;
}

export async function updateSubscription(
  deps: GatewayDeps,
  project: ProjectDoc,
  id: string,
  body: SubscriptionUpdateBody,
): Promise<SubscriptionDoc> {
  const current = await getSubscription(deps, project._id, id);
  const set: Partial<SubscriptionDoc> = clearedFields(body);
  for (const key of [
    'name',
    'type',
    'app_id',
    'delivery_mode',
    'function',
    'alert_config',
    'rate_limit_config',
  ] as const)
    if (body[key] !== undefined) (set as Record<string, unknown>)[key] = body[key];
  if (body.source_id !== undefined || body.endpoint_id !== undefined || set.source_id === null) {
    set.source_id = body.source_id ?? (set.source_id === null ? null : current.source_id);
    set.endpoint_id = body.endpoint_id ?? current.endpoint_id;
    await checkLinks(deps, project, set.source_id ?? null, set.endpoint_id);
  }
  checkAlertThreshold(body.alert_config);
  if (body.filter_config !== undefined)
    set.filter_config = {
      event_types: body.filter_config.event_types ?? current.filter_config?.event_types ?? ['*'],
      filter:
        body.filter_config.filter !== undefined
          ? storedFilter(body.filter_config.filter)
          : (current.filter_config?.filter ?? storedFilter(undefined)),
    };
  if (body.retry_config !== undefined)
    set.retry_config = retryConfigOf(body.retry_config, current.retry_config ?? null, project);
  if (mentionsOrdering(body)) set.ordering = orderingOf(body, current.ordering ?? null);
  const updated = await deps.store.subscriptions.update(project._id, id, set);
  if (!updated) throw new NotFoundError('subscription');
  await publishConfigChange(deps.publisher, project._id, 'subscription', id, 'updated');
  return updated;
}

export async function deleteSubscription(deps: GatewayDeps, projectId: ProjectId, id: string): Promise<void> {
  if (!(await deps.store.subscriptions.softDelete(projectId, id))) throw new NotFoundError('subscription');
  await publishConfigChange(deps.publisher, projectId, 'subscription', id, 'deleted');
}
