import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * The user's PostgreSQL of the tests: the local cluster on 5433 (deploy/local/servers.sh
 * `postgres`, wal_level=logical), as its superuser; each test gets a database of its own.
 */
export const USER_POSTGRES_URL =
  process.env.HOOKRAIL_TEST_CDC_POSTGRES_URL ?? 'postgres://postgres:postgres@127.0.0.1:5433/postgres';

async function connected(database: string): Promise<Client> {
  const url = new URL(USER_POSTGRES_URL);
  url.pathname = `/${database}`;
  const c = new Client({ connectionString: url.toString() });
  c.on('error', () => undefined);
  await c.connect();
  return c;
}

/** SQL on the cluster's `postgres` database (roles, databases), on a connection of its own. */
export async function adminSql(sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const c = await connected('postgres');
  try {
    return (await c.query(sql, params)).rows as Record<string, unknown>[];
  } finally {
    await c.end();
  }
}

export interface UserPostgres {
  name: string;
  sql(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** A connection of the caller's own to the database (a bench's steady writer); the caller ends it. */
  connect(): Promise<Client>;
  /**
   * A `db_change_stream` source's settings on this database (publication `hookrail`, a slot named
   * after the database, both created by the source), with `over` on top.
   */
  sourceSettings(over?: Record<string, unknown>): Record<string, unknown>;
  /** Ends the slot's connection (as `pg_terminate_backend` would for an operator) and drops it. */
  dropSlot(slot: string): Promise<void>;
  drop(): Promise<void>;
}

/** A fresh database running `setup` (CREATE TABLE…); `drop` removes it with its slots. */
export async function userPostgres(setup: string): Promise<UserPostgres> {
  const name = `cdc_${randomBytes(4).toString('hex')}`;
  await adminSql(`CREATE DATABASE ${name}`);
  // A connection per statement: a test that restarts the server goes on with the next one.
  const sql = async (text: string, params: unknown[] = []) => {
    const client = await connected(name);
    try {
      return (await client.query(text, params)).rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  };
  await sql(setup);
  const dropSlots = async (where: string, params: unknown[]) => {
    // A slot in use cannot be dropped: end its connection first (the consumer may reconnect).
    for (let i = 0; i < 50; i++) {
      await adminSql(
        `SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE active_pid IS NOT NULL AND ${where}`,
        params,
      );
      const left = await adminSql(`SELECT slot_name FROM pg_replication_slots WHERE ${where}`, params);
      if (left.length === 0) return;
      const dropped = await adminSql(
        `SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE NOT active AND ${where}`,
        params,
      ).catch(() => []);
      if (dropped.length === left.length) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`could not drop the slots of ${name}`);
  };
  return {
    name,
    sql,
    connect: () => connected(name),
    sourceSettings: (over = {}) => ({
      type: 'postgres',
      connection_string: USER_POSTGRES_URL,
      database: name,
      publication: 'hookrail',
      slot: `${name}_slot`,
      create_if_missing: true,
      ...over,
    }),
    dropSlot: (slot) => dropSlots('slot_name = $1', [slot]),
    async drop() {
      await dropSlots('database = $1', [name]).catch(() => undefined);
      await adminSql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    },
  };
}
