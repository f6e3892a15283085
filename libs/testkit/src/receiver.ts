import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The exact bytes received. */
  rawBody: Buffer;
  body: string;
  receivedAt: number;
  /** Common name of the client certificate, when one was presented (mTLS). */
  clientCertCN?: string;
}

export interface ReceiverReply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface ReceiverOptions {
  /** Answer the first `fail` requests with 500. */
  fail?: number;
  /** Wait this long before answering. */
  delayMs?: number;
  /**
   * Accept every request and never answer it (a hanging endpoint: the sender waits its whole
   * time-out); the connection stays open until the sender gives up or the receiver closes.
   */
  hang?: boolean;
  /** Full control over the answer (wins over `fail`). */
  respond?: (req: RecordedRequest, index: number) => ReceiverReply;
  /** Serve HTTPS with this certificate. */
  tls?: { cert: string; key: string; ca?: string };
  /** With `tls`: refuse connections without a client certificate signed by `tls.ca`. */
  requireClientCert?: boolean;
  /** Keep only the count, not the requests (benchmarks). */
  countOnly?: boolean;
  /** Called for every request, before answering. */
  onRequest?: (req: RecordedRequest) => void;
  /** Address to listen on (default 127.0.0.1), e.g. the host end of a test network namespace's veth. */
  host?: string;
}

export interface Receiver {
  url: string;
  requests: RecordedRequest[];
  count(): number;
  /** Requests received and neither answered nor given up by the sender yet. */
  pending(): number;
  /** Requests the sender gave up on (closed) before they were answered: a hanging endpoint's time-outs. */
  abandoned(): number;
  close(): Promise<void>;
}

/** A real webhook receiver on 127.0.0.1 that records every request (headers and exact body bytes). */
export async function startReceiver(opts: ReceiverOptions = {}): Promise<Receiver> {
  const requests: RecordedRequest[] = [];
  let seen = 0;
  let pending = 0;
  let abandoned = 0;
  const handler: http.RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      const peer = (req.socket as TLSSocket).getPeerCertificate?.();
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers,
        rawBody,
        body: rawBody.toString('utf8'),
        receivedAt: Date.now(),
        clientCertCN: peer && peer.subject ? String(peer.subject.CN) : undefined,
      };
      const index = seen++;
      pending++;
      res.on('close', () => {
        pending--;
        if (!res.writableFinished) abandoned++;
      });
      if (!opts.countOnly) requests.push(recorded);
      opts.onRequest?.(recorded);
      const reply: ReceiverReply = opts.respond
        ? opts.respond(recorded, index)
        : index < (opts.fail ?? 0)
          ? { status: 500, body: 'failing on purpose' }
          : { status: 200, body: 'ok' };
      const answer = () => {
        res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
        res.end(reply.body ?? '');
      };
      if (opts.hang) return;
      if (opts.delayMs) setTimeout(answer, opts.delayMs);
      else answer();
    });
  };
  const server = opts.tls
    ? https.createServer(
        {
          cert: opts.tls.cert,
          key: opts.tls.key,
          ca: opts.tls.ca,
          requestCert: Boolean(opts.requireClientCert),
          rejectUnauthorized: Boolean(opts.requireClientCert),
        },
        handler,
      )
    : http.createServer(handler);
  server.keepAliveTimeout = 30_000;
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${opts.tls ? 'https' : 'http'}://${host}:${port}`,
    requests,
    count: () => seen,
    pending: () => pending,
    abandoned: () => abandoned,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
