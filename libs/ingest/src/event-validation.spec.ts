import { newProjectId, type ProjectId } from '@hookrail/domain';
import { Metrics } from '@hookrail/telemetry';
import type { EventValidationConfig } from '@hookrail/store';
import { EventValidator, type CatalogEntry } from './event-validation';

const PRJ = newProjectId();
const invoice = JSON.stringify({
  type: 'object',
  required: ['id', 'amount'],
  properties: { id: { type: 'string' }, amount: { type: 'integer', minimum: 0 } },
});

// Pure rule tests: the catalog is a map here; the real one is read in the intake integration tests.
function setup(ttlMs = 60_000) {
  const catalog = new Map<string, CatalogEntry>([
    ['invoice.paid', { json_schema_json: invoice, updated_at: new Date(1) }],
    ['ping', { json_schema_json: null, updated_at: new Date(1) }],
  ]);
  const reads: string[] = [];
  const metrics = new Metrics('test', { defaultMetrics: false });
  const validator = new EventValidator(
    async (projectId: ProjectId, name: string) => {
      reads.push(name);
      return projectId === PRJ ? (catalog.get(name) ?? null) : null;
    },
    metrics,
    'events_api',
    { ttlMs },
  );
  // the payload's size sets the time budget
  const check = (
    projectId: ProjectId,
    settings: EventValidationConfig | undefined,
    type: string,
    data: unknown,
  ) => validator.check(projectId, settings, type, data, JSON.stringify(data).length);
  return { catalog, reads, metrics, validator, check };
}

const bad = { id: 7, amount: -1 };

describe('EventValidator', () => {
  it('checks nothing and reads nothing when off and allowing unknown types (the default)', async () => {
    const { check, reads } = setup();
    expect(await check(PRJ, undefined, 'invoice.paid', bad)).toEqual({
      kind: 'accepted',
      violations: [],
    });
    expect(await check(PRJ, { mode: 'off', unknown_types: 'allow' }, 'nope', 1)).toMatchObject({
      kind: 'accepted',
    });
    expect(reads).toEqual([]);
  });

  it('enforce refuses data that does not match, naming each failing path', async () => {
    const { check } = setup();
    const out = await check(PRJ, { mode: 'enforce', unknown_types: 'allow' }, 'invoice.paid', bad);
    expect(out).toEqual({
      kind: 'refused',
      message:
        'data does not match the schema of event type "invoice.paid": data.id must be string; data.amount must be >= 0',
      violations: [
        { field: 'data.id', message: 'must be string' },
        { field: 'data.amount', message: 'must be >= 0' },
      ],
    });
    expect(
      await check(PRJ, { mode: 'enforce', unknown_types: 'allow' }, 'invoice.paid', {
        id: 'a',
        amount: 1,
      }),
    ).toEqual({ kind: 'accepted', violations: [] });
    expect(await check(PRJ, { mode: 'enforce', unknown_types: 'allow' }, 'invoice.paid', 'text')).toEqual(
      expect.objectContaining({ violations: [{ field: 'data', message: 'must be object' }] }),
    );
  });

  it('warn accepts and returns the violations to record', async () => {
    const { check } = setup();
    expect(await check(PRJ, { mode: 'warn', unknown_types: 'allow' }, 'invoice.paid', { id: 'a' })).toEqual({
      kind: 'accepted',
      violations: [{ field: 'data.amount', message: 'is required' }],
    });
  });

  it('accepts any data of a type without a schema', async () => {
    const { check } = setup();
    expect(await check(PRJ, { mode: 'enforce', unknown_types: 'refuse' }, 'ping', bad)).toEqual({
      kind: 'accepted',
      violations: [],
    });
  });

  it('allows, warns about or refuses an unknown type (and * or another project’s type) as set', async () => {
    const { check } = setup();
    const unknown = {
      field: 'event_type',
      message: '"invoice.voided" is not in the project\'s event type catalog',
    };
    expect(await check(PRJ, { mode: 'enforce', unknown_types: 'allow' }, 'invoice.voided', 1)).toEqual({
      kind: 'accepted',
      violations: [],
    });
    expect(await check(PRJ, { mode: 'off', unknown_types: 'warn' }, 'invoice.voided', 1)).toEqual({
      kind: 'accepted',
      violations: [unknown],
    });
    expect(await check(PRJ, { mode: 'off', unknown_types: 'refuse' }, 'invoice.voided', 1)).toEqual({
      kind: 'refused',
      message: `event_type ${unknown.message}`,
      violations: [unknown],
    });
    expect(await check(PRJ, { mode: 'off', unknown_types: 'refuse' }, '*', 1)).toMatchObject({
      kind: 'refused',
    });
    expect(
      await check(newProjectId(), { mode: 'off', unknown_types: 'refuse' }, 'invoice.paid', 1),
    ).toMatchObject({
      kind: 'refused',
    });
    // mode off: a known type's data is not checked
    expect(await check(PRJ, { mode: 'off', unknown_types: 'refuse' }, 'invoice.paid', bad)).toEqual({
      kind: 'accepted',
      violations: [],
    });
  });

  it('reads a type once per ttl and compiles again only when its updated_at changed', async () => {
    const { check, reads, catalog } = setup(1);
    const enforce = { mode: 'enforce', unknown_types: 'allow' } as const;
    await check(PRJ, enforce, 'invoice.paid', bad);
    catalog.set('invoice.paid', {
      json_schema_json: JSON.stringify({ type: 'number' }),
      updated_at: new Date(2),
    });
    await new Promise((r) => setTimeout(r, 5));
    // the expired entry answers while it is read again; the next check uses the new schema
    await check(PRJ, enforce, 'invoice.paid', 5);
    await new Promise((r) => setTimeout(r, 5));
    expect(await check(PRJ, enforce, 'invoice.paid', 5)).toEqual({
      kind: 'accepted',
      violations: [],
    });
    expect(reads.length).toBeGreaterThanOrEqual(2);
    const cached = setup();
    for (let i = 0; i < 5; i++) await cached.check(PRJ, enforce, 'invoice.paid', bad);
    expect(cached.reads).toEqual(['invoice.paid']);
  });

  it('forgets a project’s entries when this replica changed its catalog', async () => {
    const { validator, check, reads, catalog } = setup();
    const enforce = { mode: 'enforce', unknown_types: 'allow' } as const;
    expect((await check(PRJ, enforce, 'invoice.paid', 5)).kind).toBe('refused');
    catalog.set('invoice.paid', {
      json_schema_json: JSON.stringify({ type: 'number' }),
      updated_at: new Date(2),
    });
    validator.forget(newProjectId());
    expect((await check(PRJ, enforce, 'invoice.paid', 5)).kind).toBe('refused');
    validator.forget(PRJ);
    expect(await check(PRJ, enforce, 'invoice.paid', 5)).toEqual({
      kind: 'accepted',
      violations: [],
    });
    expect(reads).toEqual(['invoice.paid', 'invoice.paid']);
  });

  it('stops a costly check, then skips its type for the cool-down', async () => {
    const { validator, catalog, check } = setup();
    let deep: unknown = {};
    for (let i = 0; i < 40; i++) deep = { x: deep };
    const tree = {
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
    catalog.set('tree', { json_schema_json: JSON.stringify(tree), updated_at: new Date(1) });
    const enforce = { mode: 'enforce', unknown_types: 'allow' } as const;
    const started = Date.now();
    expect(await check(PRJ, enforce, 'tree', deep)).toMatchObject({
      kind: 'refused',
      violations: [
        { field: 'data', message: 'could not be checked within 50 ms: the schema is too costly for it' },
      ],
    });
    // The message shows the budget stopped it; the clock only tells that from a check left to run
    // its 2^40 branches (compiling the schema counts too, so not the 50 ms itself).
    expect(Date.now() - started).toBeLessThan(5_000);
    // Refused from memory: a check run again would have answered "could not be checked" instead.
    expect(await check(PRJ, enforce, 'tree', deep)).toMatchObject({
      kind: 'refused',
      violations: [
        {
          field: 'data',
          message:
            "was not checked: a check against this event type's schema ran out of time less than 10 s ago",
        },
      ],
    });
    // a new version of the type is checked again
    catalog.set('tree', { json_schema_json: JSON.stringify({ type: 'object' }), updated_at: new Date(2) });
    validator.forget(PRJ);
    expect(await check(PRJ, enforce, 'tree', deep)).toEqual({ kind: 'accepted', violations: [] });
  });

  it('counts outcomes by intake, mode, outcome and verdict', async () => {
    const { check, metrics } = setup();
    await check(PRJ, { mode: 'warn', unknown_types: 'refuse' }, 'invoice.paid', bad);
    await check(PRJ, { mode: 'warn', unknown_types: 'refuse' }, 'nope', bad);
    const text = (await metrics.render()).body;
    expect(text).toContain(
      'hookrail_event_validation_total{intake="events_api",mode="warn",outcome="invalid",verdict="warned",service="test"} 1',
    );
    expect(text).toContain(
      'hookrail_event_validation_total{intake="events_api",mode="warn",outcome="unknown_type",verdict="refused",service="test"} 1',
    );
  });
});
