import { Timestamp, type ChangeStreamDocument } from 'mongodb';
import { changeEvent } from './change-event';
import {
  changePipeline,
  changeStreamSettings,
  fullDocumentOption,
  type MongoChangeStreamSettings,
} from './settings';

const settings = (over: Record<string, unknown> = {}) =>
  changeStreamSettings(
    { type: 'mongodb', database: 'shop', ...over },
    'mongodb://h/',
    false,
  ) as MongoChangeStreamSettings;

const update = (token: string) =>
  ({
    _id: { _data: token },
    operationType: 'update',
    clusterTime: new Timestamp({ t: 1_800_000_000, i: 3 }),
    wallTime: new Date('2027-01-15T08:00:00.000Z'),
    ns: { db: 'shop', coll: 'orders' },
    documentKey: { _id: 'o1' },
    fullDocument: { _id: 'o1', total: 2 },
    updateDescription: { updatedFields: { total: 2 }, removedFields: ['note'], truncatedArrays: [] },
  }) as unknown as ChangeStreamDocument;

describe('changeEvent', () => {
  it('names the event <collection>.<operation> and carries the documented payload', () => {
    const ev = changeEvent('src1', update('82AA'), settings())!;
    expect(ev.eventType).toBe('orders.update');
    expect(JSON.parse(ev.body)).toEqual({
      operation: 'update',
      database: 'shop',
      collection: 'orders',
      document_key: { _id: 'o1' },
      document: { _id: 'o1', total: 2 },
      update_description: { updated_fields: { total: 2 }, removed_fields: ['note'] },
      cluster_time: { t: 1_800_000_000, i: 3 },
      wall_time: '2027-01-15T08:00:00.000Z',
    });
    expect(ev.token).toEqual({ _data: '82AA' });
  });

  it('derives the idempotency key from the source and the resume token only', () => {
    const a = changeEvent('src1', update('82AA'), settings())!;
    expect(changeEvent('src1', update('82AA'), settings())!.idempotencyKey).toBe(a.idempotencyKey);
    expect(changeEvent('src1', update('82AB'), settings())!.idempotencyKey).not.toBe(a.idempotencyKey);
    expect(changeEvent('src2', update('82AA'), settings())!.idempotencyKey).not.toBe(a.idempotencyKey);
  });

  it('applies the event type template and leaves other change kinds out', () => {
    const s = settings({ event_type_template: 'db.{collection}.{operation}.v1' });
    expect(changeEvent('src1', update('82AA'), s)!.eventType).toBe('db.orders.update.v1');
    const drop = { _id: { _data: '1' }, operationType: 'drop', ns: { db: 'shop', coll: 'orders' } };
    expect(changeEvent('src1', drop as unknown as ChangeStreamDocument, s)).toBeUndefined();
  });
});

describe('changePipeline', () => {
  it('keeps the chosen operations and collections on the server, then the user $match', () => {
    const s = settings({
      collections: ['orders'],
      operations: ['insert'],
      match: { 'fullDocument.total': { $gt: 0 } },
    });
    expect(changePipeline(s)).toEqual([
      { $match: { operationType: { $in: ['insert'] }, 'ns.coll': { $in: ['orders'] } } },
      { $match: { 'fullDocument.total': { $gt: 0 } } },
    ]);
  });

  it('watches every operation of the whole database by default, with updateLookup', () => {
    const s = settings();
    expect(changePipeline(s)).toEqual([
      { $match: { operationType: { $in: ['insert', 'update', 'replace', 'delete'] } } },
    ]);
    expect(fullDocumentOption(s)).toEqual({ fullDocument: 'updateLookup' });
    expect(fullDocumentOption(settings({ full_document: 'off' }))).toEqual({});
  });
});
