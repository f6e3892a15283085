import type { SignatureConfig } from '@hookrail/api-contract';
import { USER_AGENT, type HttpClient, type OutboundResult } from '@hookrail/outbound';
import { signatureScheme } from '@hookrail/signing';
import type { MetaEventDoc } from '@hookrail/store';

/** Meta events are signed like a simple endpoint signature under the project's header, always SHA-256 hex. */
const metaSignature = (header: string): SignatureConfig => ({
  header,
  versions: [{ hash: 'SHA256', encoding: 'hex' }],
  standard_webhooks: false,
});
const META_TIMEOUT_MS = 10_000;

export interface MetaSendResult {
  /** What happened on the wire: its outcome is decided like a delivery attempt's. */
  result: OutboundResult;
  /** The attempt as stored (`attempt` of the meta event). */
  attempt: NonNullable<MetaEventDoc['attempt']>;
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
  if (target.secret)
    Object.assign(
      headers,
      signatureScheme('simple').sign({
        body,
        secrets: [target.secret],
        config: metaSignature(target.signatureHeader),
        msgId: doc._id,
        timestampSeconds: Math.floor(Date.now() / 1000),
      }),
    );
  const result = await http.send({
    url: target.url,
    headers,
    body,
    timeoutMs: META_TIMEOUT_MS,
    poolKey: `meta:${doc.project_id}`,
  });
  const request_http_header_json = JSON.stringify(headers);
  if (result.kind === 'error')
    return {
      result,
      attempt: {
        request_http_header_json,
        response_http_header_json: '{}',
        response_data: `${result.code}: ${result.message}`,
      },
    };
  return {
    result,
    attempt: {
      request_http_header_json,
      response_http_header_json: JSON.stringify(result.headers),
      response_data: result.body,
    },
  };
}
