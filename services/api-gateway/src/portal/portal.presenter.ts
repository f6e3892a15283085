import { nullableTimestamp, toTimestamp, type SecretBox } from '@hookrail/domain';
import type {
  DeliveryDoc,
  EndpointDoc,
  EventCatalogDoc,
  EventDoc,
  EventTypeSeenDoc,
  PortalLinkDoc,
  ProjectDoc,
  SubscriptionDoc,
} from '@hookrail/store';
import { presentDestination, presentEndpointState } from '../endpoints/endpoint.presenter';
import { parseStored, scopedOut } from '../common/scoped.presenter';

/**
 * What a portal holder sees. Narrower than the management API on purpose: the endpoint's current
 * signing secrets (the holder verifies signatures with them; expired ones sign nothing) but no
 * stored authentication credentials. `event_types`: what its subscriptions let through (`*` all).
 */
export function presentPortalEndpoint(
  doc: EndpointDoc,
  box: SecretBox,
  now: Date,
  subscriptions: SubscriptionDoc[],
) {
  return {
    ...scopedOut(doc),
    owner_id: doc.owner_id ?? null,
    name: doc.name,
    description: doc.description ?? '',
    ...presentDestination(doc),
    status: doc.status,
    ...presentEndpointState(doc),
    content_type: doc.content_type,
    advanced_signatures: doc.advanced_signatures,
    http_timeout: doc.http_timeout,
    rate_limit: doc.rate_limit,
    rate_limit_duration: doc.rate_limit_duration,
    events: doc.events,
    failure_rate: doc.failure_rate,
    support_email: doc.support_email ?? '',
    event_types: [...new Set(subscriptions.flatMap((s) => s.filter_config?.event_types ?? ['*']))],
    secrets: (doc.secrets ?? [])
      .filter((s) => !s.deleted_at && (!s.expires_at || s.expires_at > now))
      .map((s) => ({
        uid: s.uid,
        value: box.open(s.value),
        created_at: toTimestamp(s.created_at),
        updated_at: toTimestamp(s.updated_at),
        deleted_at: nullableTimestamp(s.deleted_at),
        expires_at: nullableTimestamp(s.expires_at),
      })),
  };
}

export function presentPortalLink(link: PortalLinkDoc, endpointCount: number, project: ProjectDoc) {
  return {
    uid: link._id,
    project_id: link.project_id,
    name: link.name,
    owner_id: link.owner_id ?? '',
    can_manage_endpoint: link.can_manage_endpoint,
    auth_type: link.auth_type,
    endpoint_count: endpointCount,
    branding: project.config.portal_branding ?? {},
  };
}

/** Only the link's endpoints are named in an event seen through the portal. */
export function presentPortalEvent(doc: EventDoc, visible: Set<string>) {
  const data = parseStored<unknown>(doc.raw, null);
  return {
    ...scopedOut(doc),
    event_type: doc.event_type,
    status: doc.status,
    status_reason: doc.status_reason ?? null,
    endpoints: (doc.endpoints ?? []).filter((id) => visible.has(id)),
    data,
    raw: doc.raw,
    headers: parseStored<Record<string, string>>(doc.headers_json, {}),
    acknowledged_at: nullableTimestamp(doc.acknowledged_at),
  };
}

export function presentPortalDelivery(doc: DeliveryDoc, withAttempts: boolean) {
  const attempts = doc.attempts ?? [];
  const last = attempts[attempts.length - 1];
  return {
    ...scopedOut(doc),
    event_id: doc.event_id,
    endpoint_id: doc.endpoint_id,
    event_type: doc.event_type,
    status: doc.status,
    status_reason: doc.status_reason ?? null,
    attempts_made: doc.attempts_made ?? attempts.length,
    next_attempt_at: nullableTimestamp(doc.next_attempt_at),
    last_http_status: last?.http_status ?? null,
    // A connection failure has no status: the list shows why (refused, timeout, TLS...).
    last_error: last?.error ?? null,
    ...(withAttempts
      ? {
          attempts: attempts.map((a) => ({
            uid: a.uid,
            url: a.url,
            method: a.method,
            request_http_header: parseStored<Record<string, string>>(a.request_headers_json, {}),
            response_http_header: parseStored<Record<string, string>>(a.response_headers_json, {}),
            http_status: a.http_status,
            response_data: a.response_data,
            error: a.error,
            latency_ms: a.latency_ms,
            created_at: toTimestamp(a.created_at),
          })),
        }
      : {}),
  };
}

/** Each type once (over the link's endpoints), with when it was last sent, sorted by name. */
export function eventTypeCatalog(docs: readonly Pick<EventTypeSeenDoc, 'event_type' | 'last_seen_at'>[]) {
  const last = new Map<string, Date>();
  for (const d of docs) {
    const seen = last.get(d.event_type);
    if (!seen || seen < d.last_seen_at) last.set(d.event_type, d.last_seen_at);
  }
  return [...last.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([event_type, at]) => ({ event_type, last_seen_at: toTimestamp(at) }));
}

/** The catalog an end customer subscribes from: current types only, without ids or timestamps. */
export function presentPortalCatalog(docs: readonly EventCatalogDoc[]) {
  return docs
    .filter((d) => !d.deprecated_at)
    .map((d) => ({
      name: d.name,
      description: d.description ?? '',
      category: d.category ?? '',
      json_schema: parseStored<Record<string, unknown> | null>(d.json_schema_json, null),
      example: parseStored<unknown>(d.example_json, null),
    }));
}
