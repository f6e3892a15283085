import type { EventMessage } from '@hookrail/bus';
import { asProjectId } from '@hookrail/domain';
import { makeEvent, waitFor } from '@hookrail/testkit';
import { ADMIN_KEY, GatewayHarness } from '../testing/gateway-harness';

jest.setTimeout(60_000);

const invoiceSchema = {
  type: 'object',
  required: ['id', 'amount'],
  properties: {
    id: { type: 'string', pattern: '^in_' },
    amount: { type: 'integer', minimum: 0 },
    lines: { type: 'array', items: { type: 'object', required: ['sku'] } },
  },
};

/** `{anyOf: [recurse then fail, recurse then fail]}`: exponential in the payload's depth. */
const exponentialSchema = {
  $defs: {
    n: {
      anyOf: [
        { allOf: [{ properties: { x: { $ref: '#/$defs/n' } } }, { required: ['y'] }] },
        { allOf: [{ properties: { x: { $ref: '#/$defs/n' } } }, { required: ['z'] }] },
      ],
    },
  },
  $ref: '#/$defs/n',
};

describe('events API: events checked against the event type catalog (event_validation)', () => {
  const h = new GatewayHarness();
  let events: EventMessage[];
  beforeAll(async () => {
    await h.start();
    events = await h.collect('events');
  });
  afterAll(() => h.stop());

  /** An outgoing project with the settings, an endpoint and `invoice.paid` in its catalog. */
  async function projectWith(eventValidation: Record<string, string>) {
    const p = await h.createProject('outgoing', { event_validation: eventValidation });
    const endpointId = (
      await h.call('POST', `/v1/projects/${p.id}/endpoints`, {
        key: p.key,
        body: { name: 'ep', url: 'https://e.com', owner_id: 'own' },
      })
    ).body.data.uid as string;
    const type = await h.call('POST', `/v1/projects/${p.id}/event-types`, {
      key: p.key,
      body: { name: 'invoice.paid', json_schema: invoiceSchema },
    });
    expect(type.status).toBe(201);
    const send = (event_type: string, data: unknown) =>
      h.call('POST', `/v1/projects/${p.id}/events`, {
        key: p.key,
        body: { endpoint_id: endpointId, event_type, data },
      });
    return { p, typeId: type.body.data.uid as string, send };
  }

  describe('the project setting', () => {
    it('defaults to off and allow, merges a partial change and is in the OpenAPI document', async () => {
      const p = await h.createProject('outgoing');
      const path = `/v1/projects/${p.id}`;
      expect((await h.call('GET', path, { key: p.key })).body.data.config.event_validation).toEqual({
        mode: 'off',
        unknown_types: 'allow',
      });
      const upd = await h.call('PUT', path, {
        key: p.key,
        body: { config: { event_validation: { mode: 'warn' } } },
      });
      expect(upd.status).toBe(202);
      expect(upd.body.data.config.event_validation).toEqual({ mode: 'warn', unknown_types: 'allow' });
      const doc = await (await fetch(`${h.gateway.url}/api/openapi.json`)).text();
      expect(doc).toContain('"event_validation"');
    });

    it('refuses a bad value with 400 naming the field', async () => {
      const cases: [unknown, string][] = [
        [{ mode: 'strict' }, 'config.event_validation.mode'],
        [{ unknown_types: 'drop' }, 'config.event_validation.unknown_types'],
        [{ mode: 'warn', extra: 1 }, 'config.event_validation.extra'],
        ['enforce', 'config.event_validation'],
      ];
      for (const [value, field] of cases) {
        const res = await h.call('POST', '/v1/projects', {
          key: ADMIN_KEY,
          body: { name: 'x', type: 'outgoing', config: { event_validation: value } },
        });
        expect(res.status).toBe(400);
        expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(field);
      }
    });
  });

  it('enforce: refuses a mismatch with 400 naming each failing path, in every target mode', async () => {
    const { p, send } = await projectWith({ mode: 'enforce', unknown_types: 'allow' });
    const res = await send('invoice.paid', { id: 'INV-1', amount: -5, lines: [{ sku: 'a' }, {}] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status: false,
      message:
        'data does not match the schema of event type "invoice.paid": data.id must match pattern "^in_"; data.amount must be >= 0; data.lines.1.sku is required',
      data: {
        errors: [
          { field: 'data.id', message: 'must match pattern "^in_"' },
          { field: 'data.amount', message: 'must be >= 0' },
          { field: 'data.lines.1.sku', message: 'is required' },
        ],
      },
    });
    const broadcast = await h.call('POST', `/v1/projects/${p.id}/events/broadcast`, {
      key: p.key,
      body: { event_type: 'invoice.paid', data: { id: 'in_1' } },
    });
    expect(broadcast.status).toBe(400);
    expect(broadcast.body.data.errors).toEqual([{ field: 'data.amount', message: 'is required' }]);
    const fanout = await h.call('POST', `/v1/projects/${p.id}/events/fanout`, {
      key: p.key,
      body: { owner_id: 'own', event_type: 'invoice.paid', data: [] },
    });
    expect(fanout.body.data.errors).toEqual([{ field: 'data', message: 'must be object' }]);

    const ok = await send('invoice.paid', { id: 'in_1', amount: 5 });
    expect(ok.status).toBe(201);
    expect(ok.body.data.validation_errors).toEqual([]);
    // unknown types are allowed here
    expect((await send('invoice.voided', { anything: true })).status).toBe(201);
  });

  it('warn: accepts a mismatch, answering and publishing its violations', async () => {
    const { send } = await projectWith({ mode: 'warn', unknown_types: 'warn' });
    const res = await send('invoice.paid', { id: 'in_1' });
    expect(res.status).toBe(201);
    const violations = [{ field: 'data.amount', message: 'is required' }];
    expect(res.body.data.validation_errors).toEqual(violations);
    const m = await waitFor('event message', () => events.find((e) => e.event_id === res.body.data.uid));
    expect(m.validation_errors).toEqual(violations);

    const unknown = await send('invoice.voided', 1);
    expect(unknown.status).toBe(201);
    expect(unknown.body.data.validation_errors).toEqual([
      { field: 'event_type', message: '"invoice.voided" is not in the project\'s event type catalog' },
    ]);
  });

  it('off: accepts a mismatch and records nothing; refuse: an unknown type is 400', async () => {
    const off = await projectWith({ mode: 'off', unknown_types: 'allow' });
    const res = await off.send('invoice.paid', { id: 7 });
    expect(res.status).toBe(201);
    expect(res.body.data.validation_errors).toEqual([]);
    const m = await waitFor('event message', () => events.find((e) => e.event_id === res.body.data.uid));
    expect(m).not.toHaveProperty('validation_errors');

    const refuse = await projectWith({ mode: 'off', unknown_types: 'refuse' });
    const unknown = await refuse.send('invoice.voided', 1);
    expect(unknown.status).toBe(400);
    expect(unknown.body.data.errors).toEqual([
      { field: 'event_type', message: '"invoice.voided" is not in the project\'s event type catalog' },
    ]);
    // a known type's data is not checked while mode is off
    expect((await refuse.send('invoice.paid', { id: 7 })).status).toBe(201);
  });

  it('checks against a changed or deleted type at once on the replica that changed it', async () => {
    const { p, typeId, send } = await projectWith({ mode: 'enforce', unknown_types: 'allow' });
    expect((await send('invoice.paid', { id: 'in_1', amount: 1 })).status).toBe(201);
    const upd = await h.call('PUT', `/v1/projects/${p.id}/event-types/${typeId}`, {
      key: p.key,
      body: { json_schema: { type: 'object', required: ['currency'] } },
    });
    expect(upd.status).toBe(202);
    const changed = await send('invoice.paid', { id: 'in_1', amount: 1 });
    expect(changed.status).toBe(400);
    expect(changed.body.data.errors).toEqual([{ field: 'data.currency', message: 'is required' }]);
    expect((await send('invoice.paid', { currency: 'EUR' })).status).toBe(201);
    // deleted: an unknown type again (allowed here), so anything goes
    expect(
      (await h.call('DELETE', `/v1/projects/${p.id}/event-types/${typeId}`, { key: p.key })).status,
    ).toBe(200);
    expect((await send('invoice.paid', { id: 7 })).status).toBe(201);
  });

  it('shows the violations recorded on a stored event', async () => {
    const p = await h.createProject('outgoing');
    const violations = [{ field: 'data.amount', message: 'must be >= 0' }];
    const doc = await makeEvent(h.store, asProjectId(p.id), {
      event_type: 'invoice.paid',
      validation_errors: violations,
    });
    const res = await h.call('GET', `/v1/projects/${p.id}/events/${doc._id}`, { key: p.key });
    expect(res.status).toBe(200);
    expect(res.body.data.validation_errors).toEqual(violations);
  });

  describe('hostile schemas', () => {
    it('refuses a huge enum and deep nesting when the type is created, naming where', async () => {
      const p = await h.createProject('outgoing');
      const create = (json_schema: unknown) =>
        h.call('POST', `/v1/projects/${p.id}/event-types`, {
          key: p.key,
          body: { name: 'big', json_schema },
        });
      const huge = await create({
        properties: { plan: { enum: Array.from({ length: 5000 }, (_, i) => i) } },
      });
      expect(huge.status).toBe(400);
      expect(huge.body.data.errors).toEqual([
        { field: 'json_schema.properties.plan.enum', message: 'has 5000 values; at most 1000 are allowed' },
      ]);
      let deep: Record<string, unknown> = { type: 'string' };
      for (let i = 0; i < 40; i++) deep = { type: 'object', properties: { a: deep } };
      const nested = await create(deep);
      expect(nested.status).toBe(400);
      expect(nested.body.data.errors[0].message).toBe('nests deeper than 32 levels');
    });

    it('checks a catastrophic pattern in linear time (RE2): a long payload is refused at once', async () => {
      const p = await h.createProject('outgoing', {
        event_validation: { mode: 'enforce', unknown_types: 'allow' },
      });
      const type = await h.call('POST', `/v1/projects/${p.id}/event-types`, {
        key: p.key,
        body: {
          name: 'evil',
          json_schema: { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } },
        },
      });
      expect(type.status).toBe(201);
      const started = Date.now();
      const res = await h.call('POST', `/v1/projects/${p.id}/events/broadcast`, {
        key: p.key,
        body: { event_type: 'evil', data: { s: `${'a'.repeat(100_000)}!` } },
      });
      expect(res.status).toBe(400);
      expect(res.body.data.errors).toEqual([{ field: 'data.s', message: 'must match pattern "^(a+)+$"' }]);
      // The verdict itself shows the check ended within its ~100 ms budget (a backtracking engine
      // would have been stopped: "could not be checked"); the wall clock only tells an answer from
      // a check running for hours, with room for a busy host.
      expect(Date.now() - started).toBeLessThan(10_000);
    });

    it('stops a costly check at its time budget (400) while another project is answered at once', async () => {
      const { p, send } = await projectWith({ mode: 'enforce', unknown_types: 'allow' });
      const type = await h.call('POST', `/v1/projects/${p.id}/event-types`, {
        key: p.key,
        body: { name: 'tree', json_schema: exponentialSchema },
      });
      expect(type.status).toBe(201);
      let payload: unknown = {};
      for (let i = 0; i < 40; i++) payload = { x: payload };
      const other = await projectWith({ mode: 'enforce', unknown_types: 'allow' });
      await other.send('invoice.paid', { id: 'in_0', amount: 0 }); // its type is read and compiled

      const started = Date.now();
      const [hostile, bystander] = await Promise.all([
        send('tree', payload),
        other
          .send('invoice.paid', { id: 'in_1', amount: 1 })
          .then((r) => ({ ...r, ms: Date.now() - started })),
      ]);
      const hostileMs = Date.now() - started;
      expect(hostile.status).toBe(400);
      expect(hostile.body.data.errors).toEqual([
        { field: 'data', message: 'could not be checked within 50 ms: the schema is too costly for it' },
      ]);
      // Unbounded, this check runs for hours (and the other project waits as long behind it): the
      // bounds tell that apart with room for a busy host, where the bystander's 201 alone may take
      // up to the 2 s Kafka publish timeout.
      expect(hostileMs).toBeLessThan(10_000);
      expect(bystander.status).toBe(201);
      expect(bystander.ms).toBeLessThan(10_000);
    });
  });
});
