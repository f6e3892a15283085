import type net from 'node:net';
import { guardedLookup, refusedLiteral } from '@hookrail/outbound';
import { ConnectionString } from 'mongodb-connection-string-url';
import { MongoClient } from 'mongodb';
import type { MongoChangeStreamSettings } from './settings';

/** The settings cannot work: `field` names what to change (the API answers 400 with it). */
export class ChangeStreamSettingsError extends Error {
  override readonly name = 'ChangeStreamSettingsError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const FIELD = 'db_change_stream.connection_string';

/**
 * A client for the user's database. Its hosts are the tenant's choice, so unless the deployment
 * allows private hosts they pass the same guard as broker connections (libs/outbound): IP
 * literals are refused here, names by the guarded lookup on every socket the driver opens
 * (the replica set's other members included).
 */
export function changeStreamClient(s: MongoChangeStreamSettings, timeoutMs: number): MongoClient {
  let parsed: ConnectionString;
  try {
    parsed = new ConnectionString(s.connectionString);
  } catch (err) {
    throw new ChangeStreamSettingsError(FIELD, `not a MongoDB connection string: ${(err as Error).message}`);
  }
  for (const host of parsed.hosts) {
    const refused = refusedLiteral(host.replace(/:\d+$/, ''), s.allowPrivateHosts);
    if (refused) throw new ChangeStreamSettingsError(FIELD, refused.message);
  }
  return new MongoClient(s.connectionString, {
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
    appName: 'hookrail-change-stream',
    ...(s.allowPrivateHosts ? {} : { lookup: guardedLookup as unknown as net.LookupFunction }),
  });
}

/** Where a connection string points, for logs and messages (no credentials). */
export function describeDatabase(s: MongoChangeStreamSettings): string {
  try {
    return `${new ConnectionString(s.connectionString).hosts.join(',')}/${s.database}`;
  } catch {
    return `(invalid connection string)/${s.database}`;
  }
}
