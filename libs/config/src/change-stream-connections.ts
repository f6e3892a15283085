import { ConfigError, optionalStr, type Env } from './env';

/**
 * A database connection the operator configured for `db_change_stream` sources, so that a source
 * names it instead of carrying the connection string (the chart reads it from a Kubernetes Secret):
 * tenants never see or send the credentials, and only the listed projects may use it.
 */
export interface ChangeStreamConnection {
  url: string;
  /** Project ids allowed to use it; `*` is every project. */
  projects: readonly string[];
}

const NAME = /^[a-z][a-z0-9-]{0,62}$/;

/** The variable holding a named connection's string: `orders-db` → HOOKRAIL_CHANGE_STREAM_CONNECTION_ORDERS_DB. */
export const connectionVariable = (name: string) =>
  `HOOKRAIL_CHANGE_STREAM_CONNECTION_${name.toUpperCase().replace(/-/g, '_')}`;

/**
 * HOOKRAIL_CHANGE_STREAM_CONNECTIONS: JSON `[{"name": "orders-db", "projects": ["<id>" | "*"]}]`,
 * each string in its own variable (`connectionVariable`). A declared name without its string is a
 * configuration error at start, not a source that fails later.
 */
export function changeStreamConnections(env: Env): ReadonlyMap<string, ChangeStreamConnection> {
  const variable = 'HOOKRAIL_CHANGE_STREAM_CONNECTIONS';
  const raw = optionalStr(env, variable);
  const connections = new Map<string, ChangeStreamConnection>();
  if (!raw) return connections;
  let declared: unknown;
  try {
    declared = JSON.parse(raw);
  } catch {
    throw new ConfigError(`${variable} must be JSON: [{"name": "...", "projects": ["*"]}]`);
  }
  if (!Array.isArray(declared)) throw new ConfigError(`${variable} must be a JSON array`);
  for (const entry of declared as { name?: unknown; projects?: unknown }[]) {
    const name = String(entry?.name ?? '');
    if (!NAME.test(name)) throw new ConfigError(`${variable}: "${name}" is not a name (a-z, 0-9, -)`);
    const projects = entry.projects;
    if (!Array.isArray(projects) || projects.length === 0 || projects.some((p) => typeof p !== 'string'))
      throw new ConfigError(
        `${variable}: "${name}" needs "projects", a non-empty list of project ids or "*"`,
      );
    const url = optionalStr(env, connectionVariable(name));
    if (!url) throw new ConfigError(`${variable}: "${name}" has no ${connectionVariable(name)}`);
    connections.set(name, { url, projects: projects as string[] });
  }
  return connections;
}
