import { USER_AGENT, type HttpClient, type OutboundResult } from '@hookrail/delivery';
import { signSimple } from '@hookrail/signing';
import type { MetaEventDoc } from '@hookrail/store';

/** Meta events are signed like a simple endpoint signature, always SHA-256 hex. */
const META_SIGNATURE = { hash: 'SHA256', encoding: 'hex' } as const;
const META_TIMEOUT_MS = 10_000;

export interface MetaSendResult {
  ok: boolean;
  /** The attempt as stored (`attempt` of the meta event). */
  attempt: NonNullable<MetaEventDoc['attempt']>;
  /** Seconds from a Retry-After header on 429/503, when there was one. */
  retryAfter?: string;
  status?: number;
  error?: string;
}

/** POSTs the stored payload to the project's meta event URL, signed with the meta secret. */
export async function sendMetaEvent(
  http: HttpClient,
  doc: MetaEventDoc,
  target: { url: string; secret: string; signatureHeader: string },
): Promise<MetaSendResult> {
  const body = doc.metadata.raw;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-hookrail-meta-event-id': doc._id,
    'x-hookrail-event-type': doc.event_type,
  };
  if (target.secret) headers[target.signatureHeader] = signSimple(body, target.secret, META_SIGNATURE);
  const result: OutboundResult = await http.send({
    url: target.url,
    headers,
    body,
    timeoutMs: META_TIMEOUT_MS,
    poolKey: `meta:${doc.project_id}`,
  });
  const request_http_header_json = JSON.stringify(headers);
  if (result.kind === 'error')
    return {
      ok: false,
      error: `${result.code}: ${result.message}`,
      attempt: {
        request_http_header_json,
        response_http_header_json: '{}',
        response_data: `${result.code}: ${result.message}`,
      },
    };
  return {
    ok: result.status >= 200 && result.status < 300,
    status: result.status,
    retryAfter: result.status === 429 || result.status === 503 ? result.headers['retry-after'] : undefined,
    attempt: {
      request_http_header_json,
      response_http_header_json: JSON.stringify(result.headers),
      response_data: result.body,
    },
  };
}
