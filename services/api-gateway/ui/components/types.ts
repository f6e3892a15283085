/** The API shapes the pages read (the fields they use), shared by the console and the portal. */
export interface Pagination {
  has_next_page: boolean;
  has_prev_page: boolean;
  next_page_cursor?: string;
  prev_page_cursor?: string;
}
export interface Page<T> {
  content: T[];
  pagination: Pagination;
}
export interface Attempt {
  uid?: string;
  url: string;
  method: string;
  request_http_header: Record<string, string>;
  response_http_header: Record<string, string>;
  http_status: number | null;
  response_data: string;
  error?: string | null;
  latency_ms: number;
  created_at: string;
}
export type DeliveryStatus = 'Scheduled' | 'Processing' | 'Success' | 'Failure' | 'Retry' | 'Discarded';
export interface Delivery {
  uid: string;
  event_id: string;
  endpoint_id: string;
  event_type: string;
  status: DeliveryStatus;
  status_reason: string | null;
  attempts_made: number;
  next_attempt_at: string | null;
  last_http_status: number | null;
  last_error?: string | null;
  created_at: string;
  attempts?: Attempt[];
}
export interface Secret {
  uid: string;
  value: string;
  created_at: string;
  expires_at: string | null;
  deleted_at?: string | null;
}
export interface CircuitBreaker {
  state: 'closed' | 'open' | 'half_open';
  reason?: string | null;
  since?: string | null;
}
