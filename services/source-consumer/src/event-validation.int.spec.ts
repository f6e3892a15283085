import { randomBytes } from 'node:crypto';
import { newId } from '@hookrail/domain';
import { DEFAULT_PROJECT_CONFIG, type EventDoc, type EventValidationConfig } from '@hookrail/store';
import { amqpQueue, waitFor } from '@hookrail/testkit';
import { BrokerStack, pubSubFor } from './testing/broker-stack';

jest.setTimeout(90_000);

/**
 * The event type catalog's check on a broker source (RabbitMQ, an outgoing project: messages name
 * their event type), each mode on the real servers: refused messages are dead-lettered with every
 * failing path, warned ones delivered and stored with their violations.
 */
const stack = new BrokerStack();
const queues: { close(): Promise<void> }[] = [];
beforeAll(() => stack.setUp());
afterAll(async () => {
  await stack.tearDown();
  await Promise.all(queues.map((q) => q.close()));
});

const invoiceSchema = {
  type: 'object',
  required: ['id', 'amount'],
  properties: { id: { type: 'string' }, amount: { type: 'integer', minimum: 0 } },
};

/** An outgoing project with the settings, `invoice.paid` in its catalog and an amqp source consuming. */
async function sourceWith(validation: EventValidationConfig) {
  const q = `hr-val-${randomBytes(3).toString('hex')}`;
  const queue = await amqpQueue(q, { deadLetterExchange: `${q}.dlx` });
  queues.push(queue);
  const source = await stack.createSource(pubSubFor('amqp', q), {}, 'outgoing');
  const endpointId = stack.endpointId;
  await stack.store.projects.update(source.project_id, {
    config: { ...DEFAULT_PROJECT_CONFIG, event_validation: validation },
  });
  await stack.store.eventCatalog.insert(source.project_id, {
    _id: newId(),
    name: 'invoice.paid',
    description: '',
    category: '',
    json_schema_json: JSON.stringify(invoiceSchema),
    example_json: null,
    deprecated_at: null,
  });
  await stack.waitState(source, 'consuming');
  const send = (eventType: string, data: Record<string, unknown>) =>
    queue.publish([{ endpoint_id: endpointId, event_type: eventType, data }]);
  const stored = (tag: string) =>
    waitFor(`event ${tag} stored`, async () => {
      const events = await stack.store.events.list(source.project_id, { search: tag }, 10);
      return events.find((e: EventDoc) => (JSON.parse(e.raw) as { tag?: string }).tag === tag);
    });
  return { queue, send, stored };
}

describe('event type catalog check on an amqp broker source', () => {
  it('enforce: dead-letters a mismatch naming each failing path and an unknown type, and delivers the rest', async () => {
    const { queue, send } = await sourceWith({ mode: 'enforce', unknown_types: 'refuse' });
    await send('invoice.paid', { tag: 'enf-bad', id: 7, amount: -1 });
    await send('invoice.voided', { tag: 'enf-unknown', id: 'in_1', amount: 1 });
    await send('invoice.paid', { tag: 'enf-ok', id: 'in_1', amount: 1 });
    await stack.waitTagged('enf-ok', 1);
    // two workers: the dead letters may come in either order
    const reasons: Record<string, string> = {};
    for (let i = 0; i < 2; i++) {
      const d = await waitFor('refused message dead-lettered', () => queue.takeDead());
      reasons[(JSON.parse(d.body) as { data: { tag: string } }).data.tag] = String(
        d.headers['x-hookrail-rejected'],
      );
    }
    expect(reasons).toEqual({
      'enf-bad':
        'data does not match the schema of event type "invoice.paid": data.id must be string; data.amount must be >= 0',
      'enf-unknown': 'event_type "invoice.voided" is not in the project\'s event type catalog',
    });
    expect(stack.requestsTagged('enf-bad')).toHaveLength(0);
    expect(stack.requestsTagged('enf-unknown')).toHaveLength(0);
    expect(
      await stack.metric(
        'hookrail_event_validation_total',
        'intake="broker_source",mode="enforce",outcome="invalid",verdict="refused"',
      ),
    ).toBeGreaterThanOrEqual(1);
  });

  it('warn: delivers a mismatch and an unknown type, recording the violations on the stored events', async () => {
    const { queue, send, stored } = await sourceWith({ mode: 'warn', unknown_types: 'warn' });
    await send('invoice.paid', { tag: 'warn-bad', amount: 'ten' });
    await send('invoice.voided', { tag: 'warn-unknown' });
    await stack.waitTagged('warn-bad', 1);
    await stack.waitTagged('warn-unknown', 1);
    expect((await stored('warn-bad')).validation_errors).toEqual([
      { field: 'data.id', message: 'is required' },
      { field: 'data.amount', message: 'must be integer' },
    ]);
    expect((await stored('warn-unknown')).validation_errors).toEqual([
      { field: 'event_type', message: '"invoice.voided" is not in the project\'s event type catalog' },
    ]);
    expect(await queue.takeDead()).toBeUndefined();
  });

  it('off: delivers a mismatch and an unknown type and records nothing', async () => {
    const { queue, send, stored } = await sourceWith({ mode: 'off', unknown_types: 'allow' });
    await send('invoice.paid', { tag: 'off-bad', id: 7 });
    await send('invoice.voided', { tag: 'off-unknown' });
    await stack.waitTagged('off-bad', 1);
    await stack.waitTagged('off-unknown', 1);
    expect((await stored('off-bad')).validation_errors).toEqual([]);
    expect((await stored('off-unknown')).validation_errors).toEqual([]);
    expect(await queue.takeDead()).toBeUndefined();
  });
});
