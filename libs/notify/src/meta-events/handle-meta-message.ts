import type { MetaEventType } from '@hookrail/api-contract';
import type { MessageContext, MetaMessage, Publisher } from '@hookrail/bus';
import { idFrom, metaEventDestination, toTimestamp, type SecretBox } from '@hookrail/domain';
import type { HttpClient } from '@hookrail/outbound';
import { decideAttemptOutcome } from '@hookrail/retry';
import type { MetaEventDoc, MetaEventStatus, Store } from '@hookrail/store';
import type { Logger, Metrics } from '@hookrail/telemetry';
import { initialMetadata, metaPayload, policyOf, shouldSend } from './meta-rules';
import { sendMetaEvent } from './send-meta-event';

export interface MetaDeps {
  store: Store;
  publisher: Publisher;
  http: HttpClient;
  box: SecretBox;
  logger: Logger;
  metrics: Metrics;
  now: () => Date;
}

export type MetaOutcome =
  | { kind: 'skipped'; reason: string }
  | { kind: 'sent'; status: MetaEventStatus; meta_event_id: string }
  | { kind: 'discarded'; meta_event_id: string; reason: string };

/**
 * One message of the `meta` topic. A new occurrence (no `meta_event_id`) is recorded under an id
 * derived from its topic position, so a redelivered message finds the same record; a message
 * naming a meta event (a due retry or a resend) sends the stored one again.
 */
export async function handleMetaMessage(
  deps: MetaDeps,
  message: MetaMessage,
  ctx: Pick<MessageContext, 'topic' | 'partition' | 'offset'>,
): Promise<MetaOutcome> {
  const projectId = message.project_id;
  const project = await deps.store.projects.findById(projectId);
  if (!project) return { kind: 'skipped', reason: 'project not found' };

  let doc: MetaEventDoc | null;
  if (message.meta_event_id) {
    doc = await deps.store.metaEvents.findById(projectId, message.meta_event_id);
    if (!doc) return { kind: 'skipped', reason: 'meta event not found' };
  } else {
    const id = idFrom(`${ctx.topic}/${ctx.partition}/${ctx.offset}`, Date.parse(message.occurred_at));
    doc = await deps.store.metaEvents.insert(projectId, {
      _id: id,
      event_type: message.event_type,
      status: 'Scheduled',
      attempt: null,
      metadata: initialMetadata(metaPayload(message.event_type, message.data), project.config.strategy),
    });
  }
  if (!shouldSend(doc.status, Boolean(message.meta_event_id)))
    return { kind: 'skipped', reason: `meta event is ${doc.status}` };

  const decision = metaEventDestination(project.config.meta_event, doc.event_type);
  if (decision.kind === 'discard') {
    await deps.store.metaEvents.update(projectId, doc._id, {
      status: 'Discarded',
      status_reason: decision.reason,
    });
    return { kind: 'discarded', meta_event_id: doc._id, reason: decision.reason };
  }

  await deps.store.metaEvents.update(projectId, doc._id, { status: 'Processing', status_reason: null });
  const started = performance.now();
  const sent = await sendMetaEvent(deps.http, doc, {
    url: decision.url,
    secret: deps.box.open(decision.secret),
    signatureHeader: project.config.signature.header,
  });
  const num_trials = doc.metadata.num_trials + 1;
  // The same rule as a delivery attempt's (always at least once): 2xx succeeds, otherwise the
  // snapshotted strategy retries, honouring a longer Retry-After on 429/503.
  const outcome = decideAttemptOutcome({
    result: sent.result,
    mode: 'at_least_once',
    policy: policyOf(doc.metadata),
    retriesUsed: num_trials - 1,
    now: deps.now().getTime(),
  });
  sendDuration(deps.metrics).observe(
    { outcome: outcome.status === 'Success' ? 'success' : 'failure' },
    (performance.now() - started) / 1000,
  );
  const metadata = { ...doc.metadata, num_trials, next_send_time: null as Date | null };
  const status: MetaEventStatus = outcome.status;
  if (outcome.status === 'Retry') {
    metadata.next_send_time = new Date(deps.now().getTime() + outcome.delaySeconds * 1000);
    // Scheduled before the record says Retry: a crash in between means one extra send, never none.
    await deps.publisher.publish('retries', [
      {
        delivery_id: doc._id,
        project_id: projectId,
        // The topic requires it; for kind `meta` it carries the meta event id (no endpoint).
        endpoint_id: doc._id,
        due_at: toTimestamp(metadata.next_send_time),
        reason: 'failed',
        kind: 'meta',
        meta_event_type: doc.event_type as MetaEventType,
      },
    ]);
  }
  await deps.store.metaEvents.update(projectId, doc._id, { status, attempt: sent.attempt, metadata });
  deps.logger.info(
    {
      project_id: projectId,
      meta_event_id: doc._id,
      event_type: doc.event_type,
      status,
      response_status: sent.result.kind === 'response' ? sent.result.status : undefined,
      reason: outcome.status === 'Success' ? undefined : outcome.reason,
    },
    'meta event sent',
  );
  return { kind: 'sent', status, meta_event_id: doc._id };
}

/** Time of one meta event request, its response included (the timeout is 10 s). */
const sendDuration = (metrics: Metrics) =>
  metrics.histogram(
    'hookrail_meta_event_send_duration_seconds',
    'Time of one meta event request, by outcome',
    ['outcome'],
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  );
