import { checkDataSchema, compileDataSchema } from './data-schema';
import { DATA_VALIDATION_LIMITS, validateData, validationBudgetMs } from './validate-data';

const compiled = (schema: object) =>
  compileDataSchema(checkDataSchema(schema, 'json_schema')!, 'json_schema');

/** Nested `{x: {x: …}}`, `depth` levels. */
function nested(depth: number): unknown {
  let v: unknown = {};
  for (let i = 0; i < depth; i++) v = { x: v };
  return v;
}

describe('validateData', () => {
  it('names each failing path under data', () => {
    const fn = compiled({
      type: 'object',
      required: ['id'],
      properties: {
        id: { type: 'string' },
        lines: { type: 'array', items: { type: 'object', required: ['sku'] } },
        n: { type: 'integer' },
      },
      additionalProperties: false,
    });
    expect(validateData(fn, { id: 'a', n: 1 })).toEqual({ kind: 'valid' });
    const out = validateData(fn, { lines: [{}, { sku: 1 }, {}], n: 'x', extra: 1 });
    expect(out.kind).toBe('invalid');
    expect(out.kind === 'invalid' && [...out.errors].sort((a, b) => a.field.localeCompare(b.field))).toEqual([
      { field: 'data.extra', message: 'is not allowed' },
      { field: 'data.id', message: 'is required' },
      { field: 'data.lines.0.sku', message: 'is required' },
      { field: 'data.lines.2.sku', message: 'is required' },
      { field: 'data.n', message: 'must be integer' },
    ]);
  });

  it('reports at most 20 failing paths and counts the rest', () => {
    const fn = compiled({ type: 'array', items: { type: 'integer' } });
    const out = validateData(
      fn,
      Array.from({ length: 500 }, () => 'x'),
    );
    expect(out.kind).toBe('invalid');
    const errors = out.kind === 'invalid' ? out.errors : [];
    expect(errors).toHaveLength(DATA_VALIDATION_LIMITS.reportedErrors + 1);
    expect(errors[0]).toEqual({ field: 'data.0', message: 'must be integer' });
    expect(errors[20]).toEqual({ field: 'data', message: 'and 480 more failing paths' });
  });

  // Each of these takes seconds unbounded (measured: nested anyOf at depth 20 ~4 s, uniqueItems
  // over 20,000 objects ~8 s, a 1,000-value enum over 1,000,000 items ~10 s).
  it.each([
    [
      'anyOf over $ref, exponential in the payload depth',
      {
        $defs: {
          n: {
            anyOf: [
              { allOf: [{ properties: { x: { $ref: '#/$defs/n' } } }, { required: ['y'] }] },
              { allOf: [{ properties: { x: { $ref: '#/$defs/n' } } }, { required: ['z'] }] },
            ],
          },
        },
        $ref: '#/$defs/n',
      },
      nested(40),
    ],
    [
      'uniqueItems over objects',
      { type: 'array', uniqueItems: true },
      Array.from({ length: 40_000 }, (_, i) => ({ i })),
    ],
    [
      'the largest enum over a long array',
      { type: 'array', items: { enum: Array.from({ length: 1000 }, (_, i) => `v${i}`) } },
      Array.from({ length: 1_000_000 }, () => 'v999'),
    ],
  ])('stops a costly check at the time budget: %s', (_what, schema, data) => {
    const fn = compiled(schema);
    const started = Date.now();
    const out = validateData(fn, data, 'data', 50);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(out).toEqual({
      kind: 'timed_out',
      errors: [
        { field: 'data', message: 'could not be checked within 50 ms: the schema is too costly for it' },
      ],
    });
  });

  // The watchdog is a wall clock: a thread descheduled on a busy machine (or paused) runs out of
  // time without using its CPU. Such a check is run again; one that used its CPU is not.
  describe('a check stopped before it had its CPU', () => {
    /** A validator whose first `slowRuns` calls spin past the budget, then answer at once. */
    function slowAtFirst(slowRuns: number) {
      let calls = 0;
      const fn = Object.assign(
        () => {
          if (calls++ < slowRuns) {
            const until = Date.now() + 200;
            while (Date.now() < until); // stopped by the watchdog at the budget
          }
          return true;
        },
        { errors: null },
      ) as unknown as Parameters<typeof validateData>[0];
      return { fn, calls: () => calls };
    }
    /** A thread CPU clock that advances `msPerRead` at each read: how much CPU the thread had. */
    const cpuAdvancing = (msPerRead: number) => {
      let t = 0;
      return () => (t += msPerRead);
    };

    it('is run again when its thread had less than half its budget of CPU, and then found valid', () => {
      const check = slowAtFirst(2);
      expect(validateData(check.fn, {}, 'data', 50, cpuAdvancing(10))).toEqual({ kind: 'valid' });
      expect(check.calls()).toBe(3);
    });

    it('is run at most starvedRetries times again, then answers timed_out', () => {
      const check = slowAtFirst(10);
      expect(validateData(check.fn, {}, 'data', 50, cpuAdvancing(10)).kind).toBe('timed_out');
      expect(check.calls()).toBe(1 + DATA_VALIDATION_LIMITS.starvedRetries);
    });

    it('is not run again when it had its CPU (too costly, not starved)', () => {
      const check = slowAtFirst(1);
      expect(validateData(check.fn, {}, 'data', 50, cpuAdvancing(30)).kind).toBe('timed_out');
      expect(check.calls()).toBe(1);
      // On the real thread clock a spinning check is stopped too. How often it ran depends on the
      // host's load (a run the thread was descheduled for is run again), never more than the bound.
      const real = slowAtFirst(Infinity);
      expect(validateData(real.fn, {}, 'data', 50).kind).toBe('timed_out');
      expect(real.calls()).toBeLessThanOrEqual(1 + DATA_VALIDATION_LIMITS.starvedRetries);
    });
  });

  it('gives a payload 50 ms plus 500 ms per MiB, at most 5 s', () => {
    expect(validationBudgetMs(200)).toBe(50);
    expect(validationBudgetMs(1024 * 1024)).toBe(550);
    expect(validationBudgetMs(9 * 1024 * 1024)).toBe(4550);
    expect(validationBudgetMs(50 * 1024 * 1024)).toBe(5000);
  });

  // The time such a check takes against its budget is a figure, not an assertion: npm run bench:validation.
  it('finds a legitimate 1 MiB payload (30,000 objects, an RE2 pattern each) valid, and names the one bad item', () => {
    const fn = compiled({
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'amount'],
        properties: {
          id: { type: 'string', pattern: '^in_[0-9]+$' },
          amount: { type: 'integer', minimum: 0 },
        },
      },
    });
    const data = Array.from({ length: 30_000 }, (_, i) => ({ id: `in_${i}`, amount: i }));
    const bytes = JSON.stringify(data).length;
    expect(bytes).toBeGreaterThan(900_000);
    const unbounded = DATA_VALIDATION_LIMITS.maxBudgetMs * 10;
    expect(validateData(fn, data, 'data', unbounded)).toEqual({ kind: 'valid' });
    data[29_999] = { id: 'out_29999', amount: 1 };
    expect(validateData(fn, data, 'data', unbounded)).toEqual({
      kind: 'invalid',
      errors: [{ field: 'data.29999.id', message: 'must match pattern "^in_[0-9]+$"' }],
    });
  });

  it('checks a catastrophic pattern in linear time (RE2), well within the budget', () => {
    const fn = compiled({ type: 'string', pattern: '^(a+)+$' });
    expect(validateData(fn, `${'a'.repeat(200_000)}!`)).toEqual({
      kind: 'invalid',
      errors: [{ field: 'data', message: 'must match pattern "^(a+)+$"' }],
    });
  });
});
