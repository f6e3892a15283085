import http from 'node:http';
import https from 'node:https';
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import got, { type Got, type Agents, RequestError, TimeoutError } from 'got';
import { LRUCache } from 'lru-cache';
import { markSpanFailed, SpanKind, withSpan } from '@hookrail/telemetry';
import { createGuardedLookup, refusedLiteral, type Resolve } from '../ssrf/ssrf-guard';

/** Stored response bodies are cut here. */
export const MAX_RESPONSE_BYTES = 64 * 1024;

export interface OutboundRequest {
  url: string;
  method?: 'POST' | 'PUT' | 'GET';
  headers: Record<string, string>;
  body?: string | Buffer;
  timeoutMs: number;
  /** Connection pool: one per endpoint, so a slow endpoint never takes another's sockets. */
  poolKey: string;
  /** PEM client certificate and key for mutual TLS. */
  clientCert?: { cert: string; key: string };
}

export type OutboundResult =
  | {
      kind: 'response';
      status: number;
      headers: Record<string, string>;
      /** Body as text, cut at MAX_RESPONSE_BYTES. */
      body: string;
      latencyMs: number;
    }
  | {
      kind: 'error';
      code: string;
      message: string;
      /** False only when the request certainly never left (refused, DNS, connect, TLS handshake). */
      maybeReached: boolean;
      latencyMs: number;
    };

/** Codes of failures that happen before any request byte is written. */
const NOT_SENT_CODES = new Set([
  'ESSRF',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ERR_INVALID_URL',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_HAS_EXPIRED',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);
const PRE_SEND_TIMEOUT_EVENTS = new Set(['lookup', 'connect', 'secureConnect']);

/**
 * A kept-alive connection the endpoint closed while it sat idle in the pool fails the next request
 * sent on it (the close and the request cross on the wire). Such a request is sent again at once
 * on another connection, as Node's HTTP documentation advises, instead of costing the delivery a
 * failed attempt and a retry minutes later. Bounded: each failure discards its connection.
 */
const MAX_REUSED_SOCKET_RESETS = 3;
const IDLE_CLOSE_CODES = new Set(['ECONNRESET', 'EPIPE']);

function closedWhileIdle(request: http.ClientRequest | undefined, err: unknown): boolean {
  return (
    request?.reusedSocket === true &&
    err instanceof RequestError &&
    err.response === undefined &&
    IDLE_CLOSE_CODES.has(err.code)
  );
}

type PoolAgents = Agents & { http: http.Agent; https: https.Agent };

export interface HttpClientOptions {
  allowPrivateTargets: boolean;
  /** Keep-alive sockets per endpoint pool (bounds concurrency towards one endpoint too). */
  maxSocketsPerPool?: number;
  /** Pools kept; the least recently used is closed beyond this. */
  maxPools?: number;
  /** Trusted CAs for HTTPS targets (tests with a local CA); default: the system's. */
  ca?: string;
  /** Name resolution under the SSRF guard (tests of DNS rebinding); default: the system's. */
  resolve?: Resolve;
}

/**
 * Outbound HTTP for deliveries and token requests: one got instance, keep-alive agents per pool
 * key, no automatic retries (the retry scheduler decides), no redirects, the SSRF guard on every
 * connection, and response capture truncated to 64 KiB.
 */
export class HttpClient {
  private readonly got: Got;
  private readonly pools: LRUCache<string, PoolAgents>;

  constructor(private readonly options: HttpClientOptions) {
    this.pools = new LRUCache<string, PoolAgents>({
      max: options.maxPools ?? 2000,
      dispose: (agents) => {
        agents.http.destroy();
        agents.https.destroy();
      },
    });
    this.got = got.extend({
      retry: { limit: 0 },
      throwHttpErrors: false,
      followRedirect: false,
      responseType: 'buffer',
      decompress: true,
      ...(options.allowPrivateTargets ? {} : { dnsLookup: createGuardedLookup(options.resolve) as never }),
    });
  }

  /** One outbound request, as a client span in the caller's trace (a delivery attempt's, say). */
  send(req: OutboundRequest): Promise<OutboundResult> {
    return withSpan(`${req.method ?? 'POST'}`, { kind: SpanKind.CLIENT }, async (span) => {
      const result = await this.sendUntraced(req);
      span.setAttributes({
        'http.request.method': req.method ?? 'POST',
        'server.address': hostOf(req.url),
        ...(result.kind === 'response'
          ? { 'http.response.status_code': result.status }
          : { 'error.type': result.code }),
      });
      if (result.kind === 'error' || result.status >= 400)
        markSpanFailed(span, result.kind === 'error' ? result.code : `HTTP ${result.status}`);
      return result;
    });
  }

  private async sendUntraced(req: OutboundRequest): Promise<OutboundResult> {
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return {
        kind: 'error',
        code: 'ERR_INVALID_URL',
        message: `invalid URL ${req.url}`,
        maybeReached: false,
        latencyMs: 0,
      };
    }
    const refused = refusedLiteral(url.hostname, this.options.allowPrivateTargets);
    if (refused)
      return {
        kind: 'error',
        code: refused.code,
        message: refused.message,
        maybeReached: false,
        latencyMs: 0,
      };
    for (let reusedResets = 0; ; reusedResets++) {
      let request: http.ClientRequest | undefined;
      try {
        const pending = this.got(url, {
          method: req.method ?? 'POST',
          headers: req.headers,
          body: req.body,
          timeout: { request: req.timeoutMs },
          agent: this.agents(req.poolKey, req.clientCert),
        });
        void pending.on('request', (r) => (request = r as http.ClientRequest));
        const res = await pending;
        const raw = res.rawBody;
        return {
          kind: 'response',
          status: res.statusCode,
          headers: flattenHeaders(res.headers),
          body: raw.subarray(0, MAX_RESPONSE_BYTES).toString('utf8'),
          latencyMs: latency(),
        };
      } catch (err) {
        if (reusedResets < MAX_REUSED_SOCKET_RESETS && closedWhileIdle(request, err)) continue;
        return { kind: 'error', ...describeFailure(err), latencyMs: latency() };
      }
    }
  }

  /** Closes every pooled connection (service shutdown). */
  close(): void {
    this.pools.clear();
  }

  private agents(poolKey: string, clientCert?: { cert: string; key: string }): PoolAgents {
    // A changed certificate must never reuse a connection made with the old one.
    const key = clientCert
      ? `${poolKey}:${createHash('sha256').update(clientCert.cert).update(clientCert.key).digest('hex')}`
      : poolKey;
    let agents = this.pools.get(key);
    if (!agents) {
      const common = {
        keepAlive: true,
        maxSockets: this.options.maxSocketsPerPool ?? 50,
        maxFreeSockets: 16,
      };
      agents = {
        http: new http.Agent(common),
        https: new https.Agent({
          ...common,
          ...(this.options.ca ? { ca: this.options.ca } : {}),
          ...(clientCert ? { cert: clientCert.cert, key: clientCert.key } : {}),
        }),
      };
      this.pools.set(key, agents);
    }
    return agents;
  }
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function describeFailure(err: unknown): { code: string; message: string; maybeReached: boolean } {
  if (err instanceof TimeoutError) {
    return {
      code: 'ETIMEDOUT',
      message: `timed out (${err.event})`,
      maybeReached: !PRE_SEND_TIMEOUT_EVENTS.has(err.event),
    };
  }
  const code = (err as RequestError).code ?? 'ERR_REQUEST';
  const message = (err as Error).message ?? String(err);
  return { code, message, maybeReached: !NOT_SENT_CODES.has(code) };
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return 'invalid';
  }
}
