import { errorMessage } from '@hookrail/domain';
import { backoffMs } from '@hookrail/toolbox';
import { Client } from 'pg';
import pTimeout from 'p-timeout';
import type { ChangeStreamRun } from '../run';
import type { PostgresChangeStreamSettings } from '../settings';
import { advanceSlotToNow, createPublication, createSlot, publicationExists, slotInfo } from './pg-catalog';
import { describePostgres, pgClientConfig } from './pg-connect';
import { PgReader } from './pg-reader';

type Run = ChangeStreamRun<PostgresChangeStreamSettings>;

/** The slot the source resumes from is gone (or was never there): a visible error, never a skip. */
class SlotLost extends Error {}

/** Postgres's SQLSTATE for an object that does not exist (START_REPLICATION on a dropped slot). */
const UNDEFINED_OBJECT = '42704';

/**
 * Reads a postgres source's changes through its logical replication slot, from the stored
 * position (pg-reader.ts: each change to `accept` in commit order; the position stored, then
 * acknowledged to the server, only after Kafka accepted every change before it). Reconnects with
 * backoff until stopped; a dropped slot stops it until the operator restarts from now.
 */
export function startPostgresStream(run: Run): { stop(): Promise<void> } {
  let stopped = false;
  let reader: PgReader | undefined;
  let wake: () => void = () => undefined;
  const stopping = new Promise<void>((r) => (wake = r));
  const loop = async () => {
    const progress = { attempt: 0 };
    for (; !stopped; progress.attempt++) {
      run.onState('connecting');
      try {
        const start = await prepareSlot(run);
        if (stopped) return;
        reader = new PgReader(run, start, () => stopped);
        await reader.read(() => (progress.attempt = 0));
      } catch (err) {
        if (stopped) return;
        const msg = errorMessage(err);
        if (err instanceof SlotLost || (err as { code?: string }).code === UNDEFINED_OBJECT)
          return lost(run, msg);
        run.onState('unreachable', msg);
        run.logger.warn(
          { err: msg, attempt: progress.attempt, database: describePostgres(run.settings) },
          'postgres change stream failed, reconnecting',
        );
      } finally {
        await reader?.close().catch(() => undefined);
        reader = undefined;
      }
      await pTimeout(stopping, {
        milliseconds: backoffMs(progress.attempt, { baseMs: 500, maxMs: 10_000 }),
        message: false,
      });
    }
  };
  const running = loop().catch((err: unknown) =>
    run.logger.error({ err: errorMessage(err) }, 'postgres change stream stopped by an error'),
  );
  return {
    async stop() {
      stopped = true;
      wake();
      // Ends the replication connection (and the slot is free for the next owner) once the change
      // being accepted, if any, is in Kafka and its position stored.
      await reader?.close().catch(() => undefined);
      await running;
    },
  };
}

function lost(run: Run, msg: string): void {
  run.logger.error({ err: msg }, 'postgres replication slot lost; waiting for a restart from now');
  run.onResumeLost(msg);
}

/**
 * Where to start: the stored position, unless the operator asked to restart from now since it was
 * stored. Creates the slot (create_if_missing) or moves it to now for a restart, and stores that
 * position at once, so a crash before the first change does not move it again.
 */
async function prepareSlot(run: Run): Promise<string> {
  const s = run.settings;
  const stored = await run.offsets.load();
  const resume =
    stored?.token && stored.restartRequestedAt === s.restartRequestedAt ? String(stored.token.lsn) : null;
  const client = new Client(pgClientConfig(s, 10_000));
  client.on('error', () => undefined);
  try {
    await client.connect();
    if (s.createIfMissing && !(await publicationExists(client, s.publication)))
      await createPublication(client, s.publication, s.tables);
    let slot = await slotInfo(client, s.slot);
    if (slot && resume) return resume;
    if (!slot && resume)
      throw new SlotLost(
        `the replication slot "${s.slot}" no longer exists (dropped?): the changes after ${resume} are lost to this source; restart it from now`,
      );
    if (!slot && !s.createIfMissing)
      throw new SlotLost(
        `no replication slot "${s.slot}" in database "${s.database}": create it, then restart from now`,
      );
    if (!slot) await createSlot(client, s.slot);
    else if (s.restartRequestedAt && stored?.restartRequestedAt !== s.restartRequestedAt)
      await advanceSlotToNow(client, s.slot);
    slot = await slotInfo(client, s.slot);
    const lsn = slot?.confirmed_flush_lsn ?? '0/0';
    await run.offsets.save({ token: { lsn }, restartRequestedAt: s.restartRequestedAt });
    return lsn;
  } finally {
    await client.end().catch(() => undefined);
  }
}
