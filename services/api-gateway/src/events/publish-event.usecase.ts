import { DomainError, ValidationError, newId } from '@hookrail/domain';
import type { EventTarget } from '@hookrail/bus';
import { eventMessage, publishToEventsTopic } from '@hookrail/ingest';
import type { ProjectDoc } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import type { BroadcastEventBody, CreateEventBody, FanoutEventBody } from '@hookrail/api-contract';
import { eventTypePatternProblem } from '@hookrail/filters';

/** An event to publish: each target mode with the body its route validated. */
export type PublishRequest =
  | { mode: 'single'; body: CreateEventBody }
  | { mode: 'fanout'; body: FanoutEventBody }
  | { mode: 'broadcast'; body: BroadcastEventBody };

/**
 * The events API: validate (the body, the endpoint, the event type catalog's check), then hand the
 * event to `hookrail.events` through the intake every source shares (libs/ingest `eventMessage`,
 * `publishToEventsTopic`) and answer only after Kafka acknowledged it (the dispatcher persists and
 * routes it). Returns the accepted event.
 */
export async function publishEvent(deps: GatewayDeps, project: ProjectDoc, request: PublishRequest) {
  const { mode, body } = request;
  const pattern = eventTypePatternProblem(body.event_type);
  if (pattern)
    throw new ValidationError(`event_type: ${pattern}`, [{ field: 'event_type', message: pattern }]);
  const raw = JSON.stringify(body.data);
  const rawBytes = Buffer.byteLength(raw);
  const limit = project.config?.max_payload_bytes ?? 1024 * 1024;
  if (rawBytes > limit)
    throw new DomainError('payload_too_large', `data is larger than the project limit of ${limit} bytes`);
  let target: EventTarget;
  if (request.mode === 'single') {
    const endpointId = request.body.endpoint_id ?? request.body.app_id;
    if (endpointId === undefined)
      throw new ValidationError('invalid request body: endpoint_id is required', [
        { field: 'endpoint_id', message: 'is required' },
      ]);
    if (!(await deps.cache.endpointExists(project._id, endpointId)))
      throw new ValidationError('endpoint_id: no such endpoint in this project', [
        { field: 'endpoint_id', message: 'no such endpoint in this project' },
      ]);
    target = { mode: 'single', endpoint_id: endpointId };
  } else if (request.mode === 'fanout') {
    target = { mode: 'fanout', owner_id: request.body.owner_id };
  } else {
    target = { mode: 'broadcast' };
  }
  const checked = await deps.eventValidator.check(
    project._id,
    project.config?.event_validation,
    body.event_type,
    body.data,
    rawBytes,
  );
  if (checked.kind === 'refused') throw new ValidationError(checked.message, checked.violations);
  const headers = Object.fromEntries(
    Object.entries(body.custom_headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
  );
  const message = eventMessage(
    {
      projectId: project._id,
      eventType: body.event_type,
      target,
      // `data` is left out: `raw` is its JSON text, which the router parses once.
      raw,
      headers,
      forwardHeaders: headers,
      idempotencyKey: body.idempotency_key,
      verdict: checked,
    },
    { newId, now: deps.now },
  );
  // 201 only once Kafka acknowledged; 503 with Retry-After within acceptTimeoutMs otherwise.
  // Keyed by project when some subscription orders deliveries (docs/ordered-delivery.md).
  await publishToEventsTopic(message, {
    publisher: deps.publisher,
    acceptGuard: deps.acceptGuard,
    ordersDeliveries: (projectId) => deps.cache.ordersDeliveries(projectId),
  });
  deps.logger.debug({ project_id: project._id, event_id: message.event_id, mode }, 'event accepted');
  return {
    uid: message.event_id,
    project_id: project._id,
    event_type: body.event_type,
    idempotency_key: body.idempotency_key ?? '',
    target,
    data: body.data,
    status: 'Pending' as const,
    created_at: message.accepted_at,
    validation_errors: checked.violations,
  };
}
