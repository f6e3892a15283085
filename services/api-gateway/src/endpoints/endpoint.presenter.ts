import { withoutCredentials } from '@hookrail/brokers';
import { nullableTimestamp, toTimestamp } from '@hookrail/domain';
import type { EndpointDoc } from '@hookrail/store';
import { ENDPOINT_CREDENTIALS, open } from '../common/credentials';
import type { PresentContext } from '../common/scoped.presenter';
import { scopedOut } from '../common/scoped.presenter';

/** Secrets and credentials are shown opened: the project's key holders configure and verify with them. */
export function presentEndpoint(doc: EndpointDoc, ctx: PresentContext) {
  const opened = open(
    ctx.box,
    { authentication: doc.authentication ?? null, mtls_client_cert: doc.mtls_client_cert ?? null },
    ENDPOINT_CREDENTIALS,
  );
  return {
    ...scopedOut(doc),
    owner_id: doc.owner_id ?? null,
    name: doc.name,
    description: doc.description ?? '',
    ...presentDestination(doc),
    content_type: doc.content_type ?? 'application/json',
    status: doc.status ?? 'active',
    is_disabled: doc.status === 'inactive',
    ...presentEndpointState(doc),
    advanced_signatures: doc.advanced_signatures ?? false,
    http_timeout: doc.http_timeout ?? 10,
    rate_limit: doc.rate_limit ?? 0,
    rate_limit_duration: doc.rate_limit_duration ?? 0,
    events: doc.events ?? 0,
    failure_rate: doc.failure_rate ?? 0,
    support_email: doc.support_email ?? null,
    slack_webhook_url: doc.slack_webhook_url ?? null,
    mtls_client_cert: opened.mtls_client_cert,
    secrets: (doc.secrets ?? []).map((s) => ({
      uid: s.uid,
      value: ctx.box.open(s.value),
      created_at: toTimestamp(s.created_at),
      updated_at: toTimestamp(s.updated_at),
      deleted_at: nullableTimestamp(s.deleted_at),
      expires_at: nullableTimestamp(s.expires_at),
    })),
    authentication: opened.authentication,
  };
}

/** Where deliveries go; a broker destination's credentials are never shown (sealed, write-only). */
export function presentDestination(doc: EndpointDoc) {
  return {
    type: doc.type ?? 'http',
    url: doc.url ?? '',
    destination: withoutCredentials(doc.destination),
  };
}

/**
 * What `status` alone does not say (fields added beside Convoy's, whose `status` values stay):
 * why the endpoint is paused or inactive, and its circuit breaker as the dispatcher last saw it.
 */
export function presentEndpointState(doc: EndpointDoc) {
  const breaker = doc.circuit_breaker;
  return {
    status_reason: doc.status_reason ?? null,
    circuit_breaker: {
      state: breaker?.state ?? 'closed',
      reason: breaker?.reason ?? null,
      since: nullableTimestamp(breaker?.since ?? null),
    },
  };
}

/** Meta events leave the instance: they describe the endpoint without its secrets or credentials. */
export function endpointMetaData(doc: EndpointDoc, ctx: PresentContext) {
  const {
    secrets: _secrets,
    authentication: _auth,
    mtls_client_cert: _mtls,
    ...rest
  } = presentEndpoint(doc, ctx);
  return rest;
}
