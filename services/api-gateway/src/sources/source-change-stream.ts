import { ChangeStreamSettingsError, changeStreamSettings, checkChangeStream } from '@hookrail/change-streams';
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
  const { restart_from_now: restart, ...settings } = input;
  // Kept across other changes: a cleared request would read as a new one and skip changes.
  const kept = (current?.restart_requested_at as string | null | undefined) ?? null;
  return { ...settings, restart_requested_at: restart === true ? now.toISOString() : kept };
}

/**
 * A change stream source is only accepted when its stream opens: an unreachable database, refused
 * credentials, a standalone server, a missing collection, a `$match` the server refuses or a
 * private host the deployment does not allow answer 400 naming the field.
 */
export async function assertChangeStreamWorks(deps: GatewayDeps, stored: Json | null): Promise<void> {
  if (!stored) return;
  const settings = changeStreamSettings(
    stored,
    String(stored.connection_string),
    deps.config.brokers.allowPrivateHosts,
  );
  let problem;
  try {
    problem = await checkChangeStream(settings);
  } catch (err) {
    if (!(err instanceof ChangeStreamSettingsError)) throw err;
    problem = { field: err.field, message: err.message };
  }
  if (problem)
    throw new ValidationError(`${problem.field}: ${problem.message}`, [
      { field: problem.field, message: problem.message },
    ]);
}
