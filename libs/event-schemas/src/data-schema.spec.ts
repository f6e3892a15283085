import { ValidationError, type FieldError } from '@hookrail/domain';
import { checkDataSchema, checkExample } from './data-schema';

/** The field errors a check throws (fails the test when it does not throw a ValidationError). */
function errorsOf(fn: () => unknown): FieldError[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return err.details?.errors ?? [];
    throw err;
  }
  throw new Error('expected a ValidationError');
}

const invoice = {
  type: 'object',
  required: ['id', 'amount'],
  properties: {
    id: { type: 'string', pattern: '^in_[a-z0-9]+$' },
    amount: { type: 'integer', minimum: 0 },
    lines: { type: 'array', items: { $ref: '#/$defs/line' } },
  },
  $defs: { line: { type: 'object', required: ['sku'], properties: { sku: { type: 'string' } } } },
};

describe('checkDataSchema', () => {
  it('accepts a draft 2020-12 schema with local references and returns its text', () => {
    expect(JSON.parse(checkDataSchema(invoice, 'json_schema')!)).toEqual(invoice);
    const tagged = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' };
    expect(checkDataSchema(tagged, 'json_schema')).toBe(JSON.stringify(tagged));
  });

  it('stores {} as no schema', () => {
    expect(checkDataSchema({}, 'json_schema')).toBeNull();
  });

  it('names the field of a schema that is not valid JSON Schema', () => {
    expect(errorsOf(() => checkDataSchema({ type: 'strng' }, 'json_schema'))).toContainEqual({
      field: 'json_schema.type',
      message: expect.stringContaining('must be'),
    });
    expect(
      errorsOf(() => checkDataSchema({ properties: { amount: { minimum: 'ten' } } }, 'json_schema')),
    ).toContainEqual({ field: 'json_schema.properties.amount.minimum', message: 'must be number' });
    expect(errorsOf(() => checkDataSchema({ required: 'id' }, 'json_schema'))[0].field).toBe(
      'json_schema.required',
    );
  });

  it('refuses what is not a schema object', () => {
    for (const value of [true, 'object', ['type'], 3])
      expect(errorsOf(() => checkDataSchema(value, 'json_schema'))).toEqual([
        { field: 'json_schema', message: 'must be a JSON Schema object (draft 2020-12)' },
      ]);
  });

  it('refuses another draft named by $schema', () => {
    expect(
      errorsOf(() =>
        checkDataSchema(
          { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' },
          'json_schema',
        ),
      ),
    ).toEqual([
      {
        field: 'json_schema.$schema',
        message: expect.stringContaining('only JSON Schema draft 2020-12 is supported'),
      },
    ]);
  });

  it('refuses references that leave the schema, naming where they are', () => {
    const remote = { properties: { a: { $ref: 'https://example.com/schemas/a.json' } } };
    expect(errorsOf(() => checkDataSchema(remote, 'json_schema'))).toEqual([
      {
        field: 'json_schema.properties.a.$ref',
        message: expect.stringContaining('only references inside the schema'),
      },
    ]);
    expect(errorsOf(() => checkDataSchema({ $ref: 'other.json#/x' }, 's'))[0].field).toBe('s.$ref');
    expect(errorsOf(() => checkDataSchema({ $dynamicRef: 'http://x/y' }, 's'))[0].field).toBe(
      's.$dynamicRef',
    );
  });

  it('refuses a local reference that does not resolve', () => {
    expect(errorsOf(() => checkDataSchema({ $ref: '#/$defs/missing' }, 'json_schema'))).toEqual([
      { field: 'json_schema', message: expect.stringContaining('does not resolve inside the schema') },
    ]);
  });

  it('compiles each schema on its own: the same $id in two schemas does not collide', () => {
    const id = 'https://tenant-a.example/order.json';
    expect(checkDataSchema({ $id: id, type: 'object' }, 'json_schema')).not.toBeNull();
    const other = checkDataSchema({ $id: id, type: 'string' }, 'json_schema');
    expect(checkExample('text', other, 'example')).toBe('"text"');
  });

  it('bounds the size and the nesting', () => {
    const big = { enum: Array.from({ length: 20_000 }, (_, i) => `value-${i}`) };
    expect(errorsOf(() => checkDataSchema(big, 'json_schema'))).toEqual([
      {
        field: 'json_schema',
        message: expect.stringMatching(/^is \d+ bytes; at most 65536 bytes are allowed$/),
      },
    ]);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) deep = { type: 'object', properties: { a: deep } };
    const [error] = errorsOf(() => checkDataSchema(deep, 'json_schema'));
    expect(error.message).toBe('nests deeper than 32 levels');
    expect(error.field).toMatch(/^json_schema\.properties\.a\.properties\.a\./);
  });

  it('refuses an enum longer than the limit, naming where it is', () => {
    const long = { properties: { plan: { enum: Array.from({ length: 1001 }, (_, i) => i) } } };
    expect(errorsOf(() => checkDataSchema(long, 'json_schema'))).toEqual([
      { field: 'json_schema.properties.plan.enum', message: 'has 1001 values; at most 1000 are allowed' },
    ]);
    expect(
      checkDataSchema({ enum: Array.from({ length: 1000 }, (_, i) => i) }, 'json_schema'),
    ).not.toBeNull();
  });

  it('compiles patterns with RE2: backreferences and lookaround are refused, nothing backtracks', () => {
    expect(errorsOf(() => checkDataSchema({ type: 'string', pattern: '(a)\\1' }, 'json_schema'))).toEqual([
      { field: 'json_schema', message: expect.stringContaining('cannot be compiled') },
    ]);
    expect(
      errorsOf(() => checkDataSchema({ patternProperties: { '^(?=x)': {} } }, 'json_schema'))[0].field,
    ).toBe('json_schema');
    // a catastrophic pattern for a backtracking engine runs in linear time on RE2
    const evil = checkDataSchema({ type: 'string', pattern: '^(a+)+$' }, 'json_schema');
    const started = Date.now();
    expect(errorsOf(() => checkExample(`${'a'.repeat(50_000)}!`, evil, 'example'))[0].field).toBe('example');
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('checkExample', () => {
  const schema = checkDataSchema(invoice, 'json_schema');

  it('returns the example text when it matches (or when there is no schema)', () => {
    expect(checkExample({ id: 'in_1', amount: 5 }, schema, 'example')).toBe('{"id":"in_1","amount":5}');
    expect(checkExample([1, 'two', null], null, 'example')).toBe('[1,"two",null]');
  });

  it('names each failing path of the example', () => {
    const errors = errorsOf(() =>
      checkExample({ id: 'INV-1', amount: -1, lines: [{ qty: 1 }] }, schema, 'example'),
    );
    expect(errors).toEqual(
      expect.arrayContaining([
        { field: 'example.id', message: 'must match pattern "^in_[a-z0-9]+$"' },
        { field: 'example.amount', message: 'must be >= 0' },
        { field: 'example.lines.0.sku', message: 'is required' },
      ]),
    );
  });

  it('bounds the size of an example', () => {
    expect(errorsOf(() => checkExample({ blob: 'x'.repeat(70_000) }, null, 'example'))[0]).toEqual({
      field: 'example',
      message: expect.stringContaining('at most 65536 bytes'),
    });
  });
});
