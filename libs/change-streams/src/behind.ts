import type { Timestamp } from 'mongodb';
import { Client } from 'pg';
import { changeStreamClient } from './connect';
import { pgClientConfig } from './postgres/pg-connect';
import type { MongoChangeStreamSettings, PostgresChangeStreamSettings } from './settings';

/**
 * How many bytes of WAL a Postgres source's slot holds that the source has not confirmed:
 * `pg_current_wal_lsn() - confirmed_flush_lsn`, one catalog read on a short connection of its
 * own (the replication connection cannot run SQL). Null when the slot is gone or the server
 * cannot say (a standby). Changes behind are not counted: that would mean decoding the WAL (a
MongoDB source counts them: `oplogChangesBehind`).
 */
export async function walBytesBehind(s: PostgresChangeStreamSettings): Promise<number | null> {
  const client = new Client(pgClientConfig(s, 5000));
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ behind: string | null }>(
      `SELECT (pg_current_wal_lsn() - confirmed_flush_lsn)::text AS behind
         FROM pg_replication_slots WHERE slot_name = $1`,
      [s.slot],
    );
    const behind = rows[0]?.behind;
    return behind === null || behind === undefined ? null : Math.max(0, Number(behind));
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Counting stops here: past it the page says "at least", and a far-behind stream costs no more. */
export const CHANGES_BEHIND_CAP = 100_000;

const OPLOG_OPS: Record<string, string> = { insert: 'i', update: 'u', replace: 'u', delete: 'd' };

/**
 * How many changes a MongoDB source has still to read after `after` (the newest change it read):
 * the oplog entries past it for the source's collections and operations, counted up to
 * `CHANGES_BEHIND_CAP` on a short connection of its own. The oplog is in `ts` order, so the count
 * reads only the entries behind. 0 when caught up (`after` absent); null when the server does not
 * let the user read `local.oplog.rs` (or has none).
 */
export async function oplogChangesBehind(
  s: MongoChangeStreamSettings,
  after: Timestamp | undefined,
): Promise<number | null> {
  if (!after) return 0;
  const client = changeStreamClient(s, 5000);
  try {
    const ns =
      s.collections.length > 0
        ? { $in: s.collections.map((c) => `${s.database}.${c}`) }
        : { $regex: `^${s.database.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.` };
    const op = { $in: [...new Set(s.operations.map((o) => OPLOG_OPS[o]).filter(Boolean))] };
    return await client
      .db('local')
      .collection('oplog.rs')
      .countDocuments({ ts: { $gt: after }, ns, op }, { limit: CHANGES_BEHIND_CAP, maxTimeMS: 5000 });
  } catch {
    return null;
  } finally {
    await client.close().catch(() => undefined);
  }
}
