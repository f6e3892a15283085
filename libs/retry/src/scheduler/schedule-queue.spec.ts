import { ScheduleQueue, type QueuedEntry } from './schedule-queue';

const entry = (id: string, key: string, dueMs: number, createdMs = 0, shard = 's/0'): QueuedEntry => ({
  id,
  key,
  shard,
  dueMs,
  createdMs,
  value: null,
});

describe('ScheduleQueue', () => {
  it('pops only due entries, earliest first', () => {
    const q = new ScheduleQueue();
    [50, 10, 40, 20, 30].forEach((due, i) => q.add(entry(`e${i}`, `k${i}`, due)));
    expect(q.popDue(35, 10).map((e) => e.dueMs)).toEqual([10, 20, 30]);
    expect(q.nextDueMs()).toBe(40);
    expect(q.size).toBe(2);
  });

  it('respects the batch limit', () => {
    const q = new ScheduleQueue();
    for (let i = 0; i < 10; i++) q.add(entry(`e${i}`, `k${i}`, i));
    expect(q.popDue(100, 4)).toHaveLength(4);
    expect(q.size).toBe(6);
  });

  it('keeps one live entry per key: a later retry message supersedes the earlier one', () => {
    const q = new ScheduleQueue();
    q.add(entry('a', 'k', 10, 1));
    const out = q.add(entry('b', 'k', 500, 2));
    expect(out).toEqual({ kind: 'queued', superseded: expect.objectContaining({ id: 'a' }) });
    expect(q.popDue(100, 10)).toEqual([]);
    expect(q.popDue(500, 10).map((e) => e.id)).toEqual(['b']);
  });

  it('ignores the same entry twice and an entry older than the live one', () => {
    const q = new ScheduleQueue();
    q.add(entry('b', 'k', 10, 2));
    expect(q.add(entry('b', 'k', 10, 2))).toEqual({ kind: 'already_queued' });
    expect(q.add(entry('a', 'k', 5, 1))).toEqual({ kind: 'stale' });
    expect(q.popDue(100, 10).map((e) => e.id)).toEqual(['b']);
  });

  it('drops entries of shards the replica no longer owns', () => {
    const q = new ScheduleQueue();
    q.add(entry('a', 'ka', 1, 0, 's/0'));
    q.add(entry('b', 'kb', 2, 0, 's/1'));
    expect(q.retainShards((s) => s === 's/1')).toBe(1);
    expect(q.popDue(10, 10).map((e) => e.id)).toEqual(['b']);
  });

  it('stays ordered under many random inserts', () => {
    const q = new ScheduleQueue();
    const dues = Array.from({ length: 500 }, () => Math.floor(Math.random() * 1000));
    dues.forEach((d, i) => q.add(entry(`e${i}`, `k${i}`, d)));
    const popped = q.popDue(1000, 1000).map((e) => e.dueMs);
    expect(popped).toEqual([...dues].sort((a, b) => a - b));
  });
});
