import { ChangeStreamSettingsError } from './connect';

/** A connection the operator configured (libs/config `changeStreams.connections`). */
export interface NamedConnection {
  url: string;
  projects: readonly string[];
}

const FIELD = 'db_change_stream.connection';

/**
 * The connection string of a stored source: the operator's connection it names (`connection`),
 * which only the projects listed with it may use, or its own sealed `connection_string`, opened.
 */
export function sourceConnectionString(
  stored: Record<string, unknown>,
  projectId: string,
  named: ReadonlyMap<string, NamedConnection>,
  open: (sealed: string) => string,
): string {
  if (typeof stored.connection !== 'string') return open(String(stored.connection_string));
  const found = named.get(stored.connection);
  if (!found)
    throw new ChangeStreamSettingsError(FIELD, `no connection "${stored.connection}" is configured`);
  if (!found.projects.includes('*') && !found.projects.includes(projectId))
    throw new ChangeStreamSettingsError(
      FIELD,
      `connection "${stored.connection}" is not available to this project`,
    );
  return found.url;
}
