import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient } from './http-client';

/** A receiver that closes a connection, unanswered, on the chosen requests. */
async function receiver(closeIf: (nthOnConnection: number) => boolean) {
  const seen = { requests: 0, connections: 0 };
  const perSocket = new WeakMap<object, number>();
  const server = http.createServer((req, res) => {
    seen.requests++;
    const nth = (perSocket.get(req.socket) ?? 0) + 1;
    perSocket.set(req.socket, nth);
    req.resume();
    req.on('end', () => (closeIf(nth) ? req.socket.destroy() : res.end('ok')));
  });
  server.on('connection', () => seen.connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { seen, url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

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
    // Four connections opened at once stay in the pool; each one's second request is reset.
    const r = await receiver((nth) => nth >= 2);
    try {
      await Promise.all([1, 2, 3, 4].map(() => send(client, r.url)));
      expect(r.seen.connections).toBe(4);
      const result = await send(client, r.url);
      // Three resends on pooled connections, each discarded after its reset; then the error.
      expect(result).toMatchObject({ kind: 'error', code: 'ECONNRESET' });
      expect(r.seen.requests).toBe(4 + 4);
    } finally {
      await r.close();
    }
  });
});
