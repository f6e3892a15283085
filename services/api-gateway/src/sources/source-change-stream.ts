import {
  ChangeStreamSettingsError,
  changeStreamSettings,
  checkChangeStreamStart,
  sourceConnectionString,
} from '@hookrail/change-streams';
import { ValidationError } from '@hookrail/domain';
import type { SourceDoc } from '@hookrail/store';
import type { GatewayDeps } from '../deps';

type Json = Record<string, unknown>;

/**
 * The `db_change_stream` settings to store: only for that type, with the operator's "restart from
 * now" turned into the time it was asked (the consumer drops a resume point older than it).
 */
export function completeDbChangeStream(
  type: SourceDoc['type'],
  input: Json | null,
  current: Json | null,
  now: Date,
): Json | null {
  if (type !== 'db_change_stream') {
    if (input)
      throw new ValidationError('db_change_stream is only for sources of type db_change_stream', [
        { field: 'db_change_stream', message: 'is only allowed when type is db_change_stream' },
      ]);
    return null;
  }
  if (!input)
    throw new ValidationError('db_change_stream is required', [
      { field: 'db_change_stream', message: 'is required when type is db_change_stream' },
    ]);
  assertOneConnection(input);
  const { restart_from_now: restart, ...settings } = input;
  // Kept across other changes: a cleared request would read as a new one and skip changes.
  const kept = (current?.restart_requested_at as string | null | undefined) ?? null;
  return { ...settings, restart_requested_at: restart === true ? now.toISOString() : kept };
}

/** A source carries its own connection string or names one the operator configured: exactly one. */
function assertOneConnection(input: Json): void {
  const own = input.connection_string !== undefined;
  const named = input.connection !== undefined;
  if (own && named)
    throw new ValidationError('db_change_stream: give connection_string or connection, not both', [
      { field: 'db_change_stream.connection', message: 'is not allowed with connection_string' },
    ]);
  if (!own && !named)
    throw new ValidationError('db_change_stream.connection_string is required', [
      {
        field: 'db_change_stream.connection_string',
        message: 'is required (or connection: the name of a connection the operator configured)',
      },
    ]);
}

/**
 * A change stream source is only accepted when its stream opens: an unreachable database, refused
 * credentials, a standalone server, a missing collection, a `$match` the server refuses, a private
 * host the deployment does not allow or a named connection the project may not use answer 400
 * naming the field. The settings to store come back with their starting point (below).
 */
export async function checkedChangeStream(
  deps: GatewayDeps,
  projectId: string,
  stored: Json | null,
  current: Json | null,
): Promise<Json | null> {
  if (!stored) return null;
  let check;
  try {
    // Not sealed yet: the source's own string is as given.
    const url = sourceConnectionString(stored, projectId, deps.config.changeStreams.connections, (s) => s);
    const settings = changeStreamSettings(stored, url, deps.config.brokers.allowPrivateHosts);
    check = await checkChangeStreamStart(settings);
  } catch (err) {
    if (!(err instanceof ChangeStreamSettingsError)) throw err;
    check = { problem: { field: err.field, message: err.message } };
  }
  const { problem } = check;
  if (problem)
    throw new ValidationError(`${problem.field}: ${problem.message}`, [
      { field: problem.field, message: problem.message },
    ]);
  return withStartToken(stored, current, check.startToken ?? null);
}

/**
 * MongoDB: where the stream starts until a resume point is stored, the server's position the check
 * just took. Taken on create and on each restart from now (and for a source that has none yet);
 * any other update keeps it, since the stored resume point of the same restart wins anyway.
 * In the settings rather than as an offset: written with `restart_requested_at` in one document,
 * it never races the running consumer's offset writes (docs/sources.md).
 */
function withStartToken(stored: Json, current: Json | null, taken: Json | null): Json {
  if (stored.type !== 'mongodb') {
    const { start_token: _none, ...rest } = stored;
    return rest;
  }
  const restarted = stored.restart_requested_at !== (current?.restart_requested_at ?? null);
  const kept = current?.type === 'mongodb' ? (current.start_token as Json | undefined) : undefined;
  return { ...stored, start_token: restarted || !kept ? taken : kept };
}
