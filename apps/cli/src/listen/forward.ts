import {
  LISTEN_MAX_BODY_CHARS,
  type ListenAnswerBody,
  type ListenDeliveryEvent,
} from '@hookrail/api-contract';

/** Headers the HTTP client sets itself for the local request (fetch refuses them). */
const CLIENT_SET = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'expect',
]);
/** Room left, out of the gateway's wait, to report the answer back. */
const REPORT_MARGIN_MS = 1_000;

/** Why a local request got no answer, as an attempt error's code: the system's, or a timeout. */
function errorCode(err: unknown): string {
  if ((err as Error).name === 'TimeoutError') return 'ETIMEDOUT';
  const cause = (err as { cause?: { code?: string } }).cause;
  return cause?.code ?? 'ECONNERROR';
}

/**
 * Sends one relayed delivery to the local URL, as the dispatcher would have sent it to an HTTP
 * endpoint (method, the signed headers, the body; no redirects followed), and reports what came
 * back: status, headers, the body cut as attempts keep it, the latency, or the error.
 */
export async function forwardToLocal(
  localUrl: string,
  delivery: ListenDeliveryEvent,
): Promise<Omit<ListenAnswerBody, 'request_id'>> {
  const headers = Object.fromEntries(
    Object.entries(delivery.headers).filter(([k]) => !CLIENT_SET.has(k.toLowerCase())),
  );
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const res = await fetch(localUrl, {
      method: delivery.method,
      headers,
      body: delivery.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(Math.max(delivery.timeout_ms - REPORT_MARGIN_MS, 500)),
    });
    const body = (await res.text()).slice(0, LISTEN_MAX_BODY_CHARS);
    return {
      url: localUrl,
      status: res.status,
      headers: Object.fromEntries(res.headers),
      body,
      latency_ms: latency(),
      error: null,
    };
  } catch (err) {
    const cause = (err as { cause?: Error }).cause;
    return {
      url: localUrl,
      status: null,
      headers: {},
      body: '',
      latency_ms: latency(),
      error: { code: errorCode(err), message: (cause?.message ?? (err as Error).message).slice(0, 2000) },
    };
  }
}
