import http from 'node:http';
import https from 'node:https';
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import zlib from 'node:zlib';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import type { LRUCache } from 'lru-cache';
import { markSpanFailed, SpanKind, withSpan } from '@hookrail/telemetry';
import { boundedLru } from '@hookrail/domain';
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

/**
 * A kept-alive connection the endpoint closed while it sat idle in the pool fails the next request
 * sent on it (the close and the request cross on the wire). Such a request is sent again at once
 * on another connection, as Node's HTTP documentation advises, instead of costing the delivery a
 * failed attempt and a retry minutes later. Bounded: each failure discards its connection.
 */
const MAX_REUSED_SOCKET_RESETS = 3;
const IDLE_CLOSE_CODES = new Set(['ECONNRESET', 'EPIPE']);

/** A request that failed, and whether it failed as a pooled connection closed by the endpoint does. */
class SendFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly maybeReached: boolean,
    readonly closedWhileIdle = false,
  ) {
    super(message);
  }
}

interface PoolAgents {
  http: http.Agent;
  https: https.Agent;
}

/** Asked for as got did, so endpoints may compress their answers; the stored body is decoded. */
const ACCEPT_ENCODING = 'gzip, deflate, br';

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
 * Outbound HTTP for deliveries and token requests, on node:http: keep-alive agents per pool key,
 * no automatic retries (the retry scheduler decides), no redirects, the SSRF guard on every
 * connection, and response capture truncated to 64 KiB. (got did this at three times the CPU per
 * request: docs/decisions.md, "Outbound HTTP".)
 */
export class HttpClient {
  private readonly lookup: ReturnType<typeof createGuardedLookup> | undefined;
  private readonly pools: LRUCache<string, PoolAgents>;

  constructor(private readonly options: HttpClientOptions) {
    this.pools = boundedLru<string, PoolAgents>(options.maxPools ?? 2000, {
      dispose: (agents) => {
        agents.http.destroy();
        agents.https.destroy();
      },
    });
    this.lookup = options.allowPrivateTargets ? undefined : createGuardedLookup(options.resolve);
  }

  /** One outbound request, as a client span in the caller's trace (a delivery attempt's, say). */
  send(req: OutboundRequest): Promise<OutboundResult> {
    return withSpan(`${req.method ?? 'POST'}`, { kind: SpanKind.CLIENT }, async (span) => {
      const result = await this.sendUntraced(req);
      // Unsampled (no exporter), the span keeps nothing: the URL is not parsed again for it.
      if (!span.isRecording()) return result;
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
      try {
        const res = await this.sendOnce(url, req);
        return { kind: 'response', ...res, latencyMs: latency() };
      } catch (err) {
        const failure = err instanceof SendFailure ? err : new SendFailure('ERR_REQUEST', String(err), true);
        if (reusedResets < MAX_REUSED_SOCKET_RESETS && failure.closedWhileIdle) continue;
        const { code, message, maybeReached } = failure;
        return { kind: 'error', code, message, maybeReached, latencyMs: latency() };
      }
    }
  }

  /** One request on a pooled connection; rejects with a SendFailure. */
  private sendOnce(
    url: URL,
    req: OutboundRequest,
  ): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const agents = this.agents(req.poolKey, req.clientCert);
    const tls = url.protocol === 'https:';
    const headers: Record<string, string | number> = { 'accept-encoding': ACCEPT_ENCODING, ...req.headers };
    if (req.body !== undefined) headers['content-length'] = Buffer.byteLength(req.body);
    return new Promise((resolve, reject) => {
      // Where the request was when it failed: before 'connect' nothing was sent.
      let phase: 'lookup' | 'connect' | 'secureConnect' | 'request' = isIP(
        url.hostname.replace(/^\[|\]$/g, ''),
      )
        ? 'connect'
        : 'lookup';
      let answered = false;
      const options: http.RequestOptions = {
        method: req.method ?? 'POST',
        headers,
        agent: tls ? agents.https : agents.http,
        ...(this.lookup && { lookup: this.lookup as never }),
      };
      const request = (tls ? https : http).request(url, options, (res) => {
        answered = true;
        readBody(res).then(
          (body) => {
            clearTimeout(timer);
            resolve({ status: res.statusCode ?? 0, headers: flattenHeaders(res.headers), body });
          },
          (err: unknown) => fail(err),
        );
      });
      const fail = (err: unknown) => {
        clearTimeout(timer);
        request.destroy();
        reject(describeFailure(err, request.reusedSocket && !answered));
      };
      const timer = setTimeout(() => {
        fail(new SendFailure('ETIMEDOUT', `timed out (${phase})`, !PRE_SEND_PHASES.has(phase)));
      }, req.timeoutMs);
      request.on('socket', (socket) => {
        // A pooled connection is already connected (and through TLS).
        if (!socket.connecting) phase = 'request';
        else {
          socket.once('lookup', () => (phase = 'connect'));
          socket.once(tls ? 'secureConnect' : 'connect', () => (phase = 'request'));
          if (tls) socket.once('connect', () => (phase = 'secureConnect'));
        }
      });
      request.on('error', fail);
      request.end(req.body);
    });
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
      const maxSockets = this.options.maxSocketsPerPool ?? 50;
      // Every socket a busy endpoint used stays pooled: with fewer free sockets kept than opened,
      // each burst closed the extra ones and the next opened them again (a connect and a close
      // per request beyond the bound, on both sides).
      const common = { keepAlive: true, maxSockets, maxFreeSockets: maxSockets };
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

const PRE_SEND_PHASES = new Set(['lookup', 'connect', 'secureConnect']);

function describeFailure(err: unknown, onReusedSocket: boolean): SendFailure {
  if (err instanceof SendFailure) return err;
  const code = (err as NodeJS.ErrnoException)?.code ?? 'ERR_REQUEST';
  const message = (err as Error)?.message ?? String(err);
  return new SendFailure(
    code,
    message,
    !NOT_SENT_CODES.has(code),
    onReusedSocket && IDLE_CLOSE_CODES.has(code),
  );
}

/** The response body, decoded (gzip, deflate, br), kept up to MAX_RESPONSE_BYTES and read to its end. */
function readBody(res: http.IncomingMessage): Promise<string> {
  const encoding = String(res.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined;
  const stream: Readable = decoder ? res.pipe(decoder) : res;
  if (decoder) res.on('error', (err) => decoder.destroy(err));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    const text = () => Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8');
    stream.on('data', (chunk: Buffer) => {
      if (kept >= MAX_RESPONSE_BYTES) return;
      chunks.push(chunk);
      kept += chunk.length;
      // A compressed answer is not inflated past what is kept (a small body can inflate to
      // gigabytes); its connection is given up instead of being drained for reuse.
      if (decoder && kept >= MAX_RESPONSE_BYTES) {
        resolve(text());
        res.destroy();
      }
    });
    stream.on('end', () => resolve(text()));
    stream.on('error', reject);
  });
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return 'invalid';
  }
}
