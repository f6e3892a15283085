import type { ProjectId } from '@hookrail/domain';
import type { ScheduleDoc, Store } from '@hookrail/store';
import { createLogger, Metrics } from '@hookrail/telemetry';
import type { RetryRequest } from './schedule-entry';
import { Scheduler } from './scheduler';

const P = 'p1' as ProjectId;
const retry = (id: string, over: Partial<RetryRequest> = {}): RetryRequest => ({
  delivery_id: id,
  project_id: P,
  endpoint_id: 'ep1',
  event_id: 'ev1',
  due_at: new Date(Date.now() - 1000).toISOString(),
  reason: 'failed',
  ...over,
});

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`never: ${what}`);
}

/** A scheduler over an in-memory schedules collection; `fire` records what it was given. */
function scheduler(
  opts: {
    failFirstFires?: number;
    deliveries?: Record<string, string>;
    holdWithinMs?: number;
    maxHeld?: number;
  } = {},
) {
  const stored = new Map<string, ScheduleDoc>();
  const fired: ScheduleDoc[] = [];
  let failures = opts.failFirstFires ?? 0;
  const store = {
    schedules: {
      insertMany: async (docs: ScheduleDoc[]) => docs.forEach((d) => stored.set(d._id, d)),
      findByShards: async (shards: string[]) => [...stored.values()].filter((d) => shards.includes(d.shard)),
      deleteByIds: async (entries: { id: string }[]) => entries.forEach((e) => stored.delete(e.id)),
    },
    deliveries: {
      findById: async (_p: ProjectId, id: string) =>
        opts.deliveries?.[id] ? { event_id: opts.deliveries[id] } : null,
    },
  } as unknown as Store;
  const s = new Scheduler(
    {
      store,
      fire: async (due) => {
        if (failures-- > 0) throw new Error('kafka down');
        fired.push(...due);
      },
      logger: createLogger({ service: 'test', level: 'silent' }),
      metrics: new Metrics('test', { defaultMetrics: false }),
    },
    { shardPrefix: 'hr', deleteIntervalMs: 10, holdWithinMs: opts.holdWithinMs, maxHeld: opts.maxHeld },
  );
  s.start();
  return { s, stored, fired };
}

describe('Scheduler', () => {
  const running: Scheduler[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.stop()));
  });

  it('stores a retry, fires it when due on an owned partition, then deletes it', async () => {
    const { s, stored, fired } = scheduler({ holdWithinMs: 0 });
    running.push(s);
    s.onAssignment([0]);
    const trace = { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' };
    await s.accept(retry('d1', { due_at: new Date(Date.now() + 50).toISOString() }), 0, trace);
    expect(stored.size).toBe(1);
    await until('fired', () => fired.length === 1);
    expect(fired[0]).toMatchObject({ target_id: 'd1', event_id: 'ev1', shard: 'hr/0', ...trace });
    await until('deleted', () => stored.size === 0);
  });

  it('keeps an entry of a partition it does not own without firing it, and loads it once assigned', async () => {
    const { s, stored, fired } = scheduler();
    running.push(s);
    s.onAssignment([0]);
    await s.accept(retry('d2'), 1);
    expect(stored.size).toBe(1);
    expect(fired).toEqual([]);
    s.onAssignment([0, 1]);
    await until('fired after assignment', () => fired.length === 1);
  });

  it('holds a retry due soon in memory unwritten, its message pending until it is fired', async () => {
    const { s, stored, fired } = scheduler();
    running.push(s);
    s.onAssignment([0]);
    await until('loaded', () => (s as unknown as { loading: number }).loading === 0);
    let left = 0;
    const msg = retry('soon', { due_at: new Date(Date.now() + 150).toISOString() });
    let ended = false;
    const handled = s.accept(msg, 0, undefined, () => left++).then(() => (ended = true));
    await new Promise((r) => setTimeout(r, 50));
    expect({ left, ended, stored: stored.size, fired: fired.length }).toEqual({
      left: 1,
      ended: false,
      stored: 0,
      fired: 0,
    });
    const again = s.accept(msg, 0); // delivered again meanwhile (a rebalance that kept the partition)
    await Promise.all([handled, again]);
    expect(fired.map((d) => d.target_id)).toEqual(['soon']);
    await s.accept(msg, 0); // delivered again after it fired
    expect(fired).toHaveLength(1);
    expect(stored.size).toBe(0);
  });

  it('writes a retry due later than the hold window, or past the held count', async () => {
    const { s, stored } = scheduler({ holdWithinMs: 1000, maxHeld: 1 });
    running.push(s);
    s.onAssignment([0]);
    await until('loaded', () => (s as unknown as { loading: number }).loading === 0);
    await s.accept(retry('later', { due_at: new Date(Date.now() + 5000).toISOString() }), 0);
    void s.accept(retry('held', { due_at: new Date(Date.now() + 500).toISOString() }), 0);
    await s.accept(retry('over', { due_at: new Date(Date.now() + 500).toISOString() }), 0);
    expect([...stored.values()].map((d) => d.target_id).sort()).toEqual(['later', 'over']);
  });

  it('writes a retry while a rebalance is under way instead of holding it', async () => {
    const { s, stored } = scheduler();
    running.push(s);
    s.onAssignment([0]);
    await until('loaded', () => (s as unknown as { loading: number }).loading === 0);
    s.onRebalancing();
    await s.accept(retry('paused', { due_at: new Date(Date.now() + 500).toISOString() }), 0);
    expect([...stored.values()].map((d) => d.target_id)).toEqual(['paused']);
  });

  it('ends a held message unfired when its partition is assigned elsewhere, so the new owner reads it', async () => {
    const { s, stored, fired } = scheduler();
    running.push(s);
    s.onAssignment([0, 1]);
    await until('loaded', () => (s as unknown as { loading: number }).loading === 0);
    const handled = s.accept(retry('moved', { due_at: new Date(Date.now() + 300).toISOString() }), 1);
    await until('held', () => (s as unknown as { held: { size: number } }).held.size === 1);
    s.onRebalancing();
    s.onAssignment([0]);
    await handled;
    await new Promise((r) => setTimeout(r, 400));
    expect({ fired: fired.length, stored: stored.size }).toEqual({ fired: 0, stored: 0 });
  });

  it('ends a held message when a newer retry of the same delivery supersedes it, and fires only the newer', async () => {
    const { s, stored, fired } = scheduler();
    running.push(s);
    s.onAssignment([0]);
    await until('loaded', () => (s as unknown as { loading: number }).loading === 0);
    const older = s.accept(retry('d5', { due_at: new Date(Date.now() + 20_000).toISOString() }), 0);
    await new Promise((r) => setTimeout(r, 5)); // a later arrival: the newer entry
    await Promise.all([older, s.accept(retry('d5'), 0)]);
    expect(fired.map((d) => d.target_id)).toEqual(['d5']);
    expect(fired[0].due_at.getTime()).toBeLessThan(Date.now());
    expect(stored.size).toBe(0);
  });

  it('puts entries back when firing fails and fires them once it works', async () => {
    const { s, fired } = scheduler({ failFirstFires: 2 });
    running.push(s);
    s.onAssignment([0]);
    await s.accept(retry('d3'), 0);
    await until('fired after failures', () => fired.length === 1);
    expect(fired.map((d) => d.target_id)).toEqual(['d3']);
  });

  it('reads the event id of a delivery whose retry message lacks it, and drops an unknown one', async () => {
    const { s, stored, fired } = scheduler({ deliveries: { d4: 'ev4' } });
    running.push(s);
    s.onAssignment([0]);
    await s.accept(retry('d4', { event_id: undefined }), 0);
    await s.accept(retry('gone', { event_id: undefined }), 0);
    await until('fired', () => fired.length === 1);
    expect(fired[0]).toMatchObject({ target_id: 'd4', event_id: 'ev4' });
    expect([...stored.values()].map((d) => d.target_id)).not.toContain('gone');
  });
});
