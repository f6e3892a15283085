import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ValidationError, type FieldError } from '@hookrail/domain';
import { checkDataSchema, checkExample } from '@hookrail/event-schemas';
import { declaredTypes, parseDocument } from './import-document';

const fixture = (name: string) => readFileSync(join(__dirname, 'testdata', name), 'utf8');
const typesOf = (spec: unknown) => declaredTypes(parseDocument(spec));

function errorsOf(fn: () => unknown): FieldError[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return err.details?.errors ?? [];
    throw err;
  }
  throw new Error('expected a ValidationError');
}

describe('OpenAPI webhooks', () => {
  const types = typesOf(fixture('payments.openapi.yaml'));
  const byName = new Map(types.map((t) => [t.name, t]));

  it('declares one type per webhook, of webhooks and x-webhooks, in document order', () => {
    expect(types.map((t) => t.name)).toEqual([
      'invoice.paid',
      'invoice.payment_failed',
      'customer.created',
      'customer.deleted',
      'payout.sent',
    ]);
    expect(byName.get('invoice.paid')).toMatchObject({
      description: 'An invoice was paid in full; `data` is the invoice.',
      category: 'invoices',
      deprecated: false,
    });
    expect(byName.get('customer.created')).toMatchObject({
      description: 'Customer created',
      example: undefined,
    });
    expect(byName.get('customer.deleted')?.deprecated).toBe(true);
    expect(byName.get('payout.sent')?.at).toBe('spec.x-webhooks["payout.sent"]');
  });

  it('makes each schema stand alone: component references are copied into $defs', () => {
    const paid = byName.get('invoice.paid')!;
    expect(paid.schema).toEqual({
      $ref: '#/$defs/Invoice',
      $defs: expect.objectContaining({
        Invoice: expect.objectContaining({ type: 'object' }),
        CustomerId: { type: 'string', pattern: '^cus_[A-Za-z0-9]+$' },
        Currency: expect.objectContaining({ pattern: '^[a-z]{3}$' }),
        InvoiceLine: expect.objectContaining({ required: ['amount'] }),
      }),
    });
    expect(JSON.stringify(paid.schema)).not.toContain('#/components');
    expect(paid.schemaAt).toBe(
      'spec.webhooks["invoice.paid"].post.requestBody.content["application/json"].schema',
    );
    // every schema and example of the document passes the checks a created type gets
    for (const t of types) {
      const json = t.schema === null ? null : checkDataSchema(t.schema, t.schemaAt);
      if (t.example !== undefined) checkExample(t.example, json, t.exampleAt);
    }
  });

  it('takes the example from example, the first of examples, or the schema', () => {
    expect(byName.get('invoice.paid')?.example).toMatchObject({ id: 'in_1NqW2b', amount_paid: 4200 });
    expect(byName.get('invoice.payment_failed')).toMatchObject({
      example: expect.objectContaining({
        failure: { code: 'card_declined', next_attempt_at: expect.any(String) },
      }),
      exampleAt: expect.stringContaining('.examples.declined.value'),
    });
    expect(byName.get('payout.sent')?.example).toEqual({
      id: 'po_77Hq',
      amount: 125000,
      currency: 'eur',
      arrival_date: '2026-11-26',
    });
  });

  it('reads JSON text and objects as well as YAML', () => {
    const doc = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      webhooks: { 'a.b': { post: { summary: 'AB' } } },
    };
    expect(typesOf(JSON.stringify(doc))).toEqual(typesOf(doc));
    expect(typesOf(doc)[0]).toMatchObject({ name: 'a.b', description: 'AB', schema: null });
  });

  it('rewrites OpenAPI 3.0 schemas (x-webhooks) to draft 2020-12', () => {
    const [t] = typesOf({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {},
      'x-webhooks': {
        'refund.created': {
          post: {
            requestBody: {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: {
                      note: { type: 'string', nullable: true },
                      amount: { type: 'number', minimum: 0, exclusiveMinimum: true },
                    },
                  },
                },
              },
            },
          },
        },
      },
    });
    expect(t.schema).toEqual({
      type: 'object',
      properties: { note: { type: ['string', 'null'] }, amount: { type: 'number', exclusiveMinimum: 0 } },
    });
  });
});

describe('AsyncAPI', () => {
  it('3.x: the messages of send operations', () => {
    const types = typesOf(fixture('orders.asyncapi.yaml'));
    expect(types.map((t) => t.name)).toEqual(['order.placed', 'order.shipped']);
    expect(types[0]).toMatchObject({
      description: 'A customer placed an order.',
      category: 'orders',
      example: expect.objectContaining({ order_id: 'ord_1001' }),
    });
    expect(types[0].schema).toMatchObject({ $ref: '#/$defs/Order', $defs: { Order: {}, Money: {} } });
  });

  it('2.x: the messages of subscribe operations, oneOf included', () => {
    const types = typesOf(`
asyncapi: 2.6.0
info: { title: Users, version: '1' }
channels:
  user/signedup:
    subscribe:
      message:
        oneOf:
          - $ref: '#/components/messages/UserSignedUp'
          - name: user.deleted
            payload:
              type: object
              properties:
                ids: { type: array, items: [{ type: string }], additionalItems: false }
  user/commands:
    publish:
      message:
        name: user.delete
components:
  messages:
    UserSignedUp:
      messageId: user.signed_up
      description: A user signed up.
      tags: [{ name: users }]
      payload:
        type: object
        required: [email]
        properties:
          email: { type: string, format: email }
      examples:
        - payload: { email: ada@example.com }
`);
    expect(types.map((t) => t.name)).toEqual(['user.signed_up', 'user.deleted']);
    expect(types[0]).toMatchObject({
      category: 'users',
      description: 'A user signed up.',
      example: { email: 'ada@example.com' },
    });
    expect(types[1].schema).toEqual({
      type: 'object',
      properties: { ids: { type: 'array', prefixItems: [{ type: 'string' }], items: false } },
    });
  });

  it('refuses a payload that is not JSON Schema', () => {
    expect(
      errorsOf(() =>
        typesOf({
          asyncapi: '2.6.0',
          channels: {
            c: {
              subscribe: {
                message: {
                  name: 'x.y',
                  schemaFormat: 'application/vnd.apache.avro;version=1.9.0',
                  payload: {},
                },
              },
            },
          },
        }),
      ),
    ).toEqual([
      {
        field: 'spec.channels.c.subscribe.message.schemaFormat',
        message: expect.stringContaining('only JSON Schema payloads can be imported'),
      },
    ]);
  });
});

describe('documents that cannot be imported', () => {
  const cases: [string, unknown, FieldError][] = [
    ['an empty string', '  ', { field: 'spec', message: 'is empty' }],
    [
      'broken JSON',
      '{"openapi": ',
      { field: 'spec', message: expect.stringMatching(/^is not valid JSON: /) },
    ],
    [
      'broken YAML',
      'openapi: [3.1',
      { field: 'spec', message: expect.stringMatching(/^is not valid YAML: /) },
    ],
    ['a scalar', 'just text', { field: 'spec', message: expect.stringContaining('not an object') }],
    [
      'neither OpenAPI nor AsyncAPI',
      { info: { title: 'x' }, paths: {} },
      { field: 'spec', message: expect.stringContaining('no openapi or asyncapi version') },
    ],
    [
      'Swagger 2.0',
      { swagger: '2.0', paths: {} },
      { field: 'spec.swagger', message: expect.stringContaining('convert the document to OpenAPI 3.1') },
    ],
    [
      'OpenAPI 4',
      { openapi: '4.0.0' },
      { field: 'spec.openapi', message: expect.stringContaining('not a supported version') },
    ],
    [
      'OpenAPI without webhooks',
      { openapi: '3.1.0', paths: { '/x': {} } },
      { field: 'spec', message: expect.stringContaining('declares no webhooks') },
    ],
    [
      'a webhook without an operation',
      { openapi: '3.1.0', webhooks: { 'a.b': { summary: 'x' } } },
      { field: 'spec.webhooks["a.b"]', message: 'has no operation (post, put, …)' },
    ],
    [
      'a remote reference',
      {
        openapi: '3.1.0',
        webhooks: {
          'a.b': {
            post: {
              requestBody: {
                content: { 'application/json': { schema: { $ref: 'https://evil.example/s.json' } } },
              },
            },
          },
        },
      },
      {
        field: 'spec.webhooks["a.b"].post.requestBody.content["application/json"].schema',
        message: expect.stringContaining('points outside the document'),
      },
    ],
    [
      'a reference that does not resolve',
      { openapi: '3.1.0', webhooks: { 'a.b': { $ref: '#/components/pathItems/Nope' } } },
      { field: 'spec.webhooks["a.b"]', message: expect.stringContaining('does not resolve in the document') },
    ],
    [
      'a reference cycle',
      {
        openapi: '3.1.0',
        webhooks: { 'a.b': { $ref: '#/components/pathItems/A' } },
        components: {
          pathItems: { A: { $ref: '#/components/pathItems/B' }, B: { $ref: '#/components/pathItems/A' } },
        },
      },
      { field: 'spec.webhooks["a.b"]', message: expect.stringContaining('a cycle?') },
    ],
    [
      'AsyncAPI 3 that sends nothing',
      { asyncapi: '3.0.0', operations: { r: { action: 'receive', channel: {} } } },
      { field: 'spec', message: expect.stringContaining('no send operation') },
    ],
    [
      'a YAML alias bomb',
      `a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n`,
      { field: 'spec', message: expect.stringMatching(/^is not valid YAML: /) },
    ],
  ];

  it.each(cases)('%s: 400 naming where', (_what, spec, expected) => {
    expect(errorsOf(() => typesOf(spec))).toEqual([expected]);
  });

  it('refuses a document over the size limit', () => {
    expect(errorsOf(() => parseDocument(`openapi: 3.1.0\nx: '${'a'.repeat(2 * 1024 * 1024)}'`))).toEqual([
      { field: 'spec', message: expect.stringContaining('is larger than') },
    ]);
  });

  it('refuses the same name declared differently in two places', () => {
    expect(
      errorsOf(() =>
        typesOf({
          asyncapi: '2.6.0',
          channels: {
            a: { subscribe: { message: { name: 'x.y', summary: 'one' } } },
            b: { subscribe: { message: { name: 'x.y', summary: 'two' } } },
          },
        }),
      ),
    ).toEqual([
      { field: 'spec.channels.b.subscribe.message', message: expect.stringContaining('differently from') },
    ]);
  });
});
