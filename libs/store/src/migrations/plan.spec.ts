import type { Migration, MigrationRecord } from './migration';
import { checkMigrationOrder, formatMigrationStatus, migrationKey, migrationStatus } from './plan';

const migration = (id: number, name = `step-${id}`): Migration => ({
  id,
  name,
  description: `does ${id}`,
  up: () => Promise.resolve(),
});
const record = (m: Pick<Migration, 'id' | 'name'>, at: string): MigrationRecord => ({
  _id: migrationKey(m),
  id: m.id,
  description: `does ${m.id}`,
  applied_at: new Date(at),
  duration_ms: 5,
  applied_by: 'job',
});

describe('migration order', () => {
  it('keys a migration by its id on four digits and its name', () => {
    expect(migrationKey(migration(7, 'drop-old-index'))).toBe('0007-drop-old-index');
  });

  it('accepts ids 1, 2, 3 in list order', () => {
    expect(() => checkMigrationOrder([migration(1), migration(2), migration(3)])).not.toThrow();
  });

  it.each([
    ['a gap', [migration(1), migration(3)], /0003-step-3 is at position 2/],
    ['a swap', [migration(2), migration(1)], /0002-step-2 is at position 1/],
    ['a repeated id', [migration(1), migration(1, 'other')], /0001-other is at position 2/],
    ['a start past 1', [migration(2)], /position 1/],
    ['a name with spaces', [migration(1, 'Add index')], /"Add index" must be lower-case words/],
  ])('refuses %s', (_what, list, message) => {
    expect(() => checkMigrationOrder(list)).toThrow(message);
  });
});

describe('migration status', () => {
  const list = [migration(1), migration(2), migration(3)];

  it('lists every migration in order, applied ones with their time', () => {
    const rows = migrationStatus(list, [
      record(list[1], '2025-02-01T00:00:00Z'),
      record(list[0], '2025-01-01T00:00:00Z'),
    ]);
    expect(rows.map((r) => [r.key, r.state, r.appliedAt?.toISOString() ?? null])).toEqual([
      ['0001-step-1', 'applied', '2025-01-01T00:00:00.000Z'],
      ['0002-step-2', 'applied', '2025-02-01T00:00:00.000Z'],
      ['0003-step-3', 'pending', null],
    ]);
  });

  it('reports records this version does not know after the known ones', () => {
    const newer = [
      record(migration(5, 'later'), '2025-03-02T00:00:00Z'),
      record(migration(4, 'newer'), '2025-03-01T00:00:00Z'),
    ];
    const rows = migrationStatus(list.slice(0, 1), [record(list[0], '2025-01-01T00:00:00Z'), ...newer]);
    expect(rows.map((r) => `${r.key} ${r.state}`)).toEqual([
      '0001-step-1 applied',
      '0004-newer unknown',
      '0005-later unknown',
    ]);
  });

  it('prints one aligned line per migration and the counts', () => {
    const rows = migrationStatus(list, [record(list[0], '2025-01-01T00:00:00Z')]);
    expect(formatMigrationStatus(rows).split('\n')).toEqual([
      'MIGRATION    STATE    APPLIED AT                DESCRIPTION',
      '0001-step-1  applied  2025-01-01T00:00:00.000Z  does 1',
      '0002-step-2  pending  -                         does 2',
      '0003-step-3  pending  -                         does 3',
      '1 applied, 2 pending',
    ]);
  });

  it('names migrations applied by a newer version in the table and the counts', () => {
    const rows = migrationStatus(list.slice(0, 1), [record(migration(2, 'newer'), '2025-03-01T00:00:00Z')]);
    const text = formatMigrationStatus(rows);
    expect(text).toContain('0002-newer   newer    2025-03-01T00:00:00.000Z  does 2');
    expect(text.endsWith('0 applied, 1 pending, 1 applied by a newer version')).toBe(true);
  });
});
