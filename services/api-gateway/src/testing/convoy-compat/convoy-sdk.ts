/**
 * Requests exactly as convoy-go v2 builds them: bodies are its structs marshalled by encoding/json
 * (every field present; nil pointers, maps and slices as `null`; `omitempty` strings left out when
 * empty), queries are its param structs encoded by go-querystring (every field present, unset ones
 * empty, `perPage=0`, times in the `2006-01-02T15:04:05` layout, Go's zero time when unset).
 */

const GO_ZERO_TIME = '0001-01-01T00:00:00';

/** `time.Time` with convoy-go's `layout:"2006-01-02T15:04:05"` tag (UTC, no zone). */
function goTime(d?: Date): string {
  return d ? d.toISOString().slice(0, 19) : GO_ZERO_TIME;
}

type QueryValue = string | number | string[] | undefined;

/** ListParams, embedded in every list's params. */
export function listParams(
  p: { perPage?: number; direction?: string; sort?: string; next?: string; prev?: string } = {},
) {
  return {
    perPage: p.perPage ?? 0,
    direction: p.direction ?? '',
    next_page_cursor: p.next ?? '',
    prev_page_cursor: p.prev ?? '',
    sort: p.sort ?? '',
  };
}

/** go-querystring: every field, slices repeated, nothing omitted. */
export function goQuery(params: Record<string, QueryValue>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (Array.isArray(v)) for (const item of v) q.append(k, item);
    else q.append(k, v === undefined ? '' : String(v));
  }
  return `?${q.toString()}`;
}

export const endpointParams = (p: { ownerId?: string; query?: string } = {}, list = listParams()) =>
  goQuery({ ...list, query: p.query ?? '', ownerId: p.ownerId ?? '' });

export const subscriptionParams = (p: { endpointId?: string[] } = {}, list = listParams()) =>
  goQuery({ ...list, endpointId: p.endpointId ?? [] });

export const eventParams = (
  p: { query?: string; sourceId?: string; endpointId?: string[]; startDate?: Date; endDate?: Date } = {},
  list = listParams(),
) =>
  goQuery({
    ...list,
    query: p.query ?? '',
    sourceId: p.sourceId ?? '',
    endpointId: p.endpointId ?? [],
    startDate: goTime(p.startDate),
    endDate: goTime(p.endDate),
  });

export const eventDeliveryParams = (
  p: {
    eventId?: string;
    status?: string[];
    endpointId?: string[];
    subscriptionId?: string;
    startDate?: Date;
    endDate?: Date;
  } = {},
  list = listParams(),
) =>
  goQuery({
    ...list,
    eventId: p.eventId ?? '',
    status: p.status ?? [],
    endpointId: p.endpointId ?? [],
    subscriptionId: p.subscriptionId ?? '',
    startDate: goTime(p.startDate),
    endDate: goTime(p.endDate),
  });

/** CreateEndpointRequest (also the body of Update). */
export function createEndpointRequest(r: {
  name: string;
  url: string;
  ownerId?: string;
  secret?: string;
  description?: string;
  advancedSignatures?: boolean;
  isDisabled?: boolean;
  authentication?: { type: string; api_key: { header_value: string; header_name: string } | null };
}) {
  return {
    name: r.name,
    support_email: '',
    owner_id: r.ownerId ?? '',
    slack_webhook_url: '',
    url: r.url,
    ...(r.secret ? { secret: r.secret } : {}),
    ...(r.description ? { description: r.description } : {}),
    advanced_signatures: r.advancedSignatures ?? null,
    is_disabled: r.isDisabled ?? false,
    authentication: r.authentication ?? null,
    // http_timeout, rate_limit, rate_limit_duration: omitempty, unset
  };
}

/** CreateSourceRequest: `verifier` is a value (never null); its `type` is omitempty. */
export function createSourceRequest(r: {
  name: string;
  type: string;
  provider?: string;
  isDisabled?: boolean;
  verifier?: {
    type?: string;
    hmac?: Record<string, string>;
    basic_auth?: Record<string, string>;
    api_key?: Record<string, string>;
  };
}) {
  const v = r.verifier ?? {};
  return {
    name: r.name,
    type: r.type,
    provider: r.provider ?? '',
    is_disabled: r.isDisabled ?? false,
    verifier: {
      ...(v.type ? { type: v.type } : {}),
      hmac: v.hmac ?? null,
      basic_auth: v.basic_auth ?? null,
      api_key: v.api_key ?? null,
    },
  };
}

/** CreateSubscriptionRequest; FilterConfiguration's Filter is a value with nil maps. */
export function createSubscriptionRequest(r: {
  name: string;
  endpointId: string;
  sourceId?: string;
  alert?: { count: number; threshold: string };
  retry?: { type: string; duration: string; retry_count: number };
  filter?: {
    event_types?: string[];
    body?: Record<string, unknown>;
    headers?: Record<string, unknown>;
  } | null;
}) {
  return {
    name: r.name,
    source_id: r.sourceId ?? '',
    endpoint_id: r.endpointId,
    alert_config: r.alert ?? null,
    retry_config: r.retry ?? null,
    filter_config:
      r.filter === null
        ? null
        : {
            event_types: r.filter?.event_types ?? null,
            filter: { body: r.filter?.body ?? null, headers: r.filter?.headers ?? null },
          },
  };
}

/** CreatePortalLinkRequest / UpdatePortalLinkRequest. */
export function portalLinkRequest(r: {
  name: string;
  endpoints?: string[];
  ownerId?: string;
  canManageEndpoint?: boolean;
}) {
  return {
    name: r.name,
    endpoints: r.endpoints ?? null,
    owner_id: r.ownerId ?? '',
    can_manage_endpoint: r.canManageEndpoint ?? false,
  };
}

/** CreateEventRequest. */
export function createEventRequest(r: {
  endpointId: string;
  eventType: string;
  data: unknown;
  idempotencyKey?: string;
  customHeaders?: Record<string, string>;
}) {
  return {
    endpoint_id: r.endpointId,
    event_type: r.eventType,
    idempotency_key: r.idempotencyKey ?? '',
    custom_headers: r.customHeaders ?? null,
    data: r.data,
  };
}

/** CreateFanoutEventRequest. */
export function createFanoutEventRequest(r: { ownerId: string; eventType: string; data: unknown }) {
  return {
    owner_id: r.ownerId,
    event_type: r.eventType,
    idempotency_key: '',
    custom_headers: null,
    data: r.data,
  };
}

/** RollSecretRequest: `secret` has no omitempty. */
export function rollSecretRequest(expiration: number, secret = '') {
  return { expiration, secret };
}
