import {
  changeStreamSettings,
  sourceConnectionString,
  startChangeStream,
  type ChangeEvent,
  type ChangeStreamRun,
  type ChangeVerdict,
  type NamedConnection,
  oplogChangesBehind,
  walBytesBehind,
} from '@hookrail/change-streams';
import { errorMessage, isRetriable, newId, type ProjectId } from '@hookrail/domain';
import {
  eventMessage,
  prepareEvent,
  publishAccepted,
  pickForwardHeaders,
  type MessageProject,
} from '@hookrail/ingest';
import type { SourceDoc, Store } from '@hookrail/store';
import type { Logger } from '@hookrail/telemetry';
import type { Timestamp } from 'mongodb';
import type { HandlerDeps } from './message-handler';
import { lagRecorder, type StreamLag } from './change-stream-lag';

/** How often a running stream's lag goes to its stored health (and Postgres is asked its bytes behind). */
const LAG_RECORD_MS = 5000;

export interface ChangeStreamHooks {
  onState(state: 'connecting' | 'consuming' | 'unreachable', error?: string): void;
  onResumeLost(error: string): void;
  onRejected(reason: string): void;
  onLag(seconds: number): void;
  /** The lag for the source's stored health, every LAG_RECORD_MS while it reads. */
  recordLag(lag: StreamLag): Promise<void>;
}

export interface ChangeStreamSourceDeps extends HandlerDeps {
  store: Pick<Store, 'changeStreamOffsets'>;
  open(sealed: string): string;
  namedConnections: ReadonlyMap<string, NamedConnection>;
  allowPrivateHosts: boolean;
}

/**
 * Runs a `db_change_stream` source: libs/change-streams reads the database, and each change takes
 * the intake every source takes (body/header functions, the catalog's check, `eventMessage`,
 * Kafka's acknowledgement), with the event id and idempotency key derived from the change.
 */
export function startChangeStreamSource(
  source: SourceDoc,
  project: MessageProject,
  deps: ChangeStreamSourceDeps,
  hooks: ChangeStreamHooks & { logger: Logger },
): { stop(): Promise<void> } {
  const stored = source.db_change_stream ?? {};
  const url = sourceConnectionString(stored, source.project_id, deps.namedConnections, deps.open);
  const settings = changeStreamSettings(stored, url, deps.allowPrivateHosts);
  // MongoDB counts the changes after the newest one read; Postgres measures its slot in bytes.
  let position: Timestamp | undefined;
  const recorder = lagRecorder({
    everyMs: LAG_RECORD_MS,
    behind:
      settings.type === 'postgres'
        ? async () => ({ behind_bytes: await walBytesBehind(settings) })
        : async () => ({ behind_changes: await oplogChangesBehind(settings, position) }),
    write: hooks.recordLag,
  });
  let stream;
  try {
    stream = startChangeStream({
      sourceId: source._id,
      settings,
      logger: hooks.logger,
      offsets: storedOffsets(source, deps),
      accept: (ev) => acceptChange(source, project, ev, deps),
      onState: (state, error) => {
        recorder.state(state);
        hooks.onState(state, error);
      },
      onResumeLost: (error) => {
        recorder.state('resume_lost');
        hooks.onResumeLost(error);
      },
      onRejected: (_ev, reason) => hooks.onRejected(reason),
      onLag: (seconds, at) => {
        position = at;
        recorder.seconds(seconds);
        hooks.onLag(seconds);
      },
    });
  } catch (err) {
    recorder.stop();
    throw err;
  }
  const running = stream;
  return {
    async stop() {
      recorder.stop();
      await running.stop();
    },
  };
}

/** The source's resume point in the store (change_stream_offsets), as the stream reads and writes it. */
function storedOffsets(source: SourceDoc, deps: ChangeStreamSourceDeps): ChangeStreamRun['offsets'] {
  const offsets = deps.store.changeStreamOffsets;
  return {
    load: async () => {
      const o = await offsets.find(source._id);
      return o ? { token: o.token, restartRequestedAt: o.restart_requested_at } : null;
    },
    save: (o) => offsets.save(source.project_id, source._id, o.token, o.restartRequestedAt),
  };
}

/** One change through the shared intake; a change the source's functions or catalog refuse is rejected for good. */
async function acceptChange(
  source: SourceDoc,
  project: MessageProject,
  ev: ChangeEvent,
  deps: ChangeStreamSourceDeps,
): Promise<ChangeVerdict> {
  try {
    const headers = { 'content-type': 'application/json', 'x-hookrail-change-type': ev.eventType };
    const prepared = await prepareEvent(
      source,
      { headers, rawBody: Buffer.from(ev.body), query: '' },
      (text, input, scope) => deps.functions.run(text, input, { scope }),
    );
    if (prepared.kind !== 'ok') return { kind: 'rejected', reason: prepared.message };
    const e = prepared.event;
    const checked = await deps.validator.check(
      source.project_id,
      (await deps.cache.project(source.project_id))?.config.event_validation,
      ev.eventType,
      e.data,
      Buffer.byteLength(e.raw),
    );
    if (checked.kind === 'refused') return { kind: 'rejected', reason: checked.message };
    const message = eventMessage(
      {
        projectId: source.project_id,
        sourceId: source._id,
        eventType: ev.eventType,
        // An outgoing project's change goes to every endpoint its subscriptions select.
        target: project.type === 'incoming' ? { mode: 'source' } : { mode: 'broadcast' },
        data: e.data,
        raw: e.raw,
        headers: e.headers,
        forwardHeaders: pickForwardHeaders(e.headers, source.forward_headers ?? []),
        idempotencyKey: ev.idempotencyKey,
        verdict: checked,
      },
      // A fresh event id per read: the router's idempotency claim then tells a re-read change
      // (same key, another event id) from Kafka redelivering this very event (same id).
      { newId, now: () => new Date() },
    );
    const out = await publishAccepted(message, {
      publisher: deps.publisher,
      acceptGuard: deps.acceptGuard,
      ordersDeliveries: (projectId: ProjectId) => deps.cache.ordersDeliveries(projectId),
    });
    return out.kind === 'accepted' ? { kind: 'accepted' } : { kind: 'retry', reason: out.message };
  } catch (err) {
    return isRetriable(err)
      ? { kind: 'retry', reason: errorMessage(err) }
      : { kind: 'rejected', reason: `internal error: ${errorMessage(err)}` };
  }
}
