import type { Document } from 'mongodb';
import { settingsProblem } from './settings-problem';

/** A source's settings were tried and cannot work: `field` names what to fix (the API's 400). */
export interface ChangeStreamProblem {
  field: string;
  message: string;
}

export type ChangeOperation = 'insert' | 'update' | 'replace' | 'delete';
export const CHANGE_OPERATIONS: readonly ChangeOperation[] = ['insert', 'update', 'replace', 'delete'];
export type PostgresOperation = 'insert' | 'update' | 'delete' | 'truncate';
export const POSTGRES_OPERATIONS: readonly PostgresOperation[] = ['insert', 'update', 'delete', 'truncate'];

/** What every database type's settings carry. */
interface CommonSettings {
  connectionString: string;
  database: string;
  eventTypeTemplate: string;
  /** The operator's last "restart from now" (ISO time), or null. */
  restartRequestedAt: string | null;
  /** Whether private and loopback hosts may be connected to (HOOKRAIL_ALLOW_PRIVATE_BROKERS). */
  allowPrivateHosts: boolean;
  /** A combination of fields that cannot work (settings-problem.ts), found before connecting. */
  invalid?: ChangeStreamProblem;
}

/** A `db_change_stream` source's settings (type mongodb), connection string opened. */
export interface MongoChangeStreamSettings extends CommonSettings {
  type: 'mongodb';
  /** Empty: every collection of the database. */
  collections: string[];
  operations: ChangeOperation[];
  fullDocument: 'updateLookup' | 'whenAvailable' | 'off';
  match: Document | null;
  /**
   * Where the stream starts when no resume point of the current restart is stored: the server's
   * position when the API checked the source (its create, or its last restart from now). Null for
   * a source stored before it was recorded: the stream then starts when it opens.
   */
  startToken: Document | null;
}

/** A `db_change_stream` source's settings (type postgres): logical replication decoded with pgoutput. */
export interface PostgresChangeStreamSettings extends CommonSettings {
  type: 'postgres';
  publication: string;
  slot: string;
  /** Schema-qualified, lower case (unquoted identifiers); empty: every table of the publication. */
  tables: string[];
  operations: PostgresOperation[];
  /** Create the publication and the slot when missing (the API's check; a restart from now). */
  createIfMissing: boolean;
}

export type ChangeStreamSettings = MongoChangeStreamSettings | PostgresChangeStreamSettings;

export const DEFAULT_EVENT_TYPE_TEMPLATE = '{collection}.{operation}';
export const DEFAULT_POSTGRES_EVENT_TYPE_TEMPLATE = '{table}.{operation}';

const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);

/** The stored settings (API field names), read with their defaults. */
export function changeStreamSettings(
  stored: Record<string, unknown>,
  connectionString: string,
  allowPrivateHosts: boolean,
): ChangeStreamSettings {
  const common = {
    connectionString,
    database: String(stored.database),
    restartRequestedAt: (stored.restart_requested_at as string | undefined) ?? null,
    allowPrivateHosts,
    invalid: settingsProblem(stored, connectionString),
  };
  const template = stored.event_type_template as string | undefined;
  if (stored.type === 'postgres') {
    const ops = list(stored.operations) as PostgresOperation[];
    return {
      ...common,
      type: 'postgres',
      eventTypeTemplate: template ?? DEFAULT_POSTGRES_EVENT_TYPE_TEMPLATE,
      publication: String(stored.publication ?? '').toLowerCase(),
      slot: String(stored.slot ?? ''),
      tables: list(stored.tables).map(qualifiedTable),
      operations: ops.length > 0 ? ops : [...POSTGRES_OPERATIONS],
      createIfMissing: stored.create_if_missing === true,
    };
  }
  const ops = list(stored.operations) as ChangeOperation[];
  return {
    ...common,
    type: 'mongodb',
    eventTypeTemplate: template ?? DEFAULT_EVENT_TYPE_TEMPLATE,
    collections: list(stored.collections),
    operations: ops.length > 0 ? ops : [...CHANGE_OPERATIONS],
    fullDocument:
      (stored.full_document as MongoChangeStreamSettings['fullDocument'] | undefined) ?? 'updateLookup',
    match: (stored.match as Document | undefined) ?? null,
    startToken: (stored.start_token as Document | undefined) ?? null,
  };
}

/** `orders` is `public.orders`; unquoted identifiers are folded to lower case, as Postgres does. */
export function qualifiedTable(name: string): string {
  const lower = name.toLowerCase();
  return lower.includes('.') ? lower : `public.${lower}`;
}

/**
 * The pipeline the server runs: the operations and collections kept, then the user's `$match`.
 * Filtering on the server means a change nobody wants never crosses the network.
 */
export function changePipeline(s: MongoChangeStreamSettings): Document[] {
  const keep: Document = { operationType: { $in: s.operations } };
  if (s.collections.length > 0) keep['ns.coll'] = { $in: s.collections };
  return s.match ? [{ $match: keep }, { $match: s.match }] : [{ $match: keep }];
}

/** The driver's `fullDocument` option: `off` leaves it out (an update then carries no document). */
export function fullDocumentOption(s: MongoChangeStreamSettings): {
  fullDocument?: 'updateLookup' | 'whenAvailable';
} {
  return s.fullDocument === 'off' ? {} : { fullDocument: s.fullDocument };
}
