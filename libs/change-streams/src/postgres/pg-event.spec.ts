import type { Pgoutput } from 'pg-logical-replication';
import { changeStreamSettings, type PostgresChangeStreamSettings } from '../settings';
import { lsnBefore, lsnValue } from './lsn';
import { commitDate, pgChangeEvent, pgChanges, type PgTransaction } from './pg-event';

const settings = (over: Record<string, unknown> = {}) =>
  changeStreamSettings(
    { type: 'postgres', database: 'shop', publication: 'pub', slot: 's', ...over },
    'postgres://h/shop',
    false,
  ) as PostgresChangeStreamSettings;

const relation = (name: string, keyColumns = ['id']) =>
  ({ tag: 'relation', schema: 'public', name, keyColumns }) as unknown as Pgoutput.MessageRelation;
const txn: PgTransaction = { commitLsn: '0/16B3748', commitTime: new Date('2027-01-15T08:00:00.000Z') };

describe('pgChanges', () => {
  it('reads the key from the replica identity, else from the row', () => {
    const orders = relation('orders');
    const [ins] = pgChanges({ tag: 'insert', relation: orders, new: { id: 'o1', total: 1 } });
    expect(ins).toMatchObject({
      operation: 'insert',
      key: { id: 'o1' },
      row: { id: 'o1', total: 1 },
      old: null,
    });
    const [del] = pgChanges({ tag: 'delete', relation: orders, key: { id: 'o1' }, old: null });
    expect(del).toMatchObject({ operation: 'delete', key: { id: 'o1' }, row: null, old: null });
    const full = { id: 'o1', total: 2 };
    const [upd] = pgChanges({
      tag: 'update',
      relation: orders,
      key: null,
      old: full,
      new: { id: 'o1', total: 3 },
    });
    expect(upd).toMatchObject({ key: { id: 'o1' }, old: full, row: { id: 'o1', total: 3 } });
  });

  it('gives a truncate one change per table', () => {
    const msg = {
      tag: 'truncate',
      cascade: false,
      restartIdentity: false,
      relations: [relation('a'), relation('b')],
    };
    expect(
      pgChanges(msg as Pgoutput.MessageTruncate).map((c) => `${c.relation.name}:${c.operation}`),
    ).toEqual(['a:truncate', 'b:truncate']);
  });
});

describe('pgChangeEvent', () => {
  const insert = pgChanges({
    tag: 'insert',
    relation: relation('orders'),
    new: { id: 'o1', blob: Buffer.from([1, 255]) },
  })[0];

  it('names the event <table>.<operation> and carries the documented payload', () => {
    const ev = pgChangeEvent('src1', txn, 0, insert, settings())!;
    expect(ev.eventType).toBe('orders.insert');
    expect(JSON.parse(ev.body)).toEqual({
      operation: 'insert',
      database: 'shop',
      schema: 'public',
      table: 'orders',
      key: { id: 'o1' },
      row: { id: 'o1', blob: '\\x01ff' },
      old_row: null,
      commit_lsn: '0/16B3748',
      commit_time: '2027-01-15T08:00:00.000Z',
    });
    expect(ev.at).toEqual(txn.commitTime);
  });

  it('derives the idempotency key from the source, the commit LSN and the place in the transaction only', () => {
    const key = (source: string, t: PgTransaction, index: number) =>
      pgChangeEvent(source, t, index, insert, settings())!.idempotencyKey;
    const a = key('src1', txn, 0);
    expect(key('src1', { ...txn }, 0)).toBe(a);
    expect(key('src1', txn, 1)).not.toBe(a);
    expect(key('src1', { ...txn, commitLsn: '0/16B3749' }, 0)).not.toBe(a);
    expect(key('src2', txn, 0)).not.toBe(a);
  });

  it('keeps only the chosen tables and operations, and applies the template', () => {
    expect(pgChangeEvent('s', txn, 0, insert, settings({ tables: ['customers'] }))).toBeUndefined();
    expect(pgChangeEvent('s', txn, 0, insert, settings({ tables: ['Public.Orders'] }))).toBeDefined();
    expect(pgChangeEvent('s', txn, 0, insert, settings({ operations: ['delete'] }))).toBeUndefined();
    const s = settings({ event_type_template: 'db.{schema}.{table}.{operation}.v1' });
    expect(pgChangeEvent('s', txn, 0, insert, s)!.eventType).toBe('db.public.orders.insert.v1');
  });
});

describe('positions', () => {
  it('compares LSNs by value and acknowledges the position before a commit end', () => {
    expect(lsnValue('0000000A/00000001') > lsnValue('9/FFFFFFFF')).toBe(true);
    expect(lsnBefore('1/0')).toBe('0/FFFFFFFF');
    expect(lsnBefore('0/16B3748')).toBe('0/16B3747');
  });

  it('reads pgoutput commit times (microseconds since the Unix epoch)', () => {
    expect(commitDate(1_800_000_000_123_456n).toISOString()).toBe('2027-01-15T08:00:00.123Z');
  });
});
