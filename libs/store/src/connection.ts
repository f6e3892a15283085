import mongoose, { type Connection } from 'mongoose';
import pTimeout from 'p-timeout';

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
    // A hello every 10 s per process instead of the streaming protocol's awaitable hello, which
    // the local server answers by polling: 5 % of its CPU with six services connected. Failover
    // is still noticed through the failed operation itself.
    serverMonitoringMode: 'poll',
    autoIndex: false,
    autoCreate: false,
  });
  await conn.asPromise();
  return conn;
}

/** False when the server does not answer within `timeoutMs` (a cut connection can hang until the socket times out). */
export async function pingMongo(conn: Connection, timeoutMs = 2000): Promise<boolean> {
  if (!conn.db) return false;
  const ping = conn.db
    .admin()
    .command({ ping: 1 })
    .then(() => true)
    .catch(() => false);
  return pTimeout(ping, { milliseconds: timeoutMs, fallback: () => false });
}
