import type { Document } from 'mongodb';

export type ChangeOperation = 'insert' | 'update' | 'replace' | 'delete';
export const CHANGE_OPERATIONS: readonly ChangeOperation[] = ['insert', 'update', 'replace', 'delete'];

/** A `db_change_stream` source's settings (type mongodb), connection string opened. */
export interface ChangeStreamSettings {
  connectionString: string;
  database: string;
  /** Empty: every collection of the database. */
  collections: string[];
  operations: ChangeOperation[];
  fullDocument: 'updateLookup' | 'whenAvailable' | 'off';
  match: Document | null;
  eventTypeTemplate: string;
  /** The operator's last "restart from now" (ISO time), or null. */
  restartRequestedAt: string | null;
  /** Whether private and loopback hosts may be connected to (HOOKRAIL_ALLOW_PRIVATE_BROKERS). */
  allowPrivateHosts: boolean;
}

export const DEFAULT_EVENT_TYPE_TEMPLATE = '{collection}.{operation}';

/** The stored settings (API field names), read with their defaults. */
export function changeStreamSettings(
  stored: Record<string, unknown>,
  connectionString: string,
  allowPrivateHosts: boolean,
): ChangeStreamSettings {
  const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
  const ops = list(stored.operations) as ChangeOperation[];
  return {
    connectionString,
    database: String(stored.database),
    collections: list(stored.collections),
    operations: ops.length > 0 ? ops : [...CHANGE_OPERATIONS],
    fullDocument:
      (stored.full_document as ChangeStreamSettings['fullDocument'] | undefined) ?? 'updateLookup',
    match: (stored.match as Document | undefined) ?? null,
    eventTypeTemplate: (stored.event_type_template as string | undefined) ?? DEFAULT_EVENT_TYPE_TEMPLATE,
    restartRequestedAt: (stored.restart_requested_at as string | undefined) ?? null,
    allowPrivateHosts,
  };
}

/**
 * The pipeline the server runs: the operations and collections kept, then the user's `$match`.
 * Filtering on the server means a change nobody wants never crosses the network.
 */
export function changePipeline(s: ChangeStreamSettings): Document[] {
  const keep: Document = { operationType: { $in: s.operations } };
  if (s.collections.length > 0) keep['ns.coll'] = { $in: s.collections };
  return s.match ? [{ $match: keep }, { $match: s.match }] : [{ $match: keep }];
}

/** The driver's `fullDocument` option: `off` leaves it out (an update then carries no document). */
export function fullDocumentOption(s: ChangeStreamSettings): {
  fullDocument?: 'updateLookup' | 'whenAvailable';
} {
  return s.fullDocument === 'off' ? {} : { fullDocument: s.fullDocument };
}
