import { nullableTimestamp, toTimestamp } from '@hookrail/domain';
import type { DeliveryAttempt, DeliveryDoc, EndpointDoc, EventDoc, SourceDoc, Store } from '@hookrail/store';
import type { AttemptResponse } from '@hookrail/api-contract';
import { endpointMetaData, presentEndpoint } from '../endpoints/endpoint.presenter';
import { parseStored, scopedOut } from '../common/scoped.presenter';
import { presentSource } from '../sources/source.presenter';
import type { PresentContext } from '../common/scoped.presenter';

/** `data` is the payload as JSON, parsed from the stored `raw`. */
function presentEvent(
  doc: EventDoc,
  related: { endpoints: EndpointDoc[]; source: SourceDoc | null },
  ctx: PresentContext,
) {
  return {
    ...scopedOut(doc),
    app_id: doc.app_id ?? '',
    source_id: doc.source_id ?? '',
    event_type: doc.event_type ?? '',
    idempotency_key: doc.idempotency_key ?? '',
    url_query_params: doc.url_query_params ?? '',
    metadata: doc.metadata ?? '',
    raw: doc.raw ?? '',
    data: parseStored<unknown>(doc.raw, null),
    headers: headerLists(parseStored<Record<string, unknown>>(doc.headers_json, {})),
    endpoints: related.endpoints.map((e) => e._id),
    endpoint_metadata: related.endpoints.map((e) => presentEndpoint(e, ctx)),
    source_metadata: related.source ? presentSource(related.source, ctx) : null,
    is_duplicate_event: doc.is_duplicate_event ?? false,
    status: doc.status ?? 'Pending',
    // Why the event reached no endpoint (or was not delivered): added beside Convoy's fields.
    status_reason: doc.status_reason ?? null,
    acknowledged_at: nullableTimestamp(doc.acknowledged_at),
    // Added beside Convoy's fields: what the catalog check found in warn mode (empty otherwise).
    validation_errors: (doc.validation_errors ?? []).map(({ field, message }) => ({ field, message })),
  };
}

/**
 * Events with what they targeted: the endpoints the router recorded plus those of their deliveries,
 * and their source, loaded in three queries for the whole page.
 */
export async function presentEvents(docs: EventDoc[], ctx: PresentContext & { store: Store }) {
  if (docs.length === 0) return [];
  const projectId = docs[0].project_id;
  const deliveries = await ctx.store.deliveries.listByEvents(
    projectId,
    docs.map((d) => d._id),
  );
  const targets = new Map<string, Set<string>>(docs.map((d) => [d._id, new Set(d.endpoints ?? [])]));
  for (const del of deliveries) targets.get(del.event_id)?.add(del.endpoint_id);
  const endpointIds = [...new Set([...targets.values()].flatMap((s) => [...s]))];
  const sourceIds = [...new Set(docs.map((d) => d.source_id).filter((x): x is string => Boolean(x)))];
  const [endpoints, sources] = await Promise.all([
    ctx.store.endpoints.findByIds(projectId, endpointIds),
    ctx.store.sources.findByIds(projectId, sourceIds),
  ]);
  const endpoint = new Map(endpoints.map((e) => [e._id, e]));
  const source = new Map(sources.map((s) => [s._id, s]));
  return docs.map((d) =>
    presentEvent(
      d,
      {
        endpoints: [...(targets.get(d._id) ?? [])].flatMap((id) => endpoint.get(id) ?? []),
        source: (d.source_id && source.get(d.source_id)) || null,
      },
      ctx,
    ),
  );
}

/** Convoy's `http.Header` shape: every header a list of values. */
function headerLists(headers: Record<string, unknown>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(headers))
    out[k] = Array.isArray(v) ? v.map(String) : v === undefined || v === null ? [] : [String(v)];
  return out;
}

/** Convoy's attempt headers are one string per header: repeated values joined as HTTP folds them. */
function headerStrings(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    out[k] = Array.isArray(v) ? v.map(String).join(', ') : v === undefined || v === null ? '' : String(v);
  return out;
}

/**
 * Deliveries with Convoy's `event_metadata` and `endpoint_metadata` (the endpoint without its
 * secrets and credentials, null once deleted), the endpoints loaded in one query for the page.
 */
export async function presentDeliveries(docs: DeliveryDoc[], ctx: PresentContext & { store: Store }) {
  if (docs.length === 0) return [];
  const ids = [...new Set(docs.map((d) => d.endpoint_id))];
  const endpoints = await ctx.store.endpoints.findByIds(docs[0].project_id, ids);
  const byId = new Map(endpoints.map((e) => [e._id, endpointMetaData(e, ctx)]));
  return docs.map((d) => ({
    ...presentDelivery(d),
    event_metadata: { uid: d.event_id, event_type: d.event_type ?? '' },
    endpoint_metadata: byId.get(d.endpoint_id) ?? null,
  }));
}

function presentDelivery(doc: DeliveryDoc) {
  const attempts = doc.attempts ?? [];
  return {
    ...scopedOut(doc),
    event_id: doc.event_id,
    endpoint_id: doc.endpoint_id,
    subscription_id: doc.subscription_id ?? '',
    source_id: doc.source_id ?? '',
    event_type: doc.event_type ?? '',
    status: doc.status ?? 'Scheduled',
    delivery_mode: doc.delivery_mode ?? 'at_least_once',
    attempts_made: doc.attempts_made ?? attempts.length,
    retries_used: doc.retries_used ?? 0,
    next_attempt_at: nullableTimestamp(doc.next_attempt_at),
    status_reason: doc.status_reason ?? null,
    last_http_status: attempts[attempts.length - 1]?.http_status ?? null,
  };
}

/**
 * `http_status` is a string as in Convoy ("200"; null without a response); `http_status_code` the
 * same as a number. `status` is Convoy's success flag, `msg_id` the delivery's id.
 */
export function presentAttempt(
  a: DeliveryAttempt,
  delivery: Pick<DeliveryDoc, '_id' | 'endpoint_id'>,
): AttemptResponse {
  const code = a.http_status ?? null;
  return {
    uid: a.uid,
    msg_id: delivery._id,
    endpoint_id: delivery.endpoint_id,
    url: a.url,
    method: a.method,
    request_http_header: headerStrings(parseStored<Record<string, unknown>>(a.request_headers_json, {})),
    response_http_header: headerStrings(parseStored<Record<string, unknown>>(a.response_headers_json, {})),
    http_status: code === null ? null : String(code),
    http_status_code: code,
    status: code !== null && code >= 200 && code < 300,
    response_data: a.response_data ?? '',
    error: a.error ?? null,
    latency_ms: a.latency_ms ?? 0,
    created_at: toTimestamp(a.created_at),
  };
}
