import { errorMessage } from '@hookrail/domain';
import type { Logger } from '@hookrail/telemetry';
import { backoffMs } from '@hookrail/toolbox';
import type { ChangeStream, Document, MongoClient } from 'mongodb';
import pTimeout from 'p-timeout';
import { changeEvent, type ChangeEvent } from './change-event';
import { changeStreamClient, describeDatabase } from './connect';
import { changePipeline, fullDocumentOption, type ChangeStreamSettings } from './settings';

/** What the intake did with one change's event. */
export type ChangeVerdict =
  { kind: 'accepted' } | { kind: 'retry'; reason: string } | { kind: 'rejected'; reason: string };

export interface StoredOffset {
  token: Document | null;
  restartRequestedAt: string | null;
}

export interface ChangeStreamRun {
  sourceId: string;
  settings: ChangeStreamSettings;
  offsets: { load(): Promise<StoredOffset | null>; save(o: StoredOffset): Promise<void> };
  /** Resolves once Kafka holds the event (accepted), or says why not. */
  accept(ev: ChangeEvent): Promise<ChangeVerdict>;
  onState(state: 'connecting' | 'consuming' | 'unreachable', error?: string): void;
  /** The stored resume point is gone from the server's history: the stream stops until restarted. */
  onResumeLost(error: string): void;
  onRejected(ev: ChangeEvent, reason: string): void;
  /** Seconds between the newest change read and now (0 when caught up). */
  onLag(seconds: number): void;
  logger: Logger;
}

/** The server's codes for a resume point it no longer has (ChangeStreamHistoryLost, ChangeStreamFatalError). */
const HISTORY_LOST = new Set([286, 280]);
/** Changes accepted between two writes of the resume point while changes keep coming. */
const SAVE_EVERY = 100;

/**
 * Reads a source's change stream from its stored resume point and hands each change to `accept`
 * in commit order, one at a time; the resume point is stored only after Kafka accepted every
 * change up to it, so a crash re-reads (never skips) and the re-read events carry the same ids.
 * Reconnects with backoff until stopped; a lost resume point stops it for good.
 */
export function startChangeStream(run: ChangeStreamRun): { stop(): Promise<void> } {
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

function lost(run: ChangeStreamRun, msg: string): void {
  run.logger.error({ err: msg }, 'change stream resume point lost; waiting for a restart from now');
  run.onResumeLost(`resume point lost (the server's history no longer holds it): ${msg}`);
}

async function readStream(run: ChangeStreamRun, client: MongoClient, stopped: () => boolean): Promise<void> {
  const s = run.settings;
  const stored = await run.offsets.load();
  // A newer "restart from now" than the stored point's discards the point.
  const resume = stored?.token && stored.restartRequestedAt === s.restartRequestedAt ? stored.token : null;
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
  run: ChangeStreamRun,
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
      // Caught up: the stream's own token (it advances with the server's heartbeats too) is safe.
      run.onLag(0);
      await save(stream.resumeToken as Document | null);
      continue;
    }
    const ev = changeEvent(run.sourceId, change, run.settings);
    if (ev && !(await deliver(run, ev, stopped))) return;
    if (ev) run.onLag(Math.max(0, (Date.now() - ev.at.getTime()) / 1000));
    if (++unsaved >= SAVE_EVERY) await save(change._id as Document);
  }
}

/** False when stopped before Kafka took it (the change is read again next time). */
async function deliver(run: ChangeStreamRun, ev: ChangeEvent, stopped: () => boolean): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    const v = await run.accept(ev);
    if (v.kind === 'accepted') return true;
    if (v.kind === 'rejected') {
      run.onRejected(ev, v.reason);
      return true;
    }
    if (stopped()) return false;
    run.logger.warn({ reason: v.reason, attempt }, 'change not accepted yet, retrying');
    await new Promise((r) => setTimeout(r, backoffMs(attempt, { baseMs: 200, maxMs: 5000 })));
  }
}
