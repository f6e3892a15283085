import { requestJson } from '../components/http';
import type { CircuitBreaker, Secret } from '../components/types';

/** The link's credential: the page is opened as `/portal?token=...`. */
export const token = new URLSearchParams(location.search).get('token') ?? '';

/** A call to the portal API with the link's token as a Bearer credential. */
export const portalApi = <T>(method: string, path: string, body?: unknown) =>
  requestJson<T>(method, `/portal-api${path}`, { headers: { authorization: `Bearer ${token}` }, body });

export interface PortalLink {
  name: string;
  can_manage_endpoint: boolean;
  endpoint_count: number;
}

export interface PortalEndpoint {
  uid: string;
  name: string;
  description: string;
  url: string;
  status: string;
  status_reason: string | null;
  circuit_breaker: CircuitBreaker;
  events: number;
  failure_rate: number;
  event_types: string[];
  secrets: Secret[];
}

export interface EventTypeSeen {
  event_type: string;
  last_seen_at: string;
}
