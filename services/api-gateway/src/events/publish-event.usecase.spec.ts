import type { EventMessage } from '@hookrail/bus';
import { newProjectId } from '@hookrail/domain';
import { eventMessage, type EventCheck } from '@hookrail/ingest';
import type { ProjectDoc } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import { publishEvent } from './publish-event.usecase';

const PRJ1 = newProjectId();
const project = { _id: PRJ1, config: {} } as unknown as ProjectDoc;
const violations = [{ field: 'data.n', message: 'must be string' }];
const NOW = new Date('2026-01-02T03:04:05.678Z');

/**
 * Kafka, the configuration cache and the catalog are plain functions here; the real ones run in
 * events.int.spec.ts. What is checked: the events API publishes exactly the message the shared
 * intake builds (libs/ingest eventMessage, as every source entry point does:
 * libs/ingest/src/event-message.spec.ts), through the shared publish step.
 */
function deps(over: { ordered?: boolean; check?: EventCheck } = {}) {
  const published: EventMessage[] = [];
  const guarded: string[] = [];
  const d = {
    cache: {
      endpointExists: async (_p: unknown, id: string) => id === 'EP1',
      ordersDeliveries: async (p: unknown) => p === PRJ1 && (over.ordered ?? false),
    },
    eventValidator: { check: async () => over.check ?? { kind: 'accepted', violations: [] } },
    publisher: {
      publish: async (topic: string, messages: EventMessage[]) => {
        if (topic === 'events') published.push(...messages);
      },
    },
    acceptGuard: { run: (send: () => Promise<void>) => (guarded.push('run'), send()) },
    logger: { debug: () => undefined },
    now: () => NOW,
  } as unknown as GatewayDeps;
  return { d, published, guarded };
}

const body = {
  endpoint_id: 'EP1',
  event_type: 'invoice.paid',
  data: { n: 1 },
  custom_headers: { 'X-C': 'c' },
  idempotency_key: 'k1',
};

describe('publishEvent (the events API entry point)', () => {
  it('publishes the message eventMessage builds, ordered and with the warnings, through the guard', async () => {
    const { d, published, guarded } = deps({ ordered: true, check: { kind: 'accepted', violations } });
    const answer = await publishEvent(d, project, { mode: 'single', body });
    expect(published).toHaveLength(1);
    const [message] = published;
    const expected = eventMessage(
      {
        projectId: PRJ1,
        eventType: 'invoice.paid',
        target: { mode: 'single', endpoint_id: 'EP1' },
        raw: '{"n":1}',
        headers: { 'x-c': 'c' },
        forwardHeaders: { 'x-c': 'c' },
        idempotencyKey: 'k1',
        verdict: { kind: 'accepted', violations },
      },
      { newId: () => message.event_id, now: () => NOW },
    );
    expect(message).toEqual({ ...expected, ordered: true });
    // `data` is left out: the router parses `raw`.
    expect('data' in message).toBe(false);
    expect(guarded).toEqual(['run']);
    expect(answer).toMatchObject({
      uid: message.event_id,
      created_at: '2026-01-02T03:04:05.678Z',
      idempotency_key: 'k1',
      validation_errors: violations,
    });
  });

  it('addresses fanout and broadcast events, and leaves out what was not sent', async () => {
    const { d, published } = deps();
    await publishEvent(d, project, { mode: 'fanout', body: { owner_id: 'o1', event_type: 't', data: [1] } });
    await publishEvent(d, project, { mode: 'broadcast', body: { event_type: 't', data: 'x' } });
    expect(published.map((m) => m.target)).toEqual([
      { mode: 'fanout', owner_id: 'o1' },
      { mode: 'broadcast' },
    ]);
    for (const m of published) {
      expect(m).toMatchObject({ project_id: PRJ1, event_type: 't', headers: {}, forward_headers: {} });
      for (const key of [
        'source_id',
        'data',
        'url_query_params',
        'idempotency_key',
        'validation_errors',
        'ordered',
      ])
        expect(key in m).toBe(false);
    }
    expect(published.map((m) => m.raw)).toEqual(['[1]', '"x"']);
  });
});
