import { errorMessage } from '@hookrail/domain';
import { Client, type ClientConfig } from 'pg';
import pTimeout from 'p-timeout';
import { ChangeStreamSettingsError } from '../connect';
import type { ChangeStreamProblem, PostgresChangeStreamSettings } from '../settings';
import {
  createPublication,
  createSlot,
  missingTables,
  publicationExists,
  slotInfo,
  unpublishedTables,
} from './pg-catalog';
import { describePostgres, pgClientConfig } from './pg-connect';

const CHECK_TIMEOUT_MS = 5000;
const F = 'db_change_stream';
type Problem = ChangeStreamProblem | undefined;

/**
 * Tries a postgres source against its database: reachable, the credentials accepted,
 * `wal_level=logical`, a role with REPLICATION, the tables there, the publication and the slot
 * there (created here when `create_if_missing`), and a replication connection allowed. Each
 * failure is a problem naming the field to fix, with the server's message.
 */
export async function checkPostgres(s: PostgresChangeStreamSettings): Promise<Problem> {
  let config: ClientConfig;
  try {
    config = pgClientConfig(s, CHECK_TIMEOUT_MS - 1000);
  } catch (err) {
    if (err instanceof ChangeStreamSettingsError) return { field: err.field, message: err.message };
    throw err;
  }
  const clients: Client[] = [];
  const open = async (replication: boolean) => {
    // `replication` is a startup parameter node-postgres passes on, missing from its types.
    const c = new Client(replication ? ({ ...config, replication: 'database' } as ClientConfig) : config);
    clients.push(c);
    c.on('error', () => undefined);
    await c.connect();
    return c;
  };
  try {
    return await pTimeout(checkWith(open, s), {
      milliseconds: CHECK_TIMEOUT_MS,
      fallback: () => ({
        field: `${F}.connection_string`,
        message: `no answer from ${describePostgres(s)} within ${CHECK_TIMEOUT_MS} ms`,
      }),
    });
  } finally {
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  }
}

async function checkWith(
  open: (replication: boolean) => Promise<Client>,
  s: PostgresChangeStreamSettings,
): Promise<Problem> {
  let client: Client;
  try {
    client = await open(false);
  } catch (err) {
    return connectProblem(err, s);
  }
  return (
    (await serverProblem(client)) ??
    (await tablesProblem(client, s)) ??
    (await publicationProblem(client, s)) ??
    (await slotProblem(client, s)) ??
    (await replicationProblem(open))
  );
}

/** Postgres's SQLSTATE codes for refused credentials, and for a database that does not exist. */
const AUTH_FAILED = new Set(['28P01', '28000']);
const NO_DATABASE = '3D000';

function connectProblem(err: unknown, s: PostgresChangeStreamSettings): ChangeStreamProblem {
  const where = describePostgres(s);
  const code = (err as { code?: string }).code ?? '';
  const msg = errorMessage(err);
  if (AUTH_FAILED.has(code))
    return { field: `${F}.connection_string`, message: `${where} refused the credentials: ${msg}` };
  if (code === NO_DATABASE) return { field: `${F}.database`, message: `${where}: ${msg}` };
  return { field: `${F}.connection_string`, message: `cannot connect to ${where}: ${msg}` };
}

/** Logical decoding needs wal_level=logical, and the role the REPLICATION attribute. */
async function serverProblem(client: Client): Promise<Problem> {
  const wal = (await client.query<{ wal_level: string }>('SHOW wal_level')).rows[0]?.wal_level;
  if (wal !== 'logical')
    return {
      field: `${F}.connection_string`,
      message: `the server runs with wal_level=${wal}; logical replication needs wal_level=logical (postgresql.conf, then a restart)`,
    };
  const r = await client.query<{ name: string; ok: boolean }>(
    'SELECT rolname AS name, rolreplication OR rolsuper AS ok FROM pg_roles WHERE rolname = current_user',
  );
  const role = r.rows[0];
  if (role && !role.ok)
    return {
      field: `${F}.connection_string`,
      message: `the role "${role.name}" may not replicate: ALTER ROLE "${role.name}" REPLICATION (or connect as a role that has it)`,
    };
  return undefined;
}

async function tablesProblem(client: Client, s: PostgresChangeStreamSettings): Promise<Problem> {
  if (s.tables.length === 0) return undefined;
  const missing = await missingTables(client, s.tables);
  if (missing.length === 0) return undefined;
  return {
    field: `${F}.tables`,
    message: `no table ${missing.map((m) => `"${m}"`).join(', ')} in database "${s.database}"`,
  };
}

async function publicationProblem(client: Client, s: PostgresChangeStreamSettings): Promise<Problem> {
  const field = `${F}.publication`;
  if (!(await publicationExists(client, s.publication))) {
    if (!s.createIfMissing)
      return {
        field,
        message: `no publication "${s.publication}" in database "${s.database}" (or set create_if_missing)`,
      };
    try {
      await createPublication(client, s.publication, s.tables);
      return undefined;
    } catch (err) {
      return { field, message: `could not create the publication "${s.publication}": ${errorMessage(err)}` };
    }
  }
  const unpublished = await unpublishedTables(client, s.publication, s.tables);
  if (unpublished.length === 0) return undefined;
  return {
    field: `${F}.tables`,
    message: `the publication "${s.publication}" does not publish ${unpublished.map((t) => `"${t}"`).join(', ')}`,
  };
}

async function slotProblem(client: Client, s: PostgresChangeStreamSettings): Promise<Problem> {
  const field = `${F}.slot`;
  const slot = await slotInfo(client, s.slot);
  if (!slot) {
    if (!s.createIfMissing)
      return { field, message: `no replication slot "${s.slot}" (or set create_if_missing)` };
    try {
      await createSlot(client, s.slot);
      return undefined;
    } catch (err) {
      return { field, message: `could not create the replication slot "${s.slot}": ${errorMessage(err)}` };
    }
  }
  if (slot.plugin !== 'pgoutput')
    return {
      field,
      message: `the slot "${s.slot}" decodes with ${slot.plugin ?? 'no plugin (a physical slot)'}, not pgoutput`,
    };
  if (slot.database !== s.database)
    return {
      field,
      message: `the slot "${s.slot}" belongs to database "${slot.database}", not "${s.database}"`,
    };
  return undefined;
}

/** pg_hba.conf allows replication connections by rules of their own: open one. */
async function replicationProblem(open: (replication: boolean) => Promise<Client>): Promise<Problem> {
  try {
    const c = await open(true);
    await c.query('IDENTIFY_SYSTEM');
    return undefined;
  } catch (err) {
    return {
      field: `${F}.connection_string`,
      message: `the server refused a replication connection: ${errorMessage(err)}`,
    };
  }
}
