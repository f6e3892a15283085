import { idFrom } from '@hookrail/domain';
import type { Pgoutput } from 'pg-logical-replication';
import type { ChangeEvent } from '../change-event';
import type { PostgresChangeStreamSettings, PostgresOperation } from '../settings';

/** The transaction a change belongs to, as its Begin message announced it. */
export interface PgTransaction {
  /** The LSN of the transaction's commit record: the same each time the transaction is decoded. */
  commitLsn: string;
  commitTime: Date;
}

type Row = Record<string, unknown>;

/** One row change (or one table of a truncate), whichever message carried it. */
export interface PgChange {
  operation: PostgresOperation;
  relation: Pgoutput.MessageRelation;
  key: Row | null;
  old: Row | null;
  row: Row | null;
}

export type PgChangeMessage =
  Pgoutput.MessageInsert | Pgoutput.MessageUpdate | Pgoutput.MessageDelete | Pgoutput.MessageTruncate;

/** The changes of one pgoutput message: one, or one per table of a truncate. */
export function pgChanges(msg: PgChangeMessage): PgChange[] {
  if (msg.tag === 'truncate')
    return msg.relations.map((relation) => ({
      operation: 'truncate',
      relation,
      key: null,
      old: null,
      row: null,
    }));
  const row = msg.tag === 'delete' ? null : msg.new;
  const old = msg.tag === 'insert' ? null : msg.old;
  // The key as the replica identity sent it, else read from the row (an insert, an update that
  // left the key alone, REPLICA IDENTITY FULL).
  const given = msg.tag === 'insert' ? null : msg.key;
  const from = old ?? row;
  const key =
    given ??
    (from && msg.relation.keyColumns.length > 0
      ? Object.fromEntries(msg.relation.keyColumns.map((k) => [k, from[k]]))
      : null);
  return [{ operation: msg.tag, relation: msg.relation, key, old, row }];
}

/**
 * The event of one change, or undefined when the source does not keep it (another table or
 * operation). `index` is the change's place among its transaction's changes, counted before
 * filtering: with the commit LSN it names the change the same way each time the server sends the
 * transaction again (after a crash, before the confirmed position moved), so the idempotency key
 * makes the re-sent event a duplicate.
 */
export function pgChangeEvent(
  sourceId: string,
  txn: PgTransaction,
  index: number,
  change: PgChange,
  s: PostgresChangeStreamSettings,
): ChangeEvent | undefined {
  const { schema, name } = change.relation;
  if (!s.operations.includes(change.operation)) return undefined;
  if (s.tables.length > 0 && !s.tables.includes(`${schema}.${name}`.toLowerCase())) return undefined;
  const position = `${txn.commitLsn}:${index}`;
  return {
    idempotencyKey: `change:${idFrom(`${sourceId}:${position}`, txn.commitTime)}`,
    eventType: s.eventTypeTemplate
      .replaceAll('{table}', name)
      .replaceAll('{schema}', schema)
      .replaceAll('{collection}', name)
      .replaceAll('{operation}', change.operation),
    body: JSON.stringify({
      operation: change.operation,
      database: s.database,
      schema,
      table: name,
      key: jsonRow(change.key),
      row: jsonRow(change.row),
      old_row: jsonRow(change.old),
      commit_lsn: txn.commitLsn,
      commit_time: txn.commitTime.toISOString(),
    }),
    token: { commit_lsn: txn.commitLsn, index },
    at: txn.commitTime,
  };
}

/** Column values as JSON: bytea as Postgres prints it (`\x…`), the rest as node-postgres parsed it. */
function jsonRow(row: Row | null): Row | null {
  if (!row) return null;
  return Object.fromEntries(
    Object.entries(row).map(([k, v]) => [k, Buffer.isBuffer(v) ? `\\x${v.toString('hex')}` : v]),
  );
}

/** pgoutput's commit time (microseconds since the Unix epoch, a bigint) as a Date. */
export function commitDate(micros: unknown): Date {
  return new Date(Number((micros as bigint) / 1000n));
}
