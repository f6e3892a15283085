import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GatewayHarness } from '../testing/gateway-harness';

jest.setTimeout(60_000);

const fixture = (name: string) => readFileSync(join(__dirname, 'testdata', name), 'utf8');

const invoiceSchema = {
  type: 'object',
  required: ['id', 'amount'],
  properties: { id: { type: 'string', pattern: '^in_' }, amount: { type: 'integer', minimum: 0 } },
};

describe('event types API (Convoy: create, list, update, deprecate, import; Hookrail: get, delete)', () => {
  const h = new GatewayHarness();
  let p: { id: string; key: string };
  beforeAll(async () => {
    await h.start();
    p = await h.createProject('outgoing');
  });
  afterAll(() => h.stop());

  const base = () => `/v1/projects/${p.id}/event-types`;
  const call = (method: string, path: string, body?: unknown) =>
    h.call(method, `${base()}${path}`, { key: p.key, body });
  const create = (body: Record<string, unknown>) => call('POST', '', body);

  describe('create, read, update, deprecate, delete', () => {
    it('creates a type with a schema and an example (201), read back the same', async () => {
      const res = await create({
        name: 'invoice.paid',
        description: 'An invoice was paid',
        category: 'billing',
        json_schema: invoiceSchema,
        example: { id: 'in_1', amount: 4200 },
      });
      expect(res.status).toBe(201);
      expect(res.body.message).toBe('Event type created successfully');
      const t = res.body.data;
      expect(t).toMatchObject({
        name: 'invoice.paid',
        description: 'An invoice was paid',
        category: 'billing',
        json_schema: invoiceSchema,
        example: { id: 'in_1', amount: 4200 },
        deprecated: false,
        deprecated_at: null,
        project_id: p.id,
        deleted_at: null,
      });
      const read = await call('GET', `/${t.uid}`);
      expect(read.status).toBe(200);
      expect(read.body.data).toEqual(t);
    });

    it('creates a type with the name only: empty description and category, no schema, no example', async () => {
      const res = await create({ name: 'customer.created', description: null, category: '' });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        description: '',
        category: '',
        json_schema: null,
        example: null,
      });
    });

    it('lists the catalog in name order (one unpaginated array, as Convoy answers)', async () => {
      const res = await call('GET', '');
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Event types fetched successfully');
      expect(res.body.data.map((t: { name: string }) => t.name)).toEqual([
        'customer.created',
        'invoice.paid',
      ]);
    });

    it('updates the fields sent (202), keeps the others, and refuses a rename', async () => {
      const t = (await create({ name: 'refund.created', description: 'd', category: 'billing' })).body.data;
      const upd = await call('PUT', `/${t.uid}`, { description: 'A refund was created', category: '' });
      expect(upd.status).toBe(202);
      // "" is "not set" (Convoy's clients send every field): the category stays
      expect(upd.body.data).toMatchObject({ description: 'A refund was created', category: 'billing' });
      // sending the type back as it was read is accepted (the name unchanged)
      const echo = await call('PUT', `/${t.uid}`, { ...upd.body.data, json_schema: { type: 'object' } });
      expect(echo.status).toBe(202);
      expect(echo.body.data.json_schema).toEqual({ type: 'object' });
      // {} removes the schema
      expect((await call('PUT', `/${t.uid}`, { json_schema: {} })).body.data.json_schema).toBeNull();
      const rename = await call('PUT', `/${t.uid}`, { name: 'refund.issued' });
      expect(rename.status).toBe(400);
      expect(rename.body.data.errors).toEqual([
        { field: 'name', message: expect.stringContaining('cannot be changed') },
      ]);
    });

    it('checks a new schema against the stored example, and a new example against the schema', async () => {
      const t = (await create({ name: 'payout.sent', example: { amount: 'ten' } })).body.data;
      const schema = await call('PUT', `/${t.uid}`, { json_schema: invoiceSchema });
      expect(schema.status).toBe(400);
      expect(schema.body.data.errors).toEqual(
        expect.arrayContaining([
          { field: 'example.amount', message: expect.stringContaining('stored example does not match') },
          { field: 'example.id', message: expect.stringContaining('is required') },
        ]),
      );
      const both = await call('PUT', `/${t.uid}`, {
        json_schema: invoiceSchema,
        example: { id: 'in_9', amount: 10 },
      });
      expect(both.status).toBe(202);
      const bad = await call('PUT', `/${t.uid}`, { example: { id: 'x', amount: 1 } });
      expect(bad.status).toBe(400);
      expect(bad.body.data.errors).toEqual([{ field: 'example.id', message: 'must match pattern "^in_"' }]);
    });

    it('deprecates (200, Convoy) once: deprecating again keeps the date; PUT deprecated false undoes it', async () => {
      const t = (await create({ name: 'customer.deleted' })).body.data;
      const dep = await call('POST', `/${t.uid}/deprecate`);
      expect(dep.status).toBe(200);
      expect(dep.body.message).toBe('Event type deprecated successfully');
      expect(dep.body.data).toMatchObject({ deprecated: true, deprecated_at: expect.any(String) });
      const again = await call('POST', `/${t.uid}/deprecate`);
      expect(again.body.data.deprecated_at).toBe(dep.body.data.deprecated_at);
      const undo = await call('PUT', `/${t.uid}`, { deprecated: false });
      expect(undo.body.data).toMatchObject({ deprecated: false, deprecated_at: null });
    });

    it('deletes a type (200); the name can then be created again', async () => {
      const t = (await create({ name: 'temp.type' })).body.data;
      const del = await call('DELETE', `/${t.uid}`);
      expect(del.status).toBe(200);
      expect(del.body.data).toBeNull();
      expect((await call('GET', `/${t.uid}`)).status).toBe(404);
      expect((await call('DELETE', `/${t.uid}`)).status).toBe(404);
      expect((await create({ name: 'temp.type' })).status).toBe(201);
    });
  });

  describe('bad input: a 400 naming the field, 404 and 409, never a 500', () => {
    /** `field`: the name, or a matcher. */
    const refused = async (body: Record<string, unknown>, field: unknown, message: string | RegExp) => {
      const res = await create(body);
      expect(res.status).toBe(400);
      expect(res.body.data.errors).toContainEqual({
        field,
        message:
          typeof message === 'string' ? expect.stringContaining(message) : expect.stringMatching(message),
      });
      return res;
    };

    it('refuses a duplicate name with 409', async () => {
      await create({ name: 'dup.type' });
      const res = await create({ name: 'dup.type', description: 'again' });
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('an event type named "dup.type" already exists in this project');
    });

    it('refuses two creates of one name racing: one 201, the other 409', async () => {
      const answers = await Promise.all([create({ name: 'race.type' }), create({ name: 'race.type' })]);
      expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    });

    it('refuses patterns and malformed names', async () => {
      await refused({ name: 'invoice.*' }, 'name', 'is a pattern');
      await refused({ name: 'invoice paid' }, 'name', 'is not an event type name');
      await refused({}, 'name', 'is required');
    });

    it('refuses a schema that is not JSON Schema, naming the keyword', async () => {
      await refused({ name: 'a.b', json_schema: { type: 'strng' } }, 'json_schema.type', 'must be');
      await refused(
        { name: 'a.b', json_schema: { properties: { amount: { minimum: '0' } } } },
        'json_schema.properties.amount.minimum',
        'must be number',
      );
      await refused({ name: 'a.b', json_schema: 'object' }, 'json_schema', 'must be object');
      await refused(
        { name: 'a.b', json_schema: { $schema: 'http://json-schema.org/draft-04/schema#' } },
        'json_schema.$schema',
        'draft 2020-12',
      );
    });

    it('refuses remote references, unresolvable ones and RE2-incompatible patterns', async () => {
      await refused(
        { name: 'a.b', json_schema: { properties: { x: { $ref: 'http://169.254.169.254/latest' } } } },
        'json_schema.properties.x.$ref',
        'only references inside the schema',
      );
      await refused(
        { name: 'a.b', json_schema: { $ref: '#/$defs/none' } },
        'json_schema',
        'does not resolve',
      );
      await refused(
        { name: 'a.b', json_schema: { pattern: '(?<=a)b' } },
        'json_schema',
        'cannot be compiled',
      );
    });

    it('bounds a hostile schema: oversize, deep, huge enum; a catastrophic pattern cannot stall', async () => {
      await refused(
        { name: 'a.b', json_schema: { enum: Array.from({ length: 10_000 }, (_, i) => `v${i}`) } },
        'json_schema',
        /at most 65536 bytes/,
      );
      let deep: Record<string, unknown> = {};
      for (let i = 0; i < 50; i++) deep = { not: deep };
      await refused(
        { name: 'a.b', json_schema: deep },
        expect.stringMatching(/^json_schema\.not\./),
        'deeper than 32',
      );
      const started = Date.now();
      const res = await create({
        name: 'redos.type',
        json_schema: { type: 'string', pattern: '^(a|aa)+$' },
        example: `${'a'.repeat(30_000)}b`,
      });
      expect(res.status).toBe(400);
      expect(res.body.data.errors).toEqual([{ field: 'example', message: 'must match pattern "^(a|aa)+$"' }]);
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it('refuses an example that does not match the schema, naming each path', async () => {
      const res = await refused(
        { name: 'a.b', json_schema: invoiceSchema, example: { id: 7, amount: -1 } },
        'example.id',
        'must be string',
      );
      expect(res.body.data.errors).toContainEqual({ field: 'example.amount', message: 'must be >= 0' });
    });

    it('answers 404 for an unknown id on every id route', async () => {
      const id = '01JZZZZZZZZZZZZZZZZZZZZZZZ';
      expect((await call('GET', `/${id}`)).status).toBe(404);
      expect((await call('PUT', `/${id}`, { description: 'x' })).status).toBe(404);
      expect((await call('POST', `/${id}/deprecate`)).status).toBe(404);
      expect((await call('DELETE', `/${id}`)).status).toBe(404);
    });
  });

  describe('import', () => {
    let q: { id: string; key: string };
    beforeAll(async () => {
      q = await h.createProject('outgoing');
    });
    const importCall = (body: Record<string, unknown>, project = q) =>
      h.call('POST', `/v1/projects/${project.id}/event-types/import`, { key: project.key, body });
    const list = async () =>
      (await h.call('GET', `/v1/projects/${q.id}/event-types`, { key: q.key })).body.data as {
        uid: string;
        name: string;
        [k: string]: unknown;
      }[];

    it('dry run of an OpenAPI 3.1 document: the plan, nothing written', async () => {
      const res = await importCall({ spec: fixture('payments.openapi.yaml'), dry_run: true });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        dry_run: true,
        created: [
          { name: 'invoice.paid' },
          { name: 'invoice.payment_failed' },
          { name: 'customer.created' },
          { name: 'customer.deleted' },
          { name: 'payout.sent' },
        ],
        changed: [],
        removed: [],
        unchanged: [],
      });
      expect(await list()).toEqual([]);
    });

    it('imports it (200, Convoy): every webhook a type with its schema, example, category, deprecation', async () => {
      const res = await importCall({ spec: fixture('payments.openapi.yaml') });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Event types imported successfully');
      const byName = new Map(res.body.data.map((t: { name: string }) => [t.name, t]));
      expect([...byName.keys()]).toEqual([
        'invoice.paid',
        'invoice.payment_failed',
        'customer.created',
        'customer.deleted',
        'payout.sent',
      ]);
      expect(byName.get('invoice.paid')).toMatchObject({
        category: 'invoices',
        description: 'An invoice was paid in full; `data` is the invoice.',
        json_schema: {
          $ref: '#/$defs/Invoice',
          $defs: expect.objectContaining({ Invoice: expect.any(Object) }),
        },
        example: expect.objectContaining({ id: 'in_1NqW2b' }),
        deprecated: false,
      });
      expect(byName.get('customer.deleted')).toMatchObject({
        deprecated: true,
        deprecated_at: expect.any(String),
      });
      expect(byName.get('payout.sent')).toMatchObject({ category: 'payouts', example: { id: 'po_77Hq' } });
      expect((await list()).map((t) => t.name)).toEqual([
        'customer.created',
        'customer.deleted',
        'invoice.paid',
        'invoice.payment_failed',
        'payout.sent',
      ]);
    });

    it('importing the same document again changes nothing', async () => {
      const before = await list();
      const plan = await importCall({ spec: fixture('payments.openapi.yaml'), dry_run: true });
      expect(plan.body.data).toMatchObject({ created: [], changed: [], removed: [] });
      expect(plan.body.data.unchanged).toHaveLength(5);
      await importCall({ spec: fixture('payments.openapi.yaml') });
      expect(await list()).toEqual(before);
    });

    it('reports what a changed document would create, change and remove (replace_all), then does it', async () => {
      const before = new Map((await list()).map((t) => [t.name, t]));
      await h.call('POST', `/v1/projects/${q.id}/event-types`, { key: q.key, body: { name: 'legacy.ping' } });
      const doc = fixture('payments.openapi.yaml')
        .replace('An invoice was paid in full; `data` is the invoice.', 'An invoice was settled.')
        .replace(/ {2}payout\.sent:[\s\S]*?(?=components:)/, '')
        .replace(
          'x-webhooks:\n',
          'x-webhooks:\n  dispute.opened:\n    post:\n      summary: A dispute was opened\n',
        );
      const plan = await importCall({ spec: doc, dry_run: true, replace_all: true });
      expect(plan.status).toBe(200);
      expect(plan.body.data).toEqual({
        dry_run: true,
        created: [{ name: 'dispute.opened' }],
        changed: [{ uid: before.get('invoice.paid')!.uid, name: 'invoice.paid', fields: ['description'] }],
        removed: expect.arrayContaining([
          { uid: before.get('payout.sent')!.uid, name: 'payout.sent' },
          { uid: expect.any(String), name: 'legacy.ping' },
        ]),
        unchanged: expect.arrayContaining([
          { uid: before.get('customer.created')!.uid, name: 'customer.created' },
        ]),
      });
      expect(plan.body.data.removed).toHaveLength(2);
      expect(plan.body.data.unchanged).toHaveLength(3);
      // without replace_all nothing is removed
      const keep = await importCall({ spec: doc, dry_run: true });
      expect(keep.body.data.removed).toEqual([]);

      const done = await importCall({ spec: doc, replace_all: true });
      expect(done.status).toBe(200);
      const after = await list();
      expect(after.map((t) => t.name)).toEqual([
        'customer.created',
        'customer.deleted',
        'dispute.opened',
        'invoice.paid',
        'invoice.payment_failed',
      ]);
      // updated in place: same uid
      const paid = after.find((t) => t.name === 'invoice.paid')!;
      expect(paid).toMatchObject({
        uid: before.get('invoice.paid')!.uid,
        description: 'An invoice was settled.',
      });
    });

    it('never un-deprecates: a type deprecated through the API stays deprecated after an import', async () => {
      const customer = async () => (await list()).find((t) => t.name === 'customer.created')!;
      await h.call('POST', `/v1/projects/${q.id}/event-types/${(await customer()).uid}/deprecate`, {
        key: q.key,
      });
      const plan = await importCall({ spec: fixture('payments.openapi.yaml'), dry_run: true });
      expect(plan.body.data.changed.map((c: { name: string }) => c.name)).not.toContain('customer.created');
      await importCall({ spec: fixture('payments.openapi.yaml') });
      expect((await customer()).deprecated).toBe(true);
    });

    it('imports an AsyncAPI 3 document (the messages of its send operations)', async () => {
      const r = await h.createProject('outgoing');
      const res = await importCall({ spec: fixture('orders.asyncapi.yaml') }, r);
      expect(res.status).toBe(200);
      expect(res.body.data.map((t: { name: string }) => t.name)).toEqual(['order.placed', 'order.shipped']);
      expect(res.body.data[0]).toMatchObject({
        category: 'orders',
        example: expect.objectContaining({ order_id: 'ord_1001' }),
        json_schema: expect.objectContaining({
          $defs: expect.objectContaining({ Money: expect.any(Object) }),
        }),
      });
    });

    it('accepts the document as a JSON object as well as text', async () => {
      const r = await h.createProject('outgoing');
      const spec = {
        openapi: '3.1.0',
        info: { title: 'x', version: '1' },
        webhooks: { 'user.created': { post: { summary: 'A user was created', tags: ['users'] } } },
      };
      const res = await importCall({ spec }, r);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([
        expect.objectContaining({
          name: 'user.created',
          description: 'A user was created',
          category: 'users',
        }),
      ]);
    });

    it('refuses a document that cannot be imported with a 400 naming where, and writes nothing', async () => {
      const r = await h.createProject('outgoing');
      const cases: [unknown, string, string][] = [
        ['title: not an api', 'spec', 'no openapi or asyncapi version'],
        ['{"openapi": "3.1.0",', 'spec', 'is not valid JSON'],
        [{ swagger: '2.0' }, 'spec.swagger', 'OpenAPI 3.1'],
        [{ openapi: '3.1.0', paths: {} }, 'spec', 'declares no webhooks'],
        [42, 'spec', 'must be string,object'],
        [
          { openapi: '3.1.0', webhooks: { 'invoice.*': { post: {} } } },
          'spec.webhooks["invoice.*"]',
          'is a pattern',
        ],
        [
          fixture('payments.openapi.yaml').replace("pattern: '^[a-z]{3}$'", "pattern: '(?=x)'"),
          'spec.webhooks["invoice.paid"].post.requestBody.content["application/json"].schema',
          'cannot be compiled',
        ],
        [
          fixture('payments.openapi.yaml').replace('amount_paid: 4200', 'amount_paid: -5'),
          'spec.webhooks["invoice.paid"].post.requestBody.content["application/json"].example.amount_paid',
          'must be >= 0',
        ],
      ];
      for (const [spec, field, message] of cases) {
        const res = await importCall({ spec }, r);
        expect({ spec, status: res.status }).toEqual({ spec, status: 400 });
        expect(res.body.data.errors).toContainEqual({ field, message: expect.stringContaining(message) });
      }
      expect((await h.call('GET', `/v1/projects/${r.id}/event-types`, { key: r.key })).body.data).toEqual([]);
    });
  });

  it('keeps each project to its own catalog', async () => {
    const other = await h.createProject('outgoing');
    const mine = (await create({ name: 'private.type' })).body.data;
    const res = await h.call('GET', `/v1/projects/${other.id}/event-types/${mine.uid}`, { key: other.key });
    expect(res.status).toBe(404);
    // the same name is free in another project
    const theirs = await h.call('POST', `/v1/projects/${other.id}/event-types`, {
      key: other.key,
      body: { name: 'private.type' },
    });
    expect(theirs.status).toBe(201);
  });
});
