import mongoose, { type Connection } from 'mongoose';
import { Reachability } from './reachability';

/**
 * How long an operation may wait on a connection that says nothing before it fails as a network
 * timeout, which its caller retries like any outage (libs/domain isDependencyOutage). Without a
 * bound, a request sent just before the server died could wait for ever on a connection the
 * client was never told was gone, and its delivery with it (docs/database.md). Every operation of
 * the services answers within seconds, even on a saturated server.
 */
const SOCKET_TIMEOUT_MS = 30_000;

export interface ConnectOptions {
  appName?: string;
  /** SOCKET_TIMEOUT_MS; 0 for no bound (migrations: an index build may run for minutes). */
  socketTimeoutMs?: number;
}

/**
 * One mongoose connection per process. Every write is acknowledged only once it is in the journal
 * (`j: true`; majority on a replica set, which on MongoDB is journaled too): an offset is committed
 * after its documents are acknowledged, so an acknowledged write must survive a crash of the
 * server. User JSON is stored as strings (its keys may contain `.` or `$`).
 */
export async function connectMongo(url: string, opts: ConnectOptions = {}): Promise<Connection> {
  const conn = mongoose.createConnection(url, {
    appName: opts.appName,
    serverSelectionTimeoutMS: 5000,
    socketTimeoutMS: opts.socketTimeoutMs ?? SOCKET_TIMEOUT_MS,
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
