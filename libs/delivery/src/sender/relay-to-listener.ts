import { performance } from 'node:perf_hooks';
import { NO_LISTENER_MESSAGE, type RelayAnswer, type RelayRequestBody } from '@hookrail/api-contract';
import { RELAY_CREDENTIAL_HEADER } from '@hookrail/domain';
import type { AttemptResult } from '@hookrail/retry';
import type { DeliveryDoc, EndpointDoc } from '@hookrail/store';
import type { GateDecision } from './gates';
import { injectTraceHeaders, markSpanFailed, SpanKind, withSpan } from '@hookrail/telemetry';

/** Where attempts at `cli` endpoints go: the gateway's internal relay and its credential. */
export interface CliRelayDeps {
  /** The gateway as this dispatcher reaches it (HOOKRAIL_CLI_RELAY_URL). */
  url: string;
  /** Derived from the instance key (libs/domain `relayCredential`); absent: the relay is off. */
  credential: string | undefined;
}

/** How much longer than the listener's own wait the call to the relay may take. */
const RELAY_MARGIN_MS = 5_000;

/** The attempt's `url` when no listener said where it forwarded to. */
export const listenerLabel = (e: EndpointDoc): string => `hookrail listen (${e.name})`;

const relayError = (message: string, maybeReached: boolean, latencyMs: number): AttemptResult => ({
  kind: 'error',
  code: 'ECLIRELAY',
  message,
  maybeReached,
  latencyMs,
});

/** The local URL's answer, as the retry policy and the attempt record read an HTTP one. */
function fromAnswer(answer: RelayAnswer): AttemptResult {
  if (answer.error || answer.status === null)
    return {
      kind: 'error',
      code: answer.error?.code ?? 'ECLIRELAY',
      message: `${answer.url}: ${answer.error?.message ?? 'no answer'}`,
      maybeReached: true,
      latencyMs: answer.latency_ms,
    };
  return {
    kind: 'response',
    status: answer.status,
    headers: answer.headers,
    body: answer.body,
    latencyMs: answer.latency_ms,
  };
}

/** What one relay call came to: the attempt's result, or nobody listening (no attempt was made). */
export type Relayed = { result: AttemptResult; url: string } | { noListener: true };

/** How long a delivery to a `cli` endpoint waits for a listener to (re)connect before it is dropped. */
export const LISTENER_GRACE_MS = 120_000;
/** How often a delivery waiting for a listener asks again. */
export const LISTENER_RECHECK_MS = 5_000;

/**
 * A delivery that found nobody listening: held (no attempt, no retry spent, the endpoint's health
 * untouched) while it is younger than LISTENER_GRACE_MS, so a listener reconnecting or starting a
 * moment late still gets it; then Discarded, to be retried by hand. A `listen` that was killed
 * leaves its endpoint behind: its deliveries end here instead of failing ten times each.
 */
export function withoutListener(
  delivery: Pick<DeliveryDoc, 'created_at'>,
  now: number,
): Exclude<GateDecision, { kind: 'send' }> {
  if (now - delivery.created_at.getTime() < LISTENER_GRACE_MS)
    return {
      kind: 'hold',
      untilMs: now + LISTENER_RECHECK_MS,
      reason: 'paused',
      detail: 'no hookrail listen connected',
    };
  return {
    kind: 'discard',
    reason: `no hookrail listen connected within ${LISTENER_GRACE_MS / 1000} s of the event: retry it once one is`,
  };
}

/** The signed request of one attempt, as the relay carries it to the listener. */
interface RelayedRequest {
  body: Buffer;
  headers: Record<string, string>;
  eventId: string;
  eventType: string;
  deliveryId: string;
}

/**
 * One attempt at a `cli` endpoint (docs/cli.md): the signed request goes to the gateway's relay,
 * which hands it to the connected `hookrail listen`; the CLI's report of what its local URL answered
 * is the attempt's result. A listener that does not answer in time, or an unreachable gateway, are
 * failed attempts like a refused connection, retried by the schedule; nobody listening is no
 * attempt at all (withoutListener).
 */
export function relayToListener(
  deps: CliRelayDeps,
  endpoint: EndpointDoc,
  msg: RelayedRequest,
  timeoutMs: number,
): Promise<Relayed> {
  // a client span like an HTTP attempt's; the gateway's relay continues its trace
  return withSpan(
    'POST',
    { kind: SpanKind.CLIENT, attributes: { 'hookrail.endpoint_type': 'cli' } },
    async (span) => {
      const relayed = await relayOnce(deps, endpoint, msg, timeoutMs);
      if ('noListener' in relayed) return relayed;
      const r = relayed.result;
      if (r.kind === 'response') span.setAttribute('http.response.status_code', r.status);
      else markSpanFailed(span, r.message);
      return relayed;
    },
  );
}

async function relayOnce(
  deps: CliRelayDeps,
  endpoint: EndpointDoc,
  msg: RelayedRequest,
  timeoutMs: number,
): Promise<Relayed> {
  const url = listenerLabel(endpoint);
  if (!deps.credential)
    return {
      result: {
        kind: 'not_sent',
        message:
          'the cli relay is off: set HOOKRAIL_ENCRYPTION_KEY (or HOOKRAIL_ADMIN_KEY) on the dispatcher and the gateway',
      },
      url,
    };
  const request: RelayRequestBody = {
    delivery_id: msg.deliveryId,
    event_id: msg.eventId,
    event_type: msg.eventType,
    headers: msg.headers,
    body: msg.body.toString('utf8'),
    timeout_ms: timeoutMs,
  };
  const target = `${deps.url.replace(/\/+$/, '')}/relay/v1/projects/${endpoint.project_id}/endpoints/${endpoint._id}`;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let res: Response;
  try {
    res = await fetch(target, {
      method: 'POST',
      headers: injectTraceHeaders({
        'content-type': 'application/json',
        [RELAY_CREDENTIAL_HEADER]: deps.credential,
      }) as Record<string, string>,
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(timeoutMs + RELAY_MARGIN_MS),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
    return {
      result: relayError(`the cli relay at ${deps.url} is unreachable (${cause})`, true, elapsed()),
      url,
    };
  }
  return fromRelay(res, url, elapsed);
}

/** The relay's answer: what the listener's local URL answered, nobody listening, or the relay's error. */
async function fromRelay(res: Response, url: string, elapsed: () => number): Promise<Relayed> {
  const envelope = (await res.json().catch(() => ({}))) as { message?: string; data?: RelayAnswer };
  if (res.ok && envelope.data) return { result: fromAnswer(envelope.data), url: envelope.data.url };
  const message = envelope.message || `the cli relay answered ${res.status}`;
  if (message.startsWith(NO_LISTENER_MESSAGE)) return { noListener: true };
  // The replica holding the stream unreachable: the request certainly went nowhere either.
  return { result: relayError(message, !message.startsWith('no hookrail listen'), elapsed()), url };
}
