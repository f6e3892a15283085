import { idFrom } from '@hookrail/domain';
import { BSON, type ChangeStreamDocument, type Document, type Timestamp } from 'mongodb';

import type { MongoChangeStreamSettings } from './settings';

/** One change as Hookrail turns it into an event (docs/sources.md, "db_change_stream"). */
export interface ChangeEvent {
  /**
   * Derived from the source and the change's resume token, so a change read twice (after a crash,
   * a rewind) carries the same key and the router records the second as a duplicate of the first.
   */
  idempotencyKey: string;
  eventType: string;
  /** The event's payload, as JSON text (extended JSON, relaxed: ObjectIds and dates stay typed). */
  body: string;
  /** The resume point to store once Kafka holds the event (MongoDB: the resume token). */
  token: Document;
  /** When the change was committed (the server's wall time, else its cluster time). */
  at: Date;
  /** MongoDB: the change's place in the server's history (its cluster time), for the changes behind it. */
  position?: Timestamp;
}

type KeptChange = Extract<
  ChangeStreamDocument,
  { operationType: 'insert' | 'update' | 'replace' | 'delete' }
>;

/** Undefined for a change of another kind (drop, rename, invalidate…), which the pipeline keeps out. */
export function changeEvent(
  sourceId: string,
  change: ChangeStreamDocument,
  s: MongoChangeStreamSettings,
): ChangeEvent | undefined {
  if (!['insert', 'update', 'replace', 'delete'].includes(change.operationType)) return undefined;
  const c = change as KeptChange;
  const token = c._id as Document;
  const seed = `${sourceId}:${JSON.stringify(token)}`;
  const at = c.wallTime ?? (c.clusterTime ? new Date(c.clusterTime.getHighBits() * 1000) : new Date());
  const collection = c.ns.coll ?? '';
  return {
    idempotencyKey: `change:${idFrom(seed, at)}`,
    eventType: s.eventTypeTemplate
      .replaceAll('{collection}', collection)
      .replaceAll('{operation}', c.operationType),
    body: BSON.EJSON.stringify(changePayload(c, collection, at), { relaxed: true }),
    token,
    at,
    position: c.clusterTime,
  };
}

/** The documented payload: which change, to which document, and what it holds now. */
function changePayload(c: KeptChange, collection: string, at: Date): Document {
  const upd = c.operationType === 'update' ? c.updateDescription : undefined;
  return {
    operation: c.operationType,
    database: c.ns.db,
    collection,
    document_key: c.documentKey,
    document: 'fullDocument' in c ? (c.fullDocument ?? null) : null,
    update_description: upd
      ? { updated_fields: upd.updatedFields ?? {}, removed_fields: upd.removedFields ?? [] }
      : null,
    cluster_time: c.clusterTime ? { t: c.clusterTime.getHighBits(), i: c.clusterTime.getLowBits() } : null,
    wall_time: at.toISOString(),
  };
}
