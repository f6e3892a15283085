import { connect, type Socket } from 'node:net';
import { EventEmitter, once } from 'node:events';
import { Agent, request } from 'node:http';
import express from 'express';
import { asProjectId } from '@hookrail/domain';
import { captureLogs, testConfig, uniquePrefix, migrateTestDatabase } from '@hookrail/testkit';
import { HTTP_DRAIN_CUT_LOG, HTTP_DRAIN_MS, startService, type RunningService } from './index';

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
  beforeAll(() => migrateTestDatabase());

  let logs: ReturnType<typeof captureLogs>;
  const cutLogged = () => logs.lines().some((l) => l.msg === HTTP_DRAIN_CUT_LOG);
  // Each route says when a request has reached it. stop() closes a connection whose request the
  // server has not yet read as idle, so each test stops the service only once its requests are in.
  const arrivals = new EventEmitter();
  const arrived = (path: string) => once(arrivals, path);
  const signal = (path: string) => (_req: unknown, _res: unknown, next: () => void) => {
    arrivals.emit(path);
    next();
  };
  const start = () => {
    logs = captureLogs('meta-event');
    return startService({
      config: testConfig('meta-event', { HOOKRAIL_KAFKA_TOPIC_PREFIX: uniquePrefix('drain') }),
      logger: logs.logger,
      start: async ({ app, publisher }) => {
        app.post('/work', signal('/work'), express.json(), (_req, res) => void res.status(201).json({}));
        app.get(
          '/slow',
          signal('/slow'),
          (_req, res) => void setTimeout(() => res.json({ done: true }), 1000),
        );
        // Like the events API: answers once Kafka has the message.
        app.post('/publish', signal('/publish'), async (_req, res) => {
          await new Promise((r) => setTimeout(r, 500));
          await publisher.publish('meta', [
            {
              project_id: asProjectId('01HZZZZZZZZZZZZZZZZZZZZZZZ'),
              event_type: 'endpoint.created',
              data: {},
              occurred_at: new Date().toISOString(),
            },
          ]);
          res.status(202).json({});
        });
      },
    });
  };

  it('lets an exchange in flight finish, then cuts a client that never finishes its request', async () => {
    const svc = await start();
    await svc.started;
    const stuckIn = arrived('/work');
    const stuck = await unfinishedRequest(svc);
    const stuckClosed = once(stuck, 'close');
    const slowIn = arrived('/slow');
    const slow = fetch(`${svc.url}/slow`);
    await Promise.all([stuckIn, slowIn]);

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
    expect(cutLogged()).toBe(true); // what the tests below look for to tell a drain that waited
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
    await svc.stop();
    // The drain ended without waiting for the grace (which cuts, and logs it). Not a wall-clock
    // bound: HTTP_DRAIN_MS is where a drain that waited would end, and on a busy host the Kafka
    // and MongoDB clients' closes after the drain can take a good part of it.
    expect(cutLogged()).toBe(false);
  }, 60_000);

  it('answers a request on its way with Kafka still connected, and closes its keep-alive connection after it', async () => {
    const svc = await start();
    await svc.started;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const post = () =>
      new Promise<{ status: number; connection?: string }>((resolve, reject) => {
        const req = request(`${svc.url}/publish`, { method: 'POST', agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
        });
        req.on('error', reject);
        req.end();
      });
    // A first exchange: the agent keeps its connection, as a load balancer's client would.
    expect(await post()).toEqual({ status: 202, connection: 'keep-alive' });
    const publishIn = arrived('/publish');
    const onItsWay = post();
    await publishIn;

    const stopped = svc.stop();
    // Node would keep serving a busy connection after server.close(), and the client would go on
    // sending to this instance: the answer tells it to leave.
    expect(await onItsWay).toEqual({ status: 202, connection: 'close' });
    await stopped;
    // The drain ended with the answer, not at the grace (as above: the publish on its way and the
    // closes after the drain can take seconds of the same 5 s on a busy host).
    expect(cutLogged()).toBe(false);
    agent.destroy();
  }, 60_000);
});
