import type { AuditRecord } from '@hookrail/api-contract';
import type { Publisher } from '@hookrail/bus';
import type { Store } from '@hookrail/store';
import { Metrics, type Logger } from '@hookrail/telemetry';
import { waitFor } from '@hookrail/testkit';
import { auditSink, type AuditSink } from './audit-sink';

const record = (uid: string) => ({ uid, operation: 'updateEndpoint' }) as AuditRecord;

/** The outbox as a list, the way the sink and its relay use it. */
function fakeOutbox(opts: { addFails?: boolean } = {}) {
  const kept: AuditRecord[] = [];
  return {
    kept,
    auditOutbox: {
      add: jest.fn(async (records: AuditRecord[]) => {
        if (opts.addFails) throw new Error('mongo down');
        kept.push(...records);
      }),
      oldest: jest.fn(async (limit: number) => kept.slice(0, limit)),
      remove: jest.fn(async (uids: string[]) => {
        for (const uid of uids)
          kept.splice(
            kept.findIndex((r) => r.uid === uid),
            1,
          );
      }),
    } as unknown as Store['auditOutbox'],
  };
}

async function counts(metrics: Metrics): Promise<Record<string, number>> {
  const metric = await metrics.registry.getSingleMetric('hookrail_audit_records_total')!.get();
  return Object.fromEntries(metric.values.map((v) => [String(v.labels.outcome), v.value]));
}

/** Until the counter shows `total` records handled. */
const handled = (metrics: Metrics, total: number) =>
  waitFor(`${total} records handled`, async () => {
    const n = Object.values(await counts(metrics)).reduce((a, b) => a + b, 0);
    return n >= total || undefined;
  });

describe('the audit sink', () => {
  let sink: AuditSink | undefined;
  afterEach(() => sink?.stop());
  const logger = { warn: jest.fn(), debug: jest.fn() } as unknown as Logger;

  it('publishes a record, and keeps one Kafka refuses in the outbox', async () => {
    const metrics = new Metrics('t', { defaultMetrics: false });
    const outbox = fakeOutbox();
    let kafkaUp = true;
    const publisher = {
      publish: jest.fn(async () => {
        if (!kafkaUp) throw new Error('kafka down');
      }),
    } as unknown as Publisher;
    sink = auditSink({ publisher, store: outbox, logger, metrics, relayEveryMs: 60_000 });
    sink.record(record('r1'));
    await handled(metrics, 1);
    kafkaUp = false;
    sink.record(record('r2'));
    await handled(metrics, 2);
    expect(outbox.kept.map((r) => r.uid)).toEqual(['r2']);
    expect(await counts(metrics)).toEqual({ published: 1, kept: 1 });
  });

  it('counts a record lost only when the outbox refuses it too, and never throws to the caller', async () => {
    const metrics = new Metrics('t', { defaultMetrics: false });
    const publisher = { publish: jest.fn(async () => Promise.reject(new Error('kafka down'))) };
    sink = auditSink({
      publisher: publisher as unknown as Publisher,
      store: fakeOutbox({ addFails: true }),
      logger,
      metrics,
      relayEveryMs: 60_000,
    });
    expect(() => sink!.record(record('r3'))).not.toThrow();
    await handled(metrics, 1);
    expect(await counts(metrics)).toEqual({ failed: 1 });
    expect(logger.warn).toHaveBeenCalledWith(
      expect.objectContaining({ operation: 'updateEndpoint' }),
      'audit record lost',
    );
  });

  it('publishes the outbox again once Kafka takes it, and forgets what was published', async () => {
    const metrics = new Metrics('t', { defaultMetrics: false });
    const outbox = fakeOutbox();
    outbox.kept.push(record('old1'), record('old2'));
    const published: string[] = [];
    const publisher = {
      publish: jest.fn(
        async (_topic: string, records: AuditRecord[]) => void published.push(...records.map((r) => r.uid)),
      ),
    };
    sink = auditSink({
      publisher: publisher as unknown as Publisher,
      store: outbox,
      logger,
      metrics,
      relayEveryMs: 5,
    });
    await handled(metrics, 2);
    expect(published).toEqual(['old1', 'old2']);
    expect(outbox.kept).toEqual([]);
    expect(await counts(metrics)).toEqual({ republished: 2 });
  });

  it('records sent events per window, and on a stop records the open window and waits for it', async () => {
    const metrics = new Metrics('t', { defaultMetrics: false });
    const published: AuditRecord[] = [];
    const publisher = {
      publish: jest.fn(async (_topic: string, records: AuditRecord[]) => void published.push(...records)),
    };
    sink = auditSink({
      publisher: publisher as unknown as Publisher,
      store: fakeOutbox(),
      logger,
      metrics,
      relayEveryMs: 60_000,
      publishWindowMs: 200,
    });
    const sent = (at: number, keyId: string) => ({
      record: { operation: 'createEvent', status: 201, actor: { kind: 'api_key', key_id: keyId } },
      at,
      eventIds: [`e${at}`],
    });
    const now = Date.now();
    sink.aggregate(sent(now, 'k1') as never);
    sink.aggregate(sent(now, 'k1') as never);
    // the window ends within 200 ms, the timer records it within a quarter window after
    await handled(metrics, 1);
    expect(published).toHaveLength(1);
    expect(published[0].aggregate).toMatchObject({ count: 2 });

    sink.aggregate(sent(Date.now() + 60_000, 'k2') as never); // a window far from its end
    await sink.stop();
    sink = undefined;
    expect(published.map((r) => [r.actor.key_id, r.aggregate?.count])).toEqual([
      ['k1', 2],
      ['k2', 1],
    ]);
    expect(await counts(metrics)).toEqual({ published: 2 });
  });

  it('waits at a stop for a record on its way, but not longer than its bound', async () => {
    const metrics = new Metrics('t', { defaultMetrics: false });
    const never = new Promise<void>(() => undefined);
    const add = jest.fn(() => never);
    const outbox = {
      auditOutbox: { add, oldest: jest.fn(async () => []), remove: jest.fn() },
    } as unknown as Pick<Store, 'auditOutbox'>;
    const publisher = { publish: jest.fn(async () => Promise.reject(new Error('kafka down'))) };
    const warn = jest.fn();
    sink = auditSink({
      publisher: publisher as unknown as Publisher,
      store: outbox,
      logger: { ...logger, warn } as unknown as Logger,
      metrics,
      relayEveryMs: 60_000,
      stopWaitMs: 100,
    });
    sink.record(record('r4'));
    await waitFor('the outbox write', () => add.mock.calls.length > 0);
    await sink.stop();
    sink = undefined;
    expect(warn).toHaveBeenCalledWith({ records: 1 }, 'audit records still unsent at stop');
  });
});
