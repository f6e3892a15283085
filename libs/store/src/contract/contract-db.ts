import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import { connectMongo } from '../connection';
import { Store } from '../store';

/**
 * Where the store contract suite runs: `HOOKRAIL_MONGODB_URI` (any MongoDB 6+ or
 * MongoDB-protocol server; each test file then uses a fresh database on it and drops it
 * afterwards), else the per-file test database of the integration set-up.
 */
function contractUrl(): string {
  const target = process.env.HOOKRAIL_MONGODB_URI;
  if (!target) {
    const url = process.env.HOOKRAIL_TEST_MONGODB_URL;
    if (!url) throw new Error('HOOKRAIL_TEST_MONGODB_URL is not set (jest.integration-setup.js sets it)');
    return url;
  }
  const m = /^(mongodb(?:\+srv)?:\/\/[^/?]+)(?:\/[^?]*)?(\?.*)?$/.exec(target);
  if (!m) throw new Error(`HOOKRAIL_MONGODB_URI is not a mongodb:// URI: ${target}`);
  const db = `hookrail-contract-${Math.floor(Date.now() / 1000)}-${randomBytes(3).toString('hex')}`;
  return `${m[1]}/${db}${m[2] ?? ''}`;
}

/** True when the suite runs against a server named by HOOKRAIL_MONGODB_URI. */
export const externalTarget = Boolean(process.env.HOOKRAIL_MONGODB_URI);

export interface ContractDb {
  url: string;
  /** The services' repositories, on a database migrated as the set-up Job migrates one. */
  store: Store;
  /** A plain connection with the store's settings, for collections of the suite's own. */
  conn: Connection;
  close(): Promise<void>;
}

export async function openContractDb(appName: string): Promise<ContractDb> {
  const url = contractUrl();
  const store = await Store.connect(url, appName);
  await store.migrations().up();
  const conn = await connectMongo(url, { appName });
  return {
    url,
    store,
    conn,
    async close() {
      await conn.dropDatabase();
      await conn.close();
      await store.close();
    },
  };
}

/** A raw collection of the suite's own (fresh name per call). */
export function scratch(conn: Connection, name: string) {
  if (!conn.db) throw new Error('not connected');
  return conn.db.collection<Record<string, unknown> & { _id: string }>(
    `contract_${name}_${randomBytes(3).toString('hex')}`,
  );
}
