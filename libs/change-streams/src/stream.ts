import { errorMessage } from '@hookrail/domain';
import { backoffMs } from '@hookrail/toolbox';
import type { ChangeStream, Document, MongoClient } from 'mongodb';
import { deliver, type ChangeStreamRun } from './run';
import pTimeout from 'p-timeout';
import { changeEvent } from './change-event';
import { changeStreamClient, describeDatabase } from './connect';
import { startPostgresStream } from './postgres/pg-stream';
import { changePipeline, fullDocumentOption, type MongoChangeStreamSettings } from './settings';

/** The server's codes for a resume point it no longer has (ChangeStreamHistoryLost, ChangeStreamFatalError). */
const HISTORY_LOST = new Set([286, 280]);
/** Changes accepted between two writes of the resume point while changes keep coming. */
const SAVE_EVERY = 100;

/** Starts reading a source's changes: a MongoDB change stream, or PostgreSQL logical replication. */
export function startChangeStream(run: ChangeStreamRun): { stop(): Promise<void> } {
  const s = run.settings;
  return s.type === 'postgres'
    ? startPostgresStream({ ...run, settings: s })
    : startMongoStream({ ...run, settings: s });
}

/**
 * Reads a source's change stream from its stored resume point and hands each change to `accept`
 * in commit order, one at a time; the resume point is stored only after Kafka accepted every
 * change up to it, so a crash re-reads (never skips) and the re-read events carry the same ids.
 * Reconnects with backoff until stopped; a lost resume point stops it for good.
 */
function startMongoStream(run: ChangeStreamRun<MongoChangeStreamSettings>): { stop(): Promise<void> } {
  let stopped = false;
  let current: MongoClient | undefined;
  let wake: () => void = () => undefined;
  const stopping = new Promise<void>((r) => (wake = r));
  const loop = async () => {
    for (let attempt = 0; !stopped; attempt++) {
      run.onState('connecting');
      try {
        current = changeStreamClient(run.settings, 10_000);
        await current.connect();
        attempt = 0;
        await readStream(run, current, () => stopped);
      } catch (err) {
        if (stopped) return;
        const msg = errorMessage(err);
        if (HISTORY_LOST.has(Number((err as { code?: unknown }).code))) return lost(run, msg);
        run.onState('unreachable', msg);
        run.logger.warn(
          { err: msg, attempt, database: describeDatabase(run.settings) },
          'change stream failed, reconnecting',
        );
      } finally {
        await current?.close().catch(() => undefined);
      }
      await pTimeout(stopping, {
        milliseconds: backoffMs(attempt, { baseMs: 500, maxMs: 10_000 }),
        message: false,
      });
    }
  };
  const running = loop();
  return {
    async stop() {
      stopped = true;
      wake();
      // Closing the client ends a connect or a wait for changes at once; an accept under way
      // finishes first (its resume point is then stored), since it needs no database.
      await current?.close().catch(() => undefined);
      await running;
    },
  };
}

function lost(run: ChangeStreamRun<MongoChangeStreamSettings>, msg: string): void {
  run.logger.error({ err: msg }, 'change stream resume point lost; waiting for a restart from now');
  run.onResumeLost(`resume point lost (the server's history no longer holds it): ${msg}`);
}

async function readStream(
  run: ChangeStreamRun<MongoChangeStreamSettings>,
  client: MongoClient,
  stopped: () => boolean,
): Promise<void> {
  const s = run.settings;
  const stored = await run.offsets.load();
  // A newer "restart from now" than the stored point's discards the point; the API's position
  // at the create (or the restart) then stands in for it.
  const ours = stored?.token && stored.restartRequestedAt === s.restartRequestedAt;
  const resume = ours ? stored.token : s.startToken;
  const stream = client.db(s.database).watch(changePipeline(s), {
    ...fullDocumentOption(s),
    ...(resume ? { resumeAfter: resume } : {}),
    maxAwaitTimeMS: 1000,
  });
  try {
    await pump(run, stream, stopped, JSON.stringify(resume));
  } finally {
    await stream.close().catch(() => undefined);
  }
}

async function pump(
  run: ChangeStreamRun<MongoChangeStreamSettings>,
  stream: ChangeStream,
  stopped: () => boolean,
  savedAs: string,
): Promise<void> {
  let unsaved = 0;
  let consuming = false;
  const save = async (token: Document | null | undefined) => {
    const text = JSON.stringify(token ?? null);
    if (!token || text === savedAs) return;
    await run.offsets.save({ token, restartRequestedAt: run.settings.restartRequestedAt });
    savedAs = text;
    unsaved = 0;
  };
  while (!stopped()) {
    const change = await stream.tryNext();
    if (!consuming) {
      consuming = true;
      run.onState('consuming');
    }
    if (!change) {
      // The server ended the stream (an invalidate: its database or collection dropped or
      // renamed). A closed stream answers at once, forever: looping on it would never yield to
      // the event loop and starve every other source of this process.
      if (stream.closed)
        throw new Error('the server ended the change stream (was the database or collection dropped?)');
      // Caught up: the stream's own token (it advances with the server's heartbeats too) is safe.
      run.onLag(0);
      await save(stream.resumeToken as Document | null);
      continue;
    }
    const ev = changeEvent(run.sourceId, change, run.settings);
    if (ev && !(await deliver(run, ev, stopped))) return;
    if (ev) run.onLag(Math.max(0, (Date.now() - ev.at.getTime()) / 1000), ev.position);
    if (++unsaved >= SAVE_EVERY) await save(change._id as Document);
  }
}
