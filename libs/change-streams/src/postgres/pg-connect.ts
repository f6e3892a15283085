import net from 'node:net';
import { guardedLookup, refusedLiteral } from '@hookrail/outbound';
import type { ClientConfig } from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';
import { ChangeStreamSettingsError } from '../connect';
import type { PostgresChangeStreamSettings } from '../settings';

const FIELD = 'db_change_stream.connection_string';

/**
 * node-postgres settings for the user's database: the connection string's, with the source's
 * `database` (the one its slot lives in). Its host is the tenant's choice, so unless the
 * deployment allows private hosts it passes the same guard as broker connections
 * (libs/outbound): an IP literal is refused here, a name by the guarded lookup of the socket.
 */
export function pgClientConfig(s: PostgresChangeStreamSettings, timeoutMs: number): ClientConfig {
  let parsed: ClientConfig;
  try {
    parsed = parseIntoClientConfig(s.connectionString);
  } catch (err) {
    throw new ChangeStreamSettingsError(
      FIELD,
      `not a PostgreSQL connection string: ${(err as Error).message}`,
    );
  }
  const refused = refusedLiteral(parsed.host ?? 'localhost', s.allowPrivateHosts);
  if (refused) throw new ChangeStreamSettingsError(FIELD, refused.message);
  return {
    ...parsed,
    database: s.database,
    connectionTimeoutMillis: timeoutMs,
    application_name: 'hookrail-change-stream',
    ...(s.allowPrivateHosts ? {} : { stream: guardedSocket }),
  };
}

/** A socket whose host name goes through the guarded lookup (node-postgres calls `connect(port, host)`). */
function guardedSocket(): net.Socket {
  const socket = new net.Socket();
  const connect = socket.connect.bind(socket) as (o: net.TcpSocketConnectOpts) => net.Socket;
  socket.connect = ((port: number, host: string) =>
    connect({ port, host, lookup: guardedLookup as unknown as net.LookupFunction })) as typeof socket.connect;
  return socket;
}

/** Where a source's database is, for logs and messages (no credentials). */
export function describePostgres(s: PostgresChangeStreamSettings): string {
  try {
    const c = parseIntoClientConfig(s.connectionString);
    return `${c.host ?? 'localhost'}:${c.port ?? 5432}/${s.database}`;
  } catch {
    return `(invalid connection string)/${s.database}`;
  }
}
