import { newId } from '@hookrail/domain';
import type { DeliveryAttempt } from '@hookrail/store';
import type { AttemptResult } from '@hookrail/retry';

/**
 * The attempt as stored and shown: the request headers with the endpoint's credential headers
 * redacted, the response (or the error text of a failed connection) and the latency.
 */
export function attemptRecord(
  url: string,
  headers: Record<string, string>,
  result: AttemptResult,
  secretHeaders: string[],
): DeliveryAttempt {
  // Most endpoints send no credential header: their headers are recorded as they are, uncopied.
  const shown = secretHeaders.length === 0 ? headers : redacted(headers, secretHeaders);
  return {
    uid: newId(),
    url,
    method: 'POST',
    request_headers_json: JSON.stringify(shown),
    response_headers_json: JSON.stringify(result.kind === 'response' ? result.headers : {}),
    http_status: result.kind === 'response' ? result.status : null,
    response_data: result.kind === 'response' ? result.body : '',
    error:
      result.kind === 'response'
        ? null
        : result.kind === 'error'
          ? `${result.code}: ${result.message}`
          : result.message,
    latency_ms: result.kind === 'not_sent' ? 0 : result.latencyMs,
    created_at: new Date(),
  };
}

function redacted(headers: Record<string, string>, secretHeaders: string[]): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    shown[k] = secretHeaders.includes(k.toLowerCase()) ? '[redacted]' : v;
  return shown;
}
