import { Client } from 'pg';
import { pgClientConfig } from './postgres/pg-connect';
import type { PostgresChangeStreamSettings } from './settings';

/**
 * How many bytes of WAL a Postgres source's slot holds that the source has not confirmed:
 * `pg_current_wal_lsn() - confirmed_flush_lsn`, one catalog read on a short connection of its
 * own (the replication connection cannot run SQL). Null when the slot is gone or the server
 * cannot say (a standby). Changes behind are not counted: that would mean decoding the WAL.
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
