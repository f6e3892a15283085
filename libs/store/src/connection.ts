import mongoose, { type Connection } from 'mongoose';
import { Reachability } from './reachability';

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

/** One Reachability per connection: its ping in flight and its last verdict outlive a check. */
const reachabilities = new WeakMap<Connection, Reachability>();

/** Whether the server answers (reachability.ts tells a busy server from an unreachable one). */
export async function pingMongo(conn: Connection): Promise<boolean> {
  const db = conn.db;
  if (!db) return false;
  let reachability = reachabilities.get(conn);
  if (!reachability) {
    reachability = new Reachability(() => db.admin().command({ ping: 1 }));
    reachabilities.set(conn, reachability);
  }
  return reachability.check();
}
