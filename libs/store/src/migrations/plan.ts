import type { Migration, MigrationRecord, MigrationStatusRow } from './migration';

/** The record key of a migration: its id on four digits, then its name. */
export function migrationKey(m: Pick<Migration, 'id' | 'name'>): string {
  return `${String(m.id).padStart(4, '0')}-${m.name}`;
}

/** Throws unless the ids run 1, 2, 3, … in list order and every name is lower-case words. */
export function checkMigrationOrder(migrations: readonly Pick<Migration, 'id' | 'name'>[]): void {
  migrations.forEach((m, i) => {
    if (m.id !== i + 1) {
      throw new Error(
        `migration ${migrationKey(m)} is at position ${i + 1}: ids must run 1, 2, 3, … without gaps`,
      );
    }
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(m.name)) {
      throw new Error(`migration ${m.id}'s name "${m.name}" must be lower-case words joined by "-"`);
    }
  });
}

/**
 * Every known migration with its state, in order, then the recorded ones this version does not
 * know (a newer release applied them).
 */
export function migrationStatus(
  migrations: readonly Migration[],
  records: readonly MigrationRecord[],
): MigrationStatusRow[] {
  const byKey = new Map(records.map((r) => [r._id, r]));
  const known: MigrationStatusRow[] = migrations.map((m) => {
    const record = byKey.get(migrationKey(m));
    return {
      key: migrationKey(m),
      id: m.id,
      description: m.description,
      state: record ? 'applied' : 'pending',
      appliedAt: record?.applied_at ?? null,
    };
  });
  const knownKeys = new Set(known.map((row) => row.key));
  const unknown: MigrationStatusRow[] = records
    .filter((r) => !knownKeys.has(r._id))
    .sort((a, b) => a.id - b.id)
    .map((r) => ({
      key: r._id,
      id: r.id,
      description: r.description,
      state: 'unknown',
      appliedAt: r.applied_at,
    }));
  return [...known, ...unknown];
}

/** The table `migrate status` prints, one line per migration, then the counts. */
export function formatMigrationStatus(rows: readonly MigrationStatusRow[]): string {
  const keyWidth = Math.max(9, ...rows.map((r) => r.key.length));
  const line = (key: string, state: string, at: string, description: string) =>
    `${key.padEnd(keyWidth)}  ${state.padEnd(7)}  ${at.padEnd(24)}  ${description}`;
  const lines = [line('MIGRATION', 'STATE', 'APPLIED AT', 'DESCRIPTION')];
  for (const r of rows) {
    const state = r.state === 'unknown' ? 'newer' : r.state;
    lines.push(line(r.key, state, r.appliedAt?.toISOString() ?? '-', r.description));
  }
  const count = (state: MigrationStatusRow['state']) => rows.filter((r) => r.state === state).length;
  const newer = count('unknown') ? `, ${count('unknown')} applied by a newer version` : '';
  lines.push(`${count('applied')} applied, ${count('pending')} pending${newer}`);
  return lines.join('\n');
}
