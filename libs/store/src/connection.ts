import mongoose, { type Connection } from 'mongoose';

/**
 * One mongoose connection per process. The code uses only what both MongoDB and the
 * MongoDB-protocol test server (FerretDB 1.x) support: no transactions, no change streams, no TTL
 * or partial indexes, no `$lookup`, and no user-controlled keys in documents (user JSON is stored
 * as strings).
 */
export async function connectMongo(url: string, opts: { appName?: string } = {}): Promise<Connection> {
  const conn = mongoose.createConnection(url, {
    appName: opts.appName,
    serverSelectionTimeoutMS: 5000,
    maxPoolSize: 50,
    autoIndex: false,
    autoCreate: false,
  });
  await conn.asPromise();
  return conn;
}

export async function pingMongo(conn: Connection): Promise<boolean> {
  try {
    if (!conn.db) return false;
    await conn.db.admin().command({ ping: 1 });
    return true;
  } catch {
    return false;
  }
}
