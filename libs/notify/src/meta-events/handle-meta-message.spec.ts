import type { MetaMessage, Publisher, RetryMessage } from '@hookrail/bus';
import type { HttpClient, OutboundResult } from '@hookrail/outbound';
import type { ProjectId, SecretBox } from '@hookrail/domain';
import type { MetaEventDoc, ProjectConfig, Store } from '@hookrail/store';
import { createLogger, Metrics } from '@hookrail/telemetry';
import { handleMetaMessage } from './handle-meta-message';

const P = 'p1' as ProjectId;
const NOW = new Date('2026-01-01T00:00:00.000Z');
const strategy: ProjectConfig['strategy'] = { type: 'linear', duration: 30, retry_count: 1 };
const message: MetaMessage = {
  project_id: P,
  event_type: 'endpoint.created',
  data: { uid: 'e1' },
  occurred_at: NOW.toISOString(),
};
const at = { topic: 'hookrail.meta', partition: 0, offset: '7' };

/** The handler over an in-memory meta event record; the receiver answers `answers` in turn. */
function handler(answers: OutboundResult[]) {
  let doc: MetaEventDoc | undefined;
  const retries: RetryMessage[] = [];
  const store = {
    projects: {
      findById: async () => ({
        _id: P,
        config: {
          strategy,
          signature: { header: 'X-Hookrail-Signature' },
          meta_event: { is_enabled: true, url: 'https://meta.example/hook', event_type: [] },
        },
      }),
    },
    metaEvents: {
      insert: async (_p: ProjectId, d: Omit<MetaEventDoc, 'project_id'>) =>
        (doc ??= { ...d, project_id: P } as MetaEventDoc),
      findById: async () => doc ?? null,
      update: async (_p: ProjectId, _id: string, change: Partial<MetaEventDoc>) =>
        void Object.assign(doc!, change),
    },
  } as unknown as Store;
  const publisher: Publisher = {
    publish: async (_topic, messages) => void retries.push(...(messages as RetryMessage[])),
  };
  const http = { send: async () => answers.shift()! } as unknown as HttpClient;
  const deps = {
    store,
    publisher,
    http,
    box: { open: () => '' } as unknown as SecretBox,
    logger: createLogger({ service: 'test', level: 'silent' }),
    metrics: new Metrics('test', { defaultMetrics: false }),
    now: () => NOW,
  };
  return {
    handle: (m: MetaMessage = message) => handleMetaMessage(deps, m, at),
    retries,
    doc: () => doc!,
  };
}
const answer = (status: number, headers: Record<string, string> = {}): OutboundResult => ({
  kind: 'response',
  status,
  headers,
  body: '',
  latencyMs: 1,
});

describe('handleMetaMessage: a send is decided like a delivery attempt', () => {
  it('schedules a retry, waiting a longer Retry-After on 503, then fails once retries are used up', async () => {
    const h = handler([answer(503, { 'retry-after': '120' }), answer(500)]);
    expect(await h.handle()).toMatchObject({ kind: 'sent', status: 'Retry' });
    expect(h.retries).toEqual([
      expect.objectContaining({ kind: 'meta', due_at: '2026-01-01T00:02:00.000Z', reason: 'failed' }),
    ]);
    expect(h.doc().metadata).toMatchObject({
      num_trials: 1,
      next_send_time: new Date('2026-01-01T00:02:00.000Z'),
    });

    const due = { ...message, meta_event_id: h.doc()._id, data: null };
    expect(await h.handle(due)).toMatchObject({ kind: 'sent', status: 'Failure' });
    expect(h.retries).toHaveLength(1);
    expect(h.doc().metadata).toMatchObject({ num_trials: 2, next_send_time: null });
  });

  it('succeeds on a 2xx and retries a network error', async () => {
    expect(await handler([answer(204)]).handle()).toMatchObject({ status: 'Success' });
    const refused = handler([
      { kind: 'error', code: 'ECONNREFUSED', message: 'refused', maybeReached: false, latencyMs: 1 },
    ]);
    expect(await refused.handle()).toMatchObject({ status: 'Retry' });
    expect(refused.doc().attempt?.response_data).toBe('ECONNREFUSED: refused');
  });
});
