import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { HttpClient, MAX_RESPONSE_BYTES } from './http-client';

/** A receiver that closes a connection, unanswered, on the chosen requests. */
async function receiver(closeIf: (nthOnConnection: number, nth: number) => boolean) {
  const seen = { requests: 0, connections: 0 };
  const perSocket = new WeakMap<object, number>();
  const server = http.createServer((req, res) => {
    seen.requests++;
    const nth = (perSocket.get(req.socket) ?? 0) + 1;
    perSocket.set(req.socket, nth);
    req.resume();
    req.on('end', () => (closeIf(nth, seen.requests) ? req.socket.destroy() : res.end('ok')));
  });
  server.on('connection', () => seen.connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { seen, url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Until the pool's connections sit idle, as a connection an endpoint closes while idle does. */
const idle = () => new Promise((r) => setTimeout(r, 20));

const send = (client: HttpClient, url: string) =>
  client.send({
    url,
    headers: { 'content-type': 'application/json' },
    body: '{}',
    timeoutMs: 5000,
    poolKey: url,
  });

describe('HttpClient on a kept-alive connection the endpoint closed', () => {
  let client: HttpClient;
  beforeEach(() => (client = new HttpClient({ allowPrivateTargets: true })));
  afterEach(() => client.close());

  it('sends the request again on a new connection', async () => {
    // The second request on a connection finds it closed: what an idle-timeout close looks like.
    const r = await receiver((nth) => nth === 2);
    try {
      expect(await send(client, r.url)).toMatchObject({ kind: 'response', status: 200 });
      await idle();
      const second = await send(client, r.url);
      expect(second).toMatchObject({ kind: 'response', status: 200, body: 'ok' });
      expect(r.seen).toEqual({ requests: 3, connections: 2 });
    } finally {
      await r.close();
    }
  });

  it('reports a reset on a new connection as the attempt failing, without sending again', async () => {
    const r = await receiver(() => true);
    try {
      const result = await send(client, r.url);
      expect(result).toMatchObject({ kind: 'error', code: 'ECONNRESET', maybeReached: true });
      expect(r.seen).toEqual({ requests: 1, connections: 1 });
    } finally {
      await r.close();
    }
  });

  it('sends again a bounded number of times when every kept-alive connection is closed', async () => {
    // Four connections opened at once stay in the pool; every request after those four is reset.
    const r = await receiver((_onConnection, nth) => nth > 4);
    try {
      await Promise.all([1, 2, 3, 4].map(() => send(client, r.url)));
      expect(r.seen.connections).toBe(4);
      await idle();
      const result = await send(client, r.url);
      // Sent again after the reset on a pooled connection, at most three times (a reset on a new
      // connection is not sent again); then the error.
      expect(result).toMatchObject({ kind: 'error', code: 'ECONNRESET' });
      expect(r.seen.requests).toBeGreaterThanOrEqual(4 + 2);
      expect(r.seen.requests).toBeLessThanOrEqual(4 + 4);
    } finally {
      await r.close();
    }
  });
});

describe('HttpClient requests and answers', () => {
  let client: HttpClient;
  beforeEach(() => (client = new HttpClient({ allowPrivateTargets: true })));
  afterEach(() => client.close());

  async function server(handler: http.RequestListener) {
    const s = http.createServer(handler);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook`;
    return {
      url,
      close: () => new Promise<void>((r) => (s.closeAllConnections(), s.close(() => r()))),
    };
  }

  it('sends the body with its length and asks for compressed answers, whose body it decodes and cuts at 64 KiB', async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    const big = 'y'.repeat(100 * 1024);
    const s = await server((req, res) => {
      seen.push(req.headers);
      req.resume();
      req.on('end', () =>
        res.writeHead(200, { 'content-encoding': 'gzip', 'x-answer': 'yes' }).end(zlib.gzipSync(big)),
      );
    });
    try {
      const result = await send(client, s.url);
      expect(seen[0]).toMatchObject({ 'content-length': '2', 'accept-encoding': 'gzip, deflate, br' });
      expect(seen[0]['transfer-encoding']).toBeUndefined();
      expect(result).toMatchObject({ kind: 'response', status: 200, headers: { 'x-answer': 'yes' } });
      expect(result.kind === 'response' && result.body).toBe(big.slice(0, MAX_RESPONSE_BYTES));
    } finally {
      await s.close();
    }
  });

  it('stops inflating a compressed answer at 64 KiB and gives its connection up (a small body that inflates to 200 MB)', async () => {
    // Each 1 KiB of this body inflates to about 1 MiB. The receiver sends one piece every 10 ms
    // until the client hangs up: a client that inflated everything would take all 200 pieces.
    const bomb = zlib.gzipSync(Buffer.alloc(200 * 1024 * 1024));
    const pieces = Math.ceil(bomb.length / 1024);
    let written = 0;
    const s = await server((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-encoding': 'gzip' });
        const timer = setInterval(() => {
          if (res.destroyed || written === pieces) return void (clearInterval(timer), res.end());
          res.write(bomb.subarray(written * 1024, ++written * 1024));
        }, 10);
        res.on('close', () => clearInterval(timer));
      });
    });
    try {
      const result = await send(client, s.url);
      expect(result).toMatchObject({ kind: 'response', status: 200 });
      expect(result.kind === 'response' && result.body.length).toBe(MAX_RESPONSE_BYTES);
      await new Promise((r) => setTimeout(r, 100));
      expect(pieces).toBeGreaterThan(150);
      expect(written).toBeLessThan(pieces / 2);
    } finally {
      await s.close();
    }
  });

  it('answers a redirect as it came, without following it', async () => {
    let requests = 0;
    const s = await server((req, res) => {
      requests++;
      req.resume();
      req.on('end', () => res.writeHead(302, { location: '/elsewhere' }).end());
    });
    try {
      expect(await send(client, s.url)).toMatchObject({
        kind: 'response',
        status: 302,
        headers: { location: '/elsewhere' },
      });
      expect(requests).toBe(1);
    } finally {
      await s.close();
    }
  });

  it('times out an endpoint that does not answer, as an attempt that may have reached it', async () => {
    const s = await server((req) => req.resume());
    try {
      const result = await client.send({
        url: s.url,
        headers: {},
        body: '{}',
        timeoutMs: 200,
        poolKey: s.url,
      });
      expect(result).toMatchObject({
        kind: 'error',
        code: 'ETIMEDOUT',
        message: 'timed out (request)',
        maybeReached: true,
      });
      expect(result.latencyMs).toBeGreaterThanOrEqual(190);
    } finally {
      await s.close();
    }
  });

  it('times out a request still waiting for a connection as never sent, and never sends it', async () => {
    let requests = 0;
    const s = await server((req) => (requests++, req.resume())); // answers nothing
    const one = new HttpClient({ allowPrivateTargets: true, maxSocketsPerPool: 1 });
    try {
      // Its deadline is far beyond the waiting one's: were it to pass first (a stalled test
      // process), its connection would be closed and the waiting request started on a new one.
      const holding = one.send({ url: s.url, headers: {}, body: '{}', timeoutMs: 2_000, poolKey: 'p' });
      await new Promise((r) => setTimeout(r, 50));
      const waiting = await one.send({ url: s.url, headers: {}, body: '{}', timeoutMs: 100, poolKey: 'p' });
      expect(waiting).toMatchObject({
        kind: 'error',
        code: 'ETIMEDOUT',
        message: 'timed out (connect)',
        maybeReached: false,
      });
      expect(await holding).toMatchObject({
        kind: 'error',
        message: 'timed out (request)',
        maybeReached: true,
      });
      await new Promise((r) => setTimeout(r, 50));
      expect(requests).toBe(1);
    } finally {
      one.close();
      await s.close();
    }
  });

  it('reports a refused connection as never sent', async () => {
    const s = await server(() => undefined);
    await s.close();
    expect(await send(client, s.url)).toMatchObject({
      kind: 'error',
      code: 'ECONNREFUSED',
      maybeReached: false,
    });
  });

  it('refuses a private target before connecting unless private targets are allowed', async () => {
    const guarded = new HttpClient({ allowPrivateTargets: false });
    try {
      expect(await send(guarded, 'http://127.0.0.1:9/hook')).toMatchObject({
        kind: 'error',
        maybeReached: false,
      });
    } finally {
      guarded.close();
    }
  });
});
