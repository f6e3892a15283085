import type { Logger } from '@hookrail/telemetry';
import { backoffMs } from '@hookrail/toolbox';
import type { Document, Timestamp } from 'mongodb';
import type { ChangeEvent } from './change-event';
import type { ChangeStreamSettings } from './settings';

/** What the intake did with one change's event. */
export type ChangeVerdict =
  { kind: 'accepted' } | { kind: 'retry'; reason: string } | { kind: 'rejected'; reason: string };

export interface StoredOffset {
  token: Document | null;
  restartRequestedAt: string | null;
}

export interface ChangeStreamRun<S extends ChangeStreamSettings = ChangeStreamSettings> {
  sourceId: string;
  settings: S;
  offsets: { load(): Promise<StoredOffset | null>; save(o: StoredOffset): Promise<void> };
  /** Resolves once Kafka holds the event (accepted), or says why not. */
  accept(ev: ChangeEvent): Promise<ChangeVerdict>;
  onState(state: 'connecting' | 'consuming' | 'unreachable', error?: string): void;
  /** The stored resume point is gone from the server's history: the stream stops until restarted. */
  onResumeLost(error: string): void;
  onRejected(ev: ChangeEvent, reason: string): void;
  /**
   * Seconds between the newest change read and now (0 when caught up), and MongoDB's place of that
   * change in the server's history (absent when caught up).
   */
  onLag(seconds: number, position?: Timestamp): void;
  logger: Logger;
}

/** False when stopped before Kafka took it (the change is read again next time). */
export async function deliver(
  run: ChangeStreamRun,
  ev: ChangeEvent,
  stopped: () => boolean,
): Promise<boolean> {
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
