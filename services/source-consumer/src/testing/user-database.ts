import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';

/**
 * The user's database of the tests: the second local SecantusDB, a single-node replica set
 * (deploy/local/servers.sh `mongodb-cdc`), never Hookrail's own store (standalone, no oplog).
 */
export const USER_MONGODB_URL =
  process.env.HOOKRAIL_TEST_CDC_MONGODB_URL ?? 'mongodb://127.0.0.1:27018/?replicaSet=secantus';

/** Hookrail's own store server: standalone, so a change stream on it is refused. */
export const STANDALONE_MONGODB_URL = 'mongodb://127.0.0.1:27017/';

/** A fresh database on the user's server with the named collections; `drop` removes it. */
export async function userDatabase(
  collections: string[],
): Promise<{ db: Db; name: string; drop(): Promise<void> }> {
  const client = await MongoClient.connect(USER_MONGODB_URL, { serverSelectionTimeoutMS: 5000 });
  const name = `cdc-${randomBytes(4).toString('hex')}`;
  const db = client.db(name);
  for (const c of collections) await db.createCollection(c);
  return {
    db,
    name,
    async drop() {
      await db.dropDatabase().catch(() => undefined);
      await client.close();
    },
  };
}
