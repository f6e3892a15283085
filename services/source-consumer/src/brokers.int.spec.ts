import { randomBytes } from 'node:crypto';
import { amqpQueue, waitFor } from '@hookrail/testkit';
import { brokerFixture, type BrokerFixture } from './testing/broker-fixture';
import { BrokerStack, pubSubFor, signatureValid, type Kind } from './testing/broker-stack';

jest.setTimeout(90_000);

const KINDS: Kind[] = ['amqp', 'sqs', 'google', 'kafka'];

/**
 * Each broker kind end to end on the real local servers: messages published to the broker become
 * signed webhooks at a real receiver through source-consumer and dispatcher.
 */
// One stack for every kind: a source-consumer runs every broker source of its database.
const stack = new BrokerStack();
const fixtures: BrokerFixture[] = [];
beforeAll(() => stack.setUp());
afterAll(async () => {
  await stack.tearDown();
  await Promise.all(fixtures.map((f) => f.close()));
});

describe.each(KINDS)('%s broker source', (kind) => {
  const fixture = async (name: string) => {
    const f = await brokerFixture(kind, name);
    fixtures.push(f);
    return f;
  };
  const name = (what: string) => `hr-${kind}-${what}-${randomBytes(3).toString('hex')}`;

  it('delivers published messages as signed webhooks with forwarded headers and runs the functions', async () => {
    const q = name('flow');
    const broker = await fixture(q);
    const source = await stack.createSource(pubSubFor(kind, q), {
      forward_headers: ['x-tenant'],
      body_function: 'function transform(p) { p.seen = true; return p }',
    });
    await stack.waitState(source, 'consuming');
    const tag = `flow-${kind}`;
    await broker.publish(
      Array.from({ length: 20 }, (_, n) => ({ tag, n })),
      { 'X-Tenant': 'acme', 'x-private': 'no' },
    );
    const got = await stack.waitTagged(tag, 20);
    expect(new Set(got.map((r) => (JSON.parse(r.body) as { n: number }).n)).size).toBe(20);
    for (const r of got) {
      expect(signatureValid(r)).toBe(true);
      expect(r.headers['x-tenant']).toBe('acme');
      expect(r.headers['x-private']).toBeUndefined();
      expect(JSON.parse(r.body)).toMatchObject({ seen: true });
    }
  });

  it('dead-letters (or drops) a poison message and the next good one still flows', async () => {
    const q = name('poison');
    const broker = await fixture(q);
    const source = await stack.createSource(pubSubFor(kind, q, 1));
    await stack.waitState(source, 'consuming');
    const tag = `after-poison-${kind}`;
    await broker.publish(['this is not json']);
    await broker.publish([{ tag }]);
    await stack.waitTagged(tag, 1);
    if (broker.deadCount)
      await waitFor('poison message dead-lettered', async () => (await broker.deadCount!()) === 1, {
        // Pub/Sub forwards after max_delivery_attempts (5, the least it allows), and the emulator
        // redelivers a nacked message only every few seconds.
        timeoutMs: 60_000,
        intervalMs: 200,
      });
    // The event document is written beside the send (batched), so it may land just after it.
    const events = await waitFor('the good message recorded as an event', async () => {
      const found = await stack.store.events.list(source.project_id, { sourceId: source._id }, 50);
      return found.length > 0 ? found : undefined;
    });
    expect(events.length).toBe(1);
  });

  it('stops consuming when disabled and resumes when enabled', async () => {
    const q = name('toggle');
    const broker = await fixture(q);
    const source = await stack.createSource(pubSubFor(kind, q));
    await stack.waitState(source, 'consuming');
    // A source the change did not reach never stops: 20 s (as for every other state here) leaves a
    // busy host its time for the config message, the client's close and the state's write.
    const started = Date.now();
    await stack.updateSource(source, { is_disabled: true });
    await stack.waitState(source, 'stopped', 20_000);
    expect(Date.now() - started).toBeLessThan(20_000);
    const tag = `toggle-${kind}`;
    await broker.publish([{ tag }]);
    await new Promise((r) => setTimeout(r, 1500));
    expect(stack.requestsTagged(tag)).toHaveLength(0);
    await stack.updateSource(source, { is_disabled: false });
    await stack.waitState(source, 'consuming', 20_000);
    await stack.waitTagged(tag, 1);
  });

  it('restarts on the new settings when they change', async () => {
    const [q1, q2] = [name('first'), name('second')];
    const [b1, b2] = [await fixture(q1), await fixture(q2)];
    const source = await stack.createSource(pubSubFor(kind, q1));
    await stack.waitState(source, 'consuming');
    await b1.publish([{ tag: `first-${kind}` }]);
    await stack.waitTagged(`first-${kind}`, 1);
    await stack.updateSource(source, { pub_sub: pubSubFor(kind, q2) });
    await b2.publish([{ tag: `second-${kind}` }]);
    await stack.waitTagged(`second-${kind}`, 1, 20_000); // never, if it stayed on the first queue
    await b1.publish([{ tag: `stale-${kind}` }]);
    await new Promise((r) => setTimeout(r, 1500));
    expect(stack.requestsTagged(`stale-${kind}`)).toHaveLength(0);
  });
});

describe('outgoing project broker source (amqp)', () => {
  it('sends the envelope like the events API: single by endpoint_id, broadcast by message type, custom headers', async () => {
    const q = `hr-out-${randomBytes(3).toString('hex')}`;
    const broker = await brokerFixture('amqp', q);
    fixtures.push(broker);
    const source = await stack.createSource(
      pubSubFor('amqp', q),
      { forward_headers: ['x-tenant'] },
      'outgoing',
    );
    await stack.waitState(source, 'consuming');
    await broker.publish(
      [
        {
          endpoint_id: stack.endpointId,
          event_type: 'invoice.paid',
          data: { tag: 'out-single' },
          custom_headers: { 'X-Custom': 'c1' },
          idempotency_key: 'inv-1',
        },
      ],
      { 'x-tenant': 'acme' },
    );
    const [single] = await stack.waitTagged('out-single', 1);
    expect(JSON.parse(single.body)).toEqual({ tag: 'out-single' });
    expect(single.headers).toMatchObject({
      'x-hookrail-event-type': 'invoice.paid',
      'x-custom': 'c1',
      'x-tenant': 'acme',
    });
    expect(signatureValid(single)).toBe(true);

    // poison: an unknown endpoint is rejected (dead-lettered) and the broadcast behind it flows
    await broker.publish([{ endpoint_id: 'no-such-endpoint', event_type: 't', data: { tag: 'lost' } }]);
    await broker.publish([{ event_type: 'news', data: { tag: 'out-broadcast' } }], {
      'x-hookrail-message-type': 'broadcast',
    });
    await stack.waitTagged('out-broadcast', 1);
    await waitFor('unknown endpoint dead-lettered', async () => (await broker.deadCount!()) === 1);
    expect(stack.requestsTagged('lost')).toHaveLength(0);
  });
});

describe('amqp dead-letter exchange', () => {
  it("dead-letters into the source's exchange even when the queue was declared without it, with the reason", async () => {
    const q = `hr-dlx-${randomBytes(3).toString('hex')}`;
    const queue = await amqpQueue(q, { deadLetterExchange: `${q}.dlx`, queueArgument: false });
    fixtures.push(queue);
    const source = await stack.createSource(pubSubFor('amqp', q));
    await stack.waitState(source, 'consuming');
    await queue.publish(['not json at all'], { 'x-origin': 'billing' });
    await queue.publish([{ tag: 'after-dlx' }]);
    await stack.waitTagged('after-dlx', 1);
    const dead = await waitFor('rejected message in the dead-letter queue', () => queue.takeDead());
    expect(dead.body).toBe('not json at all');
    expect(dead.headers['x-origin']).toBe('billing');
    expect(String(dead.headers['x-hookrail-rejected'])).toMatch(/json/i);
    expect(await queue.count()).toBe(0);
  });
});
