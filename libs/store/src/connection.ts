import mongoose, { type Connection } from 'mongoose';

/**
 * One mongoose connection per process. Every write is acknowledged only once it is in the journal
 * (`j: true`; majority on a replica set, which on MongoDB is journaled too): an offset is committed
 * after its documents are acknowledged, so an acknowledged write must survive a crash of the
 * server. User JSON is stored as strings (its keys may contain `.` or `$`).
 */
export async function connectMongo(url: string, opts: { appName?: string } = {}): Promise<Connection> {
  const conn = mongoose.createConnection(url, {
    appName: opts.appName,
    serverSelectionTimeoutMS: 5000,
    maxPoolSize: 50,
    writeConcern: { w: 'majority', journal: true },
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
