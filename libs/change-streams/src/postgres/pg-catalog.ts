import type { Client } from 'pg';

/** What the server knows of a replication slot. */
export interface SlotInfo {
  plugin: string | null;
  database: string | null;
  active: boolean;
  /** Where a consumer that names no position starts (the last position it confirmed). */
  confirmed_flush_lsn: string | null;
}

/** `schema.table` as a quoted identifier pair (the names passed the contract's pattern). */
function quotedTable(qualified: string): string {
  return qualified
    .split('.')
    .map((p) => `"${p}"`)
    .join('.');
}

export async function slotInfo(client: Client, slot: string): Promise<SlotInfo | undefined> {
  const r = await client.query<SlotInfo>(
    'SELECT plugin, database, active, confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = $1',
    [slot],
  );
  return r.rows[0];
}

/** A logical slot decoded with pgoutput (needs REPLICATION; the slot keeps WAL from now on). */
export async function createSlot(client: Client, slot: string): Promise<void> {
  await client.query("SELECT pg_create_logical_replication_slot($1, 'pgoutput')", [slot]);
}

/** "Restart from now": the slot skips every change committed so far (it must not be in use). */
export async function advanceSlotToNow(client: Client, slot: string): Promise<void> {
  await client.query('SELECT pg_replication_slot_advance($1, pg_current_wal_lsn())', [slot]);
}

export async function publicationExists(client: Client, publication: string): Promise<boolean> {
  const r = await client.query('SELECT 1 FROM pg_publication WHERE pubname = $1', [publication]);
  return r.rowCount === 1;
}

/** For the named tables, else for all tables (which needs a superuser). */
export async function createPublication(
  client: Client,
  publication: string,
  tables: string[],
): Promise<void> {
  const what = tables.length > 0 ? `TABLE ${tables.map(quotedTable).join(', ')}` : 'ALL TABLES';
  await client.query(`CREATE PUBLICATION "${publication}" FOR ${what}`);
}

/** The named tables (schema-qualified) that do not exist. */
export async function missingTables(client: Client, tables: string[]): Promise<string[]> {
  const r = await client.query<{ t: string; oid: string | null }>(
    'SELECT t, to_regclass(t) AS oid FROM unnest($1::text[]) AS t',
    [tables.map(quotedTable)],
  );
  return r.rows.filter((x) => x.oid === null).map((x) => x.t.replaceAll('"', ''));
}

/** The named tables the publication does not publish (their changes would never arrive). */
export async function unpublishedTables(
  client: Client,
  publication: string,
  tables: string[],
): Promise<string[]> {
  const r = await client.query<{ t: string }>(
    "SELECT schemaname || '.' || tablename AS t FROM pg_publication_tables WHERE pubname = $1",
    [publication],
  );
  const published = new Set(r.rows.map((x) => x.t));
  return tables.filter((t) => !published.has(t));
}
