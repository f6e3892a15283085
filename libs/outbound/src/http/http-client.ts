import { hash } from 'node:crypto';
import diagnostics from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';
import zlib from 'node:zlib';
import { Agent, type Dispatcher } from 'undici';
import type { LRUCache } from 'lru-cache';
import { markSpanFailed, SpanKind, withSpan } from '@hookrail/telemetry';
import { boundedLru, normaliseHeaders } from '@hookrail/toolbox';
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

/**
 * A kept-alive connection the endpoint closed while it sat idle in the pool fails the next request
 * sent on it (the close and the request cross on the wire). Such a request is sent again at once
 * on another connection, as Node's HTTP documentation advises, instead of costing the delivery a
 * failed attempt and a retry minutes later. Bounded: each failure discards its connection.
 */
const MAX_REUSED_SOCKET_RESETS = 3;
const IDLE_CLOSE_CODES = new Set(['ECONNRESET', 'EPIPE']);

/** A request that failed, whether it may have left, and whether it failed as a connection closed while idle does. */
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

/**
 * Which connection a request is written on: undici publishes it on this channel synchronously
 * after the request's handler was told it starts (onRequestStart), so the exchange starting then
 * is the one being written. A connection that carried requests before is a reused one.
 */
const requestsOn = new WeakMap<object, number>();
let starting: ((reused: boolean) => void) | null = null;
diagnostics.subscribe('undici:client:sendHeaders', (message) => {
  const tell = starting;
  starting = null;
  if (!tell) return; // another undici user's request (fetch)
  const { socket } = message as { socket: object };
  const before = requestsOn.get(socket) ?? 0;
  requestsOn.set(socket, before + 1);
  tell(before > 0);
});

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One request's handler on undici's dispatcher: whether it was started on a connection (before
 * that nothing of it was written), its answer decoded (gzip, deflate, br), kept up to
 * MAX_RESPONSE_BYTES and read to its end, or its failure.
 */
class Exchange implements Dispatcher.DispatchHandler {
  /** Written, or being written, on a connection: from here it may have reached the endpoint. */
  sent = false;
  /** Whether the connection it went out on had carried requests before (requestsOn). */
  private reusedConnection = false;
  private readonly onConnection = (reused: boolean) => (this.reusedConnection = reused);
  private answered = false;
  private controller: Dispatcher.DispatchController | null = null;
  private cancelled: SendFailure | null = null;
  private status = 0;
  private headers: Record<string, string> = {};
  private decoder: zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined;
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private settle!: { resolve: (a: Answer) => void; reject: (f: SendFailure) => void };
  readonly answer = new Promise<Answer>((resolve, reject) => (this.settle = { resolve, reject }));

  onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.cancelled) return controller.abort(this.cancelled);
    this.controller = controller;
    this.sent = true;
    starting = this.onConnection;
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    status: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    this.answered = true;
    this.status = status;
    this.headers = normaliseHeaders(headers);
    const encoding = (this.headers['content-encoding'] ?? '').trim().toLowerCase();
    this.decoder =
      encoding === 'gzip' || encoding === 'x-gzip'
        ? zlib.createGunzip()
        : encoding === 'deflate'
          ? zlib.createInflate()
          : encoding === 'br'
            ? zlib.createBrotliDecompress()
            : undefined;
    if (!this.decoder) return;
    this.decoder.on('data', (chunk: Buffer) => this.keep(chunk));
    this.decoder.on('end', () => this.finish());
    this.decoder.on('error', (err) => this.fail(err));
    this.decoder.on('drain', () => controller.resume());
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (!this.decoder) return this.keep(chunk);
    if (!this.decoder.write(chunk)) controller.pause();
  }

  onResponseEnd(): void {
    if (this.decoder) this.decoder.end();
    else this.finish();
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    this.fail(err);
  }

  /** The deadline passed: fails the exchange now, and a request not yet started is never written. */
  cancel(failure: SendFailure): void {
    if (this.controller) this.controller.abort(failure);
    else this.cancelled = failure;
    this.settle.reject(failure);
    this.decoder?.destroy();
  }

  private keep(chunk: Buffer): void {
    if (this.kept >= MAX_RESPONSE_BYTES) return;
    this.chunks.push(chunk);
    this.kept += chunk.length;
    // A compressed answer is not inflated past what is kept (a small body can inflate to
    // gigabytes); its connection is given up instead of being drained for reuse.
    if (this.decoder && this.kept >= MAX_RESPONSE_BYTES) {
      this.finish();
      this.decoder.destroy();
      this.controller?.abort(new Error('answer cut at 64 KiB'));
    }
  }

  private finish(): void {
    const body = Buffer.concat(this.chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8');
    this.settle.resolve({ status: this.status, headers: this.headers, body });
  }

  private fail(err: unknown): void {
    this.decoder?.destroy();
    this.settle.reject(describeFailure(err, this.sent, this.reusedConnection && !this.answered));
  }
}

/** Asked for as got did, so endpoints may compress their answers; the stored body is decoded. */
const ACCEPT_ENCODING = 'gzip, deflate, br';

export interface HttpClientOptions {
  allowPrivateTargets: boolean;
  /** Keep-alive connections per endpoint pool (bounds concurrency towards one endpoint too). */
  maxSocketsPerPool?: number;
  /** Pools kept; the least recently used is closed beyond this. */
  maxPools?: number;
  /** Trusted CAs for HTTPS targets (tests with a local CA); default: the system's. */
  ca?: string;
  /** Name resolution under the SSRF guard (tests of DNS rebinding); default: the system's. */
  resolve?: Resolve;
}

/**
 * Outbound HTTP for deliveries and token requests, on undici: a connection pool per pool key, no
 * automatic retries (the retry scheduler decides), no redirects, the SSRF guard on every
 * connection, and response capture truncated to 64 KiB. (got did this at three times node:http's
 * CPU per request, and node:http at twice undici's: docs/decisions.md, "Outbound HTTP".)
 */
export class HttpClient {
  private readonly lookup: ReturnType<typeof createGuardedLookup> | undefined;
  private readonly pools: LRUCache<string, Agent>;

  constructor(private readonly options: HttpClientOptions) {
    this.pools = boundedLru<string, Agent>(options.maxPools ?? 2000, {
      dispose: (agent) => void agent.destroy().catch(() => undefined),
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
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
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
  private async sendOnce(url: URL, req: OutboundRequest): Promise<Answer> {
    const headers: Record<string, string> = { 'accept-encoding': ACCEPT_ENCODING, ...req.headers };
    if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
    const exchange = new Exchange();
    const timer = setTimeout(() => {
      // Before it started on a connection (a lookup, connect or TLS handshake, or a wait for a
      // free connection) nothing of the request was written.
      const phase = exchange.sent ? 'request' : 'connect';
      exchange.cancel(new SendFailure('ETIMEDOUT', `timed out (${phase})`, exchange.sent));
    }, req.timeoutMs);
    try {
      this.pool(req.poolKey, req.clientCert).dispatch(
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: req.method ?? 'POST',
          headers,
          body: req.body,
        },
        exchange,
      );
      return await exchange.answer;
    } catch (err) {
      // undici refuses some requests before dispatching them (a header value it cannot send).
      throw describeFailure(err, exchange.sent, false);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes every pooled connection (service shutdown). */
  close(): void {
    this.pools.clear();
  }

  private pool(poolKey: string, clientCert?: { cert: string; key: string }): Agent {
    // A changed certificate must never reuse a connection made with the old one.
    const key = clientCert
      ? `${poolKey}:${hash('sha256', clientCert.cert + clientCert.key, 'hex')}`
      : poolKey;
    let agent = this.pools.get(key);
    if (!agent) {
      agent = new Agent({
        // Every connection a busy endpoint used stays pooled, so a burst does not close and
        // reopen them.
        connections: this.options.maxSocketsPerPool ?? 50,
        allowH2: false,
        // The deadline is the request's own (sendOnce), over the whole exchange.
        headersTimeout: 0,
        bodyTimeout: 0,
        // Idle connections are kept a minute (less when the endpoint's Keep-Alive says so).
        keepAliveTimeout: 60_000,
        keepAliveMaxTimeout: 600_000,
        connect: {
          ...(this.lookup && { lookup: this.lookup }),
          ...(this.options.ca && { ca: this.options.ca }),
          ...(clientCert && { cert: clientCert.cert, key: clientCert.key }),
        },
      });
      this.pools.set(key, agent);
    }
    return agent;
  }
}

/**
 * A failure as the client reports it: the code of the socket's error where there is one (undici's
 * "other side closed" is a reset), and whether the request may have left, which is exactly
 * whether it had started on a connection.
 */
function describeFailure(err: unknown, sent: boolean, onReusedConnection: boolean): SendFailure {
  if (err instanceof SendFailure) return err;
  const e = err as { code?: string; message?: string; cause?: { code?: string } };
  const code =
    e?.code === 'UND_ERR_SOCKET'
      ? (e.cause?.code ?? 'ECONNRESET')
      : e?.code === 'UND_ERR_CONNECT_TIMEOUT'
        ? 'ETIMEDOUT'
        : (e?.code ?? 'ERR_REQUEST');
  return new SendFailure(
    code,
    e?.message ?? String(err),
    sent,
    sent && onReusedConnection && IDLE_CLOSE_CODES.has(code),
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return 'invalid';
  }
}
