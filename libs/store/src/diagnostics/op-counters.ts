import type { Connection } from 'mongoose';

/** The server's operation counters (`serverStatus.opcounters`): commands received, by kind. */
export type OpCounters = Record<'insert' | 'query' | 'update' | 'delete' | 'getmore' | 'command', number>;

export async function readOpCounters(conn: Connection): Promise<OpCounters> {
  const status = (await conn.db!.admin().command({ serverStatus: 1 })) as { opcounters: OpCounters };
  return status.opcounters;
}
