import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import express from 'express';
import { testConfig, uniquePrefix } from '@hookrail/testkit';
import { HTTP_DRAIN_MS, startService, type RunningService } from './index';

/** Opens a raw connection and sends a request whose body never arrives in full. */
async function unfinishedRequest(svc: RunningService): Promise<Socket> {
  const socket = connect(svc.port, '127.0.0.1');
  await once(socket, 'connect');
  socket.write(
    'POST /work HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":',
  );
  socket.resume();
  return socket;
}

describe('stop() and the HTTP connections still open', () => {
  const start = () =>
    startService({
      config: testConfig('meta-event', { HOOKRAIL_KAFKA_TOPIC_PREFIX: uniquePrefix('drain') }),
      start: async ({ app }) => {
        app.post('/work', express.json(), (_req, res) => void res.status(201).json({}));
        app.get('/slow', (_req, res) => void setTimeout(() => res.json({ done: true }), 1000));
      },
    });

  it('lets an exchange in flight finish, then cuts a client that never finishes its request', async () => {
    const svc = await start();
    await svc.started;
    const stuck = await unfinishedRequest(svc);
    const stuckClosed = once(stuck, 'close');
    const slow = fetch(`${svc.url}/slow`);
    await new Promise((r) => setTimeout(r, 100));

    const t0 = Date.now();
    await svc.stop();
    const took = Date.now() - t0;

    const res = await slow;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ done: true });
    await stuckClosed;
    expect(stuck.destroyed).toBe(true);
    expect(took).toBeGreaterThanOrEqual(HTTP_DRAIN_MS - 50);
    expect(took).toBeLessThan(HTTP_DRAIN_MS + 5_000);
  }, 60_000);

  it('does not wait when every connection is idle', async () => {
    const svc = await start();
    await svc.started;
    // keep-alive: the connection stays open, idle, after the answer
    expect(
      (
        await fetch(`${svc.url}/work`, {
          method: 'POST',
          body: '{}',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(201);
    const t0 = Date.now();
    await svc.stop();
    expect(Date.now() - t0).toBeLessThan(HTTP_DRAIN_MS);
  }, 60_000);
});
